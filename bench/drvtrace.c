/* drvtrace.so: which driver calls a runtime makes, and when (issue 8: where
 * does the first launch spend its time under each runtime?).
 *
 *   cc -O2 -fPIC -shared -o drvtrace.so drvtrace.c -ldl
 *   LD_PRELOAD=./drvtrace.so DRVTRACE_FILE=out.txt ./program
 *
 * A runtime dlopens libcuda.so.1 and finds its entry points with `dlsym`
 * (plain names, or `cuGetProcAddress_v2` and then the driver's own look-up).
 * This library interposes `dlsym` and `cuGetProcAddress_v2`: for the calls
 * below it hands out a wrapper that writes one line
 * per call, "<ns since the first call> <name> <result> <ns in the call>", and
 * calls the driver's function. Every other symbol passes through untouched.
 * Calls through private export tables are not seen (a runtime that loads
 * modules that way shows no module calls at all: that is an answer too).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>

typedef int CUresult;

static FILE *out;
static uint64_t t0;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The driver's own symbol: from the libraries loaded after this one, or
 * from libcuda.so.1 itself (a runtime dlopens it locally, out of reach of
 * RTLD_NEXT). */
typedef void *(*dlsym_fn)(void *, const char *);

/* glibc's own dlsym (this library defines one). */
static dlsym_fn real_dlsym(void) {
    static dlsym_fn f;
    if (!f) f = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (!f) f = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
    return f;
}

static void *driver_sym(const char *name) {
    dlsym_fn ds = real_dlsym();
    if (!ds) return NULL;
    void *p = ds(RTLD_NEXT, name);
    if (p) return p;
    static void *lib;
    if (!lib) lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    return lib ? ds(lib, name) : NULL;
}

static uint64_t now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void note(const char *name, CUresult r, uint64_t start, uint64_t end) {
    pthread_mutex_lock(&lock);
    if (!out) {
        const char *f = getenv("DRVTRACE_FILE");
        out = f ? fopen(f, "a") : NULL;
        if (!out) out = stderr;
        t0 = start;
    }
    fprintf(out, "%llu %s %d %llu\n", (unsigned long long)(start - t0), name, r,
            (unsigned long long)(end - start));
    fflush(out);
    pthread_mutex_unlock(&lock);
}

/* One wrapper per traced call: the driver's pointer, found through
 * cuGetProcAddress_v2 or dlsym(RTLD_NEXT), and a function with the call's
 * arguments as up to 11 machine words (enough for cuLaunchKernel; the
 * traced calls take integers and pointers only, passed in registers and on
 * the stack the same way for this prototype on x86-64 and AArch64). */
typedef CUresult (*fn11)(uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t,
                         uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t);

#define TRACED(X)                \
    X(cuInit)                    \
    X(cuDevicePrimaryCtxRetain)  \
    X(cuCtxSetCurrent)           \
    X(cuLibraryLoadData)         \
    X(cuLibraryGetKernel)        \
    X(cuLibraryGetModule)        \
    X(cuKernelGetFunction)       \
    X(cuModuleLoadData)          \
    X(cuModuleLoadFatBinary)     \
    X(cuModuleGetFunction)       \
    X(cuLaunchKernel)            \
    X(cuLaunchKernelEx)          \
    X(cuCtxSynchronize)          \
    X(cuStreamSynchronize)       \
    X(cuThreadExchangeStreamCaptureMode)

#define REAL(n) static fn11 real_##n;
TRACED(REAL)
#undef REAL

#define WRAP(n)                                                                            \
    static CUresult wrap_##n(uintptr_t a, uintptr_t b, uintptr_t c, uintptr_t d, uintptr_t e, \
                             uintptr_t f, uintptr_t g, uintptr_t h, uintptr_t i, uintptr_t j, \
                             uintptr_t k) {                                                \
        if (!real_##n) real_##n = (fn11)driver_sym(#n);                              \
        if (!real_##n) return 999;                                                         \
        uint64_t s = now();                                                                \
        CUresult r = real_##n(a, b, c, d, e, f, g, h, i, j, k);                            \
        note(#n, r, s, now());                                                             \
        return r;                                                                          \
    }
TRACED(WRAP)
#undef WRAP

/* The wrapper for `name` (the driver's name, without a version suffix),
 * after recording the driver's own pointer; NULL when it is not traced. */
static void *wrapper_for(const char *name, void *driver_fn) {
#define PICK(n)                                       \
    if (!strcmp(name, #n)) {                          \
        if (driver_fn && driver_fn != (void *)wrap_##n) \
            real_##n = (fn11)driver_fn;               \
        return (void *)wrap_##n;                      \
    }
    TRACED(PICK)
#undef PICK
    return NULL;
}

typedef CUresult (*proc_fn)(const char *, void **, int, uint64_t, int *);

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, uint64_t flags,
                             int *status) {
    static proc_fn real;
    if (!real) real = (proc_fn)driver_sym("cuGetProcAddress_v2");
    if (!real) return 999;
    CUresult r = real(symbol, pfn, version, flags, status);
    if (r == 0 && pfn && *pfn && symbol) {
        void *w = wrapper_for(symbol, *pfn);
        if (w) *pfn = w;
    }
    return r;
}

/* dlsym: a look-up of a traced driver call (any version suffix) or of
 * cuGetProcAddress_v2 in the driver answers the wrapper; the rest, glibc's
 * answer. */
void *dlsym(void *handle, const char *symbol) {
    dlsym_fn ds = real_dlsym();
    if (!ds) return NULL;
    void *p = ds(handle, symbol);
    if (!p || strncmp(symbol, "cu", 2) != 0) return p;
    if (!strcmp(symbol, "cuGetProcAddress_v2")) return (void *)cuGetProcAddress_v2;
    char base[128];
    size_t n = strcspn(symbol, "_");
    if (n >= sizeof base) return p;
    memcpy(base, symbol, n);
    base[n] = 0;
    void *w = wrapper_for(base, p);
    return w ? w : p;
}
