// fatlib: the small CUDA shared library scale_fatbin dlopens N copies of
// (issue 30): one fatbin with one kernel, registered by its constructor
// (nvcc's __cudaRegisterFatBinary), and a C entry point that launches it.
#include <cuda_runtime.h>

__global__ void fatlib_add(unsigned long long *c, unsigned long long v) { atomicAdd(c, v); }

extern "C" int fatlib_launch(unsigned long long *c, unsigned long long v, cudaStream_t s) {
  fatlib_add<<<1, 1, 0, s>>>(c, v);
  return (int)cudaGetLastError();
}
