// Helpers of the scale benchmarks (bench/scale, issue 30): clocks, the
// sweep of N, JSON lines, a time budget per sweep.
//
// Every program prints one JSON object per line on stdout:
//   {"bench": "<group>.<what>", "n": N, "ns_per_op": X, "ops": K, "total_ns": T, ...}
// and, where a sweep ends early,
//   {"bench": "<group>.<what>", "n": N, "stopped": "<why>", "error": "<cudaError name>"}
// (n: the last N reached). Diagnostics go to stderr.
//
// Environment (all programs):
//   SCALE_SERIES       "1-3" (default: 1, 3, 10, 30, ...) or "10" (powers of 10)
//   SCALE_BENCH_SECONDS  time budget of one sweep (default 40): a sweep that
//                      passes it stops at the next checkpoint (or inside a
//                      long segment) and says so
#pragma once

#include <cuda_runtime.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <string>
#include <vector>

static inline uint64_t now_ns() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline long env_long(const char *name, long dflt) {
  const char *e = getenv(name);
  if (!e || !*e) return dflt;
  return (long)strtod(e, nullptr);  // accepts 1e6
}

// Checkpoints from lo to hi (inclusive): 1-3-10 series or powers of 10.
static inline std::vector<long> series(long lo, long hi) {
  std::vector<long> v;
  const char *s = getenv("SCALE_SERIES");
  bool tens = s && !strcmp(s, "10");
  for (long p = 1; p <= hi; p *= 10) {
    if (p >= lo) v.push_back(p);
    if (!tens && 3 * p >= lo && 3 * p <= hi) v.push_back(3 * p);
    if (p > hi / 10) break;
  }
  if (v.empty() || v.back() != hi) {
    if (v.empty() || v.back() < hi) v.push_back(hi);
  }
  return v;
}

// Copies the file `from` to `to` (the programs that load a library many
// times load copies of it under other names).
static inline bool copy_file(const std::string &from, const std::string &to) {
  FILE *a = fopen(from.c_str(), "rb"), *b = fopen(to.c_str(), "wb");
  if (!a || !b) {
    if (a) fclose(a);
    if (b) fclose(b);
    return false;
  }
  static char buf[1 << 16];
  size_t k;
  bool ok = true;
  while ((k = fread(buf, 1, sizeof buf, a)) > 0) ok = ok && fwrite(buf, 1, k, b) == k;
  fclose(a);
  return fclose(b) == 0 && ok;
}

struct Budget {
  uint64_t t0 = now_ns(), limit = (uint64_t)env_long("SCALE_BENCH_SECONDS", 40) * 1000000000ull;
  bool spent() const { return now_ns() - t0 > limit; }
};

// A driver function by name (the 12.0 version), found through the runtime
// (no -lcuda); nullptr when the runtime or the driver has none.
static inline void *driver_entry(const char *name) {
  void *p = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q) == cudaSuccess &&
      q == cudaDriverEntryPointSuccess)
    return p;
  (void)cudaGetLastError();
  return nullptr;
}

// One result line. Extra fields: a preformatted `, "k": v` string.
static inline void emit(const char *bench, long n, double total_ns, long ops,
                        const std::string &extra = "") {
  printf("{\"bench\": \"%s\", \"n\": %ld, \"ns_per_op\": %.1f, \"ops\": %ld, \"total_ns\": %.0f%s}\n",
         bench, n, ops > 0 ? total_ns / ops : total_ns, ops, total_ns, extra.c_str());
  fflush(stdout);
}

static inline void emit_stop(const char *bench, long n, const char *why, cudaError_t e = cudaSuccess) {
  printf("{\"bench\": \"%s\", \"n\": %ld, \"stopped\": \"%s\"%s%s%s}\n", bench, n, why,
         e != cudaSuccess ? ", \"error\": \"" : "", e != cudaSuccess ? cudaGetErrorName(e) : "",
         e != cudaSuccess ? "\"" : "");
  fflush(stdout);
}

static inline std::string kv(const char *k, double v) {
  char b[96];
  snprintf(b, sizeof b, ", \"%s\": %.6g", k, v);
  return b;
}
static inline std::string kvs(const char *k, const char *v) {
  return std::string(", \"") + k + "\": \"" + v + "\"";
}

// A call that must succeed: otherwise the error as a JSON line and exit 1.
#define SCK(call)                                                                       \
  do {                                                                                  \
    cudaError_t e_ = (call);                                                            \
    if (e_ != cudaSuccess) {                                                            \
      printf("{\"bench\": \"fatal\", \"n\": 0, \"stopped\": \"line %d: %s\", \"error\": \"%s\"}\n", \
             __LINE__, #call, cudaGetErrorName(e_));                                    \
      fflush(stdout);                                                                   \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

__global__ void scale_empty_k() {}

// At exit: which libcudart the process had mapped, one line
//   {"bench": "info", "libcudart": "<path>[,<path>]"}
// (the runner checks it is the runtime it meant).
static int scale_add_lib(struct dl_phdr_info *info, size_t, void *arg) {
  std::string *s = (std::string *)arg;
  if (info->dlpi_name && strstr(info->dlpi_name, "libcudart")) {
    if (!s->empty()) *s += ",";
    *s += info->dlpi_name;
  }
  return 0;
}
__attribute__((destructor)) static void scale_info_at_exit() {
  std::string libs;
  dl_iterate_phdr(scale_add_lib, &libs);
  printf("{\"bench\": \"info\", \"libcudart\": \"%s\"}\n", libs.c_str());
  fflush(stdout);
}
