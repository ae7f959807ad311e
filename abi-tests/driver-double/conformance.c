/*
 * conformance.c — asks a driver (NVIDIA's real libcuda.so.1 on the GPU
 * machine, or the test double) the questions the double's behaviour rests
 * on, and prints the answers in a stable text form, so the two can be
 * compared line by line:
 *
 *   conformance <fatbin file> <kernel name>     (libcuda.so.1 on the loader path)
 *
 * 1. For each entry point the double hands out: which exported symbol
 *    cuGetProcAddress_v2(name, 13000, flags 0 / 2) returns (by dladdr), and
 *    for a few names the answer at older versions.
 * 2. Primary-context and error behaviours (return codes, retain counts).
 * Prototypes are written here from the documented driver API.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef void *CUcontext, *CUstream, *CUevent, *CUlibrary, *CUkernel, *CUfunction;
typedef CUresult (*getproc_t)(const char *, void **, int, unsigned long long, int *);

static getproc_t getproc;

static const char *symname(void *p) {
    Dl_info info;
    if (!p) return "NULL";
    if (dladdr(p, &info) && info.dli_sname && info.dli_saddr == p) return info.dli_sname;
    return "(unexported)";
}

static void *lookup(const char *name, int version, unsigned long long flags, int print) {
    void *fn = NULL;
    int status = -1;
    CUresult rc = getproc(name, &fn, version, flags, &status);
    if (print) printf("proc %s version=%d flags=%llu -> rc=%d status=%d sym=%s\n", name, version, flags, rc, status, symname(fn));
    return fn;
}

static const char *names[] = {
    "cuInit", "cuDriverGetVersion", "cuGetErrorName", "cuGetErrorString", "cuGetProcAddress",
    "cuDeviceGet", "cuDeviceGetCount", "cuDeviceGetName", "cuDeviceGetUuid", "cuDeviceTotalMem",
    "cuDeviceGetAttribute", "cuDeviceGetPCIBusId", "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRelease",
    "cuDevicePrimaryCtxSetFlags", "cuDevicePrimaryCtxGetState", "cuDevicePrimaryCtxReset", "cuCtxCreate",
    "cuCtxDestroy", "cuCtxGetCurrent", "cuCtxSetCurrent", "cuCtxPushCurrent", "cuCtxPopCurrent",
    "cuCtxGetDevice", "cuCtxSynchronize", "cuCtxGetFlags", "cuCtxSetLimit", "cuCtxGetLimit",
    "cuCtxGetApiVersion", "cuLibraryLoadData", "cuLibraryUnload", "cuLibraryGetKernel", "cuLibraryGetGlobal",
    "cuLibraryGetManaged", "cuKernelGetFunction", "cuKernelGetAttribute", "cuKernelSetAttribute",
    "cuKernelSetCacheConfig", "cuKernelGetName", "cuLaunchKernel", "cuLaunchKernelEx", "cuMemAlloc",
    "cuMemFree", "cuMemAllocHost", "cuMemHostAlloc", "cuMemFreeHost", "cuMemHostGetDevicePointer",
    "cuMemAllocManaged", "cuMemGetInfo", "cuMemcpy", "cuMemcpyAsync", "cuMemcpyHtoD", "cuMemcpyDtoH",
    "cuMemcpyDtoD", "cuMemsetD8", "cuMemsetD8Async", "cuMemsetD32", "cuMemsetD32Async",
    "cuPointerGetAttribute", "cuStreamCreate", "cuStreamCreateWithPriority", "cuStreamDestroy",
    "cuStreamSynchronize", "cuStreamQuery", "cuStreamWaitEvent", "cuStreamGetFlags", "cuStreamGetPriority",
    "cuEventCreate", "cuEventDestroy", "cuEventRecord", "cuEventRecordWithFlags", "cuEventQuery",
    "cuEventSynchronize", "cuEventElapsedTime",
};

#define SHOW(label, expr) printf("%s -> %d\n", label, (int)(expr))

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!h) { printf("dlopen failed: %s\n", dlerror()); return 1; }
    getproc = (getproc_t)dlsym(h, "cuGetProcAddress_v2");
    if (!getproc) { printf("no cuGetProcAddress_v2\n"); return 1; }

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        lookup(names[i], 13000, 0, 1);
        lookup(names[i], 13000, 2, 1);
    }
    const char *older[] = {"cuCtxSynchronize", "cuCtxGetDevice", "cuCtxCreate", "cuEventElapsedTime", "cuMemAlloc"};
    for (size_t i = 0; i < sizeof older / sizeof older[0]; i++) {
        lookup(older[i], 12080, 0, 1);
        lookup(older[i], 12000, 0, 1);
        lookup(older[i], 3000, 0, 1);
    }
    lookup("cuCtxSynchronize_v2", 13000, 0, 1);
    lookup("cuMemAlloc_v2", 13000, 0, 1);
    lookup("cuNoSuchFunction", 13000, 0, 1);
    lookup("cuLaunchKernel", 13000, 1, 1);

    typedef CUresult (*f_u)(unsigned);
    typedef CUresult (*f_retain)(CUcontext *, CUdevice);
    typedef CUresult (*f_dev)(CUdevice);
    typedef CUresult (*f_state)(CUdevice, unsigned *, int *);
    typedef CUresult (*f_ctx)(CUcontext);
    typedef CUresult (*f_pctx)(CUcontext *);
    typedef CUresult (*f_alloc)(CUdeviceptr *, size_t);
    typedef CUresult (*f_free)(CUdeviceptr);
    typedef CUresult (*f_apiver)(CUcontext, unsigned *);
    typedef CUresult (*f_load)(CUlibrary *, const void *, void *, void **, unsigned, void *, void **, unsigned);
    typedef CUresult (*f_getkernel)(CUkernel *, CUlibrary, const char *);
    typedef CUresult (*f_event_create)(CUevent *, unsigned);
    typedef CUresult (*f_elapsed)(float *, CUevent, CUevent);
    typedef CUresult (*f_launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                 CUstream, void **, void **);
    typedef CUresult (*f_sync2)(CUcontext);
    typedef CUresult (*f_create)(CUcontext *, void *, unsigned, CUdevice);

    f_u cuInit = lookup("cuInit", 13000, 0, 0);
    f_retain retain = lookup("cuDevicePrimaryCtxRetain", 13000, 0, 0);
    f_dev release = lookup("cuDevicePrimaryCtxRelease", 13000, 0, 0);
    f_dev reset = lookup("cuDevicePrimaryCtxReset", 13000, 0, 0);
    f_state state = lookup("cuDevicePrimaryCtxGetState", 13000, 0, 0);
    f_ctx set_current = lookup("cuCtxSetCurrent", 13000, 0, 0);
    f_pctx get_current = lookup("cuCtxGetCurrent", 13000, 0, 0);
    f_alloc mem_alloc = lookup("cuMemAlloc", 13000, 0, 0);
    f_free mem_free = lookup("cuMemFree", 13000, 0, 0);
    f_apiver api_version = lookup("cuCtxGetApiVersion", 13000, 0, 0);
    f_load load = lookup("cuLibraryLoadData", 13000, 0, 0);
    f_getkernel get_kernel = lookup("cuLibraryGetKernel", 13000, 0, 0);
    f_event_create event_create = lookup("cuEventCreate", 13000, 0, 0);
    f_elapsed elapsed = lookup("cuEventElapsedTime", 13000, 0, 0);
    f_launch launch = lookup("cuLaunchKernel", 13000, 0, 0);
    f_sync2 sync_v2 = lookup("cuCtxSynchronize_v2", 13000, 0, 0);
    f_create create = lookup("cuCtxCreate", 13000, 0, 0);
    f_ctx destroy = lookup("cuCtxDestroy", 13000, 0, 0);

    unsigned flags = 0, ver = 0;
    int active = -1;
    CUcontext p = NULL, p2 = NULL, cur = NULL;
    CUdeviceptr d = 0;
    SHOW("cuMemAlloc before cuInit", mem_alloc(&d, 16));
    SHOW("cuInit", cuInit(0));
    SHOW("cuMemAlloc no context", mem_alloc(&d, 16));
    SHOW("release unretained", release(0));
    SHOW("state", state(0, &flags, &active));
    printf("  flags=0x%x active=%d\n", flags, active);
    SHOW("retain", retain(&p, 0));
    SHOW("retain again", retain(&p2, 0));
    printf("  same handle: %s\n", p == p2 ? "yes" : "no");
    SHOW("state", state(0, &flags, &active));
    printf("  flags=0x%x active=%d\n", flags, active);
    SHOW("set current", set_current(p));
    SHOW("api version", api_version(p, &ver));
    printf("  version=%u\n", ver);
    SHOW("cuCtxSynchronize_v2(NULL)", sync_v2 ? sync_v2(NULL) : -1);
    SHOW("cuMemFree(0)", mem_free(0));
    SHOW("cuMemAlloc", mem_alloc(&d, 16));
    SHOW("reset", reset(0));
    SHOW("state after reset", state(0, &flags, &active));
    printf("  flags=0x%x active=%d\n", flags, active);
    SHOW("get current after reset", get_current(&cur));
    printf("  current is the primary: %s\n", cur == p ? "yes" : cur ? "other" : "null");
    SHOW("cuMemAlloc in reset primary", mem_alloc(&d, 16));
    SHOW("state after use", state(0, &flags, &active));
    printf("  flags=0x%x active=%d\n", flags, active);
    SHOW("release 1", release(0));
    SHOW("state", state(0, &flags, &active));
    printf("  flags=0x%x active=%d\n", flags, active);
    SHOW("release 2", release(0));
    SHOW("state", state(0, &flags, &active));
    printf("  flags=0x%x active=%d\n", flags, active);
    SHOW("release 3", release(0));
    SHOW("cuMemAlloc in released primary", mem_alloc(&d, 16));
    SHOW("retain", retain(&p2, 0));
    printf("  same handle as before: %s\n", p == p2 ? "yes" : "no");
    SHOW("set current", set_current(p2));

    if (argc > 2) {
        static unsigned char image[1 << 22];
        FILE *f = fopen(argv[1], "rb");
        if (f) {
            size_t n = fread(image, 1, sizeof image, f);
            fclose(f);
            printf("fatbin bytes=%zu\n", n);
            CUlibrary lib = NULL;
            CUkernel k = NULL;
            SHOW("load garbage", load(&lib, "not an image at all, really not", NULL, NULL, 0, NULL, NULL, 0));
            SHOW("load fatbin", load(&lib, image, NULL, NULL, 0, NULL, NULL, 0));
            SHOW("get kernel missing", get_kernel(&k, lib, "no_such_kernel"));
            SHOW("get kernel", get_kernel(&k, lib, argv[2]));
            CUdeviceptr buf = 0;
            mem_alloc(&buf, 64);
            void *args[] = {&buf, &buf};
            int n4 = 4;
            args[1] = &n4;
            SHOW("launch kernel handle", launch((CUfunction)k, 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL));
            SHOW("launch per-thread stream 0x2", launch((CUfunction)k, 1, 1, 1, 4, 1, 1, 0, (CUstream)2, args, NULL));
            SHOW("launch bad block", launch((CUfunction)k, 1, 1, 1, 2048, 1, 1, 0, NULL, args, NULL));
            typedef CUresult (*f_kattr)(int *, int, CUkernel, CUdevice);
            f_kattr kattr = lookup("cuKernelGetAttribute", 13000, 0, 0);
            for (int a = 0; a <= 16; a++) {
                int v = -12345;
                CUresult rc = kattr(&v, a, k, 0);
                printf("kernel attribute %d -> rc=%d value=%d\n", a, rc, v);
            }
        }
    }
    /* Device facts the double imitates. */
    typedef CUresult (*f_attr)(int *, int, CUdevice);
    typedef CUresult (*f_total)(size_t *, CUdevice);
    typedef CUresult (*f_limit)(size_t *, int);
    f_attr attr = lookup("cuDeviceGetAttribute", 13000, 0, 0);
    f_total total = lookup("cuDeviceTotalMem", 13000, 0, 0);
    f_limit limit = lookup("cuCtxGetLimit", 13000, 0, 0);
    for (int a = 1; a <= 147; a++) {
        int v = -12345;
        CUresult rc = attr(&v, a, 0);
        printf("attribute %d -> rc=%d value=%d\n", a, rc, v);
    }
    size_t bytes = 0;
    SHOW("total mem", total(&bytes, 0));
    printf("  bytes=%zu\n", bytes);
    for (int w = 0; w <= 9; w++) {
        size_t v = 0;
        CUresult rc = limit(&v, w);
        printf("limit %d -> rc=%d value=%zu\n", w, rc, v);
    }

    CUevent e1 = NULL, e2 = NULL;
    float ms = 0;
    event_create(&e1, 0);
    event_create(&e2, 0);
    SHOW("elapsed unrecorded", elapsed(&ms, e1, e2));
    CUcontext c = NULL;
    SHOW("cuCtxCreate", create(&c, NULL, 0, 0));
    SHOW("get current", get_current(&cur));
    printf("  current is the new one: %s\n", cur == c ? "yes" : "no");
    SHOW("destroy", destroy(c));
    SHOW("get current after destroy", get_current(&cur));
    printf("  current: %s\n", cur == p2 ? "primary" : cur ? "other" : "null");
    return 0;
}
