// Experiment (issue 8): what a per-context function cache keyed by the
// context's id would cost and whether the id survives a primary-context
// reset. Driver calls through dlsym (the runtime under test is not in them).
//   nvcc -O2 -cudart shared -arch=sm_90 ctx_id.cu -o ctx_id -ldl
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

__global__ void k0() {}

#define SYM(name) auto p_##name = (decltype(&name))dlsym(h, #name)

int main() {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  SYM(cuCtxGetCurrent);
  SYM(cuCtxGetId);
  SYM(cuKernelGetFunction);
  SYM(cuDevicePrimaryCtxReset_v2);
  SYM(cuDevicePrimaryCtxRetain);
  SYM(cuDevicePrimaryCtxRelease_v2);
  SYM(cuCtxSetCurrent);
  SYM(cuLaunchKernel);
  if (!p_cuCtxGetId || !p_cuKernelGetFunction) { printf("missing symbols\n"); return 2; }
  cudaFree(0);
  CUcontext c = nullptr;
  p_cuCtxGetCurrent(&c);
  unsigned long long id = 0, id0 = 0;
  int r = p_cuCtxGetId(nullptr, &id0);
  printf("cuCtxGetId(NULL) -> %d id %llu (ctx %p)\n", r, id0, (void *)c);
  cudaKernel_t kh = nullptr;
  cudaGetKernel(&kh, (const void *)k0);
  CUfunction f = nullptr;
  r = p_cuKernelGetFunction(&f, (CUkernel)kh);
  printf("cuKernelGetFunction -> %d %p\n", r, (void *)f);

  const int N = 1000000, REPS = 9;
  std::vector<double> a, b;
  for (int rep = 0; rep < REPS; rep++) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < N; i++) p_cuCtxGetCurrent(&c);
    auto t1 = std::chrono::steady_clock::now();
    for (int i = 0; i < N; i++) p_cuCtxGetId(nullptr, &id);
    auto t2 = std::chrono::steady_clock::now();
    a.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / N);
    b.push_back(std::chrono::duration<double, std::nano>(t2 - t1).count() / N);
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  printf("cuCtxGetCurrent %.2f ns, cuCtxGetId(NULL) %.2f ns (medians of %d x %d)\n", a[REPS / 2],
         b[REPS / 2], REPS, N);

  // No context current: what does cuCtxGetId(NULL) answer?
  p_cuCtxSetCurrent(nullptr);
  r = p_cuCtxGetId(nullptr, &id);
  printf("no context current: cuCtxGetId(NULL) -> %d\n", r);
  r = p_cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, nullptr, nullptr);
  printf("no context current: cuLaunchKernel(CUfunction) -> %d\n", r);
  r = p_cuLaunchKernel((CUfunction)kh, 1, 1, 1, 1, 1, 1, 0, 0, nullptr, nullptr);
  printf("no context current: cuLaunchKernel(CUkernel) -> %d\n", r);
  p_cuCtxSetCurrent(c);

  // The primary context reset through the driver, behind the runtime.
  CUcontext c2 = nullptr;
  r = p_cuDevicePrimaryCtxReset_v2(0);
  printf("cuDevicePrimaryCtxReset -> %d\n", r);
  r = p_cuCtxGetId(nullptr, &id);
  printf("after reset, old handle still current: cuCtxGetId(NULL) -> %d id %llu\n", r, id);
  r = p_cuDevicePrimaryCtxRetain(&c2, 0);
  p_cuCtxSetCurrent(c2);
  r = p_cuCtxGetId(nullptr, &id);
  printf("retained again: ctx %p (before %p), cuCtxGetId -> %d id %llu (before %llu)\n", (void *)c2,
         (void *)c, r, id, id0);
  CUfunction f2 = nullptr;
  r = p_cuKernelGetFunction(&f2, (CUkernel)kh);
  printf("cuKernelGetFunction again -> %d %p (before %p)\n", r, (void *)f2, (void *)f);
  r = p_cuLaunchKernel(f2, 1, 1, 1, 1, 1, 1, 0, 0, nullptr, nullptr);
  printf("launch of the new function -> %d, sync %d\n", r, (int)cudaDeviceSynchronize());

  // cudaDeviceReset through the runtime, then the id.
  cudaDeviceReset();
  cudaFree(0);
  CUcontext c3 = nullptr;
  p_cuCtxGetCurrent(&c3);
  r = p_cuCtxGetId(nullptr, &id);
  printf("after cudaDeviceReset + cudaFree(0): ctx %p, id %llu (%d)\n", (void *)c3, id, r);
  p_cuDevicePrimaryCtxRelease_v2(0);
  return 0;
}
