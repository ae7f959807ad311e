// Shared harness of the in-process benchmarks (bench/README.md).
//
// A program declares its benchmarks in a list (name, unit, the loop body,
// optional raw-driver counterpart), then hands the list to bench_main(),
// which either prints the declarations (`--list`, no CUDA call at all) or
// creates the context and runs them. Each benchmark:
//   1. calibrates: runs body(n) for n = 1, 2, 4, ... until one call takes at
//      least BENCH_CAL_MS (default 10 ms), then sizes N so that body(N) takes
//      about BENCH_REP_MS (default 50 ms);
//   2. runs BENCH_REPS (default 5) repetitions of body(N), each timed with
//      clock_gettime(CLOCK_MONOTONIC); settle() runs, untimed, after each
//      (e.g. a device synchronize, so every repetition starts idle);
//   3. prints the median over the repetitions of the time per operation:
//        BENCH <name> <value> <unit> <reps> n=<N> min=<v> max=<v> [raw=<name>]
//      (min/max over the repetitions, in the same unit), or, when a call
//      returned an error:
//        BENCH_ERROR <name> <code> <error name> <where>
//
// A body returns the OR of the status codes of the calls it made, so an
// error costs one OR per call and is never silently timed.
//
// Environment: BENCH_REP_MS, BENCH_CAL_MS, BENCH_REPS, BENCH_FILTER (run
// only benchmarks whose name contains one of these comma-separated strings).
#pragma once

#include <cuda.h>  // driver types only; the driver is reached via dlsym
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

static inline double bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline double bench_env(const char *name, double dflt) {
  const char *v = getenv(name);
  return (v && *v) ? atof(v) : dflt;
}

// Line-buffered stdout: a crash later on keeps every line printed so far.
static inline void bench_stdout(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

// Which libcudart.so.13 is really loaded (bench-run.sh checks the path).
static inline void bench_info_libcudart(const char *prog) {
  Dl_info info;
  const char *path = "?";
  if (dladdr((void *)&cudaGetLastError, &info) && info.dli_fname) path = info.dli_fname;
  int v = 0;
  cudaRuntimeGetVersion(&v);
  printf("INFO %s libcudart %s runtime_version %d\n", prog, path, v);
}

static inline const char *bench_err_name(int e) {
  const char *n = cudaGetErrorName((cudaError_t)e);
  return n ? n : "?";
}

// A declaration without a run (start-up programs and `--list`).
static inline void bench_decl(const char *name, const char *unit, const char *raw = nullptr) {
  printf("BENCH_DECL %s %s%s%s\n", name, unit, raw ? " raw=" : "", raw ? raw : "");
}

// One measured value (start-up programs: one sample per process).
static inline void bench_value(const char *name, double v, const char *unit) {
  printf("BENCH %s %.6g %s 1\n", name, v, unit);
}

static inline void bench_error(const char *name, int code, const char *where) {
  printf("BENCH_ERROR %s %d %s %s\n", name, code, bench_err_name(code), where);
}

// ---- the driver, for the raw counterparts --------------------------------
// Resolved with dlsym from libcuda.so.1 (the one the runtime loaded), by the
// ABI names (`_v2` where cuda.h maps to one), so the runtime under test is
// not involved in the call at all.
struct Driver {
  decltype(&::cuLaunchKernel) launch = nullptr;
  decltype(&::cuMemAlloc_v2) alloc = nullptr;
  decltype(&::cuMemFree_v2) free = nullptr;
  decltype(&::cuMemcpyHtoD_v2) htod = nullptr;
  decltype(&::cuMemcpyDtoH_v2) dtoh = nullptr;
  decltype(&::cuMemcpyHtoDAsync_v2) htod_async = nullptr;
  decltype(&::cuMemsetD8_v2) memset8 = nullptr;
  decltype(&::cuStreamCreate) stream_create = nullptr;
  decltype(&::cuStreamDestroy_v2) stream_destroy = nullptr;
  decltype(&::cuStreamSynchronize) stream_sync = nullptr;
  decltype(&::cuCtxSynchronize) ctx_sync = nullptr;
  decltype(&::cuEventCreate) event_create = nullptr;
  decltype(&::cuEventDestroy_v2) event_destroy = nullptr;
  decltype(&::cuEventRecord) event_record = nullptr;
  decltype(&::cuEventQuery) event_query = nullptr;
  decltype(&::cuGraphInstantiateWithFlags) graph_instantiate = nullptr;
  decltype(&::cuGraphExecDestroy) graph_exec_destroy = nullptr;
  decltype(&::cuGraphLaunch) graph_launch = nullptr;
  decltype(&::cuCtxGetCurrent) ctx_get_current = nullptr;
  bool loaded = false;

  // Setup check of a raw benchmark: the entry points it calls exist.
  template <typename... P>
  static int need(P... fns) {
    bool all = true;
    for (bool b : {(fns != nullptr)...}) all = all && b;
    return all ? 0 : (int)cudaErrorNotSupported;
  }

  bool load() {
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      printf("INFO driver dlopen(libcuda.so.1) failed: %s\n", dlerror());
      return false;
    }
    loaded = true;
#define BENCH_SYM(field, sym)                                                  \
  do {                                                                         \
    *(void **)&field = dlsym(h, sym);                                          \
    if (!field) {                                                              \
      printf("INFO driver: no %s\n", sym);                                     \
    }                                                                          \
  } while (0)
    BENCH_SYM(launch, "cuLaunchKernel");
    BENCH_SYM(alloc, "cuMemAlloc_v2");
    BENCH_SYM(free, "cuMemFree_v2");
    BENCH_SYM(htod, "cuMemcpyHtoD_v2");
    BENCH_SYM(dtoh, "cuMemcpyDtoH_v2");
    BENCH_SYM(htod_async, "cuMemcpyHtoDAsync_v2");
    BENCH_SYM(memset8, "cuMemsetD8_v2");
    BENCH_SYM(stream_create, "cuStreamCreate");
    BENCH_SYM(stream_destroy, "cuStreamDestroy_v2");
    BENCH_SYM(stream_sync, "cuStreamSynchronize");
    BENCH_SYM(ctx_sync, "cuCtxSynchronize");
    BENCH_SYM(event_create, "cuEventCreate");
    BENCH_SYM(event_destroy, "cuEventDestroy_v2");
    BENCH_SYM(event_record, "cuEventRecord");
    BENCH_SYM(event_query, "cuEventQuery");
    BENCH_SYM(graph_instantiate, "cuGraphInstantiateWithFlags");
    BENCH_SYM(graph_exec_destroy, "cuGraphExecDestroy");
    BENCH_SYM(graph_launch, "cuGraphLaunch");
    BENCH_SYM(ctx_get_current, "cuCtxGetCurrent");
#undef BENCH_SYM
    return loaded;
  }
};

