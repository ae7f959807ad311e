// multi_file_rdc: two .cu files built with -rdc=true. A kernel here calls
// a __device__ function from helpers.cu; a kernel there reads a __device__
// variable defined here; symbols of both files are reached from the host.
#define SAMPLE_NAME "multi_file_rdc"
#include "common/check.h"

extern __device__ int helper_scale(int x, int k);
extern __device__ int rdc_calls;
extern __device__ int rdc_table[8];
__device__ int main_bias = 1000;

void launch_helpers_kernel(int *out, int n);

__global__ void main_kernel(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = helper_scale(i, 3);
}

static const int fib[8] = {1, 1, 2, 3, 5, 8, 13, 21};

int main() {
  const int n = 1000;
  int *d, h[n];
  CK(cudaMalloc(&d, n * sizeof(int)));

  main_kernel<<<(n + 255) / 256, 256>>>(d, n);
  CK_LAUNCH();
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(h[i] == 3 * i + fib[i & 7], "main_kernel out[%d] = %d", i, h[i]);
  printf("main_kernel -> helper_scale: ok (out[999]=%d)\n", h[n - 1]);

  launch_helpers_kernel(d, n);
  CK_LAUNCH();
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(h[i] == 2 * i + fib[i & 7] + 1000, "helpers_kernel out[%d] = %d", i, h[i]);
  printf("helpers_kernel reads main_bias: ok (out[999]=%d)\n", h[n - 1]);

  // Variables of the other file, from the host.
  int calls = 0;
  CK(cudaMemcpyFromSymbol(&calls, rdc_calls, sizeof(int)));
  EXPECT(calls == 2 * n, "rdc_calls = %d", calls);
  int table[8];
  CK(cudaMemcpyFromSymbol(table, rdc_table, sizeof(table)));
  for (int i = 0; i < 8; i++) EXPECT(table[i] == fib[i], "rdc_table[%d] = %d", i, table[i]);
  int bias = -5;
  CK(cudaMemcpyToSymbol(main_bias, &bias, sizeof(int)));
  launch_helpers_kernel(d, n);
  CK_LAUNCH();
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  EXPECT(h[10] == 20 + fib[2] - 5, "after new bias out[10] = %d", h[10]);
  CK(cudaMemcpyFromSymbol(&calls, rdc_calls, sizeof(int)));
  EXPECT(calls == 3 * n, "rdc_calls = %d", calls);
  printf("rdc_calls=%d table[7]=%d new bias ok\n", calls, table[7]);

  CK(cudaFree(d));
  return sample_pass();
}
