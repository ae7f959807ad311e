// scale_kernels: many registered kernels (issue 30). Generated libraries
// libkern_<K>.so (gen_kernels.py: one fatbin of K kernels, each adding 1
// to a counter; K = 10, 100, 1000, 10000) are dlopen'ed; a kernel is
// launched through cudaLaunchKernel on its host stub, so each launch makes
// the runtime find the kernel among all it has registered.
//
// Part 1, one library at a time (SCALE_KERNELS_SIZES, default
// "10 100 1000 10000"; each is closed before the next):
//   kernels.dlopen        dlopen of libkern_K.so (registration of K kernels;
//                         ns per kernel, total_ns the call)
//   kernels.first_launch  the first launch of every one of the K kernels
//                         (lazy loading: each loads its function), + sync
//   kernels.launch_warm   max(K, 1000) more launches cycling over the K kernels
//                         (host time of the launch calls)
//   kernels.launch_same   1000 launches of kernel 0
//   kernels.dlclose       dlclose (unregistration; ns per kernel)
//   Each kernels.dlclose row also says what device memory the library's
//   loaded kernels held ("loaded_bytes": cudaMemGetInfo's free memory
//   before the dlopen less that after the first launches) and what the
//   dlclose gave back ("freed_bytes": free memory after it less that
//   before it): whether a runtime unloads the library at dlclose or keeps
//   it loaded.
// Part 2, up to SCALE_KERNELS_MAX (1e6) registered kernels: copies of the
// largest library (10,000 kernels each, distinct files) are dlopen'ed and
// kept open; at M = 1e4, 3e4, 1e5, ... registered kernels:
//   kernels_many.dlopen        dlopen of the copies that brought the count
//                              to M (ns per library of 10,000 kernels)
//   kernels_many.first_launch  the first launch of kernel 0 of the newest copy
//   kernels_many.launch_warm   1000 launches cycling over the kernels of the
//                              first copy (found among M registered)
//   kernels_many.dlclose       closing every copy at the end (ns per library)
// A counter checks every launch ran ("check"). The context exists before
// anything is timed.
//
//   scale_kernels [LIBDIR]   (default: the program's directory; the copies
//                             go to a fresh directory under $TMPDIR or /tmp)
#include "scale.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sstream>

typedef int (*launch_fn)(long, unsigned long long *, cudaStream_t);
typedef long (*count_fn)();

static std::string g_work;
static long g_copies;
static void cleanup() {
  if (g_work.empty()) return;
  for (long i = 0; i < g_copies; i++) unlink((g_work + "/c" + std::to_string(i) + ".so").c_str());
  rmdir(g_work.c_str());
}

struct Lib {
  void *h = nullptr;
  launch_fn launch = nullptr;
  long k = 0;
};

static bool open_lib(const std::string &path, Lib &l) {
  l.h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!l.h) {
    fprintf(stderr, "dlopen %s: %s\n", path.c_str(), dlerror());
    return false;
  }
  return true;
}
static bool bind_lib(Lib &l) {
  l.launch = (launch_fn)dlsym(l.h, "kern_launch");
  count_fn c = (count_fn)dlsym(l.h, "kern_count");
  if (!l.launch || !c) return false;
  l.k = c();
  return true;
}

static std::string check(unsigned long long *c, unsigned long long expect) {
  unsigned long long got = 0;
  SCK(cudaMemcpy(&got, c, sizeof(got), cudaMemcpyDeviceToHost));
  return std::string(", \"check\": ") + (got == expect ? "true" : "false");
}