// ---- benchmarks ------------------------------------------------------------
struct Bench {
  std::string name;
  std::string unit;  // ns, us, ms (per operation), GB/s, launch/s
  std::function<int(long)> body;  // n operations; returns OR of status codes
  std::function<void()> settle;   // untimed, after every call of body
  std::string raw;                // name of the raw-driver counterpart, or ""
  double bytes = 0;               // GB/s: bytes moved per operation
  double per_call = 1;            // operations counted per body iteration
  std::function<int()> setup;     // untimed, once before the benchmark
  std::function<void()> teardown; // untimed, once after
  // Also print the same repetitions as a rate (1e9 / ns = operations per
  // second) under this name and unit, with this raw counterpart.
  std::string rate_name, rate_unit, rate_raw;
};

struct BenchList {
  std::vector<Bench> items;
  Bench &add(const char *name, const char *unit, std::function<int(long)> body,
             const char *raw = nullptr) {
    Bench b;
    b.name = name;
    b.unit = unit;
    b.body = std::move(body);
    if (raw) b.raw = raw;
    items.push_back(std::move(b));
    return items.back();
  }
};

static inline bool bench_selected(const std::string &name) {
  const char *f = getenv("BENCH_FILTER");
  if (!f || !*f) return true;
  std::string all(f);
  size_t start = 0;
  while (start <= all.size()) {
    size_t end = all.find(',', start);
    if (end == std::string::npos) end = all.size();
    std::string part = all.substr(start, end - start);
    if (!part.empty() && name.find(part) != std::string::npos) return true;
    start = end + 1;
  }
  return false;
}

