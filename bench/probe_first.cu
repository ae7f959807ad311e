// probe_first: the first launch of a program's first kernel, in two steps
// (issue 8): cudaFuncGetAttributes(k0) first, which makes the runtime load
// the module and the kernel, then the launch. Under each runtime, it shows
// how the first-launch time divides between loading and launching.
// "PROBE first <step> <microseconds>" per step. One sample per process.
//
//   probe_first            as above
//   probe_first direct     the launch alone, as a program makes it
//                          ("PROBE first_direct ...")
//   probe_first2000 ...    any of these, built with -DPROBE_K2000: 2,000
//                          more kernels in the program's fatbin
//   probe_first alloc      direct, after a timed cudaMalloc(256) and
//                          cudaFree, as most programs allocate before
//                          their first launch ("PROBE first_alloc
//                          malloc_free <us>", then the launch's lines):
//                          does the allocation path map the driver code a
//                          first load needs (finding 12 of first-launch.md)?
//                          With PROBE_PAGES, the allocation's pages come
//                          as group "first_alloc/malloc_free".
//   probe_first raw FATBIN after the runtime's cudaFree(0), the driver alone
//                          loads FATBIN (k0.fatbin) as a library and
//                          launches its kernel ("PROBE first_raw ..."): is
//                          the context as a runtime leaves it after its
//                          start-up quicker to take a first launch (did
//                          the runtime do work there that a first launch
//                          would otherwise pay)?
//   probe_first raw embedded [preserved]
//                          the same with the program's own fatbin, in
//                          place, as a runtime's lazy load passes it;
//                          "preserved" adds CU_LIBRARY_BINARY_IS_PRESERVED
//                          as ours does (also after a file name)
//
// PROBE_POPULATE=a,b (environment): after cudaFree(0), before the clock
// starts, the pages of every mapping whose path contains a or b are
// mapped in (madvise MADV_POPULATE_READ), e.g. "libcudart" or "libcuda.so":
// does the first launch wait on page faults in that library's code?
// Each step also prints the minor page faults it took ("PROBE first
// faults <step> <n>"). With bench/ioctltrace.so preloaded, the phases are
// marked for it: startup (cudaFree(0)), idle, launch, second_launch, sync,
// rest.
// PROBE_PAGES=1 (environment): the pages that became present during the
// timed steps (cudaFuncGetAttributes and the launch, or the driver calls),
// per mapping (bench/pages.h: "PROBE <group> pages <mapping> <n>"): where
// the first launch's page faults are, under each runtime. PROBE_PAGES=2
// also lists every page present after the start-up ("PROBE
// startup_present pages_runs ...", printed before the clock starts). With
// PROBE_SYMS="cuA cuB ..." also where those driver entry points lie
// ("PROBE <group> sym <name> dlsym <mapping>+<page> proc <mapping>+<page>",
// the address dlsym gives and the one cuGetProcAddress_v2 gives for CUDA
// 13.0, as pages into the mapping, hex): are the pages the first launch
// faults in the entry points a runtime calls?
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include "pages.h"
#include "probe.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

// Maps in the pages of every mapping named in PROBE_POPULATE; prints how
// many mappings and bytes, or nothing when the variable is unset.
static void populate() {
  const char *want = getenv("PROBE_POPULATE");
  if (!want || !*want) return;
  FILE *m = fopen("/proc/self/maps", "r");
  if (!m) return;
  char line[4096];
  long n = 0, bytes = 0, failed = 0;
  while (fgets(line, sizeof line, m)) {
    unsigned long lo, hi;
    char perms[8];
    int off = 0;
    if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &lo, &hi, perms, &off) < 3 || !off) continue;
    const char *path = line + off;
    bool hit = false;
    char list[512];
    snprintf(list, sizeof list, "%s", want);
    for (char *t = strtok(list, ","); t && !hit; t = strtok(nullptr, ",")) hit = *t && strstr(path, t);
    if (!hit || perms[0] != 'r') continue;
    if (madvise((void *)lo, hi - lo, MADV_POPULATE_READ) == 0) {
      n++;
      bytes += (long)(hi - lo);
    } else {
      failed++;
    }
  }
  fclose(m);
  printf("PROBE populate %s mappings=%ld bytes=%ld failed=%ld\n", want, n, bytes, failed);
}

__global__ void k0() {}

#ifdef PROBE_K2000
// probe_first2000: the same probe with bench_lazy's 2,000 kernels in this
// file's fatbin next to k0 (finding 13: the first launch after an eager
// load of a large module).
#include "kernels.h"
#define BENCH_KERNEL(n)                                                        \
  __global__ void BENCH_CAT2(k_, n)(int *p) {                                  \
    if (p) p[threadIdx.x] = (int)threadIdx.x + 1;                              \
  }
BENCH_K1000()
BENCH_K1000(1)
#endif

// Names the phase for bench/ioctltrace.so when it is preloaded.
static void mark(const char *phase) {
  static void (*f)(const char *) = (void (*)(const char *))dlsym(RTLD_DEFAULT, "ioctltrace_mark");
  if (f) f(phase);
}

