/* calltime.so: how long a program's runtime API calls take, under NVIDIA's
 * libcudart.so.13 or ours alike (issue 30: where a whole program is slower,
 * find which call costs). Preloaded:
 *
 *   cc -O2 -fPIC -shared -o calltime.so calltime.c -ldl
 *   CALLTIME_FILE=out.txt LD_PRELOAD=./calltime.so ./program
 *
 * The program calls the runtime through its PLT, so a definition of the
 * same name in a preloaded object comes first; each wrapper here takes the
 * time (CLOCK_MONOTONIC) around the real function, found once with
 * dlsym(RTLD_NEXT). Driver calls are not seen (the runtimes reach the
 * driver through their own dlsym and cuGetProcAddress), and neither are
 * calls a runtime makes to itself.
 *
 * At exit (a destructor), one line per function called is appended to
 * $CALLTIME_FILE (read at start; nothing is written without it):
 *   calltime pid=<pid> fn=<name> n=<calls> total_ns=<sum> max_ns=<longest> first_ns=<first call>
 *
 * Only functions whose arguments are all integers or pointers are wrapped
 * (so that forwarding is exact): the list is CALLS below. A
 * struct cudaMemLocation passed by value (two ints, 8 bytes) travels in one
 * integer register under the x86-64 System V and AArch64 calling
 * conventions, so the managed-memory calls that take one are forwarded
 * with a 64-bit integer in its place (`loc`). The per-thread-default-stream
 * exports of the stream-ordered calls (`_ptds`, `_ptsz`) are wrapped too: a
 * program built with --default-stream per-thread calls those. A program
 * that calls none of them writes nothing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

typedef int err_t; /* cudaError_t */
typedef void *ptr;
typedef size_t sz;
typedef unsigned int uint;
typedef uint64_t loc; /* struct cudaMemLocation, by value */
typedef unsigned long long ull;

/* X(name, parameter list, argument list): every wrapped function. */
#define CALLS(X)                                                                              \
  X(cudaFree, (ptr a), (a))                                                                   \
  X(cudaMalloc, (ptr a, sz b), (a, b))                                                        \
  X(cudaMallocHost, (ptr a, sz b), (a, b))                                                    \
  X(cudaHostAlloc, (ptr a, sz b, uint c), (a, b, c))                                          \
  X(cudaFreeHost, (ptr a), (a))                                                               \
  X(cudaMallocManaged, (ptr a, sz b, uint c), (a, b, c))                                      \
  X(cudaMemset, (ptr a, int b, sz c), (a, b, c))                                              \
  X(cudaMemPrefetchAsync, (ptr a, sz b, loc c, uint d, ptr e), (a, b, c, d, e))               \
  X(cudaMemAdvise, (ptr a, sz b, int c, loc d), (a, b, c, d))                                 \
  X(cudaMemRangeGetAttribute, (ptr a, sz b, int c, ptr d, sz e), (a, b, c, d, e))             \
  X(cudaMemRangeGetAttributes, (ptr a, ptr b, ptr c, sz d, ptr e, sz f), (a, b, c, d, e, f))  \
  X(cudaMemPrefetchBatchAsync, (ptr a, ptr b, sz c, ptr d, ptr e, sz f, ull g, ptr h),        \
    (a, b, c, d, e, f, g, h))                                                                 \
  X(cudaMemDiscardBatchAsync, (ptr a, ptr b, sz c, ull d, ptr e), (a, b, c, d, e))            \
  X(cudaMemDiscardAndPrefetchBatchAsync, (ptr a, ptr b, sz c, ptr d, ptr e, sz f, ull g, ptr h), \
    (a, b, c, d, e, f, g, h))                                                                 \
  X(cudaMemPrefetchAsync_ptsz, (ptr a, sz b, loc c, uint d, ptr e), (a, b, c, d, e))          \
  X(cudaMemset_ptds, (ptr a, int b, sz c), (a, b, c))                                         \
  X(cudaMemsetAsync, (ptr a, int b, sz c, ptr d), (a, b, c, d))                               \
  X(cudaMemsetAsync_ptsz, (ptr a, int b, sz c, ptr d), (a, b, c, d))                          \
  X(cudaMemcpy, (ptr a, ptr b, sz c, int d), (a, b, c, d))                                    \
  X(cudaMemcpy_ptds, (ptr a, ptr b, sz c, int d), (a, b, c, d))                               \
  X(cudaMemcpyAsync, (ptr a, ptr b, sz c, int d, ptr e), (a, b, c, d, e))                     \
  X(cudaMemcpyAsync_ptsz, (ptr a, ptr b, sz c, int d, ptr e), (a, b, c, d, e))                \
  X(cudaDeviceSynchronize, (void), ())                                                        \
  X(cudaStreamCreate, (ptr a), (a))                                                           \
  X(cudaStreamCreateWithFlags, (ptr a, uint b), (a, b))                                       \
  X(cudaStreamDestroy, (ptr a), (a))                                                          \
  X(cudaStreamSynchronize, (ptr a), (a))                                                      \
  X(cudaStreamSynchronize_ptsz, (ptr a), (a))                                                 \
  X(cudaStreamQuery, (ptr a), (a))                                                            \
  X(cudaStreamQuery_ptsz, (ptr a), (a))                                                       \
  X(cudaEventCreate, (ptr a), (a))                                                            \
  X(cudaEventRecord, (ptr a, ptr b), (a, b))                                                  \
  X(cudaEventRecord_ptsz, (ptr a, ptr b), (a, b))                                             \
  X(cudaEventSynchronize, (ptr a), (a))                                                       \
  X(cudaEventDestroy, (ptr a), (a))                                                           \
  X(cudaGraphCreate, (ptr a, uint b), (a, b))                                                 \
  X(cudaGraphAddKernelNode, (ptr a, ptr b, ptr c, sz d, ptr e), (a, b, c, d, e))              \
  X(cudaGraphAddMemcpyNode1D, (ptr a, ptr b, ptr c, sz d, ptr e, ptr f, sz g, int h),         \
    (a, b, c, d, e, f, g, h))                                                                 \
  X(cudaGraphInstantiate, (ptr a, ptr b, uint64_t c), (a, b, c))                              \
  X(cudaGraphInstantiateWithParams, (ptr a, ptr b, ptr c), (a, b, c))                         \
  X(cudaGraphInstantiateWithParams_ptsz, (ptr a, ptr b, ptr c), (a, b, c))                    \
  X(cudaGraphUpload, (ptr a, ptr b), (a, b))                                                  \
  X(cudaGraphUpload_ptsz, (ptr a, ptr b), (a, b))                                             \
  X(cudaGraphLaunch, (ptr a, ptr b), (a, b))                                                  \
  X(cudaGraphLaunch_ptsz, (ptr a, ptr b), (a, b))                                             \
  X(cudaGraphExecDestroy, (ptr a), (a))                                                       \
  X(cudaGraphDestroy, (ptr a), (a))

