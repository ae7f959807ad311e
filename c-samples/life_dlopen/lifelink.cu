// liblifelink.so for life_dlopen: linked into the program (DT_NEEDED), so
// its fatbin registers before main and its static object is constructed
// before the program's first CUDA call: its destructor runs at exit after
// the runtime's teardown began.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__device__ int link_var = 7;

__global__ void link_read(int *out) { *out = link_var; }

namespace {
struct LinkStatic {
  int *buf = nullptr;
  ~LinkStatic() {
    if (buf && getenv("LIFE_DLOPEN_CHILD")) {
      printf("liblifelink static destructor: cudaFree -> %s\n",
             cudaGetErrorName(cudaFree(buf)));
      fflush(stdout);
    }
  }
} link_static;
}  // namespace

// Reads link_var through a kernel.
extern "C" int link_run(int *value) {
  cudaError_t e = cudaSuccess;
  if (!link_static.buf) e = cudaMalloc(&link_static.buf, sizeof(int));
  if (e == cudaSuccess) {
    link_read<<<1, 1>>>(link_static.buf);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaMemcpy(value, link_static.buf, sizeof(int), cudaMemcpyDeviceToHost);
  return (int)e;
}
