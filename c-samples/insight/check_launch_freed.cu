// CUDART_CHECK: a kernel launched with a pointer argument into memory that
// was already freed. The kernel is given n = 0 so it touches nothing: the
// check looks at the argument values at the launch, and the run stays free
// of device faults (and of sticky errors) under any runtime.
// Expected with CUDART_CHECK=1: one "points into freed memory" report naming
// cudaMalloc; the same launch before the cudaFree must not report.
#include "insight.h"

__global__ void fill(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}

int main() {
  int *d = NULL;
  const int n = 1 << 16;
  RC(cudaMalloc((void **)&d, n * sizeof(int)));
  fill<<<n / 256, 256>>>(d, n);  // fine
  RC(cudaGetLastError());
  RC(cudaDeviceSynchronize());
  RC(cudaFree(d));
  fill<<<1, 256>>>(d + 16, 0);  // the mistake: an interior pointer into freed memory
  RC(cudaGetLastError());
  RC(cudaDeviceSynchronize());
  printf("DONE check_launch_freed\n");
  return 0;
}
