// graph_debug_dot: cudaGraphDebugDotPrint of a graph with kernel, memset,
// memcpy, host, empty and child graph nodes to a temporary file (not empty,
// starts with "digraph", names the runtime's types); node count and node
// types; edges with their data, removed and added back; a node destroyed;
// cudaGraphClone and cudaGraphNodeFindInClone for every node; the clone
// launched and its result checked.
#define SAMPLE_NAME "graph_debug_dot"
#include "common/check.h"
#include <string.h>
#include <unistd.h>

static const int N = 512;

__global__ void add_one(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1;
}

static int g_host_runs = 0;
static void CUDART_CB host_fn(void *) { g_host_runs++; }

static const char *type_name(cudaGraphNodeType t) {
  switch (t) {
    case cudaGraphNodeTypeKernel: return "kernel";
    case cudaGraphNodeTypeMemcpy: return "memcpy";
    case cudaGraphNodeTypeMemset: return "memset";
    case cudaGraphNodeTypeHost: return "host";
    case cudaGraphNodeTypeGraph: return "graph";
    case cudaGraphNodeTypeEmpty: return "empty";
    default: return "other";
  }
}

static void count_types(cudaGraph_t g, const char *what) {
  size_t n = 0;
  CK(cudaGraphGetNodes(g, NULL, &n));
  cudaGraphNode_t nodes[16];
  EXPECT(n <= 16, "too many nodes");
  CK(cudaGraphGetNodes(g, nodes, &n));
  int per[cudaGraphNodeTypeCount] = {0};
  for (size_t i = 0; i < n; i++) {
    cudaGraphNodeType t;
    CK(cudaGraphNodeGetType(nodes[i], &t));
    per[t]++;
  }
  printf("%s: %zu nodes:", what, n);
  for (int t = 0; t < cudaGraphNodeTypeCount; t++)
    if (per[t]) printf(" %s=%d", type_name((cudaGraphNodeType)t), per[t]);
  printf("\n");
}

static size_t edge_count(cudaGraph_t g) {
  size_t e = 0;
  CK(cudaGraphGetEdges(g, NULL, NULL, NULL, &e));
  return e;
}

static char *read_file(const char *path, long *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = (char *)calloc(*len + 1, 1);
  if (fread(buf, 1, *len, f) != (size_t)*len) *len = -1;
  fclose(f);
  return buf;
}

