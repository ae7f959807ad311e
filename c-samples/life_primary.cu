// life_primary: the runtime's reference on device 0's primary context.
// After each step: cuDevicePrimaryCtxGetState (active, flags) and what is
// current. The program takes and drops references of its own with
// cuDevicePrimaryCtxRetain/Release, which tells how many the runtime holds:
// at the end it drops ONE reference more than it took, and if the primary
// context becomes inactive, the runtime held exactly one (documented: the
// runtime retains the primary context once, whatever the number of threads
// and calls, and cudaDeviceReset gives it up). The runtime calls after that
// are printed for the comparison. Links with -lcuda.
#include <cuda.h>
#define SAMPLE_NAME "life_primary"
#include "common/check.h"
#include "common/life.h"
#include <thread>
#include <vector>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

static void work(const char *who) {
  int *d = NULL;
  cudaError_t e = cudaMalloc(&d, 32 * sizeof(int));
  if (e == cudaSuccess) {
    fill<<<1, 32>>>(d, 7);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaFree(d);
  printf("%s: malloc/launch/free -> %s\n", who, cudaGetErrorName(e));
  fflush(stdout);
}

int main() {
  CKD(cuInit(0));
  CUdevice dev;
  CKD(cuDeviceGet(&dev, 0));
  life_state("start");
  int n = 0;
  CK(cudaGetDeviceCount(&n));
  life_state("after cudaGetDeviceCount");
  CK(cudaSetDevice(0));
  life_state("after cudaSetDevice(0)");
  SOFT(life_active() == 1, "cudaSetDevice did not activate the primary context");
  work("main");
  std::vector<std::thread> th;
  for (int t = 0; t < 4; t++) th.emplace_back([] { work("a thread"); });
  for (auto &x : th) x.join();
  life_state("after 4 threads did work");

  printf("[the program's own reference]\n");
  CUcontext p = NULL, cur = NULL;
  CKD(cuDevicePrimaryCtxRetain(&p, dev));
  CKD(cuCtxGetCurrent(&cur));
  printf("cuDevicePrimaryCtxRetain gives the context current on main: %s\n",
         p == cur ? "yes" : "no");
  CKD(cuDevicePrimaryCtxRelease(dev));
  life_state("after the program's retain + release");
  SOFT(life_active() == 1, "the runtime's reference is gone");

  printf("[cudaDeviceReset]\n");
  LIFE(cudaDeviceReset());
  life_state("after cudaDeviceReset");
  SOFT(life_active() == 0, "primary context still active after cudaDeviceReset");
  work("main after the reset");
  life_state("after new work");

  printf("[cudaDeviceReset while the program holds a reference too]\n");
  CKD(cuDevicePrimaryCtxRetain(&p, dev));
  life_state("program retained");
  LIFE(cudaDeviceReset());
  life_state("after cudaDeviceReset");
  CUresult r = cuDevicePrimaryCtxRelease(dev);
  printf("program's cuDevicePrimaryCtxRelease -> %s\n", life_drv_name(r));
  life_state("after the program's release");
  work("main after that");
  life_state("after new work");

  printf("[how many references does the runtime hold?]\n");
  std::thread([] { work("one more thread"); }).join();
  r = cuDevicePrimaryCtxRelease(dev);
  printf("one release more than the program took -> %s\n", life_drv_name(r));
  int active = life_active();
  printf("the runtime held exactly one reference: %s\n", active == 0 ? "yes" : "no");
  SOFT(active == 0, "the runtime holds more than one reference");
  life_state("after it");
  printf("[runtime calls after the program took the runtime's reference away]\n");
  void *q = NULL;
  LIFE(cudaMalloc(&q, 16));
  LIFE(cudaGetLastError());
  life_state("after cudaMalloc");
  LIFE(cudaDeviceReset());
  LIFE(cudaMalloc(&q, 16));
  life_state("after cudaDeviceReset + cudaMalloc");
  work("main at the end");
  return life_finish();
}
