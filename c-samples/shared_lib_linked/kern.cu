// libkern.so for shared_lib_linked: kernels, a __device__ variable and
// host wrappers, built with -shared -Xcompiler -fPIC -cudart shared.
#include <cuda_runtime.h>

__device__ float kern_bias = 0.25f;

__global__ void kern_saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i] + kern_bias;
}

__global__ void kern_iota(int *out, int n, int start) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = start + i;
}

extern "C" int kern_run_saxpy(float a, const float *x, float *y, int n) {
  kern_saxpy<<<(n + 255) / 256, 256>>>(a, x, y, n);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  return (int)e;
}

extern "C" int kern_run_iota(int *out, int n, int start, cudaStream_t s) {
  kern_iota<<<(n + 127) / 128, 128, 0, s>>>(out, n, start);
  return (int)cudaGetLastError();
}

extern "C" int kern_set_bias(float b) {
  return (int)cudaMemcpyToSymbol(kern_bias, &b, sizeof(float));
}
