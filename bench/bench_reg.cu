// Registration of 10,000 kernels across 100 fatbins: dlopen (RTLD_NOW) of
// libreg10k.so, whose constructors register them, before any other CUDA
// call. Two measures:
//   ctor_span             from the library's first constructor to its last
//                         (timestamps by reg_mark.c, linked first and last):
//                         the registration itself;
//   dlopen_minus_baseline dlopen of libreg10k.so minus dlopen of libreg0.so,
//                         the same 100 units as plain host functions;
//   ctor_page_faults      the minor page faults between the two marks.
// Then (needs the GPU): cudaFree(0), the first launch of one kernel of the
// last fatbin, and dlclose (unregistration, module unload). One sample per
// process. Registration needs no driver: the first lines come out on a
// machine without a GPU too. BENCH_REG_ONLY=1: stop after them (exit 0);
// bench-run.sh runs it so under the no-op runtime (nullrt.c), the floor.
#include "bench.h"
#include <limits.h>
#include <unistd.h>

static std::string here(const char *file) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  std::string dir = ".";
  if (n > 0) {
    buf[n] = 0;
    dir = buf;
    dir = dir.substr(0, dir.rfind('/'));
  }
  return dir + "/" + file;
}

static double mark(void *h, const char *sym) {
  double *p = (double *)dlsym(h, sym);
  return p ? *p : 0;
}

int main(int argc, char **argv) {
  bench_stdout();
  if (argc > 1 && strcmp(argv[1], "--list") == 0) {
    bench_decl("registration.k10000.ctor_span", "ms");
    bench_decl("registration.k10000.ctor_page_faults", "faults");
    bench_decl("registration.k10000.dlopen_minus_baseline", "ms");
    bench_decl("registration.k10000.dlopen", "ms");
    bench_decl("registration.k0_baseline.dlopen", "ms");
    bench_decl("registration.k0_baseline.ctor_span", "ms");
    bench_decl("registration.k10000.first_launch", "ms");
    bench_decl("registration.k10000.first_launch+sync", "ms");
    bench_decl("registration.k10000.dlclose", "ms");
    return 0;
  }
  std::string p0 = here("libreg0.so"), p1 = here("libreg10k.so");
  double t0 = bench_now_ns();
  void *h0 = dlopen(p0.c_str(), RTLD_NOW | RTLD_LOCAL);
  double t1 = bench_now_ns();
  void *h1 = h0 ? dlopen(p1.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr;
  double t2 = bench_now_ns();
  bench_info_libcudart("bench_reg");
  if (!h0 || !h1) {
    printf("BENCH_ERROR registration.k10000.dlopen -1 dlopen %s\n", dlerror());
    return 6;
  }
  double span0 = mark(h0, "reg_mark_end_ns") - mark(h0, "reg_mark_begin_ns");
  double span1 = mark(h1, "reg_mark_end_ns") - mark(h1, "reg_mark_begin_ns");
  bench_value("registration.k10000.ctor_span", span1 / 1e6, "ms");
  bench_value("registration.k10000.ctor_page_faults",
              mark(h1, "reg_mark_end_ns_faults") - mark(h1, "reg_mark_begin_ns_faults"), "faults");
  bench_value("registration.k10000.dlopen_minus_baseline", ((t2 - t1) - (t1 - t0)) / 1e6, "ms");
  bench_value("registration.k10000.dlopen", (t2 - t1) / 1e6, "ms");
  bench_value("registration.k0_baseline.dlopen", (t1 - t0) / 1e6, "ms");
  bench_value("registration.k0_baseline.ctor_span", span0 / 1e6, "ms");
  const char *only = getenv("BENCH_REG_ONLY");
  if (only && *only && strcmp(only, "0") != 0) return 0;

  cudaError_t e = cudaFree(0);
  if (e != cudaSuccess) {
    bench_error("registration.k10000.first_launch", (int)e, "cudaFree(0)");
    return 3;
  }
  auto launch = (int (*)(void))dlsym(h1, "reg_launch_last");
  if (!launch) {
    printf("BENCH_ERROR registration.k10000.first_launch -1 dlsym reg_launch_last\n");
    return 6;
  }
  double t3 = bench_now_ns();
  int le = launch();
  double t4 = bench_now_ns();
  if (le == 0) le = (int)cudaDeviceSynchronize();
  double t5 = bench_now_ns();
  if (le) {
    bench_error("registration.k10000.first_launch", le, "launch of r99_99");
    return 5;
  }
  bench_value("registration.k10000.first_launch", (t4 - t3) / 1e6, "ms");
  bench_value("registration.k10000.first_launch+sync", (t5 - t3) / 1e6, "ms");
  double t6 = bench_now_ns();
  dlclose(h1);
  double t7 = bench_now_ns();
  bench_value("registration.k10000.dlclose", (t7 - t6) / 1e6, "ms");
  dlclose(h0);
  return 0;
}
