// libdiagstatic.so for the diagnostics: built with -cudart static, so its
// kernel is registered with the copy of NVIDIA's runtime linked into it, not
// with the libcudart.so.13 the program uses. Handing its host stub to the
// program's runtime is the "registered by another runtime" mistake.
#include <cuda_runtime.h>

__global__ void static_k(int *p) {
  if (p) *p = 1;
}

extern "C" void *diag_static_stub(void) { return (void *)static_k; }
