/* drvtrace.so: which driver calls a runtime makes, and when (issue 8: where
 * does the first launch spend its time under each runtime?).
 *
 *   cc -O2 -fPIC -shared -o drvtrace.so drvtrace.c -ldl
 *   LD_PRELOAD=./drvtrace.so DRVTRACE_FILE=out.txt ./program
 *
 * A runtime dlopens libcuda.so.1 and finds its entry points with `dlsym`
 * (plain names, or `cuGetProcAddress_v2` and then the driver's own look-up).
 * This library interposes `dlsym` and `cuGetProcAddress_v2`: for every
 * driver entry point looked up (up to 512) it hands out a wrapper that
 * writes one line per call, "<ns since the first call> <name> <result> <ns
 * in the call>", and calls the driver's function. Other symbols pass
 * through untouched.
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

/* The wrappers: a fixed pool of 512 functions, each bound to one driver
 * entry point when a runtime looks that entry point up, with the call's
 * arguments as up to 11 machine words (enough for cuLaunchKernel; passing
 * more words than a callee takes is harmless in the x86-64 and AArch64
 * calling conventions for integer and pointer arguments). The few driver
 * calls that take floating-point values (cuTexRef*) are not wrapped. */
typedef CUresult (*fn11)(uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t,
                         uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t);

#define SLOTS 512
static struct {
    char name[64];
    fn11 real;
} slots[SLOTS];
static int nslots;
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;

static CUresult call(int i, uintptr_t a, uintptr_t b, uintptr_t c, uintptr_t d, uintptr_t e,
                     uintptr_t f, uintptr_t g, uintptr_t h, uintptr_t j, uintptr_t k,
                     uintptr_t l) {
    uint64_t s = now();
    CUresult r = slots[i].real(a, b, c, d, e, f, g, h, j, k, l);
    note(slots[i].name, r, s, now());
    return r;
}

#define WRAP(n)                                                                            \
    static CUresult w_##n(uintptr_t a, uintptr_t b, uintptr_t c, uintptr_t d, uintptr_t e, \
                          uintptr_t f, uintptr_t g, uintptr_t h, uintptr_t j, uintptr_t k, \
                          uintptr_t l) {                                                   \
        return call(n, a, b, c, d, e, f, g, h, j, k, l);                                   \
    }
#define ADDR(n) (void *)w_##n,
#define D16(m, p) m(p##0) m(p##1) m(p##2) m(p##3) m(p##4) m(p##5) m(p##6) m(p##7) \
    m(p##8) m(p##9) m(p##a) m(p##b) m(p##c) m(p##d) m(p##e) m(p##f)
#define E16(m, p) D16(m, p##0) D16(m, p##1) D16(m, p##2) D16(m, p##3) D16(m, p##4) \
    D16(m, p##5) D16(m, p##6) D16(m, p##7) D16(m, p##8) D16(m, p##9) D16(m, p##a) \
    D16(m, p##b) D16(m, p##c) D16(m, p##d) D16(m, p##e) D16(m, p##f)
E16(WRAP, 0x0)
E16(WRAP, 0x1)
static void *const wrappers[SLOTS] = {E16(ADDR, 0x0) E16(ADDR, 0x1)};

/* The wrapper for the driver's `name` at `driver_fn` (one slot per pair);
 * NULL when it is not traced or the pool is full. */
static void *wrapper_for(const char *name, void *driver_fn) {
    if (!driver_fn || strncmp(name, "cu", 2) || !strncmp(name, "cuGetProcAddress", 16) ||
        !strncmp(name, "cuTexRef", 8) || strlen(name) >= sizeof slots[0].name)
        return NULL;
    for (int i = 0; i < SLOTS; i++)
        if (driver_fn == wrappers[i]) return driver_fn; /* already ours */
    void *w = NULL;
    pthread_mutex_lock(&slot_lock);
    for (int i = 0; i < nslots && !w; i++)
        if (slots[i].real == (fn11)driver_fn && !strcmp(slots[i].name, name)) w = wrappers[i];
    if (!w && nslots < SLOTS) {
        strcpy(slots[nslots].name, name);
        slots[nslots].real = (fn11)driver_fn;
        w = wrappers[nslots++];
    }
    pthread_mutex_unlock(&slot_lock);
    return w;
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
    void *w = wrapper_for(symbol, p);
    return w ? w : p;
}
