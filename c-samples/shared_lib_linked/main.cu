// shared_lib_linked: an executable linked against libkern.so (rpath
// $ORIGIN); both carry kernels, so two images register from two ELF files.
// The executable allocates, the library launches on those buffers.
#define SAMPLE_NAME "shared_lib_linked"
#include "common/check.h"

extern "C" int kern_run_saxpy(float a, const float *x, float *y, int n);
extern "C" int kern_run_iota(int *out, int n, int start, cudaStream_t s);
extern "C" int kern_set_bias(float b);

__global__ void main_double(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2;
}

int main() {
  const int n = 5000;
  float hx[n], hy[n];
  for (int i = 0; i < n; i++) {
    hx[i] = (float)(i % 100);
    hy[i] = 1.0f;
  }
  float *x, *y;
  CK(cudaMalloc(&x, sizeof(hx)));
  CK(cudaMalloc(&y, sizeof(hy)));
  CK(cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(y, hy, sizeof(hy), cudaMemcpyHostToDevice));
  CK((cudaError_t)kern_run_saxpy(2.0f, x, y, n));
  CK(cudaMemcpy(hy, y, sizeof(hy), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(hy[i] == 2.0f * (float)(i % 100) + 1.25f, "saxpy y[%d] = %g", i, hy[i]);
  printf("library saxpy: y[99]=%g\n", hy[99]);

  CK((cudaError_t)kern_set_bias(-1.0f));
  CK((cudaError_t)kern_run_saxpy(1.0f, x, y, n));
  CK(cudaMemcpy(hy, y, sizeof(hy), cudaMemcpyDeviceToHost));
  EXPECT(hy[99] == 99.0f + 199.25f - 1.0f, "saxpy after bias: y[99] = %g", hy[99]);
  printf("library symbol write: y[99]=%g\n", hy[99]);

  // Library kernel and executable kernel on one stream.
  int *p, hp[n];
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  CK(cudaMalloc(&p, sizeof(hp)));
  CK((cudaError_t)kern_run_iota(p, n, 10, s));
  main_double<<<(n + 255) / 256, 256, 0, s>>>(p, n);
  CK(cudaGetLastError());
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy(hp, p, sizeof(hp), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(hp[i] == 2 * (10 + i), "iota*2 p[%d] = %d", i, hp[i]);
  printf("library iota + executable double: p[4999]=%d\n", hp[n - 1]);

  CK(cudaStreamDestroy(s));
  CK(cudaFree(p));
  CK(cudaFree(x));
  CK(cudaFree(y));
  return sample_pass();
}
