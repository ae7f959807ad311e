// streams_events: streams of every creation kind, a kernel held back by a
// flag in mapped host memory (so "not ready" is certain, not a race):
// cudaStreamQuery / cudaEventQuery report cudaErrorNotReady while it waits,
// cudaStreamWaitEvent holds a second stream behind it; event timing
// (elapsed > 0, value on stderr only); an event without timing refuses
// cudaEventElapsedTime; cudaLaunchHostFunc and cudaStreamAddCallback run in
// stream order.
#define SAMPLE_NAME "streams_events"
#include "common/check.h"
#include <atomic>

__global__ void gate(volatile int *flag, int *out, long long max_cycles) {
  long long t0 = clock64();
  while (*flag == 0) {
    if (clock64() - t0 > max_cycles) {  // never hang: report instead
      *out = -1;
      return;
    }
  }
  *out = 1;
}

__global__ void after_gate(const int *in, int *out) { *out = *in * 10 + 5; }

__global__ void spin(long long cycles, int *sink) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
  if (threadIdx.x == 0) *sink = 1;
}

__global__ void bump(int *c) { *c += 1; }

static std::atomic<int> g_order_pos{0};
static int g_order[8];
static int g_device_count_seen[8];

struct HostArg {
  int id;
  int *pinned_counter;  // device bumps it before each host function
};

static void CUDART_CB host_fn(void *p) {
  HostArg *a = (HostArg *)p;
  int pos = g_order_pos.fetch_add(1);
  g_order[pos] = a->id;
  g_device_count_seen[pos] = *a->pinned_counter;
}

static cudaError_t g_cb_status = cudaErrorUnknown;
static void CUDART_CB stream_cb(cudaStream_t, cudaError_t status, void *user) {
  g_cb_status = status;
  int pos = g_order_pos.fetch_add(1);
  g_order[pos] = *(int *)user;
}