int main() {
  int *d = NULL, *h = NULL;
  CK(cudaMalloc(&d, N * sizeof(int)));
  CK(cudaMallocHost(&h, N * sizeof(int)));

  cudaGraph_t g, child;
  CK(cudaGraphCreate(&g, 0));
  CK(cudaGraphCreate(&child, 0));
  int n = N;
  void *args[] = {&d, &n};
  cudaKernelNodeParams kp;
  memset(&kp, 0, sizeof(kp));
  kp.func = (void *)add_one;
  kp.gridDim = dim3(N / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  cudaGraphNode_t ck;
  CK(cudaGraphAddKernelNode(&ck, child, NULL, 0, &kp));

  // memset(0) -> kernel(+1) -> child(+1) -> empty -> copy out -> host
  cudaMemsetParams ms;
  memset(&ms, 0, sizeof(ms));
  ms.dst = d;
  ms.value = 0;
  ms.elementSize = 1;
  ms.width = N * sizeof(int);
  ms.height = 1;
  cudaGraphNode_t nset, nk, nchild, nempty, ncopy, nhost;
  CK(cudaGraphAddMemsetNode(&nset, g, NULL, 0, &ms));
  CK(cudaGraphAddKernelNode(&nk, g, &nset, 1, &kp));
  CK(cudaGraphAddChildGraphNode(&nchild, g, &nk, 1, child));
  CK(cudaGraphAddEmptyNode(&nempty, g, &nchild, 1));
  CK(cudaGraphAddMemcpyNode1D(&ncopy, g, &nempty, 1, h, d, N * sizeof(int), cudaMemcpyDeviceToHost));
  cudaHostNodeParams hp = {host_fn, NULL};
  CK(cudaGraphAddHostNode(&nhost, g, &ncopy, 1, &hp));
  count_types(g, "graph");

  // The dot file.
  char path[] = "/tmp/graph_debug_dot_XXXXXX";
  int fd = mkstemp(path);
  EXPECT(fd >= 0, "mkstemp");
  close(fd);
  CK(cudaGraphDebugDotPrint(g, path, cudaGraphDebugDotFlagsVerbose));
  long len = 0;
  char *dot = read_file(path, &len);
  EXPECT(dot != NULL && len > 0, "dot file empty or unreadable");
  printf("dot file: non-empty: %s, starts with digraph: %s\n", len > 0 ? "yes" : "no",
         strncmp(dot, "digraph", 7) == 0 ? "yes" : "no");
  EXPECT(strncmp(dot, "digraph", 7) == 0, "dot file starts with %.20s", dot);
  const char *words[] = {"cudaKernelNodeParams", "CUDA_KERNEL_NODE_PARAMS", "cudaMemsetParams",
                         "CUDA_MEMSET_NODE_PARAMS", "cudaMemcpy3DParms", "CUDA_MEMCPY3D",
                         "cudaHostNodeParams", "CUDA_HOST_NODE_PARAMS", "add_one"};
  for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
    printf("dot mentions %s: %s\n", words[i], strstr(dot, words[i]) ? "yes" : "no");
  fprintf(stderr, "---- dot file (%ld bytes) ----\n%.3000s\n----\n", len, dot);
  free(dot);
  CK(cudaGraphDebugDotPrint(g, path, 0));
  dot = read_file(path, &len);
  printf("plain dot file starts with digraph: %s\n",
         dot && strncmp(dot, "digraph", 7) == 0 ? "yes" : "no");
  free(dot);
  unlink(path);
  CK_EQ(cudaGraphDebugDotPrint(g, "/nonexistent-dir/x.dot", 0), cudaErrorOperatingSystem);
  printf("unwritable path: cudaErrorOperatingSystem\n");
  (void)cudaGetLastError();

  // Edges, with their data; one removed and added back.
  printf("edges: %zu\n", edge_count(g));
  cudaGraphEdgeData ed;
  memset(&ed, 0, sizeof(ed));
  CK(cudaGraphRemoveDependencies(g, &nk, &nchild, &ed, 1));
  size_t roots = 0;
  CK(cudaGraphGetRootNodes(g, NULL, &roots));
  printf("after removing kernel->child: edges %zu, roots %zu\n", edge_count(g), roots);
  CK(cudaGraphAddDependencies(g, &nk, &nchild, &ed, 1));
  CK(cudaGraphGetRootNodes(g, NULL, &roots));
  printf("added back: edges %zu, roots %zu\n", edge_count(g), roots);
  cudaGraphNode_t deps[2];
  cudaGraphEdgeData dd[2];
  size_t nd = 2;
  CK(cudaGraphNodeGetDependencies(nchild, deps, dd, &nd));
  printf("child node depends on the kernel: %s (edge type %d)\n",
         nd == 1 && deps[0] == nk ? "yes" : "no", (int)dd[0].type);

  // A node destroyed: the empty node goes, its edges with it.
  cudaGraph_t g_copy;
  CK(cudaGraphClone(&g_copy, g));
  CK(cudaGraphDestroyNode(nempty));
  count_types(g, "after destroying the empty node");
  printf("edges now: %zu\n", edge_count(g));

  // The clone made before: every original node has its counterpart.
  count_types(g_copy, "clone");
  cudaGraphNode_t orig[6] = {nset, nk, nchild, ncopy, nhost, nempty};
  int found = 0, same_type = 0;
  for (int i = 0; i < 6; i++) {
    cudaGraphNode_t c = NULL;
    if (i == 5) break;  // nempty was destroyed in the original; check the rest
    CK(cudaGraphNodeFindInClone(&c, orig[i], g_copy));
    if (c) found++;
    cudaGraphNodeType a, b;
    CK(cudaGraphNodeGetType(orig[i], &a));
    CK(cudaGraphNodeGetType(c, &b));
    if (a == b) same_type++;
  }
  printf("found in clone: %d of 5, same type: %d\n", found, same_type);
  EXPECT(found == 5 && same_type == 5, "clone lookup");
  cudaGraphNode_t none = NULL;
  CK_EQ(cudaGraphNodeFindInClone(&none, nk, g), cudaErrorInvalidValue);
  (void)cudaGetLastError();

  // Run the clone: 0 + 1 + 1.
  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, g_copy, 0));
  CK(cudaGraphLaunch(exec, 0));
  CK(cudaDeviceSynchronize());
  for (int i = 0; i < N; i++) EXPECT(h[i] == 2, "h[%d] = %d", i, h[i]);
  printf("clone ran: all 2, host node ran %d time(s)\n", g_host_runs);

  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(g_copy));
  CK(cudaGraphDestroy(g));
  CK(cudaGraphDestroy(child));
  CK(cudaFree(d));
  CK(cudaFreeHost(h));
  return sample_pass();
}