// Value in the benchmark's unit from nanoseconds per operation.
static inline double bench_convert(const Bench &b, double ns_per_op) {
  if (b.unit == "us") return ns_per_op / 1e3;
  if (b.unit == "ms") return ns_per_op / 1e6;
  if (b.unit == "GB/s") return b.bytes / ns_per_op;  // bytes per ns = GB/s
  if (b.unit == "launch/s") return 1e9 / ns_per_op;
  return ns_per_op;
}

// One benchmark being measured: calibrated loop length and its samples.
struct BenchRun {
  Bench *b;
  long n = 0;               // operations per repetition
  std::vector<double> v;    // one value per repetition, in the bench's unit
  std::vector<double> ns;   // the same in ns per operation
  bool failed = false;
};

// Setup and calibration: n such that one repetition takes BENCH_REP_MS.
static inline bool bench_prepare(BenchRun &r) {
  Bench &b = *r.b;
  const double rep_ns = bench_env("BENCH_REP_MS", 50) * 1e6;
  const double cal_ns = bench_env("BENCH_CAL_MS", 10) * 1e6;
  if (b.setup) {
    int e = b.setup();
    if (e) {
      bench_error(b.name.c_str(), e, "setup");
      if (b.teardown) b.teardown();
      return false;
    }
  }
  long n = 1;
  double t = 0;
  for (;;) {
    double t0 = bench_now_ns();
    int e = b.body(n);
    t = bench_now_ns() - t0;
    if (b.settle) b.settle();
    if (e) {
      bench_error(b.name.c_str(), e, "calibration");
      if (b.teardown) b.teardown();
      return false;
    }
    if (t >= cal_ns || n >= (1L << 40)) break;
    n *= 2;
  }
  r.n = std::max(1L, (long)(rep_ns * (double)n / std::max(t, 1.0)));
  return true;
}

// One timed repetition.
static inline bool bench_rep(BenchRun &r) {
  Bench &b = *r.b;
  double t0 = bench_now_ns();
  int e = b.body(r.n);
  double dt = bench_now_ns() - t0;
  if (b.settle) b.settle();
  if (e) {
    bench_error(b.name.c_str(), e, "repetition");
    r.failed = true;
    return false;
  }
  double per_op = dt / ((double)r.n * b.per_call);
  r.ns.push_back(per_op);
  r.v.push_back(bench_convert(b, per_op));
  return true;
}

static inline double bench_median(std::vector<double> s) {
  std::sort(s.begin(), s.end());
  return (s.size() % 2) ? s[s.size() / 2] : 0.5 * (s[s.size() / 2 - 1] + s[s.size() / 2]);
}

// The BENCH line(s) of a finished benchmark; `pair`: the median over the
// repetitions of (this repetition / the raw counterpart's adjacent one),
// when the two ran interleaved.
static inline void bench_print(BenchRun &r, double pair = 0) {
  Bench &b = *r.b;
  if (r.failed || r.v.empty()) return;
  std::vector<double> s = r.v;
  std::sort(s.begin(), s.end());
  double med = bench_median(r.v);
  int reps = (int)r.v.size();
  char pair_kv[64] = "";
  if (pair > 0) snprintf(pair_kv, sizeof pair_kv, " pair=%.6g", pair);
  printf("BENCH %s %.6g %s %d n=%ld min=%.6g max=%.6g%s%s%s\n", b.name.c_str(), med,
         b.unit.c_str(), reps, r.n, s.front(), s.back(), b.raw.empty() ? "" : " raw=",
         b.raw.c_str(), pair_kv);
  if (!b.rate_name.empty() && b.unit == "ns") {
    // The rate of the median time is the median rate (a monotonic map).
    printf("BENCH %s %.6g %s %d n=%ld min=%.6g max=%.6g%s%s%s\n", b.rate_name.c_str(),
           1e9 / med, b.rate_unit.c_str(), reps, r.n, 1e9 / s.back(), 1e9 / s.front(),
           b.rate_raw.empty() ? "" : " raw=", b.rate_raw.c_str(), pair_kv);
  }
}

static inline void bench_run_one(Bench &b) {
  const int reps = std::max(1, (int)bench_env("BENCH_REPS", 5));
  BenchRun r;
  r.b = &b;
  if (!bench_prepare(r)) return;
  for (int i = 0; i < reps; i++)
    if (!bench_rep(r)) break;
  if (b.teardown) b.teardown();
  bench_print(r);
}

