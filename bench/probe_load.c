/* probe_load: what the driver's public loading paths cost for the first
 * launch of a kernel in a fresh process (issue 8: the first launch of a
 * program's first kernel; our runtime loads a registered fatbin with
 * cuLibraryLoadData on first use). One path per process, since the first
 * call of each kind pays one-time costs; gpu-all.sh's `loadprobe` part runs
 * every path several times, alternating.
 *
 *   probe_load PATH FATBIN CUBIN [KERNEL]
 *
 * PATH is one of
 *   lib            cuLibraryLoadData(fatbin), cuLibraryGetKernel, cuLaunchKernel(kernel)
 *   lib_preserved  the same with CU_LIBRARY_BINARY_IS_PRESERVED
 *   lib_cubin      cuLibraryLoadData(the sm_90 cubin alone)
 *   lib_func       lib, then cuKernelGetFunction and cuLaunchKernel(function)
 *   mod            cuModuleLoadData(fatbin), cuModuleGetFunction, cuLaunchKernel
 *   mod_fatbinary  cuModuleLoadFatBinary(fatbin), cuModuleGetFunction, cuLaunchKernel
 *   lib_exchange   lib, with cuThreadExchangeStreamCaptureMode around the
 *                  load and the look-up (as our runtime does)
 *   capture        lib while this thread captures a stream in global mode
 *                  (the launch goes to the capturing stream), then the end
 *                  of the capture: may a lazy load happen inside a capture?
 *   capture_other  lib (launching into a stream of its own) while another
 *                  thread captures a stream in global mode
 *   exchange_threads  cuThreadExchangeStreamCaptureMode on this thread,
 *                  again, then once on a new thread: is the first call's
 *                  cost per thread or per process?
 *   unload         what cuLibraryUnload costs after the library's kernels
 *                  were launched, five ways taking turns over 3 rounds (a
 *                  fresh library of FATBIN each time, every kernel found
 *                  with cuLibraryEnumerateKernels): "kernel" every kernel
 *                  launched through its CUkernel, "func" through the
 *                  function cuKernelGetFunction gives (what our runtime
 *                  does), "one" one kernel through its function, "none"
 *                  no launch, and "module": a module of the same image
 *                  (cuModuleLoadData), every function found with
 *                  cuModuleEnumerateFunctions and launched, then
 *                  cuModuleUnload (whether the module API's unload costs
 *                  less per loaded function); "preserved" as "func" with
 *                  the library loaded with CU_LIBRARY_BINARY_IS_PRESERVED;
 *                  "libmod" every kernel's function found by name in the
 *                  library's module (cuLibraryGetModule, cuKernelGetName,
 *                  cuModuleGetFunction) and launched, then cuLibraryUnload
 *                  (whether another way of finding the same functions
 *                  unloads for less); prints "PROBE unload WAY us kernels=N"
 *   kernels        the first launch of each of the 100 kernels of FATBIN
 *                  (r99: _Z6r99_NNPi) in one process, the ways rotating
 *                  kernel by kernel, so that process-to-process drift
 *                  cancels: "get" cuLibraryGetKernel + cuLaunchKernel(kernel)
 *                  (what our runtime does), "func" + cuKernelGetFunction and
 *                  cuLaunchKernel(function), "warm" cuKernelGetFunction,
 *                  then cuLaunchKernel(kernel), "mod" cuModuleGetFunction
 *                  from a module of the same image + cuLaunchKernel; kernel
 *                  00 first through the library and the module (warm-up)
 * and prints "PROBE <path> <step> <microseconds>" per step, then "total".
 * Only the public driver API, found with dlopen/dlsym; no CUDA headers.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probe.h"

static void *drv;
#define SYM(var, name)                                                  \
    var = dlsym(drv, name);                                             \
    if (!var) {                                                         \
        fprintf(stderr, "probe_load: %s missing from libcuda.so.1\n", name); \
        return 2;                                                       \
    }

static const char *path;
static double t_last, t_first;
static void step(const char *what, CUresult r) {
    double t = now_us();
    printf("PROBE %s %s %.2f%s\n", path, what, t - t_last, r ? " FAILED" : "");
    if (r) printf("probe_load: %s returned %d\n", what, r);
    t_last = now_us();
}

/* capture_other: a thread that captures s2 in global mode until told to
 * end, and reports how the capture began and ended. */
