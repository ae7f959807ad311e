// librelfire.so for rel_dlopen_fire: a library with kernels and a
// __device__ variable, opened and closed in a loop. Every open registers
// its fatbin, the last close unregisters it.
#include <cuda_runtime.h>

__device__ int fire_base = 1000;  // back to 1000 whenever the module loads

__global__ void fire_fill(int *out, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fire_base + v + i;
}

// Fills n ints with 1000 + v + i on the library's kernel and checks them;
// returns 0 or the failing cudaError_t (or -1 for a wrong value).
extern "C" int fire_run(int v) {
  const int n = 1024;
  int *d = nullptr;
  int h[n];
  cudaStream_t s;
  cudaError_t e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  if (e != cudaSuccess) return e;
  e = cudaMallocAsync(&d, n * sizeof(int), s);
  if (e == cudaSuccess) {
    fire_fill<<<n / 256, 256, 0, s>>>(d, n, v);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s);
  if (d) cudaFreeAsync(d, s);
  cudaError_t e2 = cudaStreamSynchronize(s);
  if (e == cudaSuccess) e = e2;
  cudaStreamDestroy(s);
  if (e != cudaSuccess) return e;
  for (int i = 0; i < n; i++)
    if (h[i] != 1000 + v + i) return -1;
  return 0;
}

// The host stub of the library's kernel, for the diagnostics case that
// launches it after the library was closed (c-samples/diag).
extern "C" void *fire_kernel_stub(void) { return (void *)fire_fill; }
