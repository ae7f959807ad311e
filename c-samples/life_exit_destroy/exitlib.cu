// libexitdestroy.so for life_exit_destroy: a library opened before the
// program's first CUDA call (as Python opens PyTorch's), holding CUDA
// objects in a static object whose destructor runs when the process exits,
// after the driver (loaded later, at the first CUDA call) has shut down.
// The destructor prints what each destroy call answers then: the answers
// NVIDIA's runtime gives are the ones a library like PyTorch copes with.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void exit_k(int *p) {
  if (p) *p = 1;
}

namespace {
struct Held {
  bool set = false;
  cudaEvent_t event = nullptr, ipc_event = nullptr;
  cudaStream_t stream = nullptr;
  void *dev = nullptr, *host = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ~Held() {
    if (!set) return;
    printf("[library destructor, after the driver's shutdown]\n");
    printf("cudaEventDestroy -> %s\n", cudaGetErrorName(cudaEventDestroy(event)));
    printf("cudaEventDestroy(interprocess) -> %s\n", cudaGetErrorName(cudaEventDestroy(ipc_event)));
    printf("cudaGetLastError -> %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("cudaStreamDestroy -> %s\n", cudaGetErrorName(cudaStreamDestroy(stream)));
    printf("cudaGraphExecDestroy -> %s\n", cudaGetErrorName(cudaGraphExecDestroy(exec)));
    printf("cudaGraphDestroy -> %s\n", cudaGetErrorName(cudaGraphDestroy(graph)));
    printf("cudaFree -> %s\n", cudaGetErrorName(cudaFree(dev)));
    printf("cudaFreeHost -> %s\n", cudaGetErrorName(cudaFreeHost(host)));
    int d = -1;
    printf("cudaGetDevice -> %s\n", cudaGetErrorName(cudaGetDevice(&d)));
    printf("cudaSetDevice(0) -> %s\n", cudaGetErrorName(cudaSetDevice(0)));
    printf("cudaGetLastError -> %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("PASS life_exit_destroy\n");
    fflush(stdout);
  }
} held;
}  // namespace

// Makes the objects; returns 0 or the first error.
extern "C" int exit_setup(void) {
  cudaError_t e;
  if ((e = cudaStreamCreateWithFlags(&held.stream, cudaStreamNonBlocking))) return e;
  if ((e = cudaEventCreate(&held.event))) return e;
  if ((e = cudaEventCreateWithFlags(&held.ipc_event, cudaEventInterprocess | cudaEventDisableTiming))) return e;
  if ((e = cudaMalloc(&held.dev, 1 << 20))) return e;
  if ((e = cudaMallocHost(&held.host, 1 << 20))) return e;
  if ((e = cudaStreamBeginCapture(held.stream, cudaStreamCaptureModeThreadLocal))) return e;
  exit_k<<<1, 1, 0, held.stream>>>((int *)held.dev);
  if ((e = cudaStreamEndCapture(held.stream, &held.graph))) return e;
  if ((e = cudaGraphInstantiate(&held.exec, held.graph, 0))) return e;
  if ((e = cudaGraphLaunch(held.exec, held.stream))) return e;
  if ((e = cudaEventRecord(held.event, held.stream))) return e;
  if ((e = cudaStreamSynchronize(held.stream))) return e;
  held.set = true;
  return 0;
}
