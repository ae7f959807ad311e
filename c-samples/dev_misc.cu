// dev_misc: the device calls beyond the core. P2P attributes (device 0
// with itself, and invalid pairs), host and P2P atomic capabilities, the
// 1D linear texture width limit for several channel formats, the
// deprecated shared-memory bank configuration (get, set, get), the
// persisting-L2 reset, the GPUDirect RDMA flush, async notifications
// (register, unregister, unregister again), NvSciSync attributes without
// NvSci, cudaGetExportTable with an unknown UUID. Where the answer depends
// on the machine the error NAME is printed; the runtime must keep working
// afterwards (a launch and a copy).
#define SAMPLE_NAME "dev_misc"
#include "common/check.h"
#include <string.h>

__global__ void fill(int *p, int v) { p[threadIdx.x] = v + threadIdx.x; }

// A channel format built by hand (cudaCreateChannelDesc is another
// family's export; this sample tests only its own).
static cudaChannelFormatDesc channels(int x, int y, int z, int w, cudaChannelFormatKind f) {
  cudaChannelFormatDesc d = {x, y, z, w, f};
  return d;
}

static void note(const char *what, cudaError_t e) {
  printf("%-52s %s\n", what, err_name(e));
}

static void on_notification(cudaAsyncNotificationInfo_t *info, void *user,
                            cudaAsyncCallbackHandle_t handle) {
  (void)info;
  (void)handle;
  ++*(int *)user;
}