enum {
#define ID(name, params, args) ID_##name,
  CALLS(ID)
#undef ID
      N_CALLS
};

static const char *const names[N_CALLS] = {
#define NAME(name, params, args) #name,
    CALLS(NAME)
#undef NAME
};

struct callstat {
  _Atomic uint64_t n, total, max, first;
};
static struct callstat stats[N_CALLS];
static const char *out_file;

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void note(int id, uint64_t t0, uint64_t t1) {
  struct callstat *s = &stats[id];
  uint64_t d = t1 - t0, m;
  if (atomic_fetch_add(&s->n, 1) == 0) atomic_store(&s->first, d);
  atomic_fetch_add(&s->total, d);
  m = atomic_load(&s->max);
  while (d > m && !atomic_compare_exchange_weak(&s->max, &m, d)) {
  }
}

/* Each wrapper: find the next definition once, time the call. A missing
 * one (a runtime without the function) answers cudaErrorUnknown (999). */
#define WRAP(name, params, args)                                  \
  err_t name params {                                             \
    static err_t(*_Atomic real) params;                           \
    err_t(*fn_) params = atomic_load(&real);                      \
    if (!fn_) {                                                   \
      fn_ = (err_t(*) params)dlsym(RTLD_NEXT, #name);             \
      if (!fn_) return 999;                                       \
      atomic_store(&real, fn_);                                   \
    }                                                             \
    uint64_t t0 = now_ns();                                       \
    err_t r = fn_ args;                                           \
    note(ID_##name, t0, now_ns());                                \
    return r;                                                     \
  }
CALLS(WRAP)
#undef WRAP

__attribute__((constructor)) static void calltime_init(void) {
  out_file = getenv("CALLTIME_FILE");
}

__attribute__((destructor)) static void calltime_fini(void) {
  if (!out_file || !*out_file) return;
  FILE *f = fopen(out_file, "a");
  if (!f) return;
  int pid = (int)getpid();
  for (int i = 0; i < N_CALLS; i++) {
    uint64_t n = atomic_load(&stats[i].n);
    if (!n) continue;
    fprintf(f, "calltime pid=%d fn=%s n=%llu total_ns=%llu max_ns=%llu first_ns=%llu\n", pid,
            names[i], (unsigned long long)n, (unsigned long long)atomic_load(&stats[i].total),
            (unsigned long long)atomic_load(&stats[i].max),
            (unsigned long long)atomic_load(&stats[i].first));
  }
  fclose(f);
}
