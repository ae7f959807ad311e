// probe_first: the first launch of a program's first kernel, in two steps
// (issue 8): cudaFuncGetAttributes(k0) first, which makes the runtime load
// the module and the kernel, then the launch. Under each runtime, it shows
// how the first-launch time divides between loading and launching.
// "PROBE first <step> <microseconds>" per step. One sample per process.
//
//   probe_first            as above
//   probe_first raw FATBIN after the runtime's cudaFree(0), the driver alone
//                          loads FATBIN (k0.fatbin) as a library and
//                          launches its kernel ("PROBE first_raw ..."): is
//                          the context as a runtime leaves it after its
//                          start-up quicker to take a first launch (did
//                          the runtime do work there that a first launch
//                          would otherwise pay)?
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include "probe.h"

__global__ void k0() {}

static int raw(const char *fatbin_path) {
  void *image = slurp(fatbin_path);
  void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!image || !drv) {
    printf("probe_first: no image or no driver\n");
    return 2;
  }
  auto load = (CUresult(*)(H *, const void *, void *, void **, unsigned, void *, void **,
                           unsigned))dlsym(drv, "cuLibraryLoadData");
  auto get = (CUresult(*)(H *, H, const char *))dlsym(drv, "cuLibraryGetKernel");
  auto launch = (CUresult(*)(H, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, H, void **, void **))dlsym(drv, "cuLaunchKernel");
  auto sync = (CUresult(*)())dlsym(drv, "cuCtxSynchronize");
  if (!load || !get || !launch || !sync) {
    printf("probe_first: driver entry points missing\n");
    return 2;
  }
  if (cudaFree(0) != cudaSuccess) return 3;
  H lib = nullptr, k = nullptr;
  double t0 = now_us();
  CUresult r1 = load(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
  double t1 = now_us();
  CUresult r2 = r1 ? r1 : get(&k, lib, "_Z2k0v");
  double t2 = now_us();
  CUresult r3 = r2 ? r2 : launch(k, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr);
  double t3 = now_us();
  CUresult r4 = sync();
  printf("PROBE first_raw cuLibraryLoadData %.2f\nPROBE first_raw cuLibraryGetKernel %.2f\n"
         "PROBE first_raw cuLaunchKernel %.2f\nPROBE first_raw total %.2f\n",
         t1 - t0, t2 - t1, t3 - t2, t3 - t0);
  if (r1 || r2 || r3 || r4) {
    printf("probe_first: driver errors %d %d %d %d\n", r1, r2, r3, r4);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "raw")) return raw(argv[2]);
  if (cudaFree(0) != cudaSuccess) return 3;
  double t0 = now_us();
  cudaFuncAttributes a;
  cudaError_t e1 = cudaFuncGetAttributes(&a, k0);
  double t1 = now_us();
  k0<<<1, 1>>>();
  cudaError_t e2 = cudaGetLastError();
  double t2 = now_us();
  k0<<<1, 1>>>();
  double t3 = now_us();
  cudaError_t e3 = cudaDeviceSynchronize();
  printf("PROBE first cudaFuncGetAttributes %.2f\nPROBE first launch %.2f\n"
         "PROBE first second_launch %.2f\n",
         t1 - t0, t2 - t1, t3 - t2);
  if (e1 || e2 || e3) {
    printf("probe_first: errors %d %d %d\n", (int)e1, (int)e2, (int)e3);
    return 1;
  }
  return 0;
}
