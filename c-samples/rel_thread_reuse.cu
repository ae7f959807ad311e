// rel_thread_reuse: 16 threads each make and destroy events and streams in
// a tight loop (REL_REUSE_ROUNDS per thread, default 20000), using every
// handle once between (cudaEventQuery, cudaStreamQuery: both cudaSuccess on
// an idle object). The driver may hand an address one thread just freed to
// another thread's new object; each such handle is valid and must be
// accepted. A runtime that records "destroyed" after the driver call can
// mark the new object destroyed and refuse it. stdout is the same whatever
// the timing: the counts of handles that came back at an address another
// thread had just destroyed go to stderr.
#define SAMPLE_NAME "rel_thread_reuse"
#include "common/check.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

static const int kThreads = 16;
static const int kSlots = 1 << 16;

// Per hashed address: the address last destroyed there and the thread
// that destroyed it (low 4 bits; driver objects are 16-byte aligned).
static std::atomic<uintptr_t> g_last[kSlots];
static std::atomic<long> g_cross{0};
static std::atomic<int> g_failures{0};
static char g_first_failure[256];
static std::atomic<bool> g_noted{false};

static size_t slot(const void *p) {
  return (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull >> 48) & (kSlots - 1);
}

static void destroyed(const void *p, int tid) {
  g_last[slot(p)].store(((uintptr_t)p & ~(uintptr_t)15) | (uintptr_t)tid, std::memory_order_relaxed);
}

static void made(const void *p, int tid) {
  uintptr_t v = g_last[slot(p)].load(std::memory_order_relaxed);
  if ((v & ~(uintptr_t)15) == (uintptr_t)p && (int)(v & 15) != tid) g_cross.fetch_add(1);
}

static void failure(int tid, long i, const char *what, cudaError_t e) {
  if (!g_noted.exchange(true))
    snprintf(g_first_failure, sizeof g_first_failure, "thread %d round %ld: %s -> %s", tid, i,
             what, cudaGetErrorName(e));
  g_failures.fetch_add(1);
}

#define T_CK(call)                                    \
  do {                                                \
    cudaError_t e_ = (call);                          \
    if (e_ != cudaSuccess) failure(tid, i, #call, e_); \
  } while (0)

static void worker(int tid, long rounds) {
  CK(cudaSetDevice(0));
  for (long i = 0; i < rounds && g_failures.load(std::memory_order_relaxed) < 10; i++) {
    cudaEvent_t e = nullptr;
    T_CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    if (!e) continue;
    made(e, tid);
    T_CK(cudaEventQuery(e));
    T_CK(cudaEventDestroy(e));
    destroyed(e, tid);
    if (i % 8 == 0) {
      cudaStream_t s = nullptr;
      T_CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      if (!s) continue;
      made(s, tid);
      T_CK(cudaStreamQuery(s));
      T_CK(cudaStreamDestroy(s));
      destroyed(s, tid);
    }
  }
}

int main() {
  long rounds = 20000;
  if (const char *r = getenv("REL_REUSE_ROUNDS")) rounds = atol(r);
  CK(cudaFree(0));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) threads.emplace_back(worker, t, rounds);
  for (auto &t : threads) t.join();
  fprintf(stderr, "rel_thread_reuse: %d threads x %ld rounds, %ld handles at an address another "
          "thread had just destroyed\n", kThreads, rounds, g_cross.load());
  if (g_failures.load()) sample_fail("%d failed calls; first: %s", g_failures.load(), g_first_failure);
  printf("%d threads made, used and destroyed events and streams: every call succeeded\n", kThreads);
  return sample_pass();
}