struct other {
    CUresult (*set)(H);
    CUresult (*begin)(H, int);
    CUresult (*end)(H, H *);
    H ctx, stream;
};
static pthread_mutex_t o_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t o_cond = PTHREAD_COND_INITIALIZER;
static int o_state;
static void *capture_on_thread(void *arg) {
    struct other *o = arg;
    H g = NULL;
    o->set(o->ctx);
    CUresult rb = o->begin(o->stream, 0);
    pthread_mutex_lock(&o_lock);
    o_state = 1;
    pthread_cond_broadcast(&o_cond);
    while (o_state != 2) pthread_cond_wait(&o_cond, &o_lock);
    pthread_mutex_unlock(&o_lock);
    CUresult re = o->end(o->stream, &g);
    printf("PROBE %s other_thread_capture begin=%d end=%d graph=%s\n", path, rb, re,
           g ? "made" : "none");
    return NULL;
}

/* exchange_threads: the first exchange on a new thread, timed there. */
static void *exchange_on_thread(void *fn) {
    CUresult (*ex)(int *) = (CUresult(*)(int *))fn;
    int mode = 2;
    double t0 = now_us();
    CUresult r = ex(&mode);
    double t1 = now_us();
    printf("PROBE %s exchange_new_thread %.2f%s\n", path, t1 - t0, r ? " FAILED" : "");
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: %s PATH FATBIN CUBIN [KERNEL]\n", argv[0]);
        return 2;
    }
    path = argv[1];
    void *fatbin = slurp(argv[2]), *cubin = slurp(argv[3]);
    if (!fatbin || !cubin) {
        fprintf(stderr, "probe_load: cannot read the images\n");
        return 2;
    }
    drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!drv) {
        fprintf(stderr, "probe_load: %s\n", dlerror());
        return 2;
    }
    CUresult (*cuInit)(unsigned);
    CUresult (*cuDevicePrimaryCtxRetain)(H *, int);
    CUresult (*cuCtxSetCurrent)(H);
    CUresult (*cuLibraryLoadData)(H *, const void *, int *, void **, unsigned, int *, void **,
                                  unsigned);
    CUresult (*cuLibraryGetKernel)(H *, H, const char *);
    CUresult (*cuKernelGetFunction)(H *, H);
    CUresult (*cuModuleLoadData)(H *, const void *);
    CUresult (*cuModuleLoadFatBinary)(H *, const void *);
    CUresult (*cuModuleGetFunction)(H *, H, const char *);
    CUresult (*cuLaunchKernel)(H, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, H, void **, void **);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuThreadExchangeStreamCaptureMode)(int *);
    CUresult (*cuStreamCreate)(H *, unsigned);
    CUresult (*cuStreamBeginCapture)(H, int);
    CUresult (*cuStreamEndCapture)(H, H *);
    SYM(cuInit, "cuInit");
    SYM(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    SYM(cuCtxSetCurrent, "cuCtxSetCurrent");
    SYM(cuLibraryLoadData, "cuLibraryLoadData");
    SYM(cuLibraryGetKernel, "cuLibraryGetKernel");
    SYM(cuKernelGetFunction, "cuKernelGetFunction");
    /* Not in every test-double driver: looked up, checked where used. */
    cuModuleLoadData = dlsym(drv, "cuModuleLoadData");
    cuModuleLoadFatBinary = dlsym(drv, "cuModuleLoadFatBinary");
    cuModuleGetFunction = dlsym(drv, "cuModuleGetFunction");
    SYM(cuLaunchKernel, "cuLaunchKernel");
    SYM(cuCtxSynchronize, "cuCtxSynchronize");
    SYM(cuThreadExchangeStreamCaptureMode, "cuThreadExchangeStreamCaptureMode");
    SYM(cuStreamCreate, "cuStreamCreate");
    SYM(cuStreamBeginCapture, "cuStreamBeginCapture_v2");
    SYM(cuStreamEndCapture, "cuStreamEndCapture");

    H ctx = NULL, lib = NULL, mod = NULL, k = NULL, f = NULL;
    t_first = t_last = now_us();
    step("cuInit", cuInit(0));
    step("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&ctx, 0));
    step("cuCtxSetCurrent", cuCtxSetCurrent(ctx));
    t_first = now_us();
    /* k0() by default; the kernel named takes one pointer (NULL here). */
    const char *name = argc == 5 ? argv[4] : "_Z2k0v";
    void *null_arg = NULL, *params[] = {&null_arg};
    H launchee = NULL;
    if (!strcmp(path, "lib") || !strcmp(path, "lib_func") || !strcmp(path, "lib_cubin") ||
        !strcmp(path, "lib_preserved") || !strcmp(path, "lib_exchange")) {
        int relaxed = 2, mode = relaxed;
        int opt = 1; /* CU_LIBRARY_BINARY_IS_PRESERVED */
        void *val = (void *)(uintptr_t)1;
        int preserved = !strcmp(path, "lib_preserved");
        if (!strcmp(path, "lib_exchange")) step("exchange", cuThreadExchangeStreamCaptureMode(&mode));
        step("cuLibraryLoadData",
             cuLibraryLoadData(&lib, strcmp(path, "lib_cubin") ? fatbin : cubin, NULL, NULL, 0,
                               preserved ? &opt : NULL, preserved ? &val : NULL, preserved));
        if (!strcmp(path, "lib_exchange")) {
            step("exchange", cuThreadExchangeStreamCaptureMode(&mode));
            step("exchange", cuThreadExchangeStreamCaptureMode(&mode));
        }
        step("cuLibraryGetKernel", cuLibraryGetKernel(&k, lib, name));
        if (!strcmp(path, "lib_exchange")) step("exchange", cuThreadExchangeStreamCaptureMode(&mode));
        launchee = k;
        if (!strcmp(path, "lib_func")) {
            step("cuKernelGetFunction", cuKernelGetFunction(&f, k));
            launchee = f;
        }
    } else if (!strcmp(path, "capture")) {
        H s = NULL, g = NULL;
        step("cuStreamCreate", cuStreamCreate(&s, 1));
        step("cuStreamBeginCapture_v2(global)", cuStreamBeginCapture(s, 0));
        step("cuLibraryLoadData", cuLibraryLoadData(&lib, fatbin, NULL, NULL, 0, NULL, NULL, 0));
        step("cuLibraryGetKernel", cuLibraryGetKernel(&k, lib, name));
        step("cuLaunchKernel(capturing)", cuLaunchKernel(k, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
        step("cuStreamEndCapture", cuStreamEndCapture(s, &g));
        printf("PROBE capture graph %s\n", g ? "made" : "none");
        launchee = k;
    } else if (!strcmp(path, "capture_other")) {
        H s = NULL, s2 = NULL;
        step("cuStreamCreate", cuStreamCreate(&s, 1));
        step("cuStreamCreate", cuStreamCreate(&s2, 1));
        struct other o = {cuCtxSetCurrent, cuStreamBeginCapture, cuStreamEndCapture, ctx, s2};
        pthread_mutex_lock(&o_lock);
        pthread_t t;
        pthread_create(&t, NULL, capture_on_thread, &o);
        while (!o_state) pthread_cond_wait(&o_cond, &o_lock);
        pthread_mutex_unlock(&o_lock);
        t_last = now_us();
        step("cuLibraryLoadData", cuLibraryLoadData(&lib, fatbin, NULL, NULL, 0, NULL, NULL, 0));
        step("cuLibraryGetKernel", cuLibraryGetKernel(&k, lib, name));
        step("cuLaunchKernel(own stream)", cuLaunchKernel(k, 1, 1, 1, 1, 1, 1, 0, s, params, NULL));
        pthread_mutex_lock(&o_lock);
        o_state = 2;
        pthread_cond_broadcast(&o_cond);
        pthread_mutex_unlock(&o_lock);
        pthread_join(t, NULL);
        t_last = now_us();
        launchee = k;
    } else if (!strcmp(path, "exchange_threads")) {
        int mode = 2;
        step("exchange", cuThreadExchangeStreamCaptureMode(&mode));
        step("exchange again", cuThreadExchangeStreamCaptureMode(&mode));
        pthread_t t;
        pthread_create(&t, NULL, exchange_on_thread, (void *)cuThreadExchangeStreamCaptureMode);
        pthread_join(t, NULL);
        t_last = now_us();
        step("cuLibraryLoadData", cuLibraryLoadData(&lib, fatbin, NULL, NULL, 0, NULL, NULL, 0));
        step("cuLibraryGetKernel", cuLibraryGetKernel(&k, lib, name));
        launchee = k;
    } else if (!strcmp(path, "kernels")) {
        if (!cuModuleLoadData || !cuModuleGetFunction) {
            fprintf(stderr, "probe_load: no cuModule* calls in this driver\n");
            return 2;
        }
        static const char *ways[] = {"get", "func", "warm", "mod"};
        char kname[32];
        step("cuLibraryLoadData", cuLibraryLoadData(&lib, fatbin, NULL, NULL, 0, NULL, NULL, 0));
        step("cuModuleLoadData", cuModuleLoadData(&mod, fatbin));
        for (int i = 0; i < 100; i++) {
            snprintf(kname, sizeof kname, "_Z6r99_%02dPi", i);
            const char *way = i == 0 ? "warmup" : ways[(i - 1) % 4];
            H kk = NULL, ff = NULL, first = NULL;
            CUresult r = 0;
            double t0 = now_us();
            if (i == 0 || !strcmp(way, "get") || !strcmp(way, "func") || !strcmp(way, "warm")) {
                r |= cuLibraryGetKernel(&kk, lib, kname);
                first = kk;
                if (!strcmp(way, "func") || !strcmp(way, "warm")) r |= cuKernelGetFunction(&ff, kk);
                if (!strcmp(way, "func")) first = ff;
            } else {
                r |= cuModuleGetFunction(&ff, mod, kname);
                first = ff;
            }
            r |= cuLaunchKernel(first, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL);
            double t1 = now_us();
            if (i == 0) { /* the module's first function, too */
                r |= cuModuleGetFunction(&ff, mod, kname);
                r |= cuLaunchKernel(ff, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL);
            }
            double t2 = now_us();
            r |= cuCtxSynchronize();
            printf("PROBE kernels %s %.2f%s\n", way, t1 - t0, r ? " FAILED" : "");
            if (i == 0) printf("PROBE kernels warmup_mod %.2f\n", t2 - t1);
        }
        t_last = now_us();
        step("cuLibraryGetKernel", cuLibraryGetKernel(&k, lib, "_Z6r99_00Pi"));
        launchee = k;
    } else if (!strcmp(path, "unload")) {
        CUresult (*cuLibraryUnload)(H);
        CUresult (*cuLibraryGetKernelCount)(unsigned *, H);
        CUresult (*cuLibraryEnumerateKernels)(H *, unsigned, H);
        SYM(cuLibraryUnload, "cuLibraryUnload");
        SYM(cuLibraryGetKernelCount, "cuLibraryGetKernelCount");
        SYM(cuLibraryEnumerateKernels, "cuLibraryEnumerateKernels");
        CUresult (*cuModuleUnload)(H) = dlsym(drv, "cuModuleUnload");
        CUresult (*cuModuleGetFunctionCount)(unsigned *, H) = dlsym(drv, "cuModuleGetFunctionCount");
        CUresult (*cuModuleEnumerateFunctions)(H *, unsigned, H) = dlsym(drv, "cuModuleEnumerateFunctions");
        const int have_mod = cuModuleLoadData && cuModuleUnload && cuModuleGetFunctionCount &&
                             cuModuleEnumerateFunctions;
        CUresult (*cuLibraryGetModule)(H *, H) = dlsym(drv, "cuLibraryGetModule");
        CUresult (*cuKernelGetName)(const char **, H) = dlsym(drv, "cuKernelGetName");
        CUresult (*cuModuleGetFunction)(H *, H, const char *) = dlsym(drv, "cuModuleGetFunction");
        const int have_libmod = cuLibraryGetModule && cuKernelGetName && cuModuleGetFunction;
        static const char *ways[] = {"kernel", "func", "one", "none", "preserved", "libmod", "module"};
        const int n_ways = 5 + have_libmod + have_mod;
        const char *way_at[7];
        for (int w = 0, i = 0; w < 7; w++)
            if ((strcmp(ways[w], "libmod") || have_libmod) && (strcmp(ways[w], "module") || have_mod))
                way_at[i++] = ways[w];
        for (int round = 0; round < 3; round++) {
            for (int w = 0; w < n_ways; w++) {
                const char *way = way_at[(w + round) % n_ways];
                if (!strcmp(way, "module")) {
                    H m = NULL;
                    unsigned n = 0;
                    CUresult r = cuModuleLoadData(&m, fatbin);
                    r |= cuModuleGetFunctionCount(&n, m);
                    H *fs = calloc(n ? n : 1, sizeof(H));
                    if (!fs) return 2;
                    r |= cuModuleEnumerateFunctions(fs, n, m);
                    double t0 = now_us();
                    for (unsigned i = 0; i < n; i++)
                        r |= cuLaunchKernel(fs[i], 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL);
                    r |= cuCtxSynchronize();
                    double t1 = now_us();
                    r |= cuModuleUnload(m);
                    double t2 = now_us();
                    printf("PROBE unload module %.2f kernels=%u launched=%u launch_us=%.2f%s\n", t2 - t1,
                           n, n, t1 - t0, r ? " FAILED" : "");
                    free(fs);
                    continue;
                }
                H l = NULL;
                unsigned n = 0;
                int opt = 1; /* CU_LIBRARY_BINARY_IS_PRESERVED */
                void *val = (void *)(uintptr_t)1;
                const int preserved = !strcmp(way, "preserved");
                CUresult r = cuLibraryLoadData(&l, fatbin, NULL, NULL, 0, preserved ? &opt : NULL,
                                               preserved ? &val : NULL, preserved);
                r |= cuLibraryGetKernelCount(&n, l);
                H *ks = calloc(n ? n : 1, sizeof(H));
                if (!ks) return 2;
                r |= cuLibraryEnumerateKernels(ks, n, l);
                unsigned launch = !strcmp(way, "one") ? 1 : !strcmp(way, "none") ? 0 : n;
                H lm = NULL;
                if (!strcmp(way, "libmod")) r |= cuLibraryGetModule(&lm, l);
                double t0 = now_us();
                for (unsigned i = 0; i < launch && i < n; i++) {
                    H target = ks[i];
                    if (lm) {
                        const char *name = NULL;
                        r |= cuKernelGetName(&name, ks[i]);
                        if (name) r |= cuModuleGetFunction(&target, lm, name);
                    } else if (strcmp(way, "kernel")) {
                        r |= cuKernelGetFunction(&target, ks[i]);
                    }
                    r |= cuLaunchKernel(target, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL);
                }
                r |= cuCtxSynchronize();
                double t1 = now_us();
                r |= cuLibraryUnload(l);
                double t2 = now_us();
                printf("PROBE unload %s %.2f kernels=%u launched=%u launch_us=%.2f%s\n", way, t2 - t1,
                       n, launch, t1 - t0, r ? " FAILED" : "");
                free(ks);
            }
        }
        return 0;
    } else if (!strcmp(path, "mod") || !strcmp(path, "mod_fatbinary")) {
        if (!cuModuleLoadData || !cuModuleLoadFatBinary || !cuModuleGetFunction) {
            fprintf(stderr, "probe_load: no cuModule* calls in this driver\n");
            return 2;
        }
        step(path[3] ? "cuModuleLoadFatBinary" : "cuModuleLoadData",
             path[3] ? cuModuleLoadFatBinary(&mod, fatbin) : cuModuleLoadData(&mod, fatbin));
        step("cuModuleGetFunction", cuModuleGetFunction(&f, mod, name));
        launchee = f;
    } else {
        fprintf(stderr, "probe_load: unknown path %s\n", path);
        return 2;
    }
    step("cuLaunchKernel", cuLaunchKernel(launchee, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    printf("PROBE %s total %.2f\n", path, now_us() - t_first);
    step("cuCtxSynchronize", cuCtxSynchronize());
    /* A second launch of the same kernel, for scale. */
    step("second cuLaunchKernel", cuLaunchKernel(launchee, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
    step("cuCtxSynchronize", cuCtxSynchronize());
    return 0;
}
