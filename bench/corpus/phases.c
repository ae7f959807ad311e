/* phases.so: where a whole process's time goes, for scripts/corpus-run.sh
 * (issue 30). Preloaded alike under NVIDIA's runtime and ours:
 *
 *   cc -O2 -fPIC -shared -o phases.so phases.c -ldl
 *   PHASES_FILE=out.txt LD_PRELOAD=./phases.so ./program
 *
 * Timestamps (CLOCK_MONOTONIC, ns; the parent's clock too, so the runner's
 * spawn and reap times line up with these):
 *   ctor      this library's constructor. A preloaded object is initialised
 *             after the libraries the executable links (libcudart.so.13
 *             among them: its constructor has run) and before the
 *             executable's own initialisers.
 *   main      main() entered: the executable's static initialisers have run
 *             (nvcc's fatbin registration, __cudaRegisterFatBinary, is one).
 *             This library wraps main by interposing __libc_start_main:
 *             one extra call at start, nothing on any later path.
 *   main_ret  main() returned (0 when the program left through exit() or
 *             died).
 *   atexit    this library's atexit handler, registered on entry to main,
 *             so exit() runs it after the handlers registered while main
 *             ran (the runtimes' and the driver's shutdown handlers, which
 *             they register on the first call, and function-local statics'
 *             destructors) and before those registered earlier (nvcc's
 *             fatbin unregistration and the executable's static
 *             destructors, registered by its initialisers; the loader's
 *             _dl_fini, registered by __libc_start_main, comes last).
 *             An atexit call in the constructor would not do: handlers
 *             registered before __libc_start_main run after _dl_fini.
 *   dtor      this library's destructor (in the loader's _dl_fini, after
 *             the executable's destructors; libraries it does not depend
 *             on, libcudart.so.13 and libcuda.so.1 among them, may come
 *             before or after, by the loader's order).
 * At the destructor, after its timestamp, one line is appended to
 * $PHASES_FILE (read at start; nothing is written without it):
 *   phases v=1 mode=<base|driver> pid=<pid> ctor=<ns> main=<ns> ... libcudart=<paths>
 * libcudart= lists the libcudart objects mapped at that point (from
 * dl_iterate_phdr), so a record also says which runtime ran. Forked and
 * exec'd children write their own lines (their pid tells them apart). A
 * process that ends in _exit() or by a signal writes nothing.
 *
 * What this library does not do: it interposes no CUDA runtime function
 * and, in the default build, no driver function either. The runtimes find
 * the driver's entry points with dlsym on their own handle of libcuda.so.1
 * and through cuGetProcAddress, which symbol interposition does not see.
 *
 * Built with -DPHASES_DRIVER (phases-drv.so, the runner's CORPUS_PHASES=driver)
 * it also interposes dlsym (as bench/drvtrace.c does) and hands out wrappers
 * for a few driver entry points, looked up by name or through
 * cuGetProcAddress(_v2):
 *   drv_first           the first look-up of any cu* symbol that resolves
 *                       (the runtime has loaded the driver: in both runtimes
 *                       that happens on the first runtime call that needs it)
 *   cuinit_b/cuinit_e   the first cuInit call, entered and returned
 *   ctx_b/ctx_e, ctx_fn the first cuDevicePrimaryCtxRetain or cuCtxCreate*
 * Every dlsym then costs one more call and a string compare; the wrapped
 * calls one more indirect call. NVIDIA's runtime makes its context calls
 * through the driver's private export tables (docs/drvtrace-report.md: only
 * cuInit is seen), so ctx_* is recorded for ours only; cuinit_* for both.
 * A caller of dlsym(RTLD_NEXT, ...) gets the definition after this library
 * instead of after itself: the reason this is not the default.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t t_ctor, t_main, t_main_ret, t_atexit;
static char out_path[1024];

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- main, wrapped --------------------------------------------------- */
typedef int (*main_fn)(int, char **, char **);
typedef int (*start_fn)(main_fn, int, char **, void (*)(void), void (*)(void),
                        void (*)(void), void *);
static main_fn real_main;

static void phases_atexit(void);

