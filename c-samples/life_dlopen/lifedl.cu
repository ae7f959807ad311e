// liblifedl.so for life_dlopen: opened with dlopen, so its fatbin registers
// whenever the program opens it (before or after the runtime started) and
// unregisters at dlclose. Its static object's destructor frees a buffer
// with the runtime: at dlclose, or at exit if the library is still open.
#include <cuda_runtime.h>
#include <stdio.h>

__device__ int dl_var = 100;  // back to 100 at every load of the module

__global__ void dl_inc(int *out) {
  dl_var += 1;
  if (out) *out = dl_var;
}

namespace {
struct DlStatic {
  int *buf = nullptr;
  ~DlStatic() {
    if (buf) {
      printf("liblifedl static destructor: cudaFree -> %s\n", cudaGetErrorName(cudaFree(buf)));
      fflush(stdout);
    }
  }
} dl_static;
}  // namespace

// Launches dl_inc and returns dl_var's new value in *value.
extern "C" int dl_run(int *value) {
  cudaError_t e = cudaSuccess;
  if (!dl_static.buf) e = cudaMalloc(&dl_static.buf, sizeof(int));
  if (e == cudaSuccess) {
    dl_inc<<<1, 1>>>(dl_static.buf);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaMemcpy(value, dl_static.buf, sizeof(int), cudaMemcpyDeviceToHost);
  return (int)e;
}

// The kernel handle of dl_inc (outlives a dlclose: what does it give?).
extern "C" int dl_kernel(cudaKernel_t *k) { return (int)cudaGetKernel(k, dl_inc); }
