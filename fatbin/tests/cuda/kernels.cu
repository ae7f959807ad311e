// Test kernels for the fatbin crate: trivial on purpose (ptxas time).
#include <cstdio>

__device__ int dev_table[16];
__constant__ float coeffs[4];

__global__ void add(int *a, const int *b, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) a[i] += b[i] + dev_table[i & 15];
}

__global__ void scale(float *x, float s, double d, char c) {
  __shared__ float tile[64];
  tile[threadIdx.x & 63] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = tile[(threadIdx.x + 1) & 63] * s * coeffs[0] + d + c;
}

struct Big { int v[40]; };

__global__ void __launch_bounds__(128) big_param(Big b, int *out) {
  out[threadIdx.x] = b.v[threadIdx.x % 40];
}

int main() {
  add<<<1, 32>>>(nullptr, nullptr, 0);
  scale<<<1, 32>>>(nullptr, 1.0f, 2.0, 3);
  big_param<<<1, 32>>>(Big{}, nullptr);
  printf("%d\n", (int)cudaDeviceSynchronize());
  return 0;
}
