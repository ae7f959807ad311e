// error_sticky: a kernel that writes to an unmapped address corrupts the
// context: cudaDeviceSynchronize reports the fault, cudaGetLastError keeps
// returning it, later calls (cudaMalloc, cudaMemcpy, a launch) fail too.
// The error names are printed; stdout is compared with NVIDIA's runtime.
#define SAMPLE_NAME "error_sticky"
#include "common/check.h"

__global__ void good(int *p) { p[threadIdx.x] = threadIdx.x; }

__global__ void bad(int *p) {
  // An address in the first page, which is never mapped.
  int *wild = (int *)((unsigned long long)p & 0xF00ULL);
  wild[threadIdx.x] = 1;
}

int main() {
  int *d;
  CK(cudaMalloc(&d, 64 * sizeof(int)));
  good<<<1, 64>>>(d);
  CK_LAUNCH();
  printf("before the fault: ok\n");

  bad<<<1, 32>>>(d);
  // The launch itself is accepted; the fault may or may not have been
  // noticed already by the time we ask, so this is not printed.
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  printf("cudaDeviceSynchronize: %s\n", err_name(sync));
  EXPECT(sync != cudaSuccess, "the fault went unnoticed");
  EXPECT(launch == cudaSuccess || launch == sync, "the launch failed: %s", err_name(launch));

  cudaError_t g1 = cudaGetLastError(), g2 = cudaGetLastError();
  printf("cudaGetLastError twice: %s, %s\n", err_name(g1), err_name(g2));
  EXPECT(g1 == sync && g2 == sync, "error is not sticky");

  int *d2 = NULL;
  cudaError_t m = cudaMalloc(&d2, 256);
  printf("cudaMalloc after the fault: %s\n", err_name(m));
  EXPECT(m == sync, "cudaMalloc after the fault: %s", err_name(m));
  int h[4];
  cudaError_t c = cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("cudaMemcpy after the fault: %s\n", err_name(c));
  EXPECT(c == sync, "cudaMemcpy after the fault: %s", err_name(c));
  good<<<1, 64>>>(d);
  cudaError_t l = cudaGetLastError();
  printf("launch after the fault: %s\n", err_name(l));
  EXPECT(l == sync, "launch after the fault: %s", err_name(l));
  cudaError_t p = cudaPeekAtLastError();
  printf("cudaPeekAtLastError: %s\n", err_name(p));
  EXPECT(p == sync, "peek: %s", err_name(p));
  return sample_pass();
}
