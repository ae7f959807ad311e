// The library half of mixed_runtime_handles: built with -cudart static
// against NVIDIA's libcudart_static.a, always, so that it carries NVIDIA's
// runtime whatever runtime the program uses. It makes and destroys
// streams and events through that runtime, as cuBLAS, cuDNN, NCCL or
// CuPy's wheel do in a process whose program runs on another runtime, and
// hands live ones to the program.
#include <cuda_runtime.h>

__global__ void foreign_touch(int *v) { atomicAdd(v, 1); }

extern "C" __attribute__((visibility("default"))) int
foreign_make(int n, cudaStream_t *streams, cudaEvent_t *events) {
  for (int i = 0; i < n; i++) {
    cudaError_t e = cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking);
    if (e == cudaSuccess) e = cudaEventCreateWithFlags(&events[i], cudaEventDisableTiming);
    if (e != cudaSuccess) return (int)e;
  }
  return 0;
}

extern "C" __attribute__((visibility("default"))) int
foreign_destroy(int n, cudaStream_t *streams, cudaEvent_t *events) {
  for (int i = 0; i < n; i++) {
    cudaError_t e = cudaEventDestroy(events[i]);
    if (e == cudaSuccess) e = cudaStreamDestroy(streams[i]);
    if (e != cudaSuccess) return (int)e;
  }
  return 0;
}

// A launch of the library's own kernel on one of its streams (its
// registrations are its runtime's).
extern "C" __attribute__((visibility("default"))) int
foreign_launch(cudaStream_t stream, int *counter) {
  foreign_touch<<<1, 1, 0, stream>>>(counter);
  return (int)cudaGetLastError();
}
