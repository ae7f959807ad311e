// graph_update: changing an instantiated graph. cudaGraphExecKernelNodeSetParams
// (the graph's own node keeps its value), cudaGraphKernelNodeSetParams then
// cudaGraphExecUpdate (success), a topology change that
// cudaGraphExecUpdate refuses (result and error node reported),
// cudaGraphExecMemcpyNodeSetParams1D to another buffer, node disable and
// enable, kernel node attributes (priority) set, read and copied; the
// generic cudaGraphAddNode / cudaGraphNodeSetParams /
// cudaGraphExecNodeSetParams with a kernel node, relaunched after each change.
#define SAMPLE_NAME "graph_update"
#include "common/check.h"
#include <string.h>

static const int N = 1024;

__global__ void fill(int *out, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = v + i;
}

static void expect_fill(const int *h, int v, const char *what) {
  for (int i = 0; i < N; i++)
    EXPECT(h[i] == v + i, "%s: [%d] = %d, expected %d", what, i, h[i], v + i);
  printf("%s: filled with %d\n", what, v);
}

static void run(cudaGraphExec_t exec, cudaStream_t s) {
  CK(cudaGraphLaunch(exec, s));
  CK(cudaStreamSynchronize(s));
}

int main() {
  int *d = NULL, *h = NULL, *h2 = NULL;
  CK(cudaMalloc(&d, N * sizeof(int)));
  CK(cudaMallocHost(&h, N * sizeof(int)));
  CK(cudaMallocHost(&h2, N * sizeof(int)));
  cudaStream_t s;
  CK(cudaStreamCreate(&s));

  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  int v = 10, n = N;
  void *args[] = {&d, &v, &n};
  cudaKernelNodeParams kp;
  memset(&kp, 0, sizeof(kp));
  kp.func = (void *)fill;
  kp.gridDim = dim3(N / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  cudaGraphNode_t kn, cn;
  CK(cudaGraphAddKernelNode(&kn, g, NULL, 0, &kp));
  CK(cudaGraphAddMemcpyNode1D(&cn, g, &kn, 1, h, d, N * sizeof(int), cudaMemcpyDeviceToHost));
  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, g, 0));
  run(exec, s);
  expect_fill(h, 10, "first launch");

  // 1. The executable graph's node only.
  int v2 = 20;
  void *args2[] = {&d, &v2, &n};
  kp.kernelParams = args2;
  CK(cudaGraphExecKernelNodeSetParams(exec, kn, &kp));
  run(exec, s);
  expect_fill(h, 20, "after cudaGraphExecKernelNodeSetParams");
  cudaKernelNodeParams kq;
  CK(cudaGraphKernelNodeGetParams(kn, &kq));
  printf("graph node keeps v = %d\n", *(int *)kq.kernelParams[1]);
  EXPECT(*(int *)kq.kernelParams[1] == 10, "graph node changed");

  // 2. The graph's node, then the whole graph into the executable one.
  int v3 = 30;
  void *args3[] = {&d, &v3, &n};
  kp.kernelParams = args3;
  CK(cudaGraphKernelNodeSetParams(kn, &kp));
  cudaGraphExecUpdateResultInfo info;
  memset(&info, 0xff, sizeof(info));
  CK(cudaGraphExecUpdate(exec, g, &info));
  printf("update: result %d, error node %s\n", (int)info.result, info.errorNode ? "set" : "null");
  EXPECT(info.result == cudaGraphExecUpdateSuccess, "update result");
  run(exec, s);
  expect_fill(h, 30, "after cudaGraphExecUpdate");

  // 3. A topology change cannot be applied.
  cudaGraphNode_t en;
  CK(cudaGraphAddEmptyNode(&en, g, &cn, 1));
  memset(&info, 0, sizeof(info));
  CK_EQ(cudaGraphExecUpdate(exec, g, &info), cudaErrorGraphExecUpdateFailure);
  printf("topology change: result %d (TopologyChanged is %d)\n", (int)info.result,
         (int)cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged, "topology result");
  CK(cudaGraphDestroyNode(en));
  (void)cudaGetLastError();

  // 4. The copy goes to another buffer.
  CK(cudaGraphExecMemcpyNodeSetParams1D(exec, cn, h2, d, N * sizeof(int), cudaMemcpyDeviceToHost));
  memset(h2, 0, N * sizeof(int));
  run(exec, s);
  expect_fill(h2, 30, "after cudaGraphExecMemcpyNodeSetParams1D");

  // 5. Disable the kernel: the copy still runs, the data stays.
  unsigned en_flag = 7;
  CK(cudaGraphNodeSetEnabled(exec, kn, 0));
  CK(cudaGraphNodeGetEnabled(exec, kn, &en_flag));
  printf("kernel node enabled: %u\n", en_flag);
  CK(cudaMemset(d, 0, N * sizeof(int)));
  run(exec, s);
  int zeros = 0;
  for (int i = 0; i < N; i++) zeros += h2[i] == 0;
  printf("disabled kernel: %d zeros\n", zeros);
  EXPECT(zeros == N, "kernel ran while disabled");
  CK(cudaGraphNodeSetEnabled(exec, kn, 1));
  CK(cudaGraphNodeGetEnabled(exec, kn, &en_flag));
  run(exec, s);
  printf("kernel node enabled: %u\n", en_flag);
  expect_fill(h2, 30, "re-enabled");

  // 6. Kernel node attributes: priority.
  int least = 0, greatest = 0;
  CK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  cudaKernelNodeAttrValue av;
  memset(&av, 0, sizeof(av));
  av.priority = greatest;
  CK(cudaGraphKernelNodeSetAttribute(kn, cudaKernelNodeAttributePriority, &av));
  cudaKernelNodeAttrValue aq;
  memset(&aq, 0x55, sizeof(aq));
  CK(cudaGraphKernelNodeGetAttribute(kn, cudaKernelNodeAttributePriority, &aq));
  printf("priority attribute round trip: %s\n", aq.priority == greatest ? "ok" : "DIFFERENT");
  EXPECT(aq.priority == greatest, "priority %d, set %d", aq.priority, greatest);

  // 7. The generic node API with a kernel node.
  cudaGraph_t g2;
  CK(cudaGraphCreate(&g2, 0));
  int v4 = 40;
  void *args4[] = {&d, &v4, &n};
  cudaGraphNodeParams np = {};
  memset(&np, 0, sizeof(np));
  np.type = cudaGraphNodeTypeKernel;
  np.kernel.func = (void *)fill;
  np.kernel.gridDim = dim3(N / 128);
  np.kernel.blockDim = dim3(128);
  np.kernel.kernelParams = args4;
  cudaGraphNode_t gk, gc;
  CK(cudaGraphAddNode(&gk, g2, NULL, NULL, 0, &np));
  CK(cudaGraphAddMemcpyNode1D(&gc, g2, &gk, 1, h, d, N * sizeof(int), cudaMemcpyDefault));
  CK(cudaGraphKernelNodeCopyAttributes(gk, kn));
  memset(&aq, 0, sizeof(aq));
  CK(cudaGraphKernelNodeGetAttribute(gk, cudaKernelNodeAttributePriority, &aq));
  printf("copied priority attribute: %s\n", aq.priority == greatest ? "ok" : "DIFFERENT");
  cudaGraphNodeType t;
  CK(cudaGraphNodeGetType(gk, &t));
  printf("generic node type: %d\n", (int)t);
  cudaGraphExec_t exec2;
  CK(cudaGraphInstantiate(&exec2, g2, 0));
  run(exec2, s);
  expect_fill(h, 40, "cudaGraphAddNode kernel");
  int v5 = 50;
  void *args5[] = {&d, &v5, &n};
  np.kernel.kernelParams = args5;
  CK(cudaGraphExecNodeSetParams(exec2, gk, &np));
  run(exec2, s);
  expect_fill(h, 50, "cudaGraphExecNodeSetParams");
  int v6 = 60;
  void *args6[] = {&d, &v6, &n};
  np.kernel.kernelParams = args6;
  CK(cudaGraphNodeSetParams(gk, &np));
  CK(cudaGraphExecUpdate(exec2, g2, &info));
  run(exec2, s);
  expect_fill(h, 60, "cudaGraphNodeSetParams + update");
  CK(cudaGraphKernelNodeGetParams(gk, &kq));
  printf("generic kernel node: func same as stub: %s\n", kq.func == (void *)fill ? "yes" : "no");

  CK(cudaGraphExecDestroy(exec2));
  CK(cudaGraphDestroy(g2));
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(g));
  CK(cudaStreamDestroy(s));
  CK(cudaFree(d));
  CK(cudaFreeHost(h));
  CK(cudaFreeHost(h2));
  return sample_pass();
}
