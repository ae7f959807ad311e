// Start-up with 2,000 small kernels in this one file (one fatbin, one
// module): the first cudaFree(0), then the first launch of one kernel
// (under lazy loading the module, or at least that kernel, is loaded here),
// then the first launch of a second kernel of the same module. Run under
// CUDA_MODULE_LOADING=LAZY (the default) and EAGER; the names carry the
// mode. One sample per process.
#include "bench.h"
#include "kernels.h"

// 2,000 distinct kernels: k_000 .. k_999 and k_1000 .. k_1999.
#define BENCH_KERNEL(n)                                                        \
  __global__ void BENCH_CAT2(k_, n)(int *p) {                                  \
    if (p) p[threadIdx.x] = (int)threadIdx.x + 1;                              \
  }
BENCH_K1000()
BENCH_K1000(1)

int main(int argc, char **argv) {
  bench_stdout();
  const char *env = getenv("CUDA_MODULE_LOADING");
  std::string mode = (env && *env) ? env : "LAZY";
  for (auto &c : mode) c = (char)tolower((unsigned char)c);
  std::string p = "startup.k2000_" + mode + ".";
  if (argc > 1 && strcmp(argv[1], "--list") == 0) {  // this mode's names
    bench_decl((p + "cudaFree0").c_str(), "ms");
    bench_decl((p + "first_launch").c_str(), "ms");
    bench_decl((p + "first_launch+sync").c_str(), "ms");
    bench_decl((p + "second_kernel_launch").c_str(), "ms");
    return 0;
  }
  double t0 = bench_now_ns();
  cudaError_t e = cudaFree(0);
  double t1 = bench_now_ns();
  if (e != cudaSuccess) {
    bench_info_libcudart("bench_lazy");
    bench_error((p + "cudaFree0").c_str(), (int)e, "cudaFree(0)");
    return 3;
  }
  k_1234<<<1, 1>>>(nullptr);
  e = cudaGetLastError();
  double t2 = bench_now_ns();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  double t3 = bench_now_ns();
  cudaError_t e2 = cudaSuccess;
  double t4 = t3;
  if (e == cudaSuccess) {
    k_567<<<1, 1>>>(nullptr);
    e2 = cudaGetLastError();
    t4 = bench_now_ns();
    if (e2 == cudaSuccess) e2 = cudaDeviceSynchronize();
  }
  bench_info_libcudart("bench_lazy");
  printf("INFO bench_lazy CUDA_MODULE_LOADING=%s\n", env ? env : "(unset)");
  bench_value((p + "cudaFree0").c_str(), (t1 - t0) / 1e6, "ms");
  if (e != cudaSuccess) {
    bench_error((p + "first_launch").c_str(), (int)e, "launch of k_1234");
    return 5;
  }
  bench_value((p + "first_launch").c_str(), (t2 - t1) / 1e6, "ms");
  bench_value((p + "first_launch+sync").c_str(), (t3 - t1) / 1e6, "ms");
  if (e2 != cudaSuccess) {
    bench_error((p + "second_kernel_launch").c_str(), (int)e2, "launch of k_567");
    return 5;
  }
  bench_value((p + "second_kernel_launch").c_str(), (t4 - t3) / 1e6, "ms");
  return 0;
}
