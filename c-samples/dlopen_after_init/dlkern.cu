// libdlkern.so for dlopen_after_init: loaded with dlopen after the runtime
// is initialised, so its fatbin registers into a live runtime; dlclose
// unregisters it again.
#include <cuda_runtime.h>

__device__ int dl_counter;  // zero at every (re)load of the module

__global__ void dl_kernel(int *out, int n, int mul) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * mul;
  if (i == 0) dl_counter += 1;
}

extern "C" int dl_launch(int *out, int n, int mul) {
  dl_kernel<<<(n + 127) / 128, 128>>>(out, n, mul);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  return (int)e;
}

extern "C" int dl_counter_value(int *v) {
  return (int)cudaMemcpyFromSymbol(v, dl_counter, sizeof(int));
}
