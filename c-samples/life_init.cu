// life_init: which runtime calls create (activate) the primary context and
// which make it current, measured, not assumed.
//
// Part 1, one fresh process per call: the program calls cuInit itself (so
// it can look), then makes exactly one runtime call, and reports device 0's
// primary context (active? flags) and what is current on the thread.
// Part 2, one process, a context already active: each call runs on a new
// thread, which reports what is current on it afterwards.
//
// Measured under NVIDIA's CUDA 13 runtime on the H200 (and so EXPECTed):
// cudaGetDeviceCount and cudaRuntimeGetVersion leave the primary context
// inactive, cudaSetDeviceFlags activates it, cudaSetDevice makes it
// current; on a new thread cudaGetDevice binds nothing and cudaMalloc binds
// the primary context. The other lines are printed for the comparison.
// Links with -lcuda (the driver API, to look).
#include <cuda.h>
#define SAMPLE_NAME "life_init"
#include "common/check.h"
#include "common/life.h"
#include <string>
#include <thread>

__global__ void touch(int *p) {
  if (p) p[threadIdx.x] = threadIdx.x;
}

__device__ int d_value = 3;

// One runtime call by name; returns its error.
static cudaError_t one_call(const char *name) {
  int v = 0;
  size_t a = 0, b = 0;
  void *p = NULL;
  unsigned int flags = 0;
  cudaDeviceProp prop;
#define IS(n) (strcmp(name, n) == 0)
  if (IS("nothing")) return cudaSuccess;
  if (IS("cudaRuntimeGetVersion")) return cudaRuntimeGetVersion(&v);
  if (IS("cudaDriverGetVersion")) return cudaDriverGetVersion(&v);
  if (IS("cudaGetDeviceCount")) return cudaGetDeviceCount(&v);
  if (IS("cudaGetDevice")) return cudaGetDevice(&v);
  if (IS("cudaGetDeviceProperties")) return cudaGetDeviceProperties(&prop, 0);
  if (IS("cudaDeviceGetAttribute"))
    return cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0);
  if (IS("cudaGetLastError")) return cudaGetLastError();
  if (IS("cudaPeekAtLastError")) return cudaPeekAtLastError();
  if (IS("cudaGetDeviceFlags")) return cudaGetDeviceFlags(&flags);
  if (IS("cudaSetValidDevices")) {
    int list[1] = {0};
    return cudaSetValidDevices(list, 1);
  }
  if (IS("cudaChooseDevice")) {
    memset(&prop, 0, sizeof prop);
    prop.major = 9;
    return cudaChooseDevice(&v, &prop);
  }
  if (IS("cudaSetDeviceFlags")) return cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
  if (IS("cudaInitDevice")) return cudaInitDevice(0, 0, 0);
  if (IS("cudaSetDevice")) return cudaSetDevice(0);
  if (IS("cudaFree(0)")) return cudaFree(0);
  if (IS("cudaMalloc")) return cudaMalloc(&p, 256);
  if (IS("cudaMallocHost")) return cudaMallocHost(&p, 256);
  if (IS("cudaMemGetInfo")) return cudaMemGetInfo(&a, &b);
  if (IS("cudaDeviceSynchronize")) return cudaDeviceSynchronize();
  if (IS("cudaDeviceGetLimit")) return cudaDeviceGetLimit(&a, cudaLimitStackSize);
  if (IS("cudaDeviceGetStreamPriorityRange"))
    return cudaDeviceGetStreamPriorityRange(&v, (int *)&flags);
  if (IS("cudaStreamCreate")) {
    cudaStream_t s;
    return cudaStreamCreate(&s);
  }
  if (IS("cudaEventCreate")) {
    cudaEvent_t e;
    return cudaEventCreate(&e);
  }
  if (IS("cudaStreamSynchronize(0)")) return cudaStreamSynchronize(0);
  if (IS("cudaPointerGetAttributes")) {
    cudaPointerAttributes at;
    return cudaPointerGetAttributes(&at, &v);
  }
  if (IS("cudaFuncGetAttributes")) {
    cudaFuncAttributes fa;
    return cudaFuncGetAttributes(&fa, touch);
  }
  if (IS("cudaMemcpyFromSymbol")) return cudaMemcpyFromSymbol(&v, d_value, sizeof v);
  if (IS("launch")) {
    touch<<<1, 1>>>(NULL);
    return cudaGetLastError();
  }
  if (IS("cudaDeviceReset")) return cudaDeviceReset();
#undef IS
  sample_fail("unknown call %s", name);
  return cudaErrorUnknown;
}

