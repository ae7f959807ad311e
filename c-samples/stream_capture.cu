// stream_capture: a memset, two kernels and a copy captured from a stream
// into a graph (cudaStreamBeginCapture/EndCapture), with the capture status
// and info (id, graph, dependencies, edge data) checked while capturing;
// the graph instantiated and launched twice. Then a capture into an
// existing graph (cudaStreamBeginCaptureToGraph) whose dependency set is
// rewritten with cudaStreamUpdateCaptureDependencies (set, then add), and
// the errors of ending a capture that was never begun. The kernels are
// first launched inside the capture (their module loads lazily there).
#define SAMPLE_NAME "stream_capture"
#include "common/check.h"

__global__ void add_k(int *a, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += k;
}

__global__ void mul_k(int *a, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= k;
}

__global__ void set_k(int *a, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}

static const char *status_name(cudaStreamCaptureStatus s) {
  switch (s) {
    case cudaStreamCaptureStatusNone: return "None";
    case cudaStreamCaptureStatusActive: return "Active";
    case cudaStreamCaptureStatusInvalidated: return "Invalidated";
  }
  return "?";
}

static const int N = 1024;

static void expect_all(const int *h, int want, const char *what) {
  for (int i = 0; i < N; i++)
    EXPECT(h[i] == want, "%s: h[%d] = %d, want %d", what, i, h[i], want);
  printf("%s: all %d\n", what, want);
}