// The runtime's start-up (cudaFree(0)), then what comes before a timed
// first launch: the pages named in PROBE_POPULATE mapped in, the phases
// marked. False when cudaFree(0) failed.
static bool start_up() {
  mark("startup");
  if (cudaFree(0) != cudaSuccess) return false;
  mark("idle");
  populate();
  mark("launch");
  return true;
}

// The page snapshots of PROBE_PAGES, their buffers mapped before the
// first; none when the variable is unset.
static struct pages_snap pages_before, pages_after;
static bool pages_on() {
  static const bool on = getenv("PROBE_PAGES") && (*getenv("PROBE_PAGES") == '1' || *getenv("PROBE_PAGES") == '2');
  return on;
}
static void pages_start() {
  if (!pages_on()) return;
  // What the probe itself calls first between the snapshots, called once
  // before them (a page of libc first run there is no launch's fault).
  (void)faults();
  (void)now_us();
  pages_init(&pages_before);
  pages_init(&pages_after);
  pages_take(&pages_before);
  if (*getenv("PROBE_PAGES") == '2') {
    // Every page present after the start-up, as runs per mapping.
    pages_list(&pages_before, "startup_present");
  }
}
static void where(const char *what, void *p) {
  for (long i = 0; i < pages_after.nmaps; i++) {
    const pages_map &m = pages_after.maps[i];
    if ((uint64_t)p >= m.lo && (uint64_t)p < m.hi) {
      printf(" %s %s+%lx", what, m.name, (unsigned long)(((uint64_t)p - m.lo) >> 12));
      return;
    }
  }
  printf(" %s none", what);
}
static void syms_report(const char *group) {
  const char *names = getenv("PROBE_SYMS");
  void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!names || !drv) return;
  auto gpa = (CUresult(*)(const char *, void **, int, unsigned long long, int *))dlsym(
      drv, "cuGetProcAddress_v2");
  char list[1024];
  snprintf(list, sizeof list, "%s", names);
  for (char *t = strtok(list, " ,"); t; t = strtok(nullptr, " ,")) {
    void *p = nullptr;
    int status = 0;
    if (gpa) gpa(t, &p, 13000, 0, &status);
    printf("PROBE %s sym %s", group, t);
    where("dlsym", dlsym(drv, t));
    where("proc", p);
    printf("\n");
  }
}
static void pages_end(const char *group) {
  if (!pages_on()) return;
  pages_take(&pages_after);
  pages_report(&pages_before, &pages_after, group);
  syms_report(group);
}

static int bias_of_program(struct dl_phdr_info *info, size_t, void *out) {
  *(ElfW(Addr) *)out = info->dlpi_addr;  // the first object is the program
  return 1;
}

// The program's own fatbin where the loader mapped it (in .nv_fatbin,
// where its registration wrapper points), read nowhere: the bytes a
// runtime's lazy load gives the driver. NULL when not found.
static void *embedded_image() {
  FILE *f = fopen("/proc/self/exe", "rb");
  if (!f) return nullptr;
  Elf64_Ehdr eh;
  void *found = nullptr;
  if (fread(&eh, sizeof eh, 1, f) == 1 && eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shnum) {
    Elf64_Shdr *sh = (Elf64_Shdr *)calloc(eh.e_shnum, sizeof(Elf64_Shdr));
    if (sh && !fseek(f, (long)eh.e_shoff, SEEK_SET) &&
        fread(sh, sizeof(Elf64_Shdr), eh.e_shnum, f) == eh.e_shnum && eh.e_shstrndx < eh.e_shnum) {
      Elf64_Shdr *strs = &sh[eh.e_shstrndx];
      char *names = (char *)malloc(strs->sh_size + 1);
      if (names && !fseek(f, (long)strs->sh_offset, SEEK_SET) &&
          fread(names, 1, strs->sh_size, f) == strs->sh_size) {
        names[strs->sh_size] = 0;
        ElfW(Addr) bias = 0;
        dl_iterate_phdr(bias_of_program, &bias);
        // The registration wrappers (magic, version, data, prelinked):
        // the data pointer of the version-1 one (the program's kernels;
        // nvcc may add others), relocated by the loader, is what the
        // runtime is handed.
        struct wrapper {
          unsigned magic, version;
          void *data, *prelinked;
        };
        for (unsigned i = 0; i < eh.e_shnum; i++) {
          if (sh[i].sh_name >= strs->sh_size || strcmp(names + sh[i].sh_name, ".nvFatBinSegment"))
            continue;
          wrapper *w = (wrapper *)(bias + sh[i].sh_addr);
          for (size_t j = 0; j < sh[i].sh_size / sizeof(wrapper); j++)
            if (w[j].magic == 0x466243B1u && w[j].version == 1) found = w[j].data;
        }
      }
      free(names);
    }
    free(sh);
  }
  fclose(f);
  return found;
}

