// Kernels of a shared library (-shared -Xcompiler -fPIC).
__device__ float lib_bias = 1.5f;
__global__ void lib_axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i] + lib_bias;
}
extern "C" void lib_launch(float a, const float *x, float *y, int n) {
  lib_axpy<<<(n + 127) / 128, 128>>>(a, x, y, n);
}
