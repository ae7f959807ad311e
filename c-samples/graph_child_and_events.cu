// graph_child_and_events: graph A runs a slow producer kernel, then a
// child graph (a second kernel), then an event record node; graph B, on
// another stream, starts with an event wait node on that event and reads
// A's result. B's consumer must see the finished data. Also: the child
// graph node's graph (a copy: its node count), the event nodes' events,
// cudaGraphExecChildGraphNodeSetParams with a changed child, and event
// record/wait nodes switched to another event in the graph and in the
// executable graph.
#define SAMPLE_NAME "graph_child_and_events"
#include "common/check.h"
#include <string.h>

static const int N = 2048;

__global__ void slow_produce(int *a, int base, int n, long long spin) {
  long long t0 = clock64();
  while (clock64() - t0 < spin) {
  }
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = base + i;
}

__global__ void add_k(int *a, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += k;
}

__global__ void consume(const int *a, int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i] * 3;
}

static cudaKernelNodeParams kparams(void *func, void **args) {
  cudaKernelNodeParams p;
  memset(&p, 0, sizeof(p));
  p.func = func;
  p.gridDim = dim3(N / 256);
  p.blockDim = dim3(256);
  p.kernelParams = args;
  return p;
}

static void check_b(const int *h, int base, int k, const char *what) {
  for (int i = 0; i < N; i++)
    EXPECT(h[i] == (base + i + k) * 3, "%s: b[%d] = %d, expected %d", what, i, h[i],
           (base + i + k) * 3);
  printf("%s: consumer saw producer + child (base %d, add %d)\n", what, base, k);
}

int main() {
  int *a = NULL, *b = NULL, *h = NULL;
  CK(cudaMalloc(&a, N * sizeof(int)));
  CK(cudaMalloc(&b, N * sizeof(int)));
  CK(cudaMallocHost(&h, N * sizeof(int)));
  cudaStream_t s1, s2;
  CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t ev, ev2;
  CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  CK(cudaEventCreateWithFlags(&ev2, cudaEventDisableTiming));

  // The child: a[i] += k.
  int k = 5, n = N;
  void *child_args[] = {&a, &k, &n};
  cudaGraph_t child;
  CK(cudaGraphCreate(&child, 0));
  cudaKernelNodeParams cp = kparams((void *)add_k, child_args);
  cudaGraphNode_t child_kernel;
  CK(cudaGraphAddKernelNode(&child_kernel, child, NULL, 0, &cp));

  // Graph A: producer -> child graph -> record ev.
  int base = 100;
  long long spin = 20 * 1000 * 1000;  // ~10 ms: B would read too early without the wait
  void *prod_args[] = {&a, &base, &n, &spin};
  cudaGraph_t ga;
  CK(cudaGraphCreate(&ga, 0));
  cudaKernelNodeParams pp = kparams((void *)slow_produce, prod_args);
  cudaGraphNode_t prod, child_node, rec;
  CK(cudaGraphAddKernelNode(&prod, ga, NULL, 0, &pp));
  CK(cudaGraphAddChildGraphNode(&child_node, ga, &prod, 1, child));
  CK(cudaGraphAddEventRecordNode(&rec, ga, &child_node, 1, ev));

  // Graph B: wait ev -> consume -> copy back.
  cudaGraph_t gb;
  CK(cudaGraphCreate(&gb, 0));
  void *cons_args[] = {&a, &b, &n};
  cudaKernelNodeParams cq = kparams((void *)consume, cons_args);
  cudaGraphNode_t wait, cons, copy;
  CK(cudaGraphAddEventWaitNode(&wait, gb, NULL, 0, ev));
  CK(cudaGraphAddKernelNode(&cons, gb, &wait, 1, &cq));
  CK(cudaGraphAddMemcpyNode1D(&copy, gb, &cons, 1, h, b, N * sizeof(int), cudaMemcpyDeviceToHost));

  // Queries.
  cudaGraph_t inner;
  CK(cudaGraphChildGraphNodeGetGraph(child_node, &inner));
  size_t count = 0;
  CK(cudaGraphGetNodes(inner, NULL, &count));
  printf("child graph node holds a graph of %zu node(s); same handle as the one added: %s\n",
         count, inner == child ? "yes" : "no");
  cudaEvent_t got;
  CK(cudaGraphEventRecordNodeGetEvent(rec, &got));
  printf("record node event: %s\n", got == ev ? "ev" : "other");
  CK(cudaGraphEventWaitNodeGetEvent(wait, &got));
  printf("wait node event: %s\n", got == ev ? "ev" : "other");

  cudaGraphExec_t ea, eb;
  CK(cudaGraphInstantiate(&ea, ga, 0));
  CK(cudaGraphInstantiate(&eb, gb, 0));
  for (int round = 0; round < 2; round++) {
    CK(cudaMemset(a, 0, N * sizeof(int)));
    CK(cudaDeviceSynchronize());
    CK(cudaGraphLaunch(ea, s1));
    CK(cudaGraphLaunch(eb, s2));
    CK(cudaStreamSynchronize(s2));
    check_b(h, 100, 5, round == 0 ? "round 1" : "round 2");
    CK(cudaStreamSynchronize(s1));
  }

  // A changed child graph (same shape, k = 9) into the executable graph.
  int k2 = 9;
  void *child_args2[] = {&a, &k2, &n};
  cudaGraph_t child2;
  CK(cudaGraphCreate(&child2, 0));
  cudaKernelNodeParams cp2 = kparams((void *)add_k, child_args2);
  cudaGraphNode_t child2_kernel;
  CK(cudaGraphAddKernelNode(&child2_kernel, child2, NULL, 0, &cp2));
  CK(cudaGraphExecChildGraphNodeSetParams(ea, child_node, child2));
  CK(cudaGraphLaunch(ea, s1));
  CK(cudaGraphLaunch(eb, s2));
  CK(cudaStreamSynchronize(s2));
  check_b(h, 100, 9, "new child");
  CK(cudaStreamSynchronize(s1));

  // Switch both executable event nodes to ev2, and the graphs' nodes too.
  CK(cudaGraphExecEventRecordNodeSetEvent(ea, rec, ev2));
  CK(cudaGraphExecEventWaitNodeSetEvent(eb, wait, ev2));
  CK(cudaGraphEventRecordNodeSetEvent(rec, ev2));
  CK(cudaGraphEventWaitNodeSetEvent(wait, ev2));
  CK(cudaGraphEventRecordNodeGetEvent(rec, &got));
  printf("record node event now: %s\n", got == ev2 ? "ev2" : "other");
  base = 200;  // graph nodes copied their arguments: the executable graph still has 100
  CK(cudaGraphLaunch(ea, s1));
  CK(cudaGraphLaunch(eb, s2));
  CK(cudaStreamSynchronize(s2));
  check_b(h, 100, 9, "via ev2");
  CK(cudaStreamSynchronize(s1));
  CK_EQ(cudaEventQuery(ev2), cudaSuccess);
  printf("ev2 recorded: yes\n");

  CK(cudaGraphExecDestroy(ea));
  CK(cudaGraphExecDestroy(eb));
  CK(cudaGraphDestroy(ga));
  CK(cudaGraphDestroy(gb));
  CK(cudaGraphDestroy(child));
  CK(cudaGraphDestroy(child2));
  CK(cudaEventDestroy(ev));
  CK(cudaEventDestroy(ev2));
  CK(cudaStreamDestroy(s1));
  CK(cudaStreamDestroy(s2));
  CK(cudaFree(a));
  CK(cudaFree(b));
  CK(cudaFreeHost(h));
  return sample_pass();
}
