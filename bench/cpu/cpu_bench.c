/* The runtime's own cost, measured on the CPU (bench/cpu/run.sh): no GPU,
 * the no-op driver of nulldrv.c. Each measured loop is its own noinline
 * function `loop_<what>`, so callgrind (--toggle-collect=loop_*) counts the
 * instructions inside it: inclusive cost / iterations = instructions per
 * call, the loop's own increment and compare included (3-4 instructions).
 * Without valgrind each loop is timed with CLOCK_MONOTONIC: median of
 * CPU_BENCH_REPS repetitions of CPU_BENCH_N iterations.
 *
 * Registration: 100 fatbins x 100 kernels registered through the entry
 * points nvcc's constructors call (wrappers, stubs and names laid out as
 * nvcc does: names are NUL-terminated strings in the program's data), once
 * per process before any other runtime call, then unregistered at the end.
 *
 * Events alive (CPU_BENCH_ALIVE, default "100 10000 100000 1000000"; "0"
 * skips them): for each N, N events made one after another (ns per
 * cudaEventCreate while the count grows), then CPU_BENCH_ALIVE_PAIRS
 * (200000) create+destroy pairs with N alive, the same pairs through the
 * driver's own cuEventCreate/cuEventDestroy (what the runtime adds is the
 * difference), and the N destroyed in the order they were made. The no-op
 * driver's events are heap objects, so the addresses are a heap's.
 *
 * Output: `CPU <what> <value> <unit>`. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef struct { unsigned x, y, z; } dim3;
typedef struct {
  dim3 gridDim, blockDim;
  size_t dynamicSmemBytes;
  void *stream;
  void *attrs;
  unsigned numAttrs;
} cudaLaunchConfig_t;

int cudaGetLastError(void);
int cudaPeekAtLastError(void);
int cudaGetDevice(int *);
int cudaSetDevice(int);
int cudaFree(void *);
int cudaEventCreate(void **);
int cudaEventDestroy(void *);
int cudaStreamCreate(void **);
int cudaStreamDestroy(void *);
unsigned __cudaPushCallConfiguration(dim3, dim3, size_t, void *);
int __cudaPopCallConfiguration(dim3 *, dim3 *, size_t *, void **);
void **__cudaRegisterFatBinary(void *);
void __cudaRegisterFatBinaryEnd(void **);
void __cudaUnregisterFatBinary(void **);
void __cudaRegisterFunction(void **, const char *, char *, const char *, int, void *, void *, void *,
                            void *, int *);
int __cudaGetKernel(void **, const void *);
int __cudaLaunchKernel(const void *, dim3, dim3, void **, size_t, void *);
int cudaLaunchKernel(const void *, dim3, dim3, void **, size_t, void *);
int cudaLaunchKernelExC(const cudaLaunchConfig_t *, const void *, void **);

enum { FATBINS = 100, PER_FATBIN = 100, KERNELS = FATBINS * PER_FATBIN };

struct wrapper {
  uint32_t magic, version;
  const void *data, *prelinked;
};
static const uint32_t container[4] = {0xBA55ED50u, 0x00100001u, 0, 0};
static struct wrapper wrappers[FATBINS];
static void **handles[FATBINS];
static char stubs[KERNELS];     /* the host stubs' addresses */
static char names[KERNELS][16]; /* "_Z6rUU_KKPi" */

static long minor_faults(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt;
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

__attribute__((noinline)) void loop_register_10k(void) {
  for (int f = 0; f < FATBINS; f++) {
    void **h = __cudaRegisterFatBinary(&wrappers[f]);
    handles[f] = h;
    for (int k = 0; k < PER_FATBIN; k++) {
      int i = f * PER_FATBIN + k;
      __cudaRegisterFunction(h, &stubs[i], names[i], names[i], -1, 0, 0, 0, 0, 0);
    }
    __cudaRegisterFatBinaryEnd(h);
  }
}

__attribute__((noinline)) void loop_unregister_10k(void) {
  for (int f = FATBINS - 1; f >= 0; f--) __cudaUnregisterFatBinary(handles[f]);
}

static volatile int sink;
static int dev;
static const dim3 one = {1, 1, 1};
static void *kernel_handle;
static long long av[8] = {1, 2, 3, 4, 5, 6, 7, 8};
static void *args8[8] = {&av[0], &av[1], &av[2], &av[3], &av[4], &av[5], &av[6], &av[7]};
typedef int (*raw_launch_t)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                            unsigned, void *, void **, void **);
static raw_launch_t raw_launch;