static const char *const kCalls[] = {
    "nothing", "cudaRuntimeGetVersion", "cudaDriverGetVersion", "cudaGetDeviceCount",
    "cudaGetDevice", "cudaGetDeviceProperties", "cudaDeviceGetAttribute",
    "cudaGetLastError", "cudaPeekAtLastError", "cudaGetDeviceFlags", "cudaSetValidDevices",
    "cudaChooseDevice", "cudaDeviceReset", "cudaSetDeviceFlags", "cudaInitDevice",
    "cudaSetDevice", "cudaFree(0)", "cudaMalloc", "cudaMallocHost", "cudaMemGetInfo",
    "cudaDeviceSynchronize", "cudaDeviceGetLimit", "cudaDeviceGetStreamPriorityRange",
    "cudaStreamCreate", "cudaEventCreate", "cudaStreamSynchronize(0)",
    "cudaPointerGetAttributes", "cudaFuncGetAttributes", "cudaMemcpyFromSymbol", "launch",
};
static const int kNumCalls = sizeof kCalls / sizeof kCalls[0];

// Child: one call in a fresh process. Exit 0, or 1 when a measured fact
// does not hold (the parent fails then).
static int child(const char *name) {
  CKD(cuInit(0));
  int start = life_active();
  cudaError_t e = one_call(name);
  char p[64];
  life_primary(p, sizeof p);
  printf("%s -> %s; primary %s; current %s\n", name, cudaGetErrorName(e), p, life_current());
  fflush(stdout);
  SOFT(start == 0, "primary context active before any runtime call");
  int active = life_active();
  const char *cur = life_current();
  if (!strcmp(name, "cudaGetDeviceCount") || !strcmp(name, "cudaRuntimeGetVersion"))
    SOFT(active == 0, "%s activated the primary context", name);
  if (!strcmp(name, "cudaSetDeviceFlags"))
    SOFT(active == 1, "cudaSetDeviceFlags did not activate the primary context");
  if (!strcmp(name, "cudaSetDevice") || !strcmp(name, "cudaMalloc"))
    SOFT(active == 1 && !strcmp(cur, "primary"), "%s: primary not current", name);
  return life_bad ? 1 : 0;
}

// Part 2: `name` on a new thread; what is current there afterwards.
static void on_new_thread(const char *name, std::string *out) {
  std::thread t([name, out] {
    cudaError_t e = one_call(name);
    *out = std::string(name) + " -> " + cudaGetErrorName(e) + "; current " + life_current();
  });
  t.join();
}

int main(int argc, char **argv) {
  if (argc > 1) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    return child(argv[1]);
  }
  printf("part 1: one runtime call in a fresh process (the program called cuInit only)\n");
  int bad = 0;
  for (int i = 0; i < kNumCalls; i++) {
    char title[96];
    snprintf(title, sizeof title, "fresh process: %s", kCalls[i]);
    int rc = life_child(title, kCalls[i], NULL, NULL, 60);
    if (rc != 0) {
      printf("  (child exit %d)\n", rc);
      bad++;
    }
  }

  printf("part 2: each call on a new thread; device 0's primary context already active\n");
  CKD(cuInit(0));
  CK(cudaFree(0));
  life_state("main after cudaFree(0)");
  const char *const thread_calls[] = {
      "cudaGetDevice", "cudaGetDeviceCount", "cudaGetLastError", "cudaGetDeviceProperties",
      "cudaGetDeviceFlags", "cudaSetDeviceFlags", "cudaChooseDevice", "cudaInitDevice",
      "cudaSetDevice", "cudaFree(0)", "cudaMalloc", "cudaMallocHost", "cudaMemGetInfo",
      "cudaDeviceSynchronize", "cudaDeviceGetLimit", "cudaStreamCreate", "cudaEventCreate",
      "cudaStreamSynchronize(0)", "cudaPointerGetAttributes", "cudaFuncGetAttributes",
      "cudaMemcpyFromSymbol", "launch",
  };
  for (const char *name : thread_calls) {
    std::string line;
    on_new_thread(name, &line);
    printf("new thread: %s\n", line.c_str());
    if (!strcmp(name, "cudaGetDevice"))
      SOFT(line.find("current none") != std::string::npos, "cudaGetDevice bound a context");
    if (!strcmp(name, "cudaMalloc"))
      SOFT(line.find("current primary") != std::string::npos, "cudaMalloc bound no primary");
  }
  life_state("main at the end");
  SOFT(bad == 0, "%d fresh-process check(s) failed", bad);
  return life_finish();
}
