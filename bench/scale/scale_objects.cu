// scale_objects: what a runtime call costs with N objects of one kind
// alive (issue 30). One kind per process:
//
//   scale_objects alloc    cudaMalloc of 256 B, N = 100 .. SCALE_ALLOC_MAX (1e6)
//   scale_objects event    cudaEventCreate,    N = 100 .. SCALE_EVENT_MAX (1e6)
//   scale_objects stream   cudaStreamCreateWithFlags(NonBlocking),
//                          N = 100 .. SCALE_STREAM_MAX (1e4), or until a
//                          create fails (the line says where and why)
//
// At each checkpoint N (scale.h's series):
//   <kind>.create       the creates that brought the live count to N (ns per
//                       create over that segment; "cum_ns": time to create all N)
//   <kind>.pair_new     create + destroy of one more object, SCALE_PAIRS times
//                       (default 1000): the newest object goes again
//   <kind>.pair_old     destroy an old object (spread over the live ones) and
//                       create its replacement, SCALE_PAIRS times
//   alloc.ptr_attr      cudaPointerGetAttributes of live pointers spread over all N
//   alloc.drv_attr1, alloc.drv_attr5
//                       the driver's cuPointerGetAttributes of the same
//                       pointers asking 1 attribute (the memory type) and
//                       5 (what our cudaPointerGetAttributes asks): whether
//                       the driver's cost grows with the attributes asked
//   event.record_query  cudaEventRecord + cudaEventQuery of a live event
//   event.drv_pair      the driver's cuEventCreate + cuEventDestroy, one more
//                       event, SCALE_PAIRS times: event.pair_new's driver
//                       floor in the same process
//   stream.launch_sync  an empty kernel on a live stream + cudaStreamSynchronize
// and at the end
//   <kind>.destroy_all  destroying all N (ns per destroy), oldest first
// The context is created (cudaFree(0)) before anything is timed.
#include "scale.h"

#include <algorithm>

enum Kind { ALLOC, EVENT, STREAM };

// cuPointerGetAttributes, found through the runtime (no -lcuda).
typedef int (*PtrAttrs)(unsigned, int *, void **, unsigned long long);

static void drv_attrs(const std::vector<void *> &live, long n, long pairs, long step) {
  static PtrAttrs fn = (PtrAttrs)driver_entry("cuPointerGetAttributes");
  if (!fn) return;
  // CU_POINTER_ATTRIBUTE_MEMORY_TYPE 2, DEVICE_POINTER 3, HOST_POINTER 4,
  // IS_MANAGED 8, DEVICE_ORDINAL 9.
  int attrs[5] = {2, 3, 4, 8, 9};
  unsigned mem_type = 0;
  unsigned long long dptr = 0;
  void *hptr = nullptr;
  int managed = 0, ordinal = 0;
  void *data[5] = {&mem_type, &dptr, &hptr, &managed, &ordinal};
  for (unsigned count : {1u, 5u}) {
    int bad = 0;
    uint64_t t0 = now_ns();
    for (long k = 0, i = 0; k < pairs; k++, i = (i + step) % n)
      bad |= fn(count, attrs, data, (unsigned long long)(uintptr_t)((char *)live[i] + 100));
    double ns = (double)(now_ns() - t0);
    if (bad || mem_type != 2) {
      emit_stop(count == 1 ? "alloc.drv_attr1" : "alloc.drv_attr5", n, "cuPointerGetAttributes failed",
                cudaErrorUnknown);
      return;
    }
    emit(count == 1 ? "alloc.drv_attr1" : "alloc.drv_attr5", n, ns, pairs);
  }
}

// The driver's cuEventCreate and cuEventDestroy, found through the runtime
// (no -lcuda).
typedef int (*EvCreate)(void **, unsigned);
typedef int (*EvDestroy)(void *);

static void drv_event_pairs(long n, long pairs) {
  static EvCreate create = (EvCreate)driver_entry("cuEventCreate");
  static EvDestroy destroy = (EvDestroy)driver_entry("cuEventDestroy");
  if (!create || !destroy) return;
  int bad = 0;
  uint64_t t0 = now_ns();
  for (long k = 0; k < pairs; k++) {
    void *e = nullptr;
    bad |= create(&e, 0);
    bad |= destroy(e);
  }
  double ns = (double)(now_ns() - t0);
  if (bad)
    emit_stop("event.drv_pair", n, "cuEventCreate or cuEventDestroy failed", cudaErrorUnknown);
  else
    emit("event.drv_pair", n, ns, pairs);
}

struct Ops {
  Kind kind;
  cudaError_t create(void **h) {
    switch (kind) {
      case ALLOC: return cudaMalloc(h, 256);
      case EVENT: return cudaEventCreate((cudaEvent_t *)h);
      default: return cudaStreamCreateWithFlags((cudaStream_t *)h, cudaStreamNonBlocking);
    }
  }
  cudaError_t destroy(void *h) {
    switch (kind) {
      case ALLOC: return cudaFree(h);
      case EVENT: return cudaEventDestroy((cudaEvent_t)h);
      default: return cudaStreamDestroy((cudaStream_t)h);
    }
  }
};