// A benchmark and its raw-driver counterpart, repetitions interleaved
// (A B, B A, A B, ...): slow drift of the machine hits both alike, and the
// ratio of adjacent repetitions (`pair=`) is the runtime's overhead over
// the driver with that drift cancelled.
static inline void bench_run_pair(Bench &b, Bench &raw, bool print_raw) {
  const int reps = std::max(1, (int)bench_env("BENCH_REPS", 5));
  BenchRun a, d;
  a.b = &b;
  d.b = &raw;
  bool ok_a = bench_prepare(a), ok_d = bench_prepare(d);
  std::vector<double> ratios;
  for (int i = 0; i < reps && ok_a && ok_d; i++) {
    bool first_a = (i % 2) == 0;
    if (!bench_rep(first_a ? a : d) || !bench_rep(first_a ? d : a)) break;
    ratios.push_back(a.ns.back() / d.ns.back());
  }
  for (int i = 0; ok_a && !ok_d && i < reps; i++)
    if (!bench_rep(a)) break;
  for (int i = 0; ok_d && !ok_a && i < reps; i++)
    if (!bench_rep(d)) break;
  if (ok_a && b.teardown) b.teardown();
  if (ok_d && raw.teardown) raw.teardown();
  bool paired = !ratios.empty() && !a.failed && !d.failed;
  bench_print(a, paired ? bench_median(ratios) : 0);
  if (print_raw) bench_print(d);
}

// `--list`: print the declarations and return 0 without any CUDA call.
// Otherwise: create the context (cudaFree(0)); if that fails, print
// BENCH_ERROR <prog>.init and return 3 (no GPU, no driver); run setup
// (non-zero: BENCH_ERROR <prog>.setup, return 4); run every selected
// benchmark; return 0.
static inline int bench_main(const char *prog, int argc, char **argv, BenchList &list,
                             std::function<int()> setup = nullptr) {
  bench_stdout();
  if (argc > 1 && strcmp(argv[1], "--list") == 0) {
    for (auto &b : list.items) {
      bench_decl(b.name.c_str(), b.unit.c_str(), b.raw.empty() ? nullptr : b.raw.c_str());
      if (!b.rate_name.empty())
        bench_decl(b.rate_name.c_str(), b.rate_unit.c_str(),
                   b.rate_raw.empty() ? nullptr : b.rate_raw.c_str());
    }
    return 0;
  }
  bench_info_libcudart(prog);
  std::string where = std::string(prog) + ".init";
  double t0 = bench_now_ns();
  cudaError_t e = cudaFree(0);
  double t1 = bench_now_ns();
  if (e != cudaSuccess) {
    bench_error(where.c_str(), (int)e, "cudaFree(0)");
    return 3;
  }
  printf("INFO %s context_ms %.3f\n", prog, (t1 - t0) / 1e6);
  if (setup) {
    int se = setup();
    if (se) {
      where = std::string(prog) + ".setup";
      bench_error(where.c_str(), se, "setup");
      return 4;
    }
  }
  double start = bench_now_ns();
  // A benchmark whose raw counterpart is in the list runs interleaved with
  // it (the counterpart again for each benchmark that names it; its own
  // line is printed the first time); everything else on its own.
  const size_t none = list.items.size();
  auto find = [&](const std::string &name) {
    for (size_t k = 0; k < list.items.size(); k++)
      if (list.items[k].name == name && bench_selected(name)) return k;
    return none;
  };
  std::vector<bool> is_raw(list.items.size(), false), printed(list.items.size(), false);
  for (auto &b : list.items)
    if (!b.raw.empty() && bench_selected(b.name) && find(b.raw) != none) is_raw[find(b.raw)] = true;
  for (size_t i = 0; i < list.items.size(); i++) {
    Bench &b = list.items[i];
    if (is_raw[i] || !bench_selected(b.name)) continue;
    size_t j = b.raw.empty() ? none : find(b.raw);
    if (j != none) {
      bench_run_pair(b, list.items[j], !printed[j]);
      printed[j] = true;
    } else {
      bench_run_one(b);
    }
  }
  printf("INFO %s benchmarks_s %.3f\n", prog, (bench_now_ns() - start) / 1e9);
  return 0;
}
