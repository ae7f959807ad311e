// stream_capture_first_launch: kernels launched for the first time inside
// a global-mode stream capture, so that the runtime loads their module
// then (lazy loading): on this thread's capture, and on a thread that is
// not capturing while another thread captures in global mode. The
// captures must end with their graphs, and the graphs compute.
#define SAMPLE_NAME "stream_capture_first_launch"
#include "common/check.h"
#include <thread>

__global__ void set_to(int *a, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}

__global__ void add_one(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1;
}

__global__ void times_two(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2;
}

static const int N = 256;

// Another thread: launches times_two (never launched before) on a stream
// that is not capturing (made before the capture began), while the main
// thread captures in global mode. Only the launch: the main thread
// synchronizes that stream after its capture.
static cudaError_t g_other_launch = cudaErrorUnknown;
static void other_thread(int *b, cudaStream_t s) {
  times_two<<<N / 128, 128, 0, s>>>(b, N);
  g_other_launch = cudaGetLastError();
}

int main() {
  int *a = NULL, *b = NULL, h[N];
  CK(cudaMalloc(&a, N * sizeof(int)));
  CK(cudaMalloc(&b, N * sizeof(int)));
  CK(cudaMemset(b, 0, N * sizeof(int)));
  cudaStream_t s, other;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));

  // 1. First launches inside this thread's global-mode capture.
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  set_to<<<N / 128, 128, 0, s>>>(a, N, 20);
  cudaError_t e = cudaGetLastError();
  printf("first launch of set_to inside a global capture: %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaSuccess, "the first launch inside the capture must be captured");
  add_one<<<N / 128, 128, 0, s>>>(a, N);
  e = cudaGetLastError();
  printf("first launch of add_one inside the same capture: %s\n", cudaGetErrorName(e));
  EXPECT(e == cudaSuccess, "the second first launch inside the capture must be captured");
  cudaGraph_t g = NULL;
  e = cudaStreamEndCapture(s, &g);
  printf("end of the capture: %s, graph %s\n", cudaGetErrorName(e), g ? "made" : "none");
  EXPECT(e == cudaSuccess && g, "the capture must end with its graph");
  size_t nodes = 0;
  CK(cudaGraphGetNodes(g, NULL, &nodes));
  printf("graph nodes: %zu\n", nodes);
  EXPECT(nodes == 2, "two kernel nodes expected, got %zu", nodes);
  cudaGraphExec_t ge = NULL;
  CK(cudaGraphInstantiate(&ge, g, 0));
  CK(cudaGraphLaunch(ge, s));
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < N; i++) bad += h[i] != 21;
  printf("graph result: %s\n", bad ? "wrong" : "all 21");
  EXPECT(bad == 0, "%d elements differ from 21", bad);

  // 2. A first launch on another thread while this one captures (global).
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  set_to<<<N / 128, 128, 0, s>>>(b, N, 1);
  std::thread(other_thread, b, other).join();
  printf("other thread's first launch of times_two during the capture: %s\n",
         cudaGetErrorName(g_other_launch));
  EXPECT(g_other_launch == cudaSuccess, "a launch on another, non-capturing stream must run");
  cudaGraph_t g2 = NULL;
  e = cudaStreamEndCapture(s, &g2);
  printf("end of the second capture: %s, graph %s\n", cudaGetErrorName(e), g2 ? "made" : "none");
  EXPECT(e == cudaSuccess && g2, "the second capture must end with its graph");
  CK(cudaStreamSynchronize(other));
  CK(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost));
  bad = 0;
  for (int i = 0; i < N; i++) bad += h[i] != 0;
  printf("b after the other thread (0 * 2): %s\n", bad ? "wrong" : "all 0");
  EXPECT(bad == 0, "%d elements differ from 0", bad);

  if (g2) CK(cudaGraphDestroy(g2));
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(g));
  CK(cudaStreamDestroy(other));
  CK(cudaStreamDestroy(s));
  CK(cudaFree(a));
  CK(cudaFree(b));
  return sample_pass();
}