int main() {
  int least = 0, greatest = 0;
  CK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  printf("stream priorities: least %d greatest %d\n", least, greatest);
  cudaStream_t s0, s1, s2, s3;
  CK(cudaStreamCreate(&s0));
  CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithPriority(&s2, cudaStreamDefault, greatest));
  CK(cudaStreamCreateWithPriority(&s3, cudaStreamNonBlocking, least));
  unsigned int fl = 99;
  int prio = 99;
  CK(cudaStreamGetFlags(s1, &fl));
  EXPECT(fl == cudaStreamNonBlocking, "s1 flags %u", fl);
  CK(cudaStreamGetPriority(s2, &prio));
  EXPECT(prio == greatest, "s2 priority %d", prio);
  CK(cudaStreamGetPriority(s0, &prio));
  EXPECT(prio == 0, "s0 priority %d", prio);
  printf("stream flags and priorities: ok\n");

  // 1. Gate kernel on s0, s1 waits for its event.
  int *flag, *dev_flag;
  CK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  *flag = 0;
  CK(cudaHostGetDevicePointer(&dev_flag, flag, 0));
  int *d;
  CK(cudaMalloc(&d, 4 * sizeof(int)));
  CK(cudaMemset(d, 0, 4 * sizeof(int)));
  cudaEvent_t ev_gate;
  CK(cudaEventCreate(&ev_gate));
  gate<<<1, 1, 0, s0>>>((volatile int *)dev_flag, d, 20000000000LL);
  CK(cudaGetLastError());
  CK(cudaEventRecord(ev_gate, s0));
  CK(cudaStreamWaitEvent(s1, ev_gate, 0));
  after_gate<<<1, 1, 0, s1>>>(d, d + 1);
  CK(cudaGetLastError());
  CK_EQ(cudaStreamQuery(s0), cudaErrorNotReady);
  CK_EQ(cudaEventQuery(ev_gate), cudaErrorNotReady);
  CK_EQ(cudaStreamQuery(s1), cudaErrorNotReady);
  printf("while gated: stream %s, event %s, waiting stream %s\n",
         err_name(cudaErrorNotReady), err_name(cudaErrorNotReady),
         err_name(cudaErrorNotReady));
  printf("cudaGetLastError after not-ready queries: %s\n", err_name(cudaGetLastError()));
  *(volatile int *)flag = 1;  // open the gate
  CK(cudaStreamSynchronize(s1));
  CK(cudaStreamQuery(s0));
  CK(cudaEventQuery(ev_gate));
  int h[2];
  CK(cudaMemcpy(h, d, 2 * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(h[0] == 1, "gate kernel result %d (-1: timed out)", h[0]);
  EXPECT(h[1] == 15, "waiting stream ran before the gate opened (%d)", h[1]);
  printf("gate: ok, waiting stream result %d\n", h[1]);

  // 2. Timing with events.
  cudaEvent_t t0, t1;
  CK(cudaEventCreate(&t0));
  CK(cudaEventCreateWithFlags(&t1, cudaEventDefault));
  CK(cudaEventRecord(t0, s2));
  spin<<<1, 32, 0, s2>>>(2000000, d + 2);  // ~1 ms
  CK(cudaGetLastError());
  CK(cudaEventRecord(t1, s2));
  CK(cudaEventSynchronize(t1));
  float ms = -1.0f;
  CK(cudaEventElapsedTime(&ms, t0, t1));
  fprintf(stderr, "spin kernel: %.3f ms\n", ms);
  EXPECT(ms > 0.0f, "elapsed time %g", ms);
  printf("event elapsed time > 0: yes\n");

  cudaEvent_t nt;
  CK(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
  CK(cudaEventRecord(nt, s2));
  CK(cudaEventSynchronize(nt));
  cudaError_t e = cudaEventElapsedTime(&ms, t0, nt);
  printf("elapsed time with a DisableTiming event: %s\n", err_name(e));
  EXPECT(e != cudaSuccess, "elapsed time on a DisableTiming event succeeded");
  cudaGetLastError();

  // 3. Host functions and a callback, in stream order behind device work.
  int *counter, *dev_counter;
  CK(cudaHostAlloc(&counter, sizeof(int), cudaHostAllocMapped));
  *counter = 0;
  CK(cudaHostGetDevicePointer(&dev_counter, counter, 0));
  HostArg args[5];
  for (int k = 0; k < 5; k++) {
    args[k].id = k;
    args[k].pinned_counter = counter;
    bump<<<1, 1, 0, s3>>>(dev_counter);
    CK(cudaGetLastError());
    CK(cudaLaunchHostFunc(s3, host_fn, &args[k]));
  }
  int cb_id = 99;
  CK(cudaStreamAddCallback(s3, stream_cb, &cb_id, 0));
  CK(cudaStreamSynchronize(s3));
  EXPECT(g_order_pos.load() == 6, "%d host calls ran", g_order_pos.load());
  for (int k = 0; k < 5; k++) {
    EXPECT(g_order[k] == k, "host function %d ran at position %d", g_order[k], k);
    EXPECT(g_device_count_seen[k] == k + 1, "host function %d saw counter %d", k,
           g_device_count_seen[k]);
  }
  EXPECT(g_order[5] == 99 && g_cb_status == cudaSuccess, "callback %d status %s",
         g_order[5], err_name(g_cb_status));
  printf("host functions in order 0..4, callback last with %s\n", err_name(g_cb_status));

  // 4. An event on the legacy default stream orders a non-blocking stream.
  cudaEvent_t ev0;
  CK(cudaEventCreateWithFlags(&ev0, cudaEventDisableTiming));
  bump<<<1, 1>>>(d + 3);
  CK(cudaEventRecord(ev0, 0));
  CK(cudaStreamWaitEvent(s1, ev0, 0));
  bump<<<1, 1, 0, s1>>>(d + 3);
  CK(cudaStreamSynchronize(s1));
  CK(cudaMemcpy(h, d + 3, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(h[0] == 2, "legacy stream + event: %d", h[0]);
  printf("legacy stream event wait: ok\n");

  CK(cudaEventDestroy(ev0));
  CK(cudaEventDestroy(nt));
  CK(cudaEventDestroy(t0));
  CK(cudaEventDestroy(t1));
  CK(cudaEventDestroy(ev_gate));
  CK(cudaStreamDestroy(s0));
  CK(cudaStreamDestroy(s1));
  CK(cudaStreamDestroy(s2));
  CK(cudaStreamDestroy(s3));
  CK(cudaFreeHost(flag));
  CK(cudaFreeHost(counter));
  CK(cudaFree(d));
  CK(cudaDeviceSynchronize());
  return sample_pass();
}
