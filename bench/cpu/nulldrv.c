/* A no-op libcuda.so.1 for CPU measurements of the runtime's own cost
 * (bench/cpu/run.sh): NOT a driver, and not the test double of
 * abi-tests/driver-double (which checks and logs every call, so its cost
 * would drown the runtime's). Every entry point the measured paths reach
 * answers at once: one device, a primary context made current per thread,
 * a library load and kernel look-up that hand back fixed handles, launches
 * that return success. `cuGetProcAddress_v2` answers NOT_FOUND for any
 * other name. Under it, what a runtime call costs is the runtime's own
 * work plus a few instructions of the driver call. */
#include <stddef.h>
#include <string.h>

typedef int CUresult;
typedef void *CUcontext;

static char g_primary;  /* the primary context: its address is the handle */
static char g_library;
static __thread CUcontext t_current;

static CUresult ok(void) { return 0; }
static CUresult cuInit(unsigned flags) { (void)flags; return 0; }
static CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
static CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
static CUresult cuDeviceGet(int *d, int ordinal) { *d = ordinal; return ordinal == 0 ? 0 : 101; }
static CUresult cuDevicePrimaryCtxRetain(CUcontext *c, int dev) {
  (void)dev;
  *c = &g_primary;
  return 0;
}
static CUresult cuDevicePrimaryCtxGetState(int dev, unsigned *flags, int *active) {
  (void)dev;
  *flags = 0;
  *active = 1;
  return 0;
}
static CUresult cuCtxGetCurrent(CUcontext *c) { *c = t_current; return 0; }
static CUresult cuCtxSetCurrent(CUcontext c) { t_current = c; return 0; }
/* The current context's id (NULL: the current one); 201 when none. */
static CUresult cuCtxGetId(CUcontext c, unsigned long long *id) {
  if (!c) c = t_current;
  if (!c) return 201;
  *id = 1;
  return 0;
}
static CUresult cuCtxGetDevice(int *d, CUcontext c) { (void)c; *d = 0; return 0; }
static CUresult cuLibraryLoadData(void **lib, const void *code, void *a, void *b, unsigned n,
                                  void *c, void *d, unsigned m) {
  (void)code; (void)a; (void)b; (void)n; (void)c; (void)d; (void)m;
  *lib = &g_library;
  return 0;
}
/* The kernel handle is the name's address: distinct per kernel. */
static CUresult cuLibraryGetKernel(void **k, void *lib, const char *name) {
  (void)lib;
  *k = (void *)name;
  return 0;
}
static CUresult cuKernelGetFunction(void **f, void *k) { *f = k; return 0; }
static CUresult cuThreadExchangeStreamCaptureMode(int *mode) { (void)mode; return 0; }
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned smem, void *stream, void **params, void **extra) {
  (void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)smem;
  (void)stream; (void)params; (void)extra;
  return 0;
}
static CUresult cuLaunchKernelEx(const void *cfg, void *f, void **params, void **extra) {
  (void)cfg; (void)f; (void)params; (void)extra;
  return 0;
}

/* Events and streams: the most recently freed handed out again first (as an
 * allocator does), so a create/destroy loop sees the same few addresses.
 * The first POOL come from a static block; past them the pool grows by
 * malloc, so that a program can hold a million alive (cpu_bench's "alive"
 * rows). Objects of OBJECT bytes: glibc's heap hands out 584-byte blocks
 * 592 bytes apart, in increasing order, as the H100's driver does its
 * events (bench/experiments/handle_layout.c). */
#include <stdlib.h>
enum { POOL = 64, OBJECT = 584 };
static char g_objects[POOL][OBJECT];
static void **g_free;
static size_t g_nfree, g_cap;
static int g_filled;
static CUresult object_create(void **h) {
  if (!g_filled) {
    g_filled = 1;
    g_cap = POOL;
    g_free = malloc(g_cap * sizeof *g_free);
    if (!g_free) return 2;
    for (g_nfree = 0; g_nfree < POOL; g_nfree++) g_free[g_nfree] = g_objects[POOL - 1 - g_nfree];
  }
  if (g_nfree == 0) {
    void *fresh = malloc(OBJECT);
    if (!fresh) return 2; /* CUDA_ERROR_OUT_OF_MEMORY */
    *h = fresh;
    return 0;
  }
  *h = g_free[--g_nfree];
  return 0;
}
static CUresult object_destroy(void *h) {
  if (g_nfree == g_cap) {
    void **more = realloc(g_free, 2 * g_cap * sizeof *g_free);
    if (!more) return 2;
    g_free = more;
    g_cap *= 2;
  }
  g_free[g_nfree++] = h;
  return 0;
}
/* NULLDRV_THREADS set: the pool and the device addresses are taken under
 * one lock, as a real driver serializes its object creation, so that
 * programs making objects from many threads (bench/scale/scale_threads)
 * can run on this driver. Unset (cpu_bench): no lock, only a check of a
 * pthread_once flag (counted in the driver's share). */
