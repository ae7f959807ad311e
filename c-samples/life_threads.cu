// life_threads: what belongs to a thread.
//
// Documented, and EXPECTed: a new thread starts on device 0 whatever
// another thread chose; a failed cudaSetDevice leaves the device as it
// was; the last error is per thread (one thread's error is not another's,
// cudaGetLastError resets only the caller's); a context made current on
// one thread is not current on another, and that other thread's runtime
// calls bind the primary context instead; a context may be current on two
// threads at once; four threads launching at once each get their results.
// Links with -lcuda.
#include <cuda.h>
#define SAMPLE_NAME "life_threads"
#include "common/check.h"
#include "common/life.h"
#include <string>
#include <thread>
#include <vector>

__global__ void mark(int *p, int v) { p[threadIdx.x] = v + threadIdx.x; }

static const char *owner(void *p) {
  CUcontext c = NULL;
  CUresult r = cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)p);
  if (r != CUDA_SUCCESS) return life_drv_name(r);
  return life_kind(c);
}

int main() {
  CKD(cuInit(0));
  int n = 0;
  CK(cudaGetDeviceCount(&n));

  printf("[devices per thread]\n");
  CK(cudaSetDevice(n - 1));
  int dev = -1;
  std::thread([&dev] { cudaGetDevice(&dev); }).join();
  printf("main chose the last device; a new thread starts on device %d\n", dev);
  SOFT(dev == 0, "new thread on device %d", dev);
  std::thread([&dev, n] {
    cudaError_t e = cudaSetDevice(n + 7);
    cudaGetDevice(&dev);
    printf("thread: cudaSetDevice(count + 7) -> %s; device still %d\n", cudaGetErrorName(e), dev);
    printf("thread: its last error -> %s\n", cudaGetErrorName(cudaGetLastError()));
  }).join();
  SOFT(dev == 0, "failed cudaSetDevice changed the device to %d", dev);
  CK(cudaSetDevice(0));

  printf("[the last error is per thread]\n");
  cudaError_t e = cudaSetDevice(n + 7);
  printf("main: cudaSetDevice(count + 7) -> %s\n", cudaGetErrorName(e));
  std::thread([] {
    printf("thread: cudaPeekAtLastError -> %s\n", cudaGetErrorName(cudaPeekAtLastError()));
    void *p = NULL;
    printf("thread: cudaMalloc(1 << 60) -> %s\n",
           cudaGetErrorName(cudaMalloc(&p, (size_t)1 << 60)));
    printf("thread: cudaGetLastError -> %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("thread: cudaGetLastError -> %s\n", cudaGetErrorName(cudaGetLastError()));
  }).join();
  cudaError_t mine = cudaPeekAtLastError();
  printf("main: cudaPeekAtLastError -> %s\n", cudaGetErrorName(mine));
  SOFT(mine == cudaErrorInvalidDevice, "main's last error is %s", cudaGetErrorName(mine));
  printf("main: cudaGetLastError -> %s\n", cudaGetErrorName(cudaGetLastError()));
  mine = cudaGetLastError();
  printf("main: cudaGetLastError -> %s\n", cudaGetErrorName(mine));
  SOFT(mine == cudaSuccess, "cudaGetLastError did not reset main's error");

  printf("[a context current on one thread only]\n");
  CUdevice cdev;
  CKD(cuDeviceGet(&cdev, 0));
  CKD(cuCtxCreate(&life_own_ctx, NULL, 0, cdev));
  printf("main: current %s\n", life_current());
  int *dm = NULL;
  CK(cudaMalloc(&dm, 64 * sizeof(int)));
  printf("main: cudaMalloc'd pointer belongs to %s\n", owner(dm));
  SOFT(!strcmp(owner(dm), "own"), "main's allocation not in its own context");
  std::string other_owner;
  std::thread([&other_owner] {
    printf("thread: current before any call: %s\n", life_current());
    int *dt = NULL;
    CK(cudaMalloc(&dt, 64 * sizeof(int)));
    other_owner = owner(dt);
    printf("thread: cudaMalloc'd pointer belongs to %s; current %s\n", other_owner.c_str(),
           life_current());
    CK(cudaFree(dt));
  }).join();
  SOFT(other_owner == "primary", "the other thread's allocation is in %s", other_owner.c_str());
  std::thread([dm] {
    CKD(cuCtxPushCurrent(life_own_ctx));
    printf("thread: pushed main's context (current on two threads now): current %s\n",
           life_current());
    mark<<<1, 64>>>(dm, 1000);
    LIFE(cudaDeviceSynchronize());
    CUcontext back = NULL;
    CKD(cuCtxPopCurrent(&back));
  }).join();
  int h[64];
  CK(cudaMemcpy(h, dm, sizeof h, cudaMemcpyDeviceToHost));
  printf("main sees the thread's launch in its context: %s\n", h[63] == 1063 ? "yes" : "no");
  SOFT(h[63] == 1063, "h[63] = %d", h[63]);
  CK(cudaFree(dm));
  CUcontext popped = NULL;
  CKD(cuCtxPopCurrent(&popped));
  CKD(cuCtxDestroy(life_own_ctx));
  life_own_ctx = NULL;
  printf("main after destroying its context: current %s\n", life_current());

  printf("[four threads launch at once]\n");
  std::vector<std::thread> th;
  std::vector<std::string> res(4);
  for (int t = 0; t < 4; t++)
    th.emplace_back([t, &res] {
      int *d = NULL, out[32];
      cudaStream_t s;
      cudaError_t e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
      if (e == cudaSuccess) e = cudaMalloc(&d, sizeof out);
      for (int i = 0; i < 50 && e == cudaSuccess; i++) {
        mark<<<1, 32, 0, s>>>(d, t * 100 + i);
        e = cudaGetLastError();
      }
      if (e == cudaSuccess) e = cudaMemcpyAsync(out, d, sizeof out, cudaMemcpyDeviceToHost, s);
      if (e == cudaSuccess) e = cudaStreamSynchronize(s);
      char buf[128];
      snprintf(buf, sizeof buf, "thread %d: %s, out[31] = %d, current %s", t,
               cudaGetErrorName(e), e == cudaSuccess ? out[31] : -1, life_current());
      res[t] = buf;
      cudaFree(d);
      cudaStreamDestroy(s);
    });
  for (auto &x : th) x.join();
  for (int t = 0; t < 4; t++) {
    printf("%s\n", res[t].c_str());
    char want[64];
    snprintf(want, sizeof want, "cudaSuccess, out[31] = %d,", t * 100 + 49 + 31);
    SOFT(res[t].find(want) != std::string::npos, "thread %d wrong", t);
  }
  return life_finish();
}