static int wrapped_main(int argc, char **argv, char **envp) {
    t_main = now_ns();
    if (out_path[0]) atexit(phases_atexit);
    int r = real_main(argc, argv, envp);
    t_main_ret = now_ns();
    return r;
}

int __libc_start_main(main_fn main, int argc, char **argv, void (*init)(void),
                      void (*fini)(void), void (*rtld_fini)(void), void *stack_end) {
    start_fn real = (start_fn)dlsym(RTLD_NEXT, "__libc_start_main");
    if (!real) abort();
    real_main = main;
    return real(wrapped_main, argc, argv, init, fini, rtld_fini, stack_end);
}

/* ---- the driver mode --------------------------------------------------- */
#ifdef PHASES_DRIVER
#define MODE "driver"
static uint64_t t_drv_first, t_cuinit_b, t_cuinit_e, t_ctx_b, t_ctx_e;
static const char *ctx_fn = "";

static void mark(uint64_t *slot, uint64_t t) {
    uint64_t zero = 0;
    __atomic_compare_exchange_n(slot, &zero, t, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

typedef void *(*dlsym_fn)(void *, const char *);
static dlsym_fn real_dlsym(void) {
    static dlsym_fn f;
    if (!f) f = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (!f) f = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
    return f;
}

/* Integer and pointer arguments only (true of every call wrapped here);
 * passing more words than the callee takes is harmless on x86-64. */
typedef int (*fn6)(uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t);

enum { W_INIT, W_RETAIN, W_CREATE, W_CREATE2, W_CREATE3, W_CREATE4, W_N };
static const char *const wrapped_names[W_N] = {
    "cuInit", "cuDevicePrimaryCtxRetain", "cuCtxCreate", "cuCtxCreate_v2", "cuCtxCreate_v3",
    "cuCtxCreate_v4"};
static fn6 real_fn[W_N];

static int call_ctx(int w, uintptr_t a, uintptr_t b, uintptr_t c, uintptr_t d, uintptr_t e,
                    uintptr_t f) {
    uint64_t t0 = now_ns();
    int first = t_ctx_b == 0;
    int r = real_fn[w](a, b, c, d, e, f);
    if (first) {
        uint64_t zero = 0;
        if (__atomic_compare_exchange_n(&t_ctx_b, &zero, t0, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            ctx_fn = wrapped_names[w];
            t_ctx_e = now_ns();
        }
    }
    return r;
}
static int w_init(uintptr_t a, uintptr_t b, uintptr_t c, uintptr_t d, uintptr_t e, uintptr_t f) {
    uint64_t t0 = now_ns();
    int first = t_cuinit_b == 0;
    int r = real_fn[W_INIT](a, b, c, d, e, f);
    if (first) {
        uint64_t zero = 0;
        if (__atomic_compare_exchange_n(&t_cuinit_b, &zero, t0, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED))
            t_cuinit_e = now_ns();
    }
    return r;
}
#define CTXW(n, w)                                                                          \
    static int n(uintptr_t a, uintptr_t b, uintptr_t c, uintptr_t d, uintptr_t e,           \
                 uintptr_t f) {                                                             \
        return call_ctx(w, a, b, c, d, e, f);                                               \
    }
CTXW(w_retain, W_RETAIN)
CTXW(w_create, W_CREATE)
CTXW(w_create2, W_CREATE2)
CTXW(w_create3, W_CREATE3)
CTXW(w_create4, W_CREATE4)
static void *const wrappers[W_N] = {(void *)w_init,    (void *)w_retain,  (void *)w_create,
                                    (void *)w_create2, (void *)w_create3, (void *)w_create4};

/* The wrapper to hand out for the driver's `name` at `p`, or p. */
static void *maybe_wrap(const char *name, void *p) {
    if (!p || name[0] != 'c' || name[1] != 'u') return p;
    mark(&t_drv_first, now_ns());
    for (int i = 0; i < W_N; i++) {
        if (p == wrappers[i]) return p;
        if (!strcmp(name, wrapped_names[i])) {
            __atomic_store_n(&real_fn[i], (fn6)p, __ATOMIC_RELEASE);
            return wrappers[i];
        }
    }
    return p;
}

typedef int (*gpa2_fn)(const char *, void **, int, uint64_t, int *);
typedef int (*gpa1_fn)(const char *, void **, int, uint64_t);
static gpa2_fn real_gpa2;
static gpa1_fn real_gpa1;

static int w_gpa2(const char *symbol, void **pfn, int version, uint64_t flags, int *status) {
    int r = real_gpa2(symbol, pfn, version, flags, status);
    if (r == 0 && symbol && pfn && *pfn) *pfn = maybe_wrap(symbol, *pfn);
    return r;
}
static int w_gpa1(const char *symbol, void **pfn, int version, uint64_t flags) {
    int r = real_gpa1(symbol, pfn, version, flags);
    if (r == 0 && symbol && pfn && *pfn) *pfn = maybe_wrap(symbol, *pfn);
    return r;
}

void *dlsym(void *handle, const char *symbol) {
    dlsym_fn ds = real_dlsym();
    if (!ds) return NULL;
    void *p = ds(handle, symbol);
    if (!p || symbol[0] != 'c' || symbol[1] != 'u') return p;
    if (!strcmp(symbol, "cuGetProcAddress_v2")) {
        if (p == (void *)w_gpa2) return p;
        mark(&t_drv_first, now_ns());
        real_gpa2 = (gpa2_fn)p;
        return (void *)w_gpa2;
    }
    if (!strcmp(symbol, "cuGetProcAddress")) {
        if (p == (void *)w_gpa1) return p;
        mark(&t_drv_first, now_ns());
        real_gpa1 = (gpa1_fn)p;
        return (void *)w_gpa1;
    }
    return maybe_wrap(symbol, p);
}
#else
#define MODE "base"
#endif

/* ---- start and end ------------------------------------------------------ */
static void phases_atexit(void) { t_atexit = now_ns(); }

__attribute__((constructor)) static void phases_ctor(void) {
    t_ctor = now_ns();
    const char *f = getenv("PHASES_FILE");
    if (!f || !*f || strlen(f) >= sizeof out_path) return;
    strcpy(out_path, f);
}

struct libs {
    char *p;
    size_t left;
};
static int add_lib(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    struct libs *l = arg;
    const char *n = info->dlpi_name;
    if (!n || !strstr(n, "libcudart")) return 0;
    size_t len = strlen(n);
    if (len + 2 > l->left) return 0;
    if (l->p[-1] != '=') *l->p++ = ',', l->left--;
    memcpy(l->p, n, len);
    l->p += len;
    l->left -= len;
    *l->p = 0;
    return 0;
}

__attribute__((destructor)) static void phases_dtor(void) {
    uint64_t t_dtor = now_ns();
    if (!out_path[0]) return;
    char line[4096];
    int n = snprintf(line, sizeof line,
                     "phases v=1 mode=" MODE " pid=%d ctor=%llu main=%llu main_ret=%llu "
                     "atexit=%llu dtor=%llu",
                     (int)getpid(), (unsigned long long)t_ctor, (unsigned long long)t_main,
                     (unsigned long long)t_main_ret, (unsigned long long)t_atexit,
                     (unsigned long long)t_dtor);
#ifdef PHASES_DRIVER
    n += snprintf(line + n, sizeof line - n,
                  " drv_first=%llu cuinit_b=%llu cuinit_e=%llu ctx_b=%llu ctx_e=%llu ctx_fn=%s",
                  (unsigned long long)t_drv_first, (unsigned long long)t_cuinit_b,
                  (unsigned long long)t_cuinit_e, (unsigned long long)t_ctx_b,
                  (unsigned long long)t_ctx_e, *ctx_fn ? ctx_fn : "-");
#endif
    n += snprintf(line + n, sizeof line - n, " libcudart=");
    /* libcudart paths (spaces would split the line: a path with one is cut
     * there, which only loses the check). */
    struct libs l = {line + n, sizeof line - n - 2};
    dl_iterate_phdr(add_lib, &l);
    for (char *c = line + n; *c; c++)
        if (*c == ' ' || *c == '\n') *c = '?';
    n = (int)strlen(line);
    line[n++] = '\n';
    int fd = open(out_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return;
    ssize_t w = write(fd, line, (size_t)n);
    (void)w;
    close(fd);
}
