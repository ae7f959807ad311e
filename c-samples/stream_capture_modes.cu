// stream_capture_modes: the thread's capture interaction mode
// (cudaThreadExchangeStreamCaptureMode), a potentially unsafe call
// (cudaMalloc) during a global-mode capture on this thread and on another
// thread, with the error names printed as the runtime reports them; a
// relaxed thread may make it. Then a capture that forks into a second
// stream through an event and joins back, launched as a graph; a fork
// left unjoined; and the legacy stream queried during a capture.
#define SAMPLE_NAME "stream_capture_modes"
#include "common/check.h"
#include <thread>

__global__ void fill(int *a, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}

__global__ void add_from(int *a, const int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += b[i];
}

static const char *mode_name(cudaStreamCaptureMode m) {
  switch (m) {
    case cudaStreamCaptureModeGlobal: return "Global";
    case cudaStreamCaptureModeThreadLocal: return "ThreadLocal";
    case cudaStreamCaptureModeRelaxed: return "Relaxed";
  }
  return "?";
}

static const char *status_name(cudaStreamCaptureStatus s) {
  switch (s) {
    case cudaStreamCaptureStatusNone: return "None";
    case cudaStreamCaptureStatusActive: return "Active";
    case cudaStreamCaptureStatusInvalidated: return "Invalidated";
  }
  return "?";
}

static const int N = 512;

// cudaMalloc from another thread while the main thread captures in global
// mode, with the given interaction mode on that thread.
static cudaError_t g_other_err;
static void other_thread_malloc(cudaStreamCaptureMode mode) {
  cudaStreamCaptureMode m = mode;
  if (cudaThreadExchangeStreamCaptureMode(&m) != cudaSuccess) {
    g_other_err = cudaErrorUnknown;
    return;
  }
  void *p = NULL;
  g_other_err = cudaMalloc(&p, 256);
  if (g_other_err == cudaSuccess) cudaFree(p);
  (void)cudaGetLastError();
}

