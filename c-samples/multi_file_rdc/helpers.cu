// multi_file_rdc, second translation unit: __device__ functions and data
// used from main.cu across the device link, and a kernel of its own that
// main.cu launches through a host wrapper.
#define SAMPLE_NAME "multi_file_rdc"
#include "common/check.h"

__device__ int rdc_table[8] = {1, 1, 2, 3, 5, 8, 13, 21};
__device__ int rdc_calls;  // bumped by helper_scale, read from main.cu

__device__ int helper_scale(int x, int k) {
  atomicAdd(&rdc_calls, 1);
  return x * k + rdc_table[x & 7];
}

extern __device__ int main_bias;  // defined in main.cu

__global__ void helpers_kernel(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = helper_scale(i, 2) + main_bias;
}

void launch_helpers_kernel(int *out, int n) {
  helpers_kernel<<<(n + 127) / 128, 128>>>(out, n);
}
