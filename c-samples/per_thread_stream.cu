// per_thread_stream: built with --default-stream per-thread (the _ptsz /
// _ptds entry points). Four threads each allocate, copy, launch on their
// default stream (0 = per-thread here) and on cudaStreamPerThread, copy
// back and check their own data; the report is printed in thread order.
#define SAMPLE_NAME "per_thread_stream"
#include "common/check.h"
#include <string>
#include <thread>
#include <vector>

__global__ void affine(int *p, int n, int mul, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * mul + add;
}

static std::string worker(int t) {
  const int n = 100000 + 1000 * t;
  std::vector<int> h(n);
  for (int i = 0; i < n; i++) h[i] = i + t;
  int *d = NULL;
  int *pin = NULL;
  char buf[200];
#define W(call)                                                               \
  do {                                                                        \
    cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess) {                                                  \
      snprintf(buf, sizeof(buf), "thread %d: %s -> %s", t, #call, err_name(e_)); \
      return buf;                                                             \
    }                                                                         \
  } while (0)
  W(cudaMalloc(&d, n * sizeof(int)));
  W(cudaMallocHost(&pin, n * sizeof(int)));
  for (int round = 0; round < 20; round++) {
    W(cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    affine<<<(n + 255) / 256, 256>>>(d, n, 2, t);  // stream 0: per-thread
    W(cudaGetLastError());
    affine<<<(n + 255) / 256, 256, 0, cudaStreamPerThread>>>(d, n, 1, round);
    W(cudaGetLastError());
    W(cudaMemcpyAsync(pin, d, n * sizeof(int), cudaMemcpyDeviceToHost, 0));
    W(cudaStreamSynchronize(0));
    W(cudaStreamQuery(cudaStreamPerThread));
    for (int i = 0; i < n; i++) {
      int want = (i + t) * 2 + t + round;
      if (pin[i] != want) {
        snprintf(buf, sizeof(buf), "thread %d round %d: p[%d] = %d, expected %d",
                 t, round, i, pin[i], want);
        return buf;
      }
    }
  }
  W(cudaFreeHost(pin));
  W(cudaFree(d));
  snprintf(buf, sizeof(buf), "thread %d: n=%d 20 rounds ok", t, n);
  return std::string("ok:") + buf;
#undef W
}

int main() {
  const int nthreads = 4;
  std::vector<std::string> res(nthreads);
  std::vector<std::thread> th;
  for (int t = 0; t < nthreads; t++) th.emplace_back([t, &res] { res[t] = worker(t); });
  for (auto &x : th) x.join();
  int bad = 0;
  for (int t = 0; t < nthreads; t++) {
    bool ok = res[t].compare(0, 3, "ok:") == 0;
    printf("%s\n", ok ? res[t].c_str() + 3 : res[t].c_str());
    bad += !ok;
  }
  EXPECT(bad == 0, "%d thread(s) failed", bad);
  // The legacy stream from the main thread still works with this build.
  CK(cudaStreamSynchronize(cudaStreamLegacy));
  CK(cudaDeviceSynchronize());
  return sample_pass();
}
