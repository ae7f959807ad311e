// life_story: the life of a runtime-API program in order, told twice: by
// the program (what it can observe through the driver API: is device 0's
// primary context active, what is current on this thread, which context a
// pointer belongs to) and by the runtime's trace (run it with
// CUDART_TRACE=1 or CUDART_TRACE_JSON=file). docs/lifecycle.md quotes its
// trace from the H200. It answers, step by step: what happens before main,
// which call creates the context, how a cudaMalloc pointer belongs to it,
// how to get the context's handle and use it from the driver API and from
// another thread, when the module loads, what cudaDeviceReset undoes.
// EXPECTed: the documented behaviour of each step. Links with -lcuda.
#include <cuda.h>
#define SAMPLE_NAME "life_story"
#include "common/check.h"
#include "common/life.h"
#include <thread>

__device__ int counter = 10;

__global__ void add(int *p, int v) {
  p[threadIdx.x] += v;
  if (threadIdx.x == 0) counter += 1;
}

static int read_counter(void) {
  int v = -1;
  CK(cudaMemcpyFromSymbol(&v, counter, sizeof v));
  return v;
}

static const char *owner(CUdeviceptr p) {
  CUcontext c = NULL;
  CUresult r = cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, p);
  return r == CUDA_SUCCESS ? life_kind(c) : life_drv_name(r);
}

int main() {
  printf("1. before main, nvcc's constructor registered this file's fatbin (trace: registry)\n");
  CKD(cuInit(0));  // so the program can look through the driver API
  life_state("2. main starts");
  SOFT(life_active() == 0, "a context exists before the first runtime call");

  int n = 0;
  CK(cudaGetDeviceCount(&n));
  life_state("3. cudaGetDeviceCount (loads the driver, no context)");
  SOFT(life_active() == 0, "cudaGetDeviceCount created a context");

  int *d = NULL;
  CK(cudaMalloc(&d, 32 * sizeof(int)));
  CK(cudaMemset(d, 0, 32 * sizeof(int)));
  life_state("4. cudaMalloc (retains the primary context, makes it current)");
  SOFT(!strcmp(life_current(), "primary"), "cudaMalloc did not bind the primary context");
  printf("   the cudaMalloc pointer belongs to: %s\n", owner((CUdeviceptr)d));

  add<<<1, 32>>>(d, 1);
  CK_LAUNCH();
  printf("5. first launch (loads the module, resolves the kernel): counter = %d\n", read_counter());

  CUcontext ctx = NULL;
  CKD(cuCtxGetCurrent(&ctx));
  printf("6. cuCtxGetCurrent gives the runtime's context: %s\n", life_kind(ctx));
  CUdeviceptr dp = 0;
  CKD(cuMemAlloc(&dp, 32 * sizeof(int)));
  CKD(cuMemsetD32(dp, 7, 32));
  int h[32];
  CK(cudaMemcpy(h, (void *)dp, sizeof h, cudaMemcpyDeviceToHost));
  printf("   a cuMemAlloc pointer in it (%s) is usable by cudaMemcpy: h[0] = %d\n",
         owner(dp), h[0]);
  SOFT(h[0] == 7, "driver allocation not visible to the runtime");

  std::thread([] {
    printf("7. a new thread: current %s\n", life_current());
    int v = read_counter();
    printf("   its first runtime call binds the same primary context: current %s, counter = %d\n",
           life_current(), v);
    SOFT(v == 11, "the new thread sees counter = %d", v);
  }).join();
  std::thread([ctx, d] {
    CKD(cuCtxPushCurrent(ctx));
    printf("8. a thread that pushed the handle itself: current %s\n", life_current());
    add<<<1, 32>>>(d, 1);
    CK_LAUNCH();
    CUcontext popped = NULL;
    CKD(cuCtxPopCurrent(&popped));
  }).join();
  CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("   its launch ran in the same context: d[0] = %d, counter = %d\n", h[0], read_counter());
  CKD(cuMemFree(dp));

  CK(cudaDeviceReset());
  life_state("9. cudaDeviceReset (releases and resets the primary context)");
  SOFT(life_active() == 0, "the primary context is still active after cudaDeviceReset");
  int v = read_counter();
  life_state("10. the next call retains it again and reloads the module");
  printf("    counter = %d (its initial value again)\n", v);
  SOFT(v == 10, "counter = %d after the reset", v);
  printf("11. main returns: the runtime's exit handler releases the context, the fatbin is unregistered (trace)\n");
  return life_finish();
}
