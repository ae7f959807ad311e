// Launch cost, host side: an empty kernel launched by `<<<>>>`,
// cudaLaunchKernel and cudaLaunchKernelExC, with 0 and with 8 parameters,
// against the driver's cuLaunchKernel on the same kernel (the CUfunction
// from cudaGetFuncBySymbol, cuLaunchKernel from libcuda.so.1 by dlsym);
// then the same from 8 threads, each on its own non-blocking stream.
//
// Single thread: the legacy default stream (0), as `k<<<1,1>>>()` uses.
// The time is the host time of the launch loop; the device is synchronized,
// untimed, after every repetition. Multi-threaded: the wall time from the
// release of a barrier until the last of the 8 threads is done, divided by
// all launches (ns per launch, aggregate), and its inverse (launches/s).
#include "bench.h"

__global__ void k0() {}
__global__ void k8(long long a, long long b, long long c, long long d, long long e,
                   long long f, long long g, long long h) {}

static Driver drv;
static CUfunction f0, f8;
static long long av[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static void *args8[8] = {&av[0], &av[1], &av[2], &av[3], &av[4], &av[5], &av[6], &av[7]};

// ---- one launch of each kind, on a stream -----------------------------------
enum Kind { CHEVRON, LAUNCH_KERNEL, LAUNCH_EX, RAW };

static inline int launch_n(Kind kind, int params, cudaStream_t s, long n) {
  int e = 0;
  const long long a = av[0];
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(1);
  cfg.blockDim = dim3(1);
  cfg.stream = s;
  switch (kind) {
    case CHEVRON:
      if (params == 0)
        for (long i = 0; i < n; i++) k0<<<1, 1, 0, s>>>();
      else
        for (long i = 0; i < n; i++) k8<<<1, 1, 0, s>>>(a, a, a, a, a, a, a, a);
      e |= (int)cudaGetLastError();
      break;
    case LAUNCH_KERNEL:
      if (params == 0)
        for (long i = 0; i < n; i++)
          e |= (int)cudaLaunchKernel((const void *)k0, dim3(1), dim3(1), nullptr, 0, s);
      else
        for (long i = 0; i < n; i++)
          e |= (int)cudaLaunchKernel((const void *)k8, dim3(1), dim3(1), args8, 0, s);
      break;
    case LAUNCH_EX:
      if (params == 0)
        for (long i = 0; i < n; i++) e |= (int)cudaLaunchKernelExC(&cfg, (const void *)k0, nullptr);
      else
        for (long i = 0; i < n; i++) e |= (int)cudaLaunchKernelExC(&cfg, (const void *)k8, args8);
      break;
    case RAW:
      if (params == 0)
        for (long i = 0; i < n; i++)
          e |= (int)drv.launch(f0, 1, 1, 1, 1, 1, 1, 0, (CUstream)s, nullptr, nullptr);
      else
        for (long i = 0; i < n; i++)
          e |= (int)drv.launch(f8, 1, 1, 1, 1, 1, 1, 0, (CUstream)s, args8, nullptr);
      break;
  }
  return e;
}

// ---- 8 threads, 8 streams ----------------------------------------------------
enum { NT = 8 };
struct Pool {
  pthread_t th[NT];
  pthread_barrier_t start, done;
  cudaStream_t streams[NT];
  int err[NT];
  Kind kind;
  int params;
  long n;
  bool quit = false;
  bool running = false;

  static void *worker(void *p) {
    Pool *pool = nullptr;
    long id = 0;
    {
      auto *arg = (std::pair<Pool *, long> *)p;
      pool = arg->first;
      id = arg->second;
      delete arg;
    }
    // Bind the device on this thread before any timed launch (the raw
    // driver launches need the context current here).
    cudaError_t be = cudaSetDevice(0);
    if (be == cudaSuccess) be = cudaFree(0);
    pool->err[id] = (int)be;
    pthread_barrier_wait(&pool->done);
    for (;;) {
      pthread_barrier_wait(&pool->start);
      if (pool->quit) break;
      pool->err[id] |= launch_n(pool->kind, pool->params, pool->streams[id], pool->n);
      pthread_barrier_wait(&pool->done);
    }
    return nullptr;
  }

  int begin() {
    int e = 0;
    for (int i = 0; i < NT; i++)
      e |= (int)cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking);
    if (e) return e;
    pthread_barrier_init(&start, nullptr, NT + 1);
    pthread_barrier_init(&done, nullptr, NT + 1);
    for (long i = 0; i < NT; i++)
      pthread_create(&th[i], nullptr, worker, new std::pair<Pool *, long>(this, i));
    pthread_barrier_wait(&done);  // every worker bound
    running = true;
    for (int i = 0; i < NT; i++) e |= err[i];
    return e;
  }
  // Timed by the caller: from the release of `start` to the end of `done`.
  int run(Kind k, int p, long count) {
    kind = k;
    params = p;
    n = count;
    for (int i = 0; i < NT; i++) err[i] = 0;
    pthread_barrier_wait(&start);
    pthread_barrier_wait(&done);
    int e = 0;
    for (int i = 0; i < NT; i++) e |= err[i];
    return e;
  }
  void sync() {
    for (int i = 0; i < NT; i++) cudaStreamSynchronize(streams[i]);
  }
  void end() {
    if (!running) return;
    quit = true;
    pthread_barrier_wait(&start);
    for (int i = 0; i < NT; i++) pthread_join(th[i], nullptr);
    for (int i = 0; i < NT; i++) cudaStreamDestroy(streams[i]);
    running = false;
  }
};
static Pool pool;

