// Experiment (issue 8): does the driver's cuLaunchKernel cost more for a
// CUkernel (a library's context-independent handle, what our runtime
// launches) than for a CUfunction (one context's function, what
// bench_launch's raw counterpart launches)? One process, the variants
// interleaved repetition by repetition, so the machine's drift cancels.
//   nvcc -O2 -cudart shared -arch=sm_90 kernel_vs_function.cu -o kvf -ldl
//   LD_LIBRARY_PATH=<runtime dir> ./kvf
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

__global__ void k0() {}

int main() {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  auto launch = (decltype(&cuLaunchKernel))dlsym(h, "cuLaunchKernel");
  if (!launch) return 2;
  cudaFree(0);
  void *fn = nullptr;
  cudaKernel_t kh = nullptr;
  int e1 = cudaGetFuncBySymbol((cudaFunction_t *)&fn, (const void *)k0);
  int e2 = cudaGetKernel(&kh, (const void *)k0);
  printf("cudaGetFuncBySymbol %d %p, cudaGetKernel %d %p\n", e1, fn, e2, (void *)kh);
  const int N = 20000, REPS = 15;
  const char *names[4] = {"raw CUfunction", "raw CUkernel (cudaGetKernel)", "cudaLaunchKernel", "<<<>>>"};
  std::vector<double> t[4];
  auto run = [&](int v) {
    int err = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < N; i++) {
      switch (v) {
        case 0: err |= launch((CUfunction)fn, 1, 1, 1, 1, 1, 1, 0, 0, nullptr, nullptr); break;
        case 1: err |= launch((CUfunction)kh, 1, 1, 1, 1, 1, 1, 0, 0, nullptr, nullptr); break;
        case 2: err |= cudaLaunchKernel((const void *)k0, dim3(1), dim3(1), nullptr, 0, 0); break;
        case 3: k0<<<1, 1>>>(); break;
      }
    }
    auto t1 = std::chrono::steady_clock::now();
    cudaDeviceSynchronize();
    if (err) printf("variant %d: error %d\n", v, err);
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / N;
  };
  for (int v = 0; v < 4; v++) run(v);  // warm-up
  for (int r = 0; r < REPS; r++)
    for (int k = 0; k < 4; k++) {
      int v = (r % 2) ? 3 - k : k;
      t[v].push_back(run(v));
    }
  for (int v = 0; v < 4; v++) {
    std::vector<double> s = t[v];
    std::sort(s.begin(), s.end());
    std::vector<double> ratio;
    for (int r = 0; r < REPS; r++) ratio.push_back(t[v][r] / t[0][r]);
    std::sort(ratio.begin(), ratio.end());
    printf("%-30s median %8.1f ns/launch  min %8.1f  / raw CUfunction (median of pairs) %.3f\n", names[v],
           s[REPS / 2], s[0], ratio[REPS / 2]);
  }
  return cudaGetLastError() != cudaSuccess;
}
