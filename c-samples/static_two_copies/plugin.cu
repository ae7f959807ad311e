// static_two_copies, the plugin: a shared library with a kernel of its own,
// loaded with dlopen by the program. Built with nvcc's default flags, it
// carries its own copy of the static runtime (see main.cu).
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdint.h>

__global__ void plugin_scale(int *v, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= k;
}


#include "current_context.h"

extern "C" {
// The plugin's kernel, as a host stub address (for the program's questions).
void *plugin_kernel(void) { return (void *)plugin_scale; }

// Multiplies v[0..n) (device memory the program allocated) by k with the
// plugin's kernel; reports the context this runtime copy works in and
// whether it knows the program's kernel.
int plugin_run(int *v, int n, int k, void **ctx, const void *program_kernel,
               int *knows_program_kernel) {
  cudaError_t e = cudaFree(0);
  if (e != cudaSuccess) return (int)e;
  *ctx = current_context();
  plugin_scale<<<(n + 127) / 128, 128>>>(v, n, k);
  e = cudaDeviceSynchronize();
  if (e != cudaSuccess) return (int)e;
  cudaFuncAttributes a;
  *knows_program_kernel = cudaFuncGetAttributes(&a, program_kernel) == cudaSuccess;
  cudaGetLastError();
  return 0;
}
}