int main(int argc, char **argv) {
  BenchList L;
  auto dsync = [] { cudaDeviceSynchronize(); };
  auto raw_ok = [] { return Driver::need(drv.launch, f0, f8); };
  struct {
    Kind kind;
    const char *name;
  } kinds[] = {{CHEVRON, "chevron"},
               {LAUNCH_KERNEL, "cudaLaunchKernel"},
               {LAUNCH_EX, "cudaLaunchKernelExC"},
               {RAW, "raw_cuLaunchKernel"}};
  for (int p : {0, 8})
    for (auto &k : kinds) {
      std::string name = "launch." + std::string(k.name) + ".p" + std::to_string(p);
      std::string raw = "launch.raw_cuLaunchKernel.p" + std::to_string(p);
      Kind kind = k.kind;
      Bench &b = L.add(name.c_str(), "ns",
                       [kind, p](long n) { return launch_n(kind, p, 0, n); },
                       kind == RAW ? nullptr : raw.c_str());
      b.settle = dsync;
      if (kind == RAW) b.setup = raw_ok;
    }
  for (int p : {0, 8})
    for (auto &k : kinds) {
      std::string base = "launch_mt8." + std::string(k.name) + ".p" + std::to_string(p);
      std::string rawbase = "launch_mt8.raw_cuLaunchKernel.p" + std::to_string(p);
      Kind kind = k.kind;
      Bench &b = L.add(base.c_str(), "ns",
                       [kind, p](long n) { return pool.run(kind, p, n); },
                       kind == RAW ? nullptr : rawbase.c_str());
      b.per_call = NT;
      b.settle = [] { pool.sync(); };
      b.setup = [kind, raw_ok] {
        int e = pool.running ? 0 : pool.begin();
        return e ? e : (kind == RAW ? raw_ok() : 0);
      };
      b.rate_name = base + ".rate";
      b.rate_unit = "launch/s";
      if (kind != RAW) b.rate_raw = rawbase + ".rate";
    }
  int rc = bench_main("bench_launch", argc, argv, L, [] {
    drv.load();
    int e = (int)cudaGetFuncBySymbol(&f0, (const void *)k0);
    e |= (int)cudaGetFuncBySymbol(&f8, (const void *)k8);
    if (e) {
      bench_error("bench_launch.cudaGetFuncBySymbol", e, "setup");
      f0 = f8 = nullptr;  // only the raw benchmarks fail
    }
    return 0;
  });
  pool.end();
  return rc;
}