#include <pthread.h>
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_locking;
static void read_locking(void) { g_locking = getenv("NULLDRV_THREADS") != NULL; }
static int lock(void) {
  pthread_once(&g_once, read_locking);
  if (g_locking) pthread_mutex_lock(&g_mu);
  return g_locking;
}
static void unlock(int locked) {
  if (locked) pthread_mutex_unlock(&g_mu);
}
static CUresult locked_create(void **h) {
  int l = lock();
  CUresult r = object_create(h);
  unlock(l);
  return r;
}
static CUresult locked_destroy(void *h) {
  int l = lock();
  CUresult r = object_destroy(h);
  unlock(l);
  return r;
}
static CUresult cuEventCreate(void **e, unsigned flags) { (void)flags; return locked_create(e); }
static CUresult cuStreamCreate(void **s, unsigned flags) { (void)flags; return locked_create(s); }

/* Device memory: addresses handed out in order, never reused; freeing
 * succeeds (probe_first's allocation before its launch). */
static CUresult cuMemAlloc(unsigned long long *p, size_t bytes) {
  static unsigned long long next = 0x7f0000000000ull;
  int l = lock();
  *p = next;
  next += (bytes + 511) & ~511ull;
  unlock(l);
  return 0;
}

static const struct { const char *name; void *fn; } table[] = {
    {"cuInit", (void *)cuInit},
    {"cuDriverGetVersion", (void *)cuDriverGetVersion},
    {"cuDeviceGetCount", (void *)cuDeviceGetCount},
    {"cuDeviceGet", (void *)cuDeviceGet},
    {"cuDevicePrimaryCtxRetain", (void *)cuDevicePrimaryCtxRetain},
    {"cuDevicePrimaryCtxRelease", (void *)ok},
    {"cuDevicePrimaryCtxGetState", (void *)cuDevicePrimaryCtxGetState},
    {"cuDevicePrimaryCtxSetFlags", (void *)ok},
    {"cuDevicePrimaryCtxReset", (void *)ok},
    {"cuCtxGetCurrent", (void *)cuCtxGetCurrent},
    {"cuCtxGetId", (void *)cuCtxGetId},
    {"cuCtxSetCurrent", (void *)cuCtxSetCurrent},
    {"cuCtxGetDevice", (void *)cuCtxGetDevice},
    {"cuCtxSynchronize", (void *)ok},
    {"cuLibraryLoadData", (void *)cuLibraryLoadData},
    {"cuLibraryUnload", (void *)ok},
    {"cuLibraryGetKernel", (void *)cuLibraryGetKernel},
    {"cuKernelGetFunction", (void *)cuKernelGetFunction},
    {"cuThreadExchangeStreamCaptureMode", (void *)cuThreadExchangeStreamCaptureMode},
    {"cuLaunchKernel", (void *)cuLaunchKernel},
    {"cuLaunchKernelEx", (void *)cuLaunchKernelEx},
    {"cuEventCreate", (void *)cuEventCreate},
    {"cuEventDestroy", (void *)locked_destroy},
    {"cuStreamCreate", (void *)cuStreamCreate},
    {"cuStreamDestroy", (void *)locked_destroy},
    {"cuMemAlloc", (void *)cuMemAlloc},
    {"cuMemFree", (void *)ok},
};

CUresult cuGetProcAddress_v2(const char *name, void **pfn, int version, unsigned long long flags,
                             int *status) {
  (void)version; (void)flags;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    if (strcmp(table[i].name, name) == 0) {
      *pfn = table[i].fn;
      if (status) *status = 0;
      return 0;
    }
  }
  *pfn = NULL;
  if (status) *status = 1; /* CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND */
  return 500;               /* CUDA_ERROR_NOT_FOUND */
}