int main() {
  CK(cudaFree(0));
  int count = 0;
  CK(cudaGetDeviceCount(&count));

  // P2P attributes: device 0 with itself (the driver's answer), invalid
  // devices, a null output.
  const cudaDeviceP2PAttr attrs[] = {
      cudaDevP2PAttrPerformanceRank, cudaDevP2PAttrAccessSupported,
      cudaDevP2PAttrNativeAtomicSupported, cudaDevP2PAttrCudaArrayAccessSupported,
      cudaDevP2PAttrOnlyPartialNativeAtomicSupported};
  for (cudaDeviceP2PAttr a : attrs) {
    int v = -7;
    cudaError_t e = cudaDeviceGetP2PAttribute(&v, a, 0, 0);
    if (e == cudaSuccess)
      printf("p2p attr %d 0->0: %-37s value %d\n", (int)a, err_name(e), v);
    else
      printf("p2p attr %d 0->0: %s\n", (int)a, err_name(e));
  }
  if (count > 1) {
    int v = -7;
    CK(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 1));
    printf("p2p access 0->1 reported: yes\n");
  }
  int v = 0;
  note("p2p attr, device 0 -> count", cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, count));
  note("p2p attr, device -1 -> 0", cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, -1, 0));
  note("p2p attr 99", cudaDeviceGetP2PAttribute(&v, (cudaDeviceP2PAttr)99, 0, 0));
  (void)cudaGetLastError();

  // Atomic capabilities: every operation at once.
  const cudaAtomicOperation ops[] = {
      cudaAtomicOperationIntegerAdd,       cudaAtomicOperationIntegerMin,
      cudaAtomicOperationIntegerMax,       cudaAtomicOperationIntegerIncrement,
      cudaAtomicOperationIntegerDecrement, cudaAtomicOperationAnd,
      cudaAtomicOperationOr,               cudaAtomicOperationXOR,
      cudaAtomicOperationExchange,         cudaAtomicOperationCAS,
      cudaAtomicOperationFloatAdd,         cudaAtomicOperationFloatMin,
      cudaAtomicOperationFloatMax};
  const unsigned n_ops = sizeof(ops) / sizeof(ops[0]);
  unsigned caps[n_ops];
  memset(caps, 0xEE, sizeof(caps));
  cudaError_t e = cudaDeviceGetHostAtomicCapabilities(caps, ops, n_ops, 0);
  note("host atomic capabilities", e);
  if (e == cudaSuccess)
    for (unsigned i = 0; i < n_ops; i++) printf("  host op %2u caps 0x%02x\n", i, caps[i]);
  memset(caps, 0xEE, sizeof(caps));
  e = cudaDeviceGetP2PAtomicCapabilities(caps, ops, n_ops, 0, 0);
  note("p2p atomic capabilities 0->0", e);
  if (e == cudaSuccess)
    for (unsigned i = 0; i < n_ops; i++) printf("  p2p op %2u caps 0x%02x\n", i, caps[i]);
  note("host atomic capabilities, device count", cudaDeviceGetHostAtomicCapabilities(caps, ops, n_ops, count));
  (void)cudaGetLastError();

  // 1D linear texture width limits.
  struct {
    const char *name;
    cudaChannelFormatDesc d;
  } formats[] = {
      {"float1", channels(32, 0, 0, 0, cudaChannelFormatKindFloat)},
      {"float4", channels(32, 32, 32, 32, cudaChannelFormatKindFloat)},
      {"uchar4", channels(8, 8, 8, 8, cudaChannelFormatKindUnsigned)},
      {"short2", channels(16, 16, 0, 0, cudaChannelFormatKindSigned)},
      {"half1", channels(16, 0, 0, 0, cudaChannelFormatKindFloat)},
      {"unorm8x4", channels(8, 8, 8, 8, cudaChannelFormatKindUnsignedNormalized8X4)},
  };
  for (auto &f : formats) {
    size_t w = 0;
    CK(cudaDeviceGetTexture1DLinearMaxWidth(&w, &f.d, 0));
    printf("tex1D linear max width %-10s %zu\n", f.name, w);
    EXPECT(w > 0, "zero width for %s", f.name);
  }
  size_t w = 0;
  cudaChannelFormatDesc three = channels(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
  note("tex1D width, 3-channel uchar", cudaDeviceGetTexture1DLinearMaxWidth(&w, &three, 0));
  note("tex1D width, device count", cudaDeviceGetTexture1DLinearMaxWidth(&w, &formats[0].d, count));
  (void)cudaGetLastError();

  // Shared-memory bank configuration (deprecated).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  cudaSharedMemConfig cfg = (cudaSharedMemConfig)77;
  CK(cudaDeviceGetSharedMemConfig(&cfg));
  printf("shared mem config: %d\n", (int)cfg);
  EXPECT(cfg == cudaSharedMemBankSizeFourByte || cfg == cudaSharedMemBankSizeEightByte,
         "bank size %d", (int)cfg);
  note("set shared mem config eight-byte", cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
  cfg = (cudaSharedMemConfig)77;
  CK(cudaDeviceGetSharedMemConfig(&cfg));
  printf("shared mem config after set: %d\n", (int)cfg);
  CK(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeDefault));
  note("set shared mem config 7", cudaDeviceSetSharedMemConfig((cudaSharedMemConfig)7));
#pragma GCC diagnostic pop
  (void)cudaGetLastError();

  // Persisting L2 and GPUDirect RDMA.
  CK(cudaCtxResetPersistingL2Cache());
  printf("persisting L2 reset: ok\n");
  int rdma = -1;
  CK(cudaDeviceGetAttribute(&rdma, cudaDevAttrGPUDirectRDMAFlushWritesOptions, 0));
  printf("GPUDirect RDMA flush options: 0x%x\n", rdma);
  note("flush RDMA writes to owner",
       cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                          cudaFlushGPUDirectRDMAWritesToOwner));
  note("flush RDMA writes to all devices",
       cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                          cudaFlushGPUDirectRDMAWritesToAllDevices));
  note("flush RDMA writes, scope 7",
       cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                          (cudaFlushGPUDirectRDMAWritesScope)7));
  (void)cudaGetLastError();

  // Async notifications: nothing is over budget here, so the callback is
  // not expected to run; registration and unregistration are.
  int calls = 0;
  cudaAsyncCallbackHandle_t handle = NULL;
  e = cudaDeviceRegisterAsyncNotification(0, on_notification, &calls, &handle);
  note("register async notification", e);
  if (e == cudaSuccess) {
    EXPECT(handle != NULL, "registered, but no handle");
    note("unregister async notification", cudaDeviceUnregisterAsyncNotification(0, handle));
  }
  cudaAsyncCallbackHandle_t other = NULL;
  note("register, device count", cudaDeviceRegisterAsyncNotification(count, on_notification, &calls, &other));
  (void)cudaGetLastError();

  // Private export tables: an unknown UUID.
  const void *table = (const void *)0x1;
  cudaUUID_t unknown;
  memset(&unknown, 0x5A, sizeof(unknown));
  note("export table, unknown UUID", cudaGetExportTable(&table, &unknown));
  printf("export table pointer after: %s\n", table == NULL ? "NULL" : "set");
  (void)cudaGetLastError();

  // The runtime still works.
  int *d = NULL, h[32];
  CK(cudaMalloc(&d, sizeof(h)));
  fill<<<1, 32>>>(d, 100);
  CK_LAUNCH();
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 32; i++) EXPECT(h[i] == 100 + i, "h[%d] = %d", i, h[i]);
  CK(cudaFree(d));
  printf("launch and copy after the calls above: ok\n");
  printf("async notification callbacks run: %s\n", calls == 0 ? "none" : "some");

  // NULL arguments and a second unregistration, last. On the H200 (run of
  // 2026-12-03) both runtimes printed every line up to "register, null
  // handle out" and then died (rc 139): the second unregistration of a
  // notification handle is a use-after-free in the driver. Ours now
  // refuses a handle it has unregistered (cudaErrorInvalidValue, the
  // retired-handle table); NVIDIA's still hands it to the driver. Lines are
  // printed as each call returns (stdout is line-buffered, see check.h).
  note("p2p attr, null value", cudaDeviceGetP2PAttribute(NULL, cudaDevP2PAttrAccessSupported, 0, 0));
  note("host atomic capabilities, null caps", cudaDeviceGetHostAtomicCapabilities(NULL, ops, n_ops, 0));
  note("tex1D width, null format", cudaDeviceGetTexture1DLinearMaxWidth(&w, NULL, 0));
  note("tex1D width, null output", cudaDeviceGetTexture1DLinearMaxWidth(NULL, &formats[0].d, 0));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  note("get shared mem config, null", cudaDeviceGetSharedMemConfig(NULL));
#pragma GCC diagnostic pop
  note("NvSciSync attributes, null list", cudaDeviceGetNvSciSyncAttributes(NULL, 0, cudaNvSciSyncAttrSignal));
  note("export table, null UUID", cudaGetExportTable(&table, NULL));
  note("export table, null output", cudaGetExportTable(NULL, &unknown));
  note("register, null handle out", cudaDeviceRegisterAsyncNotification(0, on_notification, &calls, NULL));
  (void)cudaGetLastError();
  if (handle != NULL) {
    note("unregister it again", cudaDeviceUnregisterAsyncNotification(0, handle));
    (void)cudaGetLastError();
  }
  return sample_pass();
}