int main() {
  int *d = NULL, *d2 = NULL, *h = NULL, *h2 = NULL;
  CK(cudaMalloc(&d, N * sizeof(int)));
  CK(cudaMalloc(&d2, N * sizeof(int)));
  CK(cudaMallocHost(&h, N * sizeof(int)));
  CK(cudaMallocHost(&h2, N * sizeof(int)));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // 1. Capture memset + add + mul + copy.
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusInvalidated;
  CK(cudaStreamIsCapturing(s, &st));
  printf("before capture: %s\n", status_name(st));
  EXPECT(st == cudaStreamCaptureStatusNone, "status before capture");

  for (int i = 0; i < N; i++) h[i] = -1;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CK(cudaStreamIsCapturing(s, &st));
  printf("after begin: %s\n", status_name(st));
  EXPECT(st == cudaStreamCaptureStatusActive, "status after begin");

  unsigned long long id1 = 0, id2 = 0;
  cudaGraph_t during = NULL;
  const cudaGraphNode_t *deps = NULL;
  const cudaGraphEdgeData *edges = NULL;
  size_t ndeps = 99;
  CK(cudaStreamGetCaptureInfo(s, &st, &id1, &during, &deps, &edges, &ndeps));
  printf("info at start: %s, graph %s, %zu dependencies\n", status_name(st),
         during ? "set" : "NULL", ndeps);
  EXPECT(st == cudaStreamCaptureStatusActive && during != NULL && ndeps == 0,
         "capture info at start");

  CK(cudaMemsetAsync(d, 0, N * sizeof(int), s));
  add_k<<<N / 256, 256, 0, s>>>(d, N, 5);
  CK(cudaGetLastError());
  CK(cudaStreamGetCaptureInfo(s, &st, &id2, NULL, &deps, &edges, &ndeps));
  if (ndeps > 0 && edges != NULL)
    printf("info after kernel: %zu dependency, same id %s, edge type %d ports %d/%d\n", ndeps,
           id1 == id2 ? "yes" : "no", (int)edges[0].type, (int)edges[0].from_port,
           (int)edges[0].to_port);
  else
    printf("info after kernel: %zu dependency, same id %s, no edge data\n", ndeps,
           id1 == id2 ? "yes" : "no");
  EXPECT(ndeps == 1 && id1 == id2 && deps[0] != NULL, "capture info after kernel");
  // Edge data not asked for: fine, the edge is a default one.
  CK(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL, &ndeps));
  // Only the status is required.
  CK(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, NULL, NULL, NULL));

  mul_k<<<N / 256, 256, 0, s>>>(d, N, 3);
  CK(cudaGetLastError());
  CK(cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s));

  cudaGraph_t g = NULL;
  CK(cudaStreamEndCapture(s, &g));
  EXPECT(g != NULL && g == during, "EndCapture gave the graph seen while capturing");
  CK(cudaStreamIsCapturing(s, &st));
  printf("after end: %s\n", status_name(st));
  EXPECT(st == cudaStreamCaptureStatusNone, "status after end");
  size_t nodes = 0;
  CK(cudaGraphGetNodes(g, NULL, &nodes));
  printf("captured graph: %zu nodes\n", nodes);
  EXPECT(nodes == 4, "4 nodes captured, got %zu", nodes);
  // A captured kernel node reports the host stub the program launched
  // (the runtime launched the kernel's function in the context).
  cudaGraphNode_t all[8];
  size_t n_all = 8;
  CK(cudaGraphGetNodes(g, all, &n_all));
  int kernels = 0, stubs = 0;
  for (size_t i = 0; i < n_all; i++) {
    cudaGraphNodeType t;
    CK(cudaGraphNodeGetType(all[i], &t));
    if (t != cudaGraphNodeTypeKernel) continue;
    cudaKernelNodeParams kp = {};
    CK(cudaGraphKernelNodeGetParams(all[i], &kp));
    kernels++;
    stubs += kp.func == (void *)add_k || kp.func == (void *)mul_k;
  }
  printf("captured kernel nodes: %d, func the host stub: %d\n", kernels, stubs);
  EXPECT(kernels == 2 && stubs == 2, "captured kernel nodes report their stubs");

  // Nothing ran while capturing: the captured copy did not touch h.
  CK(cudaStreamSynchronize(s));
  EXPECT(h[0] == -1 && h[N - 1] == -1, "capture must not execute work");

  cudaGraphExec_t ge = NULL;
  CK(cudaGraphInstantiate(&ge, g, 0));
  for (int rep = 0; rep < 2; rep++) {
    for (int i = 0; i < N; i++) h[i] = -1;
    CK(cudaGraphLaunch(ge, s));
    CK(cudaStreamSynchronize(s));
    expect_all(h, 15, rep == 0 ? "graph launch 1" : "graph launch 2");
  }

  // 2. Capture into an existing graph, rewriting dependencies.
  cudaGraph_t g2 = NULL, g2_end = NULL;
  CK(cudaGraphCreate(&g2, 0));
  CK(cudaStreamBeginCaptureToGraph(s, g2, NULL, NULL, 0, cudaStreamCaptureModeThreadLocal));
  CK(cudaStreamGetCaptureInfo(s, &st, NULL, &during, NULL, NULL, NULL));
  EXPECT(during == g2, "BeginCaptureToGraph captures into the given graph");
  set_k<<<N / 256, 256, 0, s>>>(d, N, 4);  // A
  CK(cudaGetLastError());
  CK(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL, &ndeps));
  EXPECT(ndeps == 1, "one dependency after A");
  cudaGraphNode_t a_node = deps[0];
  // Replace the set by nothing: B becomes a root, independent of A.
  CK(cudaStreamUpdateCaptureDependencies(s, NULL, NULL, 0, cudaStreamSetCaptureDependencies));
  CK(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL, &ndeps));
  printf("after set-empty: %zu dependencies\n", ndeps);
  EXPECT(ndeps == 0, "no dependency after set-empty");
  set_k<<<N / 256, 256, 0, s>>>(d2, N, 6);  // B
  CK(cudaGetLastError());
  // Add A back: the copy depends on A and B.
  CK(cudaStreamUpdateCaptureDependencies(s, &a_node, NULL, 1, cudaStreamAddCaptureDependencies));
  CK(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL, &ndeps));
  printf("after add: %zu dependencies\n", ndeps);
  EXPECT(ndeps == 2, "two dependencies after add");
  CK(cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, s));
  CK(cudaMemcpyAsync(h2, d2, N * sizeof(int), cudaMemcpyDeviceToHost, s));
  CK(cudaStreamEndCapture(s, &g2_end));
  printf("EndCapture gave back the graph captured into: %s\n", g2_end == g2 ? "yes" : "no");
  CK(cudaGraphGetNodes(g2, NULL, &nodes));
  printf("graph 2: %zu nodes\n", nodes);
  EXPECT(nodes == 4, "4 nodes in graph 2, got %zu", nodes);
  cudaGraphExec_t ge2 = NULL;
  CK(cudaGraphInstantiate(&ge2, g2, 0));
  CK(cudaGraphLaunch(ge2, s));
  CK(cudaStreamSynchronize(s));
  expect_all(h, 4, "graph 2 A");
  expect_all(h2, 6, "graph 2 B");

  // 3. Errors.
  cudaGraph_t none = NULL;
  cudaError_t e = cudaStreamEndCapture(s, &none);
  printf("EndCapture without capture: %s\n", err_name(e));
  EXPECT(e != cudaSuccess, "EndCapture without a capture must fail");
  (void)cudaGetLastError();
  CK_EQ(cudaStreamBeginCapture(s, (cudaStreamCaptureMode)7), cudaErrorInvalidValue);
  CK_EQ(cudaStreamIsCapturing(s, NULL), cudaErrorInvalidValue);
  CK_EQ(cudaStreamGetCaptureInfo(s, NULL, NULL, NULL, NULL, NULL, NULL),
        cudaErrorInvalidValue);
  e = cudaStreamUpdateCaptureDependencies(s, NULL, NULL, 0, 7);
  printf("UpdateCaptureDependencies(flags 7) without capture: %s\n", err_name(e));
  EXPECT(e != cudaSuccess, "bad flags must fail");
  (void)cudaGetLastError();
  CK(cudaStreamIsCapturing(s, &st));
  EXPECT(st == cudaStreamCaptureStatusNone, "refused begin left no capture");

  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphExecDestroy(ge2));
  CK(cudaGraphDestroy(g));
  CK(cudaGraphDestroy(g2));
  CK(cudaStreamDestroy(s));
  CK(cudaFreeHost(h));
  CK(cudaFreeHost(h2));
  CK(cudaFree(d));
  CK(cudaFree(d2));
  return sample_pass();
}
