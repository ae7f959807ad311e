// cuda135_api: every function CUDA 13.5 added to libcudart.so.13, called
// with valid arguments (built with nvcc 13.5 only: c-samples/build.sh
// builds it when its nvcc is 13.5 or newer).
//
// Prints "<call> -> <code name>" for each call, the last error after it,
// and the outputs that are deterministic on one machine (SM counts, the
// device, parameter counts; never handles or ids, only whether an id is
// nonzero). Written for the project lead to run on the H200 under NVIDIA's
// 13.5 runtime and under ours: the two stdouts must be identical.
//
// What it checks (EXPECT_*): the answer NVIDIA's 13.5 runtime gives on the
// machine's driver, where that is known:
//  - a call whose driver entry point is newer than the driver (driver 580 =
//    CUDA 13.0 has none of 13.1's) answers cudaErrorCallRequiresNewerDriver
//    and records it as the last error: measured on the H200 for
//    cudaFuncGetParamCount and cudaGraphGetId; for the others (marked
//    "newer(V)": V = the CUDA version of the driver call they need, from
//    cudaTypedefs.h of 13.5) it is the same rule, assumed;
//  - the device-resource and green-context calls use driver calls of CUDA
//    12.4-13.0 and must succeed on driver 580.
// Where what NVIDIA's runtime answers cannot be known before the first run
// (marked "UNKNOWN"), the code is printed and not checked: destroying a
// primary context's execution context, the flags a green context's stream
// gets, a conditional handle of a green context, the subgrid calls (no
// public prototype: called with six NULL arguments, only the code printed).
//
// Without a driver every call is made once with the same arguments where
// they need no device (NULLs otherwise) and only the codes are printed:
// that mode runs in CI (abi-tests/tests/nodriver135.rs) against NVIDIA's
// 13.5 runtime and ours.
#define SAMPLE_NAME "cuda135_api"
#include "common/check.h"
#include <string.h>

#if CUDART_VERSION < 13050
#error "cuda135_api needs the CUDA 13.5 headers (nvcc 13.5 or newer)"
#endif

// The _ptsz forms: what --default-stream per-thread maps the calls to;
// declared here and called by name so that one build calls both.
extern "C" {
cudaError_t cudaMemcpyWithAttributesAsync_ptsz(void *, const void *, size_t, struct cudaMemcpyAttributes *,
                                               cudaStream_t);
cudaError_t cudaMemcpy3DWithAttributesAsync_ptsz(struct cudaMemcpy3DBatchOp *, unsigned long long, cudaStream_t);
cudaError_t cudaLaunchHostFunc_v2_ptsz(cudaStream_t, cudaHostFn_t, void *, unsigned int);
cudaError_t cudaStreamBeginRecaptureToGraph_ptsz(cudaStream_t, enum cudaStreamCaptureMode, cudaGraph_t,
                                                 struct cudaGraphRecaptureCallbackData *);
cudaError_t cudaStreamGetDevResource_ptsz(cudaStream_t, cudaDevResource *, enum cudaDevResourceType);
// The subgrid calls: exported by 13.5's libcudart.so.13, declared by no
// public header (a developer preview). Six NULL arguments (UNKNOWN).
cudaError_t cudaSubgridCreate(void *, void *, void *, void *, void *, void *);
cudaError_t cudaSubgridWorkerGridCreate(void *, void *, void *, void *, void *, void *);
cudaError_t cudaSubgridWorksetCreate(void *, void *, void *, void *, void *, void *);
}

__global__ void k3(int *out, int a, char c) { out[threadIdx.x] = a + c; }

static int g_driver = 0;   // cudaDriverGetVersion
static int g_device = 1;   // a device is there
static int g_failures = 0;

static void host_fn(void *p) { *(int *)p += 1; }

// Prints the call's code and the last error after it.
static cudaError_t show(const char *what, cudaError_t e) {
  cudaError_t last = cudaGetLastError();
  printf("%s -> %s; lasterror -> %s\n", what, err_name(e), err_name(last));
  return e;
}
#define R(call) show(#call, (call))

static void mismatch(const char *what, const char *want, cudaError_t got) {
  printf("MISMATCH %s: expected %s, got %s\n", what, want, err_name(got));
  g_failures++;
}

