// driver_context_first: a context created with the driver API and made
// current BEFORE any runtime call. The runtime must adopt it: cudaMalloc,
// a launch and cudaMemcpy run in it, it is still current afterwards, the
// allocation belongs to it, and the device's primary context stays inactive.
// Links with -lcuda (the driver).
#include <cuda.h>
#define SAMPLE_NAME "driver_context_first"
#include "common/check.h"

__global__ void square(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * p[i];
}

static void primary_state(CUdevice dev, const char *when, int want_active) {
  unsigned int flags = 0;
  int active = -1;
  CKD(cuDevicePrimaryCtxGetState(dev, &flags, &active));
  printf("primary context %s: %s\n", when, active ? "active" : "inactive");
  EXPECT(active == want_active, "primary context active=%d %s", active, when);
}

int main() {
  CKD(cuInit(0));
  CUdevice dev;
  CKD(cuDeviceGet(&dev, 0));
  CUcontext mine = NULL;
  CKD(cuCtxCreate(&mine, NULL, 0, dev));  // cuCtxCreate_v4, becomes current
  CUcontext cur = NULL;
  CKD(cuCtxGetCurrent(&cur));
  EXPECT(cur == mine, "cuCtxCreate did not make the context current");
  primary_state(dev, "before runtime calls", 0);

  // Runtime calls.
  int device = -1;
  CK(cudaGetDevice(&device));
  EXPECT(device == 0, "cudaGetDevice = %d", device);
  const int n = 4096;
  int *d, h[n];
  CK(cudaMalloc(&d, sizeof(h)));
  for (int i = 0; i < n; i++) h[i] = i - 2000;
  CK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
  square<<<n / 256, 256>>>(d, n);
  CK_LAUNCH();
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(h[i] == (i - 2000) * (i - 2000), "h[%d] = %d", i, h[i]);
  printf("runtime malloc/copy/launch in the driver's context: ok\n");

  CKD(cuCtxGetCurrent(&cur));
  EXPECT(cur == mine, "current context changed by the runtime");
  printf("current context after runtime calls: ours\n");

  CUcontext owner = NULL;
  CKD(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)d));
  EXPECT(owner == mine, "cudaMalloc'd pointer belongs to another context");
  printf("cudaMalloc'd pointer's context: ours\n");

  // A stream made by the runtime is in this context too.
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  CUcontext sctx = NULL;
  CKD(cuStreamGetCtx((CUstream)s, &sctx));
  EXPECT(sctx == mine, "runtime stream belongs to another context");
  square<<<n / 256, 256, 0, s>>>(d, 16);
  CK(cudaStreamSynchronize(s));
  CK(cudaStreamDestroy(s));
  printf("runtime stream's context: ours\n");

  primary_state(dev, "after runtime calls", 0);

  CK(cudaFree(d));
  CKD(cuCtxDestroy(mine));
  return sample_pass();
}