// raw SOURCE [preserved]: SOURCE a fatbin file, or "embedded" (the
// program's own image, in place); "preserved" passes
// CU_LIBRARY_BINARY_IS_PRESERVED, as our runtime's lazy load does.
static int raw(const char *fatbin_path, bool preserved) {
  bool embedded = !strcmp(fatbin_path, "embedded");
  void *image = embedded ? embedded_image() : slurp(fatbin_path);
  void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!image || !drv) {
    printf("probe_first: no image or no driver\n");
    return 2;
  }
  auto load = (CUresult(*)(H *, const void *, void *, void **, unsigned, void *, void **,
                           unsigned))dlsym(drv, "cuLibraryLoadData");
  auto get = (CUresult(*)(H *, H, const char *))dlsym(drv, "cuLibraryGetKernel");
  auto launch = (CUresult(*)(H, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, H, void **, void **))dlsym(drv, "cuLaunchKernel");
  auto sync = (CUresult(*)())dlsym(drv, "cuCtxSynchronize");
  if (!load || !get || !launch || !sync) {
    printf("probe_first: driver entry points missing\n");
    return 2;
  }
  H lib = nullptr, k = nullptr;
  int option = 1;  // CU_LIBRARY_BINARY_IS_PRESERVED
  void *value = (void *)1;
  if (!start_up()) return 3;
  pages_start();
  long f0 = faults();
  double t0 = now_us();
  CUresult r1 = preserved ? load(&lib, image, nullptr, nullptr, 0, &option, &value, 1)
                          : load(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
  double t1 = now_us();
  CUresult r2 = r1 ? r1 : get(&k, lib, "_Z2k0v");
  double t2 = now_us();
  CUresult r3 = r2 ? r2 : launch(k, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr);
  double t3 = now_us();
  long f3 = faults();
  pages_end("first_raw");
  mark("sync");
  CUresult r4 = sync();
  mark("rest");
  printf("PROBE first_raw cuLibraryLoadData %.2f\nPROBE first_raw cuLibraryGetKernel %.2f\n"
         "PROBE first_raw cuLaunchKernel %.2f\nPROBE first_raw total %.2f\n"
         "PROBE first_raw faults total %ld\n",
         t1 - t0, t2 - t1, t3 - t2, t3 - t0, f3 - f0);
  if (r1 || r2 || r3 || r4) {
    printf("probe_first: driver errors %d %d %d %d\n", r1, r2, r3, r4);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && !strcmp(argv[1], "raw"))
    return raw(argv[2], argc == 4 && !strcmp(argv[3], "preserved"));
  bool alloc = argc == 2 && !strcmp(argv[1], "alloc");
  bool direct = alloc || (argc == 2 && !strcmp(argv[1], "direct"));
  const char *g = alloc ? "first_alloc" : direct ? "first_direct" : "first";
  if (!start_up()) return 3;
  if (alloc) {
    void *p = nullptr;
    pages_start();
    long fa = faults();
    double ta = now_us();
    cudaError_t ea = cudaMalloc(&p, 256);
    cudaError_t eb = ea ? ea : cudaFree(p);
    double tb = now_us();
    long fb = faults();
    pages_end("first_alloc/malloc_free");  // its pages, apart from the launch's
    printf("PROBE %s malloc_free %.2f\nPROBE %s faults malloc_free %ld\n", g, tb - ta, g, fb - fa);
    if (ea || eb) {
      printf("probe_first: allocation errors %d %d\n", (int)ea, (int)eb);
      return 1;
    }
  }
  pages_start();
  long f0 = faults();
  double t0 = now_us();
  cudaFuncAttributes a;
  cudaError_t e1 = direct ? cudaSuccess : cudaFuncGetAttributes(&a, k0);
  double t1 = now_us();
  long f1 = faults();
  double t1b = now_us();  // the fault count's system call stays out of both steps
  k0<<<1, 1>>>();
  cudaError_t e2 = cudaGetLastError();
  double t2 = now_us();
  long f2 = faults();
  pages_end(g);
  mark("second_launch");
  double t2b = now_us();
  k0<<<1, 1>>>();
  double t3 = now_us();
  mark("sync");
  cudaError_t e3 = cudaDeviceSynchronize();
  mark("rest");
  if (!direct) printf("PROBE %s cudaFuncGetAttributes %.2f\n", g, t1 - t0);
  printf("PROBE %s launch %.2f\nPROBE %s second_launch %.2f\nPROBE %s total %.2f\n", g, t2 - t1b,
         g, t3 - t2b, g, (t1 - t0) + (t2 - t1b));
  if (!direct) printf("PROBE %s faults cudaFuncGetAttributes %ld\n", g, f1 - f0);
  printf("PROBE %s faults launch %ld\n", g, f2 - f1);
  if (e1 || e2 || e3) {
    printf("probe_first: errors %d %d %d\n", (int)e1, (int)e2, (int)e3);
    return 1;
  }
  return 0;
}
