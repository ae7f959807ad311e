// graph_mem_nodes: graph-owned memory. A memory allocation node (the
// address comes back in the parameters), a kernel writing it, a copy out
// and a memory free node; launched twice. The nodes' parameters read back;
// the device's graph memory attributes (used/reserved, high watermarks,
// the watermark reset); cudaDeviceGraphMemTrim returning the reserve once
// the graphs are gone. The same through the generic cudaGraphAddNode
// (allocation address written back), and an allocation without a free
// node under cudaGraphInstantiateFlagAutoFreeOnLaunch.
#define SAMPLE_NAME "graph_mem_nodes"
#include "common/check.h"
#include <string.h>

static const int N = 1 << 18;  // 1 MiB of int
static const size_t BYTES = N * sizeof(int);

__global__ void iota(int *p, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}

static unsigned long long attr(cudaGraphMemAttributeType a) {
  unsigned long long v = 0;
  CK(cudaDeviceGetGraphMemAttribute(0, a, &v));
  return v;
}

static cudaMemAllocNodeParams alloc_params() {
  cudaMemAllocNodeParams p;
  memset(&p, 0, sizeof(p));
  p.poolProps.allocType = cudaMemAllocationTypePinned;
  p.poolProps.location.type = cudaMemLocationTypeDevice;
  p.poolProps.location.id = 0;
  p.bytesize = BYTES;
  return p;
}

