// graph_explicit: a graph built node by node -- memset, 1D and 3D memcpy,
// kernel and host nodes with their dependencies -- instantiated, uploaded
// and launched three times; the results, the launch count and the host
// node's checks verified. Structure queries (nodes, roots, edges,
// dependencies, node types) and every node's parameters read back
// (cudaGraphKernelNodeGetParams: is `func` the host stub the program gave?).
// Then cudaGraphInstantiateWithParams with an upload stream.
#define SAMPLE_NAME "graph_explicit"
#include "common/check.h"
#include <string.h>

static const int N = 4096;

__global__ void twice_plus(const int *in, int *out, int add, int n, unsigned *launches) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += in[i] * 2 + add;
  if (i == 0) atomicAdd(launches, 1u);
}

struct HostCheck {
  const int *h_out;
  int runs;
  int bad;
};

static void CUDART_CB host_check(void *p) {
  HostCheck *c = (HostCheck *)p;
  c->runs++;
  for (int i = 0; i < N; i++)
    if (c->h_out[i] != i * 2 + 7) c->bad++;
}

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

int main() {
  int *h_in = (int *)malloc(N * sizeof(int));
  int *h_out = NULL, *d_in = NULL, *d_out = NULL;
  unsigned *d_launches = NULL;
  for (int i = 0; i < N; i++) h_in[i] = i;
  CK(cudaMallocHost(&h_out, N * sizeof(int)));
  memset(h_out, 0xff, N * sizeof(int));
  CK(cudaMalloc(&d_in, N * sizeof(int)));
  CK(cudaMalloc(&d_out, N * sizeof(int)));
  CK(cudaMalloc(&d_launches, sizeof(unsigned)));
  CK(cudaMemset(d_launches, 0, sizeof(unsigned)));

  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));

  // 1. memset d_out to 0 (4-byte elements).
  cudaMemsetParams ms;
  memset(&ms, 0, sizeof(ms));
  ms.dst = d_out;
  ms.value = 0;
  ms.elementSize = 4;
  ms.width = N;
  ms.height = 1;
  cudaGraphNode_t n_memset, n_h2d, n_kernel, n_d2h, n_host;
  CK(cudaGraphAddMemsetNode(&n_memset, g, NULL, 0, &ms));

  // 2. 1D copy of the input (host to device).
  CK(cudaGraphAddMemcpyNode1D(&n_h2d, g, NULL, 0, d_in, h_in, N * sizeof(int),
                              cudaMemcpyHostToDevice));

  // 3. The kernel, after both.
  int add = 7, n = N;
  void *args[] = {&d_in, &d_out, &add, &n, &d_launches};
  cudaKernelNodeParams kp;
  memset(&kp, 0, sizeof(kp));
  kp.func = (void *)twice_plus;
  kp.gridDim = dim3((N + 255) / 256);
  kp.blockDim = dim3(256);
  kp.sharedMemBytes = 0;
  kp.kernelParams = args;
  cudaGraphNode_t deps[2] = {n_memset, n_h2d};
  CK(cudaGraphAddKernelNode(&n_kernel, g, deps, 2, &kp));

  // 4. 3D copy of the result (device to host), one row.
  cudaMemcpy3DParms cp;
  memset(&cp, 0, sizeof(cp));
  cp.srcPtr = make_cudaPitchedPtr(d_out, N * sizeof(int), N * sizeof(int), 1);
  cp.dstPtr = make_cudaPitchedPtr(h_out, N * sizeof(int), N * sizeof(int), 1);
  cp.extent = make_cudaExtent(N * sizeof(int), 1, 1);
  cp.kind = cudaMemcpyDeviceToHost;
  CK(cudaGraphAddMemcpyNode(&n_d2h, g, &n_kernel, 1, &cp));

  // 5. Host node checking the copy.
  HostCheck hc = {h_out, 0, 0};
  cudaHostNodeParams hp;
  hp.fn = host_check;
  hp.userData = &hc;
  CK(cudaGraphAddHostNode(&n_host, g, &n_d2h, 1, &hp));

  // Structure.
  size_t count = 0;
  CK(cudaGraphGetNodes(g, NULL, &count));
  printf("nodes: %zu\n", count);
  EXPECT(count == 5, "5 nodes expected");
  cudaGraphNode_t nodes[8];
  CK(cudaGraphGetNodes(g, nodes, &count));
  printf("node types:");
  for (size_t i = 0; i < count; i++) {
    cudaGraphNodeType t;
    CK(cudaGraphNodeGetType(nodes[i], &t));
    printf(" %s", type_name(t));
  }
  printf("\n");
  size_t roots = 0;
  CK(cudaGraphGetRootNodes(g, NULL, &roots));
  printf("root nodes: %zu\n", roots);
  EXPECT(roots == 2, "2 roots expected");
  size_t edges = 0;
  CK(cudaGraphGetEdges(g, NULL, NULL, NULL, &edges));
  printf("edges: %zu\n", edges);
  EXPECT(edges == 4, "4 edges expected");
  cudaGraphNode_t from[4], to[4];
  cudaGraphEdgeData ed[4];
  memset(ed, 0x5a, sizeof(ed));
  CK(cudaGraphGetEdges(g, from, to, ed, &edges));
  int default_edges = 0;
  for (size_t i = 0; i < edges; i++)
    if (ed[i].from_port == 0 && ed[i].to_port == 0 && ed[i].type == cudaGraphDependencyTypeDefault)
      default_edges++;
  printf("default edges: %d\n", default_edges);
  size_t nd = 0;
  CK(cudaGraphNodeGetDependencies(n_kernel, NULL, NULL, &nd));
  size_t ndep = 0;
  CK(cudaGraphNodeGetDependentNodes(n_kernel, NULL, NULL, &ndep));
  printf("kernel node: %zu dependencies, %zu dependents\n", nd, ndep);
  EXPECT(nd == 2 && ndep == 1, "kernel node edges");

  // Parameters read back.
  cudaKernelNodeParams kq;
  memset(&kq, 0, sizeof(kq));
  CK(cudaGraphKernelNodeGetParams(n_kernel, &kq));
  printf("kernel params: grid %u block %u smem %u; func same as stub: %s\n", kq.gridDim.x,
         kq.blockDim.x, kq.sharedMemBytes, kq.func == (void *)twice_plus ? "yes" : "no");
  EXPECT(kq.gridDim.x == (unsigned)(N + 255) / 256 && kq.blockDim.x == 256, "kernel dims");
  EXPECT(*(int *)kq.kernelParams[2] == 7, "kernel param 2 is %d", *(int *)kq.kernelParams[2]);
  cudaMemsetParams mq;
  CK(cudaGraphMemsetNodeGetParams(n_memset, &mq));
  printf("memset params: value %u elementSize %u width %zu height %zu same dst: %s\n", mq.value,
         mq.elementSize, mq.width, mq.height, mq.dst == d_out ? "yes" : "no");
  cudaMemcpy3DParms cq;
  memset(&cq, 0, sizeof(cq));
  CK(cudaGraphMemcpyNodeGetParams(n_d2h, &cq));
  printf("memcpy 3D params: kind %d extent %zux%zux%zu src same: %s dst same: %s\n", (int)cq.kind,
         cq.extent.width, cq.extent.height, cq.extent.depth, cq.srcPtr.ptr == d_out ? "yes" : "no",
         cq.dstPtr.ptr == h_out ? "yes" : "no");
  memset(&cq, 0, sizeof(cq));
  CK(cudaGraphMemcpyNodeGetParams(n_h2d, &cq));
  printf("memcpy 1D params: kind %d extent %zux%zux%zu src same: %s dst same: %s\n", (int)cq.kind,
         cq.extent.width, cq.extent.height, cq.extent.depth, cq.srcPtr.ptr == h_in ? "yes" : "no",
         cq.dstPtr.ptr == d_in ? "yes" : "no");
  cudaHostNodeParams hq;
  CK(cudaGraphHostNodeGetParams(n_host, &hq));
  printf("host params: same fn %s same data %s\n", hq.fn == host_check ? "yes" : "no",
         hq.userData == &hc ? "yes" : "no");

  // Instantiate, upload, launch three times.
  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, g, 0));
  unsigned long long flags = 99;
  CK(cudaGraphExecGetFlags(exec, &flags));
  printf("exec flags: %llu\n", flags);
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CK(cudaGraphUpload(exec, s));
  for (int i = 0; i < 3; i++) CK(cudaGraphLaunch(exec, s));
  CK(cudaStreamSynchronize(s));
  unsigned launches = 0;
  CK(cudaMemcpy(&launches, d_launches, sizeof(unsigned), cudaMemcpyDeviceToHost));
  printf("after 3 launches: host node ran %d times, %d bad values, kernel ran %u times\n", hc.runs,
         hc.bad, launches);
  EXPECT(hc.runs == 3 && hc.bad == 0 && launches == 3, "three clean launches expected");
  for (int i = 0; i < N; i++) EXPECT(h_out[i] == 2 * i + 7, "h_out[%d] = %d", i, h_out[i]);

  // Launch on the legacy default stream too.
  CK(cudaGraphLaunch(exec, 0));
  CK(cudaDeviceSynchronize());
  printf("legacy stream launch: host node ran %d times\n", hc.runs);
  EXPECT(hc.runs == 4 && hc.bad == 0, "fourth launch");
  CK(cudaGraphExecDestroy(exec));

  // Instantiate with parameters, uploading to a stream.
  cudaGraphInstantiateParams ip;
  memset(&ip, 0, sizeof(ip));
  ip.flags = cudaGraphInstantiateFlagUpload;
  ip.uploadStream = s;
  ip.result_out = cudaGraphInstantiateError;
  CK(cudaGraphInstantiateWithParams(&exec, g, &ip));
  printf("instantiate with params: result %d, error node %s\n", (int)ip.result_out,
         ip.errNode_out ? "set" : "null");
  CK(cudaGraphExecGetFlags(exec, &flags));
  printf("exec flags: %llu\n", flags);
  CK(cudaGraphLaunch(exec, s));
  CK(cudaStreamSynchronize(s));
  EXPECT(hc.runs == 5 && hc.bad == 0, "fifth launch");
  CK(cudaGraphExecDestroy(exec));

  // Errors: a null graph, an unknown copy direction.
  cudaGraphNode_t bad;
  CK_EQ(cudaGraphAddMemcpyNode1D(&bad, g, NULL, 0, d_in, h_in, 4, (cudaMemcpyKind)7),
        cudaErrorInvalidMemcpyDirection);
  CK_EQ(cudaGraphInstantiate(NULL, g, 0), cudaErrorInvalidValue);
  printf("errors: as expected\n");
  (void)cudaGetLastError();

  CK(cudaGraphDestroy(g));
  CK(cudaStreamDestroy(s));
  CK(cudaFree(d_in));
  CK(cudaFree(d_out));
  CK(cudaFree(d_launches));
  CK(cudaFreeHost(h_out));
  free(h_in);
  return sample_pass();
}
