// scale_fatbin: N registered fatbins, N = 1 .. SCALE_FATBIN_MAX (1000; 1e4
// works, see README.md), the way real programs get many: by loading many
// shared libraries, each with its own fatbin (issue 30). Copies of
// fatlib.so (one kernel; each copy is a distinct file, so the loader maps
// each one anew and its constructor registers its fatbin) are dlopen'ed one
// after the other. At each checkpoint N:
//   fatbin.dlopen          dlopen(RTLD_NOW) of the copies that brought the
//                          count to N (ns per library: loader + registration)
//   fatbin.dlopen_floor    the same for copies of hostlib.so (no CUDA: the
//                          loader's own cost at that many libraries), measured
//                          in the same process before the CUDA copies
//   fatbin.first_launch    the first launch of each new library's kernel (its
//                          module is loaded then), one synchronize at the end
//   fatbin.launch_warm     SCALE_FATBIN_WARM (1000) more launches cycling over
//                          all N libraries (host time of the launch calls)
// and at the end fatbin.dlclose (every CUDA copy, newest first: unregistration)
// and fatbin.dlclose_floor. A counter checks every launch ran ("check").
// One more copy is opened and launched before the timing (warm-up: first-call
// costs), and the context exists (cudaFree(0)) before anything.
//
//   scale_fatbin [LIBDIR]    (LIBDIR holds fatlib.so and hostlib.so; default:
//                             the program's directory). The copies go to a
//                             fresh directory under $TMPDIR (or /tmp) and are
//                             removed at the end.
#include "scale.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

typedef int (*launch_fn)(unsigned long long *, unsigned long long, cudaStream_t);
typedef int (*host_fn)(int);

static std::string g_work;
static long g_max;
static void cleanup() {  // at exit, also after an error
  if (g_work.empty()) return;
  for (long i = 0; i <= g_max; i++) {
    unlink((g_work + "/f" + std::to_string(i) + ".so").c_str());
    unlink((g_work + "/h" + std::to_string(i) + ".so").c_str());
  }
  rmdir(g_work.c_str());
}

int main(int argc, char **argv) {
  std::string dir;
  if (argc > 1) dir = argv[1];
  else {
    dir = argv[0];
    size_t slash = dir.rfind('/');
    dir = slash == std::string::npos ? "." : dir.substr(0, slash);
  }
  const long max = env_long("SCALE_FATBIN_MAX", 1000);
  const long warm = env_long("SCALE_FATBIN_WARM", 1000);
  const char *tmp = getenv("TMPDIR");
  std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/scale-fatbin.XXXXXX";
  std::vector<char> tbuf(tmpl.begin(), tmpl.end());
  tbuf.push_back(0);
  if (!mkdtemp(tbuf.data())) {
    emit_stop("fatbin.dlopen", 0, "mkdtemp failed");
    return 1;
  }
  std::string work = tbuf.data();
  g_work = work;
  g_max = max;
  atexit(cleanup);
  // The copies, made before any timing (max + 1 CUDA, max host-only).
  for (long i = 0; i <= max; i++) {
    if (!copy_file(dir + "/fatlib.so", work + "/f" + std::to_string(i) + ".so") ||
        (i < max && !copy_file(dir + "/hostlib.so", work + "/h" + std::to_string(i) + ".so"))) {
      emit_stop("fatbin.dlopen", 0, "copying the libraries failed (disk full?)");
      return 1;
    }
  }

  SCK(cudaFree(0));
  unsigned long long *c;
  SCK(cudaMalloc(&c, sizeof(*c)));
  SCK(cudaMemset(c, 0, sizeof(*c)));
  cudaStream_t s;
  SCK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  unsigned long long expect = 0;
  {  // warm-up copy: f<max>.so
    void *h = dlopen((work + "/f" + std::to_string(max) + ".so").c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      fprintf(stderr, "dlopen: %s\n", dlerror());
      emit_stop("fatbin.dlopen", 0, "dlopen of the warm-up copy failed");
      return 1;
    }
    launch_fn f = (launch_fn)dlsym(h, "fatlib_launch");
    SCK((cudaError_t)f(c, 1, s));
    SCK(cudaStreamSynchronize(s));
    expect += 1;
  }
  std::vector<long> points = series(1, max);

  // The floor: host-only copies.
  std::vector<void *> hh;
  {
    Budget budget;
    for (long n : points) {
      uint64_t t0 = now_ns();
      long from = (long)hh.size();
      for (long i = from; i < n; i++) {
        void *h = dlopen((work + "/h" + std::to_string(i) + ".so").c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) {
          fprintf(stderr, "dlopen: %s\n", dlerror());
          emit_stop("fatbin.dlopen_floor", (long)hh.size(), "dlopen failed");
          return 1;
        }
        hh.push_back(h);
      }
      emit("fatbin.dlopen_floor", n, (double)(now_ns() - t0), n - from);
      if (budget.spent() && n < max) {
        emit_stop("fatbin.dlopen_floor", n, "time budget (SCALE_BENCH_SECONDS)");
        break;
      }
    }
  }

  // The CUDA copies.
  std::vector<void *> libs;
  std::vector<launch_fn> fns;
  Budget budget;
  for (long n : points) {
    long from = (long)libs.size();
    uint64_t t0 = now_ns();
    for (long i = from; i < n; i++) {
      void *h = dlopen((work + "/f" + std::to_string(i) + ".so").c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!h) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        emit_stop("fatbin.dlopen", (long)libs.size(), "dlopen failed");
        goto done;
      }
      libs.push_back(h);
    }
    emit("fatbin.dlopen", n, (double)(now_ns() - t0), n - from);
    for (long i = from; i < n; i++) {
      launch_fn f = (launch_fn)dlsym(libs[i], "fatlib_launch");
      if (!f) {
        emit_stop("fatbin.dlopen", n, "no fatlib_launch");
        return 1;
      }
      fns.push_back(f);
    }
    t0 = now_ns();
    for (long i = from; i < n; i++) SCK((cudaError_t)fns[i](c, 1, s));
    SCK(cudaStreamSynchronize(s));
    emit("fatbin.first_launch", n, (double)(now_ns() - t0), n - from);
    expect += n - from;
    t0 = now_ns();
    for (long k = 0; k < warm; k++) SCK((cudaError_t)fns[k % n](c, 1, s));
    double t_warm = (double)(now_ns() - t0);
    SCK(cudaStreamSynchronize(s));
    expect += warm;
    unsigned long long got = 0;
    SCK(cudaMemcpy(&got, c, sizeof(got), cudaMemcpyDeviceToHost));
    emit("fatbin.launch_warm", n, t_warm, warm,
         std::string(", \"check\": ") + (got == expect ? "true" : "false"));
    if (budget.spent() && n < max) {
      emit_stop("fatbin.dlopen", n, "time budget (SCALE_BENCH_SECONDS)");
      break;
    }
  }
done:
  {
    long n = (long)libs.size();
    uint64_t t0 = now_ns();
    for (long i = n - 1; i >= 0; i--) dlclose(libs[i]);
    emit("fatbin.dlclose", n, (double)(now_ns() - t0), n);
    n = (long)hh.size();
    t0 = now_ns();
    for (long i = n - 1; i >= 0; i--) dlclose(hh[i]);
    emit("fatbin.dlclose_floor", n, (double)(now_ns() - t0), n);
  }
  SCK(cudaStreamDestroy(s));
  SCK(cudaFree(c));
  return 0;
}