int main(int argc, char **argv) {
  const char *name = argc > 1 ? argv[1] : "";
  Kind kind;
  long max;
  if (!strcmp(name, "alloc")) kind = ALLOC, max = env_long("SCALE_ALLOC_MAX", 1000000);
  else if (!strcmp(name, "event")) kind = EVENT, max = env_long("SCALE_EVENT_MAX", 1000000);
  else if (!strcmp(name, "stream")) kind = STREAM, max = env_long("SCALE_STREAM_MAX", 10000);
  else {
    fprintf(stderr, "usage: %s alloc|event|stream\n", argv[0]);
    return 2;
  }
  const long pairs = env_long("SCALE_PAIRS", 1000);
  Ops ops{kind};
  SCK(cudaFree(0));
  // Warm the paths once (first-call costs are not what is measured).
  {
    void *h;
    SCK(ops.create(&h));
    SCK(ops.destroy(h));
  }
  std::string b_create = std::string(name) + ".create", b_new = std::string(name) + ".pair_new",
              b_old = std::string(name) + ".pair_old", b_all = std::string(name) + ".destroy_all";

  std::vector<void *> live;
  live.reserve(max);
  Budget budget;
  double cum = 0;
  bool stopped = false, attr_ok = true;
  for (long n : series(100, max)) {
    // Grow to n.
    long from = (long)live.size();
    uint64_t t0 = now_ns();
    for (long i = from; i < n; i++) {
      void *h = nullptr;
      cudaError_t e = ops.create(&h);
      if (e != cudaSuccess) {
        cum += now_ns() - t0;
        emit_stop(b_create.c_str(), (long)live.size(), "create failed", e);
        (void)cudaGetLastError();
        stopped = true;
        break;
      }
      live.push_back(h);
      if ((i & 1023) == 1023 && budget.spent()) {
        cum += now_ns() - t0;
        emit_stop(b_create.c_str(), (long)live.size(), "time budget (SCALE_BENCH_SECONDS)");
        stopped = true;
        break;
      }
    }
    if (stopped) break;
    double seg = (double)(now_ns() - t0);
    cum += seg;
    emit(b_create.c_str(), n, seg, n - from, kv("cum_ns", cum));

    // One more, created and destroyed.
    t0 = now_ns();
    for (long k = 0; k < pairs; k++) {
      void *h;
      SCK(ops.create(&h));
      SCK(ops.destroy(h));
    }
    emit(b_new.c_str(), n, (double)(now_ns() - t0), pairs);

    // An old one destroyed and replaced (the slots visited spread over all n).
    const long step = std::max(1L, n / std::min(pairs, n));
    t0 = now_ns();
    long done = 0;
    for (long k = 0, i = 0; k < pairs; k++, i = (i + step) % n) {
      SCK(ops.destroy(live[i]));
      SCK(ops.create(&live[i]));
      done++;
    }
    emit(b_old.c_str(), n, (double)(now_ns() - t0), done);

    // A query that finds one object among n.
    if (kind == ALLOC) {
      if (attr_ok) {
        t0 = now_ns();
        cudaError_t e = cudaSuccess;
        for (long k = 0, i = 0; k < pairs && e == cudaSuccess; k++, i = (i + step) % n) {
          cudaPointerAttributes a;
          e = cudaPointerGetAttributes(&a, (char *)live[i] + 100);
          if (e == cudaSuccess && a.type != cudaMemoryTypeDevice) e = cudaErrorInvalidValue;
        }
        if (e == cudaSuccess) {
          emit("alloc.ptr_attr", n, (double)(now_ns() - t0), pairs);
          drv_attrs(live, n, pairs, step);
        } else {
          emit_stop("alloc.ptr_attr", n, "cudaPointerGetAttributes failed or wrong type", e);
          (void)cudaGetLastError();
          attr_ok = false;
        }
      }
    } else if (kind == EVENT) {
      t0 = now_ns();
      for (long k = 0, i = 0; k < pairs; k++, i = (i + step) % n) {
        SCK(cudaEventRecord((cudaEvent_t)live[i], 0));
        cudaError_t e = cudaEventQuery((cudaEvent_t)live[i]);
        if (e != cudaSuccess && e != cudaErrorNotReady) SCK(e);
      }
      emit("event.record_query", n, (double)(now_ns() - t0), pairs);
      SCK(cudaDeviceSynchronize());
      drv_event_pairs(n, pairs);
    } else {
      const long reps = std::min(pairs, 200L);
      t0 = now_ns();
      for (long k = 0, i = 0; k < reps; k++, i = (i + step) % n) {
        scale_empty_k<<<1, 1, 0, (cudaStream_t)live[i]>>>();
        SCK(cudaGetLastError());
        SCK(cudaStreamSynchronize((cudaStream_t)live[i]));
      }
      emit("stream.launch_sync", n, (double)(now_ns() - t0), reps);
    }
    if (budget.spent() && n < max) {
      emit_stop(b_create.c_str(), n, "time budget (SCALE_BENCH_SECONDS)");
      break;
    }
  }

  // Destroy them all, oldest first (under a time budget of its own: what is
  // left goes with the process).
  long n = (long)live.size(), destroyed = 0;
  Budget b_destroy;
  uint64_t t0 = now_ns();
  for (void *h : live) {
    SCK(ops.destroy(h));
    if ((++destroyed & 1023) == 0 && b_destroy.spent()) break;
  }
  emit(b_all.c_str(), n, (double)(now_ns() - t0), destroyed);
  if (destroyed < n) emit_stop(b_all.c_str(), n, "time budget (SCALE_BENCH_SECONDS)");
  fprintf(stderr, "scale_objects %s: up to %ld live\n", name, n);
  return 0;
}
