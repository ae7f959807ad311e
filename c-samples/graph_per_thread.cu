// graph_per_thread: graphs on the per-thread default stream through the
// _ptsz exports that --default-stream per-thread maps cudaGraphLaunch,
// cudaGraphUpload and cudaGraphInstantiateWithParams to (declared here and
// called by name, so the sample builds like the others): stream 0 is each
// thread's own stream. Four threads each instantiate (uploading to stream
// 0), upload and launch their graph five times on stream 0, and check.
#define SAMPLE_NAME "graph_per_thread"
#include "common/check.h"
#include <string.h>
#include <thread>

extern "C" {
cudaError_t CUDARTAPI cudaGraphLaunch_ptsz(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t CUDARTAPI cudaGraphUpload_ptsz(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t CUDARTAPI cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *exec, cudaGraph_t graph,
                                                          cudaGraphInstantiateParams *params);
}

static const int N = 4096, THREADS = 4, LAUNCHES = 5;

__global__ void bump(int *a, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += k;
}

static int g_ok[THREADS];

static void worker(int t) {
  int *d = NULL, *h = NULL;
  CK(cudaMalloc(&d, N * sizeof(int)));
  CK(cudaMallocHost(&h, N * sizeof(int)));
  CK(cudaMemset(d, 0, N * sizeof(int)));
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  int k = t + 1, n = N;
  void *args[] = {&d, &k, &n};
  cudaKernelNodeParams kp;
  memset(&kp, 0, sizeof(kp));
  kp.func = (void *)bump;
  kp.gridDim = dim3(N / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  cudaGraphNode_t kn, cn;
  CK(cudaGraphAddKernelNode(&kn, g, NULL, 0, &kp));
  CK(cudaGraphAddMemcpyNode1D(&cn, g, &kn, 1, h, d, N * sizeof(int), cudaMemcpyDeviceToHost));
  cudaGraphInstantiateParams ip;
  memset(&ip, 0, sizeof(ip));
  ip.flags = cudaGraphInstantiateFlagUpload;
  ip.uploadStream = 0;  // this thread's default stream
  cudaGraphExec_t exec;
  CK(cudaGraphInstantiateWithParams_ptsz(&exec, g, &ip));
  EXPECT(ip.result_out == cudaGraphInstantiateSuccess, "thread %d: result %d", t, ip.result_out);
  CK(cudaGraphUpload_ptsz(exec, 0));
  for (int i = 0; i < LAUNCHES; i++) CK(cudaGraphLaunch_ptsz(exec, 0));
  CK(cudaStreamSynchronize(cudaStreamPerThread));
  int bad = 0;
  for (int i = 0; i < N; i++) bad += h[i] != k * LAUNCHES;
  g_ok[t] = bad == 0;
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(g));
  CK(cudaFree(d));
  CK(cudaFreeHost(h));
}

int main() {
  CK(cudaFree(0));
  std::thread th[THREADS];
  for (int t = 0; t < THREADS; t++) th[t] = std::thread(worker, t);
  for (int t = 0; t < THREADS; t++) th[t].join();
  for (int t = 0; t < THREADS; t++) {
    printf("thread %d: %d launches on its default stream: %s\n", t, LAUNCHES,
           g_ok[t] ? "ok" : "WRONG");
    EXPECT(g_ok[t], "thread %d results", t);
  }
  return sample_pass();
}