int main() {
  CK(cudaSetDevice(0));
  int *a = NULL, *b = NULL, *h = NULL;
  CK(cudaMalloc(&a, N * sizeof(int)));
  CK(cudaMalloc(&b, N * sizeof(int)));
  CK(cudaMallocHost(&h, N * sizeof(int)));
  cudaStream_t s1, s2;
  CK(cudaStreamCreate(&s1));  // blocking: synchronizes with the legacy stream
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t fork_ev, join_ev;
  CK(cudaEventCreateWithFlags(&fork_ev, cudaEventDisableTiming));
  CK(cudaEventCreateWithFlags(&join_ev, cudaEventDisableTiming));

  // Both kernels run once before any capture (their module is loaded
  // then, as programs that capture usually warm up first).
  fill<<<N / 128, 128>>>(b, N, 0);
  add_from<<<N / 128, 128>>>(a, b, N);
  CK_LAUNCH();

  // 1. Exchanging the thread's mode hands back the previous one.
  cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
  CK(cudaThreadExchangeStreamCaptureMode(&m));
  printf("initial thread mode: %s\n", mode_name(m));
  EXPECT(m == cudaStreamCaptureModeGlobal, "threads start in global mode");
  m = cudaStreamCaptureModeThreadLocal;
  CK(cudaThreadExchangeStreamCaptureMode(&m));
  printf("exchanged out: %s\n", mode_name(m));
  EXPECT(m == cudaStreamCaptureModeRelaxed, "previous mode");
  m = cudaStreamCaptureModeGlobal;
  CK(cudaThreadExchangeStreamCaptureMode(&m));
  EXPECT(m == cudaStreamCaptureModeThreadLocal, "previous mode");

  // 2. An unsafe call during a global-mode capture, on this thread.
  cudaStreamCaptureStatus st;
  CK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal));
  void *p = NULL;
  cudaError_t e = cudaMalloc(&p, 256);
  printf("cudaMalloc during own global capture: %s\n", err_name(e));
  if (e == cudaSuccess) CK(cudaFree(p));
  (void)cudaGetLastError();
  CK(cudaStreamIsCapturing(s2, &st));
  printf("capture after it: %s\n", status_name(st));
  cudaGraph_t g = NULL;
  e = cudaStreamEndCapture(s2, &g);
  printf("end: %s, graph %s\n", err_name(e), g ? "set" : "NULL");
  if (g) CK(cudaGraphDestroy(g));
  (void)cudaGetLastError();

  // The same with this thread in relaxed mode: allowed.
  CK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal));
  m = cudaStreamCaptureModeRelaxed;
  CK(cudaThreadExchangeStreamCaptureMode(&m));
  p = NULL;
  CK(cudaMalloc(&p, 256));
  printf("cudaMalloc during own capture, relaxed thread: cudaSuccess\n");
  CK(cudaThreadExchangeStreamCaptureMode(&m));  // back to global
  fill<<<N / 128, 128, 0, s2>>>(a, N, 1);
  CK(cudaGetLastError());
  g = NULL;
  CK(cudaStreamEndCapture(s2, &g));
  CK(cudaGraphDestroy(g));
  CK(cudaFree(p));

  // Another thread during this thread's global capture: global mode is
  // prohibited from unsafe calls, thread-local mode ignores other threads.
  CK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal));
  std::thread(other_thread_malloc, cudaStreamCaptureModeGlobal).join();
  printf("other thread, global mode: %s\n", err_name(g_other_err));
  std::thread(other_thread_malloc, cudaStreamCaptureModeThreadLocal).join();
  printf("other thread, thread-local mode: %s\n", err_name(g_other_err));
  EXPECT(g_other_err == cudaSuccess, "thread-local mode ignores other threads' captures");
  CK(cudaStreamIsCapturing(s2, &st));
  printf("capture after the other threads: %s\n", status_name(st));
  g = NULL;
  e = cudaStreamEndCapture(s2, &g);
  printf("end: %s\n", err_name(e));
  if (g) CK(cudaGraphDestroy(g));
  (void)cudaGetLastError();

  // 3. Cross-stream capture: fork s1 -> s2 through an event, join back.
  CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  fill<<<N / 128, 128, 0, s1>>>(a, N, 10);
  CK(cudaEventRecord(fork_ev, s1));
  CK(cudaStreamWaitEvent(s2, fork_ev, 0));
  CK(cudaStreamIsCapturing(s2, &st));
  printf("forked stream: %s\n", status_name(st));
  EXPECT(st == cudaStreamCaptureStatusActive, "s2 joined the capture");
  unsigned long long id1 = 0, id2 = 0;
  CK(cudaStreamGetCaptureInfo(s1, &st, &id1, NULL, NULL, NULL, NULL));
  CK(cudaStreamGetCaptureInfo(s2, &st, &id2, NULL, NULL, NULL, NULL));
  printf("same capture id: %s\n", id1 == id2 ? "yes" : "no");
  EXPECT(id1 == id2, "one capture sequence");
  fill<<<N / 128, 128, 0, s2>>>(b, N, 7);
  CK(cudaEventRecord(join_ev, s2));
  CK(cudaStreamWaitEvent(s1, join_ev, 0));
  add_from<<<N / 128, 128, 0, s1>>>(a, b, N);
  CK(cudaMemcpyAsync(h, a, N * sizeof(int), cudaMemcpyDeviceToHost, s1));
  g = NULL;
  CK(cudaStreamEndCapture(s1, &g));
  CK(cudaStreamIsCapturing(s2, &st));
  printf("forked stream after end: %s\n", status_name(st));
  size_t nodes = 0;
  CK(cudaGraphGetNodes(g, NULL, &nodes));
  printf("fork/join graph: %zu nodes\n", nodes);
  cudaGraphExec_t ge = NULL;
  CK(cudaGraphInstantiate(&ge, g, 0));
  for (int i = 0; i < N; i++) h[i] = -1;
  CK(cudaGraphLaunch(ge, s1));
  CK(cudaStreamSynchronize(s1));
  for (int i = 0; i < N; i++) EXPECT(h[i] == 17, "fork/join result h[%d] = %d", i, h[i]);
  printf("fork/join graph result: all 17\n");
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(g));

  // 4. A fork never joined back.
  CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CK(cudaEventRecord(fork_ev, s1));
  CK(cudaStreamWaitEvent(s2, fork_ev, 0));
  fill<<<N / 128, 128, 0, s2>>>(b, N, 3);
  g = NULL;
  e = cudaStreamEndCapture(s1, &g);
  printf("end with an unjoined fork: %s, graph %s\n", err_name(e), g ? "set" : "NULL");
  EXPECT(e != cudaSuccess, "an unjoined fork must fail the capture");
  (void)cudaGetLastError();
  CK(cudaStreamIsCapturing(s2, &st));
  printf("forked stream after the failed end: %s\n", status_name(st));
  if (g) CK(cudaGraphDestroy(g));

  // 5. The legacy stream while a blocking stream captures.
  CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeThreadLocal));
  e = cudaStreamIsCapturing(cudaStreamLegacy, &st);
  printf("legacy stream queried during capture: %s\n", err_name(e));
  (void)cudaGetLastError();
  e = cudaStreamIsCapturing(s1, &st);
  printf("capture after the query: %s %s\n", err_name(e), status_name(st));
  g = NULL;
  e = cudaStreamEndCapture(s1, &g);
  printf("end: %s\n", err_name(e));
  if (g) CK(cudaGraphDestroy(g));
  (void)cudaGetLastError();

  CK(cudaDeviceSynchronize());
  CK(cudaEventDestroy(fork_ev));
  CK(cudaEventDestroy(join_ev));
  CK(cudaStreamDestroy(s1));
  CK(cudaStreamDestroy(s2));
  CK(cudaFreeHost(h));
  CK(cudaFree(a));
  CK(cudaFree(b));

  // Edge cases last: NVIDIA's runtime crashed (rc 139) somewhere in this
  // sample, most likely here (a NULL mode pointer it may not check).
  fflush(stdout);
  CK_EQ(cudaThreadExchangeStreamCaptureMode(NULL), cudaErrorInvalidValue);
  printf("cudaThreadExchangeStreamCaptureMode(NULL): cudaErrorInvalidValue\n");
  (void)cudaGetLastError();
  return sample_pass();
}
