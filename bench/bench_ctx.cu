// Start-up: the first runtime call of a process, cudaFree(0), which
// creates the context; then the first launch of a kernel (+ synchronize).
// One sample per process: bench-run.sh runs it several times (and times
// the whole process from the outside as well).
#include "bench.h"

__global__ void k0() {}

int main(int argc, char **argv) {
  bench_stdout();
  if (argc > 1 && strcmp(argv[1], "--list") == 0) {
    bench_decl("startup.cudaFree0", "ms");
    bench_decl("startup.first_launch", "ms");
    bench_decl("startup.first_launch+sync", "ms");
    return 0;
  }
  double t0 = bench_now_ns();
  cudaError_t e = cudaFree(0);
  double t1 = bench_now_ns();
  if (e != cudaSuccess) {
    bench_info_libcudart("bench_ctx");
    bench_error("startup.cudaFree0", (int)e, "cudaFree(0)");
    return 3;
  }
  k0<<<1, 1>>>();
  e = cudaGetLastError();
  double t2 = bench_now_ns();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  double t3 = bench_now_ns();
  bench_info_libcudart("bench_ctx");
  bench_value("startup.cudaFree0", (t1 - t0) / 1e6, "ms");
  if (e != cudaSuccess) {
    bench_error("startup.first_launch", (int)e, "launch");
    return 5;
  }
  bench_value("startup.first_launch", (t2 - t1) / 1e6, "ms");
  bench_value("startup.first_launch+sync", (t3 - t1) / 1e6, "ms");
  return 0;
}