int main(int argc, char **argv) {
  std::string dir;
  if (argc > 1) dir = argv[1];
  else {
    dir = argv[0];
    size_t slash = dir.rfind('/');
    dir = slash == std::string::npos ? "." : dir.substr(0, slash);
  }
  std::vector<long> sizes;
  {
    const char *e = getenv("SCALE_KERNELS_SIZES");
    std::istringstream in(e && *e ? e : "10 100 1000 10000");
    long k;
    while (in >> k) sizes.push_back(k);
  }
  const long max = env_long("SCALE_KERNELS_MAX", 1000000);

  SCK(cudaFree(0));
  unsigned long long *c;
  SCK(cudaMalloc(&c, sizeof(*c)));
  SCK(cudaMemset(c, 0, sizeof(*c)));
  unsigned long long expect = 0;
  cudaStream_t s;
  SCK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  {  // warm-up: the launch path once
    scale_empty_k<<<1, 1, 0, s>>>();
    SCK(cudaStreamSynchronize(s));
  }

  // Part 1.
  long biggest = 0;
  for (long k : sizes) {
    std::string path = dir + "/libkern_" + std::to_string(k) + ".so";
    struct stat st;
    if (stat(path.c_str(), &st) != 0) {
      emit_stop("kernels.dlopen", k, "library missing");
      continue;
    }
    Lib l;
    size_t free0 = 0, free1 = 0, free2 = 0, total = 0;
    SCK(cudaMemGetInfo(&free0, &total));
    uint64_t t0 = now_ns();
    if (!open_lib(path, l)) {
      emit_stop("kernels.dlopen", k, "dlopen failed");
      continue;
    }
    emit("kernels.dlopen", k, (double)(now_ns() - t0), k);
    if (!bind_lib(l) || l.k != k) {
      emit_stop("kernels.dlopen", k, "kern_launch/kern_count missing or wrong");
      dlclose(l.h);
      continue;
    }
    t0 = now_ns();
    for (long i = 0; i < k; i++) SCK((cudaError_t)l.launch(i, c, s));
    SCK(cudaStreamSynchronize(s));
    emit("kernels.first_launch", k, (double)(now_ns() - t0), k);
    expect += k;
    long w = k > 1000 ? k : 1000;
    t0 = now_ns();
    for (long i = 0; i < w; i++) SCK((cudaError_t)l.launch(i % k, c, s));
    double tw = (double)(now_ns() - t0);
    SCK(cudaStreamSynchronize(s));
    expect += w;
    emit("kernels.launch_warm", k, tw, w, check(c, expect));
    t0 = now_ns();
    for (long i = 0; i < 1000; i++) SCK((cudaError_t)l.launch(0, c, s));
    tw = (double)(now_ns() - t0);
    SCK(cudaStreamSynchronize(s));
    expect += 1000;
    emit("kernels.launch_same", k, tw, 1000, check(c, expect));
    SCK(cudaMemGetInfo(&free1, &total));
    t0 = now_ns();
    dlclose(l.h);
    double tc = (double)(now_ns() - t0);
    SCK(cudaMemGetInfo(&free2, &total));
    emit("kernels.dlclose", k, tc, k,
         kv("loaded_bytes", (double)free0 - (double)free1) +
             kv("freed_bytes", (double)free2 - (double)free1));
    if (k > biggest) biggest = k;
  }

  // Part 2: copies of the biggest library.
  if (biggest == 0 || max < biggest) return 0;
  const long copies = max / biggest;
  const char *tmp = getenv("TMPDIR");
  std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/scale-kernels.XXXXXX";
  std::vector<char> tbuf(tmpl.begin(), tmpl.end());
  tbuf.push_back(0);
  if (!mkdtemp(tbuf.data())) {
    emit_stop("kernels_many.dlopen", 0, "mkdtemp failed");
    return 1;
  }
  g_work = tbuf.data();
  g_copies = copies;
  atexit(cleanup);
  std::string src = dir + "/libkern_" + std::to_string(biggest) + ".so";
  for (long i = 0; i < copies; i++)
    if (!copy_file(src, g_work + "/c" + std::to_string(i) + ".so")) {
      emit_stop("kernels_many.dlopen", 0, "copying the library failed (disk full?)");
      return 1;
    }
  std::vector<Lib> libs;
  Budget budget;
  for (long ncopies : series(1, copies)) {
    long from = (long)libs.size();
    uint64_t t0 = now_ns();
    for (long i = from; i < ncopies; i++) {
      Lib l;
      if (!open_lib(g_work + "/c" + std::to_string(i) + ".so", l)) {
        emit_stop("kernels_many.dlopen", (long)libs.size() * biggest, "dlopen failed");
        goto done;
      }
      libs.push_back(l);
    }
    {
      long m = ncopies * biggest;
      emit("kernels_many.dlopen", m, (double)(now_ns() - t0), ncopies - from);
      for (long i = from; i < ncopies; i++)
        if (!bind_lib(libs[i])) {
          emit_stop("kernels_many.dlopen", m, "kern_launch missing");
          return 1;
        }
      t0 = now_ns();
      SCK((cudaError_t)libs.back().launch(0, c, s));
      SCK(cudaStreamSynchronize(s));
      expect += 1;
      emit("kernels_many.first_launch", m, (double)(now_ns() - t0), 1);
      // Kernels 0..999 of the first copy: once untimed (their first
      // launches, at the first checkpoint), then timed.
      for (long i = 0; i < 1000; i++) SCK((cudaError_t)libs[0].launch(i % biggest, c, s));
      SCK(cudaStreamSynchronize(s));
      t0 = now_ns();
      for (long i = 0; i < 1000; i++) SCK((cudaError_t)libs[0].launch(i % biggest, c, s));
      double tw = (double)(now_ns() - t0);
      SCK(cudaStreamSynchronize(s));
      expect += 2000;
      emit("kernels_many.launch_warm", m, tw, 1000, check(c, expect));
      if (budget.spent() && ncopies < copies) {
        emit_stop("kernels_many.dlopen", m, "time budget (SCALE_BENCH_SECONDS)");
        break;
      }
    }
  }
done:
  {
    long n = (long)libs.size();
    uint64_t t0 = now_ns();
    for (long i = n - 1; i >= 0; i--) dlclose(libs[i].h);
    emit("kernels_many.dlclose", n * biggest, (double)(now_ns() - t0), n);
  }
  SCK(cudaStreamDestroy(s));
  SCK(cudaFree(c));
  return 0;
}