// The call must succeed (on a device).
#define EXPECT_OK(call)                                                        \
  do {                                                                         \
    cudaError_t e_ = R(call);                                                  \
    if (g_device && e_ != cudaSuccess) mismatch(#call, "cudaSuccess", e_);     \
  } while (0)

// The call needs driver call of CUDA `need`: on an older driver NVIDIA's
// 13.5 runtime answers cudaErrorCallRequiresNewerDriver (and R shows that
// it is the last error too); on a newer one it must succeed.
#define EXPECT_NEWER(need, call)                                               \
  do {                                                                         \
    cudaError_t e_ = R(call);                                                  \
    if (g_device) {                                                            \
      cudaError_t want_ = g_driver < (need) ? cudaErrorCallRequiresNewerDriver \
                                            : cudaSuccess;                     \
      if (e_ != want_) mismatch(#call, err_name(want_), e_);                   \
    }                                                                          \
  } while (0)

// UNKNOWN: printed only.
#define SHOW(call) (void)R(call)

int main() {
  int rt = 0;
  CK(cudaRuntimeGetVersion(&rt));
  printf("cudaRuntimeGetVersion -> %d\n", rt);
  EXPECT(rt == 13050, "cudaRuntimeGetVersion says %d, NVIDIA's 13.5 runtime says 13050", rt);
  CK(cudaDriverGetVersion(&g_driver));
  int count = 0;
  cudaError_t ce = cudaGetDeviceCount(&count);
  (void)cudaGetLastError();
  g_device = ce == cudaSuccess && count > 0;
  if (g_device) {
    printf("driver %d.%d\n", g_driver / 1000, g_driver % 1000 / 10);
  } else {
    printf("no device: cudaGetDeviceCount -> %s (codes only below)\n", err_name(ce));
  }

  // Memory and a stream for the calls that take them (NULL without a device).
  int *d = NULL, *h = NULL, *m = NULL;
  cudaStream_t s = NULL;
  if (g_device) {
    CK(cudaMalloc(&d, 64 * sizeof(int)));
    CK(cudaMallocHost(&h, 64 * sizeof(int)));
    CK(cudaMallocManaged(&m, 4096));
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaMemset(d, 0, 64 * sizeof(int)));
  }

  // --- Functions: cudaFuncGetParamCount (newer(13.2): cuKernelGetParamCount).
  size_t nparams = 0;
  EXPECT_NEWER(13020, cudaFuncGetParamCount((const void *)k3, &nparams));
  printf("  k3 parameters: %zu\n", nparams);

  // --- Device resources (driver calls of 12.4-13.0: real on driver 580).
  cudaDevResource sm;
  memset(&sm, 0, sizeof(sm));
  EXPECT_OK(cudaDeviceGetDevResource(0, &sm, cudaDevResourceTypeSm));
  printf("  device SMs: count %u, min partition %u, co-scheduled alignment %u\n", sm.sm.smCount,
         sm.sm.minSmPartitionSize, sm.sm.smCoscheduledAlignment);
  unsigned int groups = 0;
  cudaDevResource rem;
  memset(&rem, 0, sizeof(rem));
  EXPECT_OK(cudaDevSmResourceSplitByCount(NULL, &groups, &sm, NULL, 0, 16));
  printf("  groups of 16 SMs: %u\n", groups);
  cudaDevResource parts[64];
  memset(parts, 0, sizeof(parts));
  unsigned int n = groups < 64 ? groups : 64;
  EXPECT_OK(cudaDevSmResourceSplitByCount(parts, &n, &sm, &rem, 0, 16));
  printf("  split: %u groups, first %u SMs, remaining %u SMs\n", n, parts[0].sm.smCount, rem.sm.smCount);
  // newer(13.1): cuDevSmResourceSplit.
  cudaDevSmResourceGroupParams gp;
  memset(&gp, 0, sizeof(gp));
  gp.smCount = 16;
  cudaDevResource one;
  memset(&one, 0, sizeof(one));
  EXPECT_NEWER(13010, cudaDevSmResourceSplit(&one, 1, &sm, &rem, 0, &gp));
  cudaDevResourceDesc_t desc = NULL;
  EXPECT_OK(cudaDevResourceGenerateDesc(&desc, parts, 1));

  // --- Execution contexts: a green context of the first group, and the
  // primary context's.
  cudaExecutionContext_t green = NULL, primary = NULL;
  EXPECT_OK(cudaGreenCtxCreate(&green, desc, 0, 0));
  EXPECT_OK(cudaDeviceGetExecutionCtx(&primary, 0));
  cudaDevResource gr;
  memset(&gr, 0, sizeof(gr));
  EXPECT_OK(cudaExecutionCtxGetDevResource(green, &gr, cudaDevResourceTypeSm));
  printf("  green context SMs: %u (the group's: %s)\n", gr.sm.smCount,
         gr.sm.smCount == parts[0].sm.smCount ? "same" : "DIFFERENT");
  if (g_device && gr.sm.smCount != parts[0].sm.smCount) g_failures++;
  cudaDevResource pr;
  memset(&pr, 0, sizeof(pr));
  EXPECT_OK(cudaExecutionCtxGetDevResource(primary, &pr, cudaDevResourceTypeSm));
  printf("  primary context SMs: %u\n", pr.sm.smCount);
  int dev = -1;
  EXPECT_OK(cudaExecutionCtxGetDevice(&dev, green));
  printf("  green context device: %d\n", dev);
  dev = -1;
  EXPECT_OK(cudaExecutionCtxGetDevice(&dev, primary));
  printf("  primary context device: %d\n", dev);
  unsigned long long gid = 0, pid = 0;
  EXPECT_OK(cudaExecutionCtxGetId(green, &gid));
  EXPECT_OK(cudaExecutionCtxGetId(primary, &pid));
  printf("  ids: green %s, primary %s, %s\n", gid ? "nonzero" : "zero", pid ? "nonzero" : "zero",
         gid != pid ? "distinct" : "SAME");

  // A stream of the green context runs a kernel; an event recorded on the
  // green context is waited for by the primary one.
  cudaStream_t gs = NULL;
  EXPECT_OK(cudaExecutionCtxStreamCreate(&gs, green, cudaStreamNonBlocking, 0));
  unsigned int gflags = 99;
  if (gs) {
    SHOW(cudaStreamGetFlags(gs, &gflags));  // UNKNOWN: the flags it reports
    printf("  green stream flags: %u\n", gflags);
    k3<<<1, 4, 0, gs>>>(d, 40, 2);
    SHOW(cudaGetLastError());
  }
  cudaStream_t ps = NULL;
  EXPECT_OK(cudaExecutionCtxStreamCreate(&ps, primary, 0, 0));
  cudaEvent_t ev = NULL;
  if (g_device) CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  EXPECT_OK(cudaExecutionCtxRecordEvent(green, ev));
  EXPECT_OK(cudaExecutionCtxWaitEvent(primary, ev));
  EXPECT_OK(cudaExecutionCtxSynchronize(green));
  EXPECT_OK(cudaExecutionCtxSynchronize(primary));
  if (g_device) {
    int got[4] = {0, 0, 0, 0};
    CK(cudaMemcpy(got, d, sizeof(got), cudaMemcpyDeviceToHost));
    printf("  green stream kernel wrote: %d %d %d %d\n", got[0], got[1], got[2], got[3]);
    if (got[0] != 42 || got[3] != 42) g_failures++;
  }
  // Works on a 13.0 driver too under NVIDIA's 13.5 runtime (measured on
  // the H200, driver 580): the stream's green context's resources.
  cudaDevResource sr;
  memset(&sr, 0, sizeof(sr));
  EXPECT_OK(cudaStreamGetDevResource(gs, &sr, cudaDevResourceTypeSm));
  printf("  green stream SMs: %u\n", sr.sm.smCount);
  memset(&sr, 0, sizeof(sr));
  EXPECT_OK(cudaStreamGetDevResource_ptsz(gs, &sr, cudaDevResourceTypeSm));
  printf("  green stream SMs (_ptsz): %u\n", sr.sm.smCount);

  // --- Graphs: ids and node queries (newer(13.1)/(13.2)), conditional
  // handles of an execution context (cuGraphConditionalHandleCreate: 12.3).
  cudaGraph_t g = NULL;
  cudaGraphNode_t node = NULL;
  cudaGraphExec_t exec = NULL;
  if (g_device) {
    CK(cudaGraphCreate(&g, 0));
    int a = 1;
    char c = 2;
    void *args[] = {&d, &a, &c};
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof(kp));
    kp.func = (void *)k3;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(4);
    kp.kernelParams = args;
    CK(cudaGraphAddKernelNode(&node, g, NULL, 0, &kp));
  }
  unsigned int id = 0;
  unsigned long long tools = 0;
  cudaGraph_t owner = NULL;
  EXPECT_NEWER(13010, cudaGraphGetId(g, &id));
  EXPECT_NEWER(13010, cudaGraphNodeGetContainingGraph(node, &owner));
  printf("  containing graph: %s\n", owner == g ? "the graph" : "other");
  EXPECT_NEWER(13010, cudaGraphNodeGetLocalId(node, &id));
  EXPECT_NEWER(13010, cudaGraphNodeGetToolsId(node, &tools));
  // 13.5's cudaGraphNodeParams has no default constructor: zeroed storage.
  alignas(cudaGraphNodeParams) static unsigned char npbuf[sizeof(cudaGraphNodeParams)];
  cudaGraphNodeParams *np = (cudaGraphNodeParams *)npbuf;
  EXPECT_NEWER(13020, cudaGraphNodeGetParams(node, np));
  printf("  node params type: %d\n", (int)np->type);
  cudaGraphConditionalHandle ch = 0;
  EXPECT_OK(cudaGraphConditionalHandleCreate_v2(&ch, g, NULL, 0, 0));
  EXPECT_OK(cudaGraphConditionalHandleCreate_v2(&ch, g, primary, 1, cudaGraphCondAssignDefault));
  SHOW(cudaGraphConditionalHandleCreate_v2(&ch, g, green, 0, 0));  // UNKNOWN
  // Both runtimes answer cudaErrorInvalidValue here on the H200 (a handle
  // of the green context in the graph); printed, not fatal.
  if (g_device) SHOW(cudaGraphInstantiate(&exec, g, 0));
  EXPECT_NEWER(13010, cudaGraphExecGetId(exec, &id));

  // --- Copies with attributes (newer(13.2)).
  cudaMemcpyAttributes attr;
  memset(&attr, 0, sizeof(attr));
  attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  attr.srcLocHint.type = cudaMemLocationTypeHost;
  attr.dstLocHint.type = cudaMemLocationTypeDevice;
  EXPECT_NEWER(13020, cudaMemcpyWithAttributesAsync(d, h, 64 * sizeof(int), &attr, s));
  EXPECT_NEWER(13020, cudaMemcpyWithAttributesAsync_ptsz(d, h, 64 * sizeof(int), &attr, s));
  cudaMemcpy3DBatchOp op;
  memset(&op, 0, sizeof(op));
  op.src.type = cudaMemcpyOperandTypePointer;
  op.src.op.ptr.ptr = h;
  op.src.op.ptr.locHint.type = cudaMemLocationTypeHost;
  op.dst.type = cudaMemcpyOperandTypePointer;
  op.dst.op.ptr.ptr = d;
  op.dst.op.ptr.locHint.type = cudaMemLocationTypeDevice;
  op.extent = make_cudaExtent(64 * sizeof(int), 1, 1);
  op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  EXPECT_NEWER(13020, cudaMemcpy3DWithAttributesAsync(&op, 0, s));
  EXPECT_NEWER(13020, cudaMemcpy3DWithAttributesAsync_ptsz(&op, 0, s));

  // --- Host functions with a sync mode (newer(13.1)).
  int hits = 0;
  EXPECT_NEWER(13010, cudaLaunchHostFunc_v2(s, host_fn, &hits, cudaHostTaskBlocking));
  EXPECT_NEWER(13010, cudaLaunchHostFunc_v2_ptsz(s, host_fn, &hits, cudaHostTaskSpinWait));
  if (g_device) CK(cudaStreamSynchronize(s));
  printf("  host functions ran: %d\n", hits);

  // --- Recapture into an existing graph (newer(13.3)); ended at once
  // when it began.
  cudaGraph_t rg = NULL;
  if (g_device) CK(cudaGraphCreate(&rg, 0));
  if (R(cudaStreamBeginRecaptureToGraph(s, cudaStreamCaptureModeGlobal, rg, NULL)) == cudaSuccess) {
    cudaGraph_t out = NULL;
    CK(cudaStreamEndCapture(s, &out));
  } else if (g_device && g_driver >= 13030) {
    mismatch("cudaStreamBeginRecaptureToGraph", "cudaSuccess", cudaErrorUnknown);
  }
  if (R(cudaStreamBeginRecaptureToGraph_ptsz(s, cudaStreamCaptureModeGlobal, rg, NULL)) == cudaSuccess) {
    cudaGraph_t out = NULL;
    CK(cudaStreamEndCapture(s, &out));
  }

  // --- Where managed memory lives (newer(13.4)).
  cudaMemLocation loc;
  memset(&loc, 0, sizeof(loc));
  EXPECT_NEWER(13040, cudaMemGetLocationInfo(m, 4096, 4096, 4096, &loc));

  // --- Subgrid schedules (UNKNOWN: no prototype, NULL arguments).
  SHOW(cudaSubgridCreate(NULL, NULL, NULL, NULL, NULL, NULL));
  SHOW(cudaSubgridWorkerGridCreate(NULL, NULL, NULL, NULL, NULL, NULL));
  SHOW(cudaSubgridWorksetCreate(NULL, NULL, NULL, NULL, NULL, NULL));

  // --- What 13.5 added to calls of 13.0 (UNKNOWN: printed only): the new
  // device attributes, limit, memory-pool attributes, and the members 13.5
  // named in cudaFuncAttributes and cudaPointerAttributes.
  const int attrs[] = {148, 149, 150, 151, 157, 160};
  for (int a : attrs) {
    int v = -1;
    cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)a, 0);
    printf("cudaDeviceGetAttribute(%d) -> %s, %d; lasterror -> %s\n", a, err_name(e), v,
           err_name(cudaGetLastError()));
  }
  size_t lim = 0;
  cudaError_t le = cudaDeviceGetLimit(&lim, cudaLimitPerBlockMemorySize);
  printf("cudaDeviceGetLimit(cudaLimitPerBlockMemorySize) -> %s, %zu; lasterror -> %s\n", err_name(le),
         lim, err_name(cudaGetLastError()));
  cudaMemPool_t pool = NULL;
  if (g_device) CK(cudaDeviceGetDefaultMemPool(&pool, 0));
  for (int a = 0x9; a <= 0xF && pool; a++) {
    unsigned long long v = 0;  // the widest any of them is
    cudaError_t e = cudaMemPoolGetAttribute(pool, (cudaMemPoolAttr)a, &v);
    printf("cudaMemPoolGetAttribute(0x%x) -> %s, %llu; lasterror -> %s\n", a, err_name(e), v,
           err_name(cudaGetLastError()));
  }
  cudaFuncAttributes fa;
  memset(&fa, 0x5a, sizeof(fa));
  SHOW(cudaFuncGetAttributes(&fa, (const void *)k3));
  printf("  k3 deviceNodeUpdateStatus %d, sharedMemoryMode %d (maxDynamicSharedSizeBytes %d)\n",
         fa.deviceNodeUpdateStatus, (int)fa.sharedMemoryMode, fa.maxDynamicSharedSizeBytes);
  // Does sharedMemoryMode follow maxDynamicSharedSizeBytes on this driver?
  // Raise the latter, ask again, and put it back.
  SHOW(cudaFuncSetAttribute((const void *)k3, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  memset(&fa, 0x5a, sizeof(fa));
  SHOW(cudaFuncGetAttributes(&fa, (const void *)k3));
  printf("  k3 deviceNodeUpdateStatus %d, sharedMemoryMode %d (maxDynamicSharedSizeBytes %d)\n",
         fa.deviceNodeUpdateStatus, (int)fa.sharedMemoryMode, fa.maxDynamicSharedSizeBytes);
  SHOW(cudaFuncSetAttribute((const void *)k3, cudaFuncAttributeMaxDynamicSharedMemorySize, 49152));
  cudaPointerAttributes pa;
  memset(&pa, 0x5a, sizeof(pa));
  SHOW(cudaPointerGetAttributes(&pa, d));
  printf("  device pointer localityDomainOrdinal %d\n", pa.localityDomainOrdinal);

  // --- Teardown: the green context is destroyed; the primary context's
  // execution context (UNKNOWN) stays usable for the runtime.
  if (gs) CK(cudaStreamDestroy(gs));
  if (ps) CK(cudaStreamDestroy(ps));
  EXPECT_OK(cudaExecutionCtxDestroy(green));
  SHOW(cudaExecutionCtxDestroy(primary));
  if (g_device) {
    CK(cudaDeviceSynchronize());
    CK(cudaMemset(d, 0, 4));  // the runtime's own context still works
    if (exec) CK(cudaGraphExecDestroy(exec));
    if (g) CK(cudaGraphDestroy(g));
    if (rg) CK(cudaGraphDestroy(rg));
    if (ev) CK(cudaEventDestroy(ev));
    CK(cudaStreamDestroy(s));
    CK(cudaFree(d));
    CK(cudaFreeHost(h));
    CK(cudaFree(m));
  }
  if (g_failures) sample_fail("%d result(s) differ from NVIDIA's 13.5 runtime on driver %d", g_failures, g_driver);
  return sample_pass();
}
