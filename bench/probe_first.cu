// probe_first: the first launch of a program's first kernel, in two steps
// (issue 8): cudaFuncGetAttributes(k0) first, which makes the runtime load
// the module and the kernel, then the launch. Under each runtime, it shows
// how the first-launch time divides between loading and launching.
// "PROBE first <step> <microseconds>" per step. One sample per process.
#include <cstdio>
#include <ctime>

__global__ void k0() {}

static double now_us() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main() {
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