/* The first launch of a kernel of the last fatbin (its library loaded
 * lazily, the kernel looked up): the runtime's cold path, once per process. */
__attribute__((noinline)) int loop_first_launch(void) {
  return cudaLaunchKernel(&stubs[KERNELS - 1], one, one, 0, 0, 0);
}

__attribute__((noinline)) void loop_cudaGetLastError(long n) {
  int e = 0;
  for (long i = 0; i < n; i++) e |= cudaGetLastError();
  sink = e;
}
__attribute__((noinline)) void loop_cudaPeekAtLastError(long n) {
  int e = 0;
  for (long i = 0; i < n; i++) e |= cudaPeekAtLastError();
  sink = e;
}
__attribute__((noinline)) void loop_cudaGetDevice(long n) {
  int e = 0, d = 0;
  for (long i = 0; i < n; i++) e |= cudaGetDevice(&d);
  sink = e | d;
}
__attribute__((noinline)) void loop_cudaSetDevice_current(long n) {
  int e = 0;
  for (long i = 0; i < n; i++) e |= cudaSetDevice(dev);
  sink = e;
}
__attribute__((noinline)) void loop_push_pop_call_configuration(long n) {
  int e = 0;
  dim3 g2, b2;
  size_t shm = 0;
  void *st = 0;
  for (long i = 0; i < n; i++) {
    e |= (int)__cudaPushCallConfiguration(one, one, 0, 0);
    e |= __cudaPopCallConfiguration(&g2, &b2, &shm, &st);
  }
  sink = e;
}
/* What nvcc's CUDA 13 stub does for k<<<1,1>>>(): push, pop, launch the
 * handle cached by __cudaGetKernel. */
__attribute__((noinline)) void loop_launch_chevron_p0(long n) {
  int e = 0;
  dim3 g, b;
  size_t shm;
  void *st;
  for (long i = 0; i < n; i++) {
    e |= (int)__cudaPushCallConfiguration(one, one, 0, 0);
    e |= __cudaPopCallConfiguration(&g, &b, &shm, &st);
    e |= __cudaLaunchKernel(kernel_handle, g, b, 0, shm, st);
  }
  sink = e;
}
__attribute__((noinline)) void loop_cudaLaunchKernel_p0(long n) {
  int e = 0;
  for (long i = 0; i < n; i++) e |= cudaLaunchKernel(&stubs[0], one, one, 0, 0, 0);
  sink = e;
}
__attribute__((noinline)) void loop_cudaLaunchKernel_p8(long n) {
  int e = 0;
  for (long i = 0; i < n; i++) e |= cudaLaunchKernel(&stubs[1], one, one, args8, 0, 0);
  sink = e;
}
__attribute__((noinline)) void loop_cudaLaunchKernelExC_p0(long n) {
  int e = 0;
  cudaLaunchConfig_t cfg = {one, one, 0, 0, 0, 0};
  for (long i = 0; i < n; i++) e |= cudaLaunchKernelExC(&cfg, &stubs[0], 0);
  sink = e;
}
__attribute__((noinline)) void loop_raw_cuLaunchKernel_p0(long n) {
  int e = 0;
  for (long i = 0; i < n; i++) e |= raw_launch(names[0], 1, 1, 1, 1, 1, 1, 0, 0, 0, 0);
  sink = e;
}