static void add_iota(cudaGraphNode_t *node, cudaGraph_t g, cudaGraphNode_t dep, void **args) {
  cudaKernelNodeParams kp;
  memset(&kp, 0, sizeof(kp));
  kp.func = (void *)iota;
  kp.gridDim = dim3(N / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  CK(cudaGraphAddKernelNode(node, g, &dep, 1, &kp));
}

static void expect_iota(const int *h, int base, const char *what) {
  for (int i = 0; i < N; i++)
    EXPECT(h[i] == base + i, "%s: [%d] = %d", what, i, h[i]);
  printf("%s: ok\n", what);
}

int main() {
  int *h = NULL;
  CK(cudaMallocHost(&h, BYTES));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // 1. alloc -> kernel -> copy out -> free.
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = alloc_params();
  cudaGraphNode_t an, kn, cn, fn;
  CK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
  printf("allocation node: address %s\n", ap.dptr ? "returned" : "MISSING");
  EXPECT(ap.dptr != NULL, "no address");
  int *p = (int *)ap.dptr, base = 3, n = N;
  void *args[] = {&p, &base, &n};
  add_iota(&kn, g, an, args);
  CK(cudaGraphAddMemcpyNode1D(&cn, g, &kn, 1, h, p, BYTES, cudaMemcpyDeviceToHost));
  CK(cudaGraphAddMemFreeNode(&fn, g, &cn, 1, p));

  cudaMemAllocNodeParams aq;
  memset(&aq, 0, sizeof(aq));
  CK(cudaGraphMemAllocNodeGetParams(an, &aq));
  printf("allocation node params: bytesize %zu, same address %s, location type %d id %d\n",
         aq.bytesize, aq.dptr == ap.dptr ? "yes" : "no", (int)aq.poolProps.location.type,
         aq.poolProps.location.id);
  void *freed = NULL;
  CK(cudaGraphMemFreeNodeGetParams(fn, &freed));
  printf("free node frees the allocation: %s\n", freed == ap.dptr ? "yes" : "no");
  cudaGraphNodeType t1, t2;
  CK(cudaGraphNodeGetType(an, &t1));
  CK(cudaGraphNodeGetType(fn, &t2));
  printf("node types: %d %d\n", (int)t1, (int)t2);

  cudaGraphExec_t exec;
  CK(cudaGraphInstantiate(&exec, g, 0));
  for (int i = 0; i < 2; i++) {
    memset(h, 0, BYTES);
    CK(cudaGraphLaunch(exec, s));
    CK(cudaStreamSynchronize(s));
    expect_iota(h, 3, i == 0 ? "launch 1" : "launch 2");
  }
  unsigned long long used_high = attr(cudaGraphMemAttrUsedMemHigh);
  unsigned long long reserved = attr(cudaGraphMemAttrReservedMemCurrent);
  unsigned long long used_now = attr(cudaGraphMemAttrUsedMemCurrent);
  fprintf(stderr, "used high %llu, reserved %llu, used now %llu\n", used_high, reserved, used_now);
  printf("used high >= 1 MiB: %s; reserved >= 1 MiB: %s; used now: %llu\n",
         used_high >= BYTES ? "yes" : "no", reserved >= BYTES ? "yes" : "no", used_now);
  EXPECT(used_high >= BYTES && reserved >= BYTES, "graph memory attributes");
  unsigned long long zero = 0;
  CK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  printf("used high after reset: %llu\n", attr(cudaGraphMemAttrUsedMemHigh));
  unsigned long long one = 1;
  CK_EQ(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &one),
        cudaErrorInvalidValue);
  CK_EQ(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero),
        cudaErrorInvalidValue);
  (void)cudaGetLastError();

  // 2. The generic API: the allocation address comes back in the union.
  cudaGraph_t g2;
  CK(cudaGraphCreate(&g2, 0));
  cudaGraphNodeParams np = {};
  memset(&np, 0, sizeof(np));
  np.type = cudaGraphNodeTypeMemAlloc;
  np.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  np.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  np.alloc.poolProps.location.id = 0;
  np.alloc.bytesize = BYTES;
  cudaGraphNode_t an2, kn2, cn2, fn2;
  CK(cudaGraphAddNode(&an2, g2, NULL, NULL, 0, &np));
  printf("generic allocation node: address %s\n", np.alloc.dptr ? "returned" : "MISSING");
  EXPECT(np.alloc.dptr != NULL, "no address from cudaGraphAddNode");
  int *p2 = (int *)np.alloc.dptr, base2 = 11;
  void *args2[] = {&p2, &base2, &n};
  add_iota(&kn2, g2, an2, args2);
  CK(cudaGraphAddMemcpyNode1D(&cn2, g2, &kn2, 1, h, p2, BYTES, cudaMemcpyDefault));
  cudaGraphNodeParams fp = {};
  memset(&fp, 0, sizeof(fp));
  fp.type = cudaGraphNodeTypeMemFree;
  fp.free.dptr = p2;
  CK(cudaGraphAddNode(&fn2, g2, &cn2, NULL, 1, &fp));
  cudaGraphExec_t exec2;
  CK(cudaGraphInstantiate(&exec2, g2, 0));
  CK(cudaGraphLaunch(exec2, s));
  CK(cudaStreamSynchronize(s));
  expect_iota(h, 11, "generic nodes");

  // 3. No free node: auto free on launch lets it run again.
  cudaGraph_t g3;
  CK(cudaGraphCreate(&g3, 0));
  cudaMemAllocNodeParams ap3 = alloc_params();
  cudaGraphNode_t an3, kn3, cn3;
  CK(cudaGraphAddMemAllocNode(&an3, g3, NULL, 0, &ap3));
  int *p3 = (int *)ap3.dptr, base3 = 21;
  void *args3[] = {&p3, &base3, &n};
  add_iota(&kn3, g3, an3, args3);
  CK(cudaGraphAddMemcpyNode1D(&cn3, g3, &kn3, 1, h, p3, BYTES, cudaMemcpyDeviceToHost));
  cudaGraphExec_t exec3;
  CK(cudaGraphInstantiate(&exec3, g3, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  unsigned long long fl = 0;
  CK(cudaGraphExecGetFlags(exec3, &fl));
  printf("auto-free exec flags: %llu\n", fl);
  for (int i = 0; i < 2; i++) {
    CK(cudaGraphLaunch(exec3, s));
    CK(cudaStreamSynchronize(s));
  }
  expect_iota(h, 21, "auto free on launch, twice");
  printf("unfreed allocation in use: %s\n",
         attr(cudaGraphMemAttrUsedMemCurrent) >= BYTES ? "yes" : "no");

  // 4. Everything gone, then trim.
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphExecDestroy(exec2));
  CK(cudaGraphExecDestroy(exec3));
  CK(cudaGraphDestroy(g));
  CK(cudaGraphDestroy(g2));
  CK(cudaGraphDestroy(g3));
  // The allocation no free node freed outlives its graph: cudaFree it.
  CK(cudaFree(ap3.dptr));
  CK(cudaDeviceSynchronize());
  CK(cudaDeviceGraphMemTrim(0));
  unsigned long long after = attr(cudaGraphMemAttrReservedMemCurrent);
  fprintf(stderr, "reserved after trim %llu\n", after);
  printf("reserved after trim: %llu\n", after);
  CK_EQ(cudaDeviceGraphMemTrim(99), cudaErrorInvalidDevice);
  unsigned long long v = 0;
  CK_EQ(cudaDeviceGetGraphMemAttribute(99, cudaGraphMemAttrUsedMemHigh, &v), cudaErrorInvalidDevice);
  printf("invalid device: cudaErrorInvalidDevice\n");
  (void)cudaGetLastError();

  CK(cudaStreamDestroy(s));
  CK(cudaFreeHost(h));
  return sample_pass();
}
