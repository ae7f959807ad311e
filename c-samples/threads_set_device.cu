// threads_set_device: 8 threads start together with no runtime call made
// before (concurrent initialisation); each calls cudaSetDevice(0),
// allocates, launches, copies back and checks, then reads its current
// context through the driver API. All must see the same context, and it
// must be device 0's primary context, active. Links with -lcuda.
#include <cuda.h>
#define SAMPLE_NAME "threads_set_device"
#include "common/check.h"
#include <atomic>
#include <string>
#include <thread>
#include <vector>

__global__ void fill(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v * 1000 + i;
}

static std::atomic<int> ready{0};

static std::string worker(int t, CUcontext *ctx_out) {
  char buf[200];
  ready.fetch_add(1);
  while (ready.load() < 8) {
  }
#define W(call)                                                               \
  do {                                                                        \
    cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess) {                                                  \
      snprintf(buf, sizeof(buf), "thread %d: %s -> %s", t, #call, err_name(e_)); \
      return buf;                                                             \
    }                                                                         \
  } while (0)
  W(cudaSetDevice(0));
  const int n = 512;
  int *d = NULL, h[n];
  W(cudaMalloc(&d, sizeof(h)));
  fill<<<n / 128, 128>>>(d, n, t);
  W(cudaGetLastError());
  W(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (h[i] != t * 1000 + i) {
      snprintf(buf, sizeof(buf), "thread %d: h[%d] = %d", t, i, h[i]);
      return buf;
    }
  W(cudaFree(d));
  CUresult r = cuCtxGetCurrent(ctx_out);
  if (r != CUDA_SUCCESS || *ctx_out == NULL) {
    snprintf(buf, sizeof(buf), "thread %d: cuCtxGetCurrent -> %d, ctx %s", t, (int)r,
             *ctx_out ? "set" : "NULL");
    return buf;
  }
  snprintf(buf, sizeof(buf), "thread %d: ok", t);
  return std::string("ok:") + buf;
#undef W
}

int main() {
  const int nt = 8;
  std::vector<std::string> res(nt);
  std::vector<CUcontext> ctx(nt, (CUcontext)NULL);
  std::vector<std::thread> th;
  for (int t = 0; t < nt; t++)
    th.emplace_back([t, &res, &ctx] { res[t] = worker(t, &ctx[t]); });
  for (auto &x : th) x.join();
  int bad = 0;
  for (int t = 0; t < nt; t++) {
    bool ok = res[t].compare(0, 3, "ok:") == 0;
    printf("%s\n", ok ? res[t].c_str() + 3 : res[t].c_str());
    bad += !ok;
  }
  EXPECT(bad == 0, "%d thread(s) failed", bad);
  int same = 1;
  for (int t = 1; t < nt; t++) same &= ctx[t] == ctx[0];
  printf("all threads share one context: %s\n", same ? "yes" : "no");
  EXPECT(same, "threads saw different contexts");

  CKD(cuInit(0));  // already done by the runtime; harmless
  CUdevice dev;
  CKD(cuDeviceGet(&dev, 0));
  CUcontext primary = NULL;
  CKD(cuDevicePrimaryCtxRetain(&primary, dev));
  printf("it is the primary context: %s\n", primary == ctx[0] ? "yes" : "no");
  EXPECT(primary == ctx[0], "shared context is not the primary context");
  CKD(cuDevicePrimaryCtxRelease(dev));
  unsigned int flags = 0;
  int active = 0;
  CKD(cuDevicePrimaryCtxGetState(dev, &flags, &active));
  printf("primary context active: %s\n", active ? "yes" : "no");
  EXPECT(active, "primary context inactive");

  // The main thread made no runtime call: its first one uses the same.
  CK(cudaFree(0));
  CUcontext mainctx = NULL;
  CKD(cuCtxGetCurrent(&mainctx));
  EXPECT(mainctx == ctx[0], "main thread got another context");
  printf("main thread: same context\n");
  return sample_pass();
}