__attribute__((noinline)) void loop_cudaEventCreate_Destroy(long n) {
  int e = 0;
  for (long i = 0; i < n; i++) {
    void *ev;
    e |= cudaEventCreate(&ev);
    e |= cudaEventDestroy(ev);
  }
  sink = e;
}
__attribute__((noinline)) void loop_cudaStreamCreate_Destroy(long n) {
  int e = 0;
  for (long i = 0; i < n; i++) {
    void *st;
    e |= cudaStreamCreate(&st);
    e |= cudaStreamDestroy(st);
  }
  sink = e;
}

typedef int (*drv_event_create_t)(void **, unsigned);
typedef int (*drv_event_destroy_t)(void *);

/* The "alive" rows (header): n events made, pairs with n alive under the
 * runtime and under the driver alone, then the n destroyed. */
static void alive_events(long n, long pairs, drv_event_create_t dcreate,
                         drv_event_destroy_t ddestroy) {
  void **evs = malloc((size_t)n * sizeof *evs);
  if (!evs) {
    printf("CPU_ERROR alive.%ld: no memory for the handles\n", n);
    return;
  }
  int e = 0;
  double t0 = now_ns();
  for (long i = 0; i < n; i++) e |= cudaEventCreate(&evs[i]);
  double t1 = now_ns();
  for (long i = 0; i < pairs; i++) {
    void *ev;
    e |= cudaEventCreate(&ev);
    e |= cudaEventDestroy(ev);
  }
  double t2 = now_ns();
  for (long i = 0; i < pairs; i++) {
    void *ev;
    e |= dcreate(&ev, 0);
    e |= ddestroy(ev);
  }
  double t3 = now_ns();
  for (long i = 0; i < n; i++) e |= cudaEventDestroy(evs[i]);
  double t4 = now_ns();
  free(evs);
  if (e) printf("CPU_ERROR alive.%ld: a call failed (%d)\n", n, e);
  printf("CPU alive.%ld.event_create %.2f ns\n", n, (t1 - t0) / (double)n);
  printf("CPU alive.%ld.event_pair %.2f ns\n", n, (t2 - t1) / (double)pairs);
  printf("CPU alive.%ld.drv_event_pair %.2f ns\n", n, (t3 - t2) / (double)pairs);
  printf("CPU alive.%ld.event_destroy %.2f ns\n", n, (t4 - t3) / (double)n);
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void run(const char *what, void (*loop)(long), long n, int reps) {
  double t[64];
  if (reps > 64) reps = 64;
  loop(n / 10 + 1); /* warm */
  for (int r = 0; r < reps; r++) {
    double t0 = now_ns();
    loop(n);
    t[r] = (now_ns() - t0) / (double)n;
  }
  qsort(t, (size_t)reps, sizeof t[0], cmp);
  printf("CPU %s %.2f ns min=%.2f max=%.2f n=%ld reps=%d\n", what, t[reps / 2], t[0], t[reps - 1], n,
         reps);
}

int main(void) {
  long n = getenv("CPU_BENCH_N") ? atol(getenv("CPU_BENCH_N")) : 10000000;
  int reps = getenv("CPU_BENCH_REPS") ? atoi(getenv("CPU_BENCH_REPS")) : 5;
  setvbuf(stdout, NULL, _IOLBF, 0);
  for (int f = 0; f < FATBINS; f++) {
    wrappers[f].magic = 0x466243B1u;
    wrappers[f].version = 1;
    wrappers[f].data = container;
    for (int k = 0; k < PER_FATBIN; k++)
      snprintf(names[f * PER_FATBIN + k], sizeof names[0], "_Z6r%02d_%02dPi", f, k);
  }
  /* Registration first, as constructors do it. */
  long f0 = minor_faults();
  double t0 = now_ns();
  loop_register_10k();
  double t1 = now_ns();
  printf("CPU registration.k10000 %.4f ms page_faults=%ld\n", (t1 - t0) / 1e6, minor_faults() - f0);

  int e = cudaFree(0);
  if (e) {
    printf("CPU_ERROR cudaFree(0) = %d (is nulldrv's libcuda.so.1 on LD_LIBRARY_PATH?)\n", e);
    return 3;
  }
  cudaGetDevice(&dev);
  f0 = minor_faults();
  t0 = now_ns();
  e = loop_first_launch();
  t1 = now_ns();
  printf("CPU startup.first_launch %.2f us page_faults=%ld\n", (t1 - t0) / 1e3, minor_faults() - f0);
  /* Another kernel of the same fatbin: its library is loaded and the code
   * has run once, so what is left is the look-up of a new kernel. */
  t0 = now_ns();
  e |= cudaLaunchKernel(&stubs[KERNELS - 2], one, one, 0, 0, 0);
  t1 = now_ns();
  printf("CPU startup.second_kernel_first_launch %.2f us\n", (t1 - t0) / 1e3);
  if (e) {
    printf("CPU_ERROR first launch = %d\n", e);
    return 4;
  }
  void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  raw_launch = drv ? (raw_launch_t)dlsym(drv, "cuLaunchKernel") : 0;
  e = __cudaGetKernel(&kernel_handle, &stubs[0]);
  if (e || !raw_launch) {
    printf("CPU_ERROR __cudaGetKernel = %d, raw cuLaunchKernel %p\n", e, (void *)raw_launch);
    return 4;
  }

  run("calls.cudaGetLastError", loop_cudaGetLastError, n, reps);
  run("calls.cudaPeekAtLastError", loop_cudaPeekAtLastError, n, reps);
  run("calls.cudaGetDevice", loop_cudaGetDevice, n, reps);
  run("calls.cudaSetDevice_current", loop_cudaSetDevice_current, n, reps);
  run("calls.push_pop_call_configuration", loop_push_pop_call_configuration, n, reps);
  run("launch.chevron.p0", loop_launch_chevron_p0, n, reps);
  run("launch.cudaLaunchKernel.p0", loop_cudaLaunchKernel_p0, n, reps);
  run("launch.cudaLaunchKernel.p8", loop_cudaLaunchKernel_p8, n, reps);
  run("launch.cudaLaunchKernelExC.p0", loop_cudaLaunchKernelExC_p0, n, reps);
  run("launch.raw_cuLaunchKernel.p0", loop_raw_cuLaunchKernel_p0, n, reps);
  run("streams.cudaEventCreate_Destroy", loop_cudaEventCreate_Destroy, n, reps);
  run("streams.cudaStreamCreate_Destroy", loop_cudaStreamCreate_Destroy, n, reps);
  if (sink == 12345) puts("");

  const char *alive = getenv("CPU_BENCH_ALIVE") ? getenv("CPU_BENCH_ALIVE") : "100 10000 100000 1000000";
  long pairs = getenv("CPU_BENCH_ALIVE_PAIRS") ? atol(getenv("CPU_BENCH_ALIVE_PAIRS")) : 200000;
  /* The driver's own entry points, as the runtime finds them. */
  typedef int (*get_proc_t)(const char *, void **, int, unsigned long long, int *);
  get_proc_t get_proc = drv ? (get_proc_t)dlsym(drv, "cuGetProcAddress_v2") : 0;
  void *dcreate_p = 0, *ddestroy_p = 0;
  if (get_proc) {
    get_proc("cuEventCreate", &dcreate_p, 13000, 0, 0);
    get_proc("cuEventDestroy", &ddestroy_p, 13000, 0, 0);
  }
  drv_event_create_t dcreate = (drv_event_create_t)dcreate_p;
  drv_event_destroy_t ddestroy = (drv_event_destroy_t)ddestroy_p;
  for (const char *s = alive; *s;) {
    char *end;
    long count = strtol(s, &end, 10);
    if (end == s) break;
    s = end;
    if (count <= 0) continue;
    if (!dcreate || !ddestroy) {
      printf("CPU_ERROR the no-op driver exports no cuEventCreate/cuEventDestroy\n");
      break;
    }
    alive_events(count, pairs, dcreate, ddestroy);
  }

  f0 = minor_faults();
  t0 = now_ns();
  loop_unregister_10k();
  t1 = now_ns();
  printf("CPU unregistration.k10000 %.4f ms page_faults=%ld\n", (t1 - t0) / 1e6, minor_faults() - f0);
  return 0;
}
