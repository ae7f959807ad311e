/*
 * selftest.c — checks the test double itself (libcuda/), the way a
 * runtime reaches it: dlopen("libcuda.so.1"), then every entry point through
 * cuGetProcAddress_v2 with cudaVersion 13000. Run by tests/double.rs as
 *
 *   selftest <fatbin file> <kernel name> <global name>
 *
 * with the double first on LD_LIBRARY_PATH. Prints one line per failed
 * expectation and exits 1 if there was any; prints "selftest ok" otherwise.
 * Prototypes are written here from the documented driver API.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef void *CUcontext, *CUstream, *CUevent, *CUlibrary, *CUkernel, *CUfunction;

typedef CUresult (*getproc_t)(const char *, void **, int, unsigned long long, int *);

static getproc_t getproc;
static int failures;

#define EXPECT(cond)                                                          \
    do {                                                                      \
        if (!(cond)) {                                                        \
            printf("FAILED line %d: %s\n", __LINE__, #cond);                  \
            failures++;                                                       \
        }                                                                     \
    } while (0)

static void *proc(const char *name, unsigned long long flags) {
    void *fn = NULL;
    int status = -1;
    CUresult rc = getproc(name, &fn, 13000, flags, &status);
    if (rc != 0 || !fn || status != 0) {
        printf("FAILED: cuGetProcAddress_v2(%s) = %d status %d\n", name, rc, status);
        failures++;
        exit(1);
    }
    return fn;
}

#define FN(type, name) type name = (type)proc(#name, 0)

typedef CUresult (*f_u)(unsigned);
typedef CUresult (*f_pi)(int *);
typedef CUresult (*f_dev_get)(CUdevice *, int);
typedef CUresult (*f_retain)(CUcontext *, CUdevice);
typedef CUresult (*f_dev)(CUdevice);
typedef CUresult (*f_state)(CUdevice, unsigned *, int *);
typedef CUresult (*f_setflags)(CUdevice, unsigned);
typedef CUresult (*f_ctx)(CUcontext);
typedef CUresult (*f_pctx)(CUcontext *);
typedef CUresult (*f_create)(CUcontext *, void *, unsigned, CUdevice);
typedef CUresult (*f_ctxdev)(CUdevice *, CUcontext);
typedef CUresult (*f_load)(CUlibrary *, const void *, void *, void **, unsigned, void *, void **, unsigned);
typedef CUresult (*f_getkernel)(CUkernel *, CUlibrary, const char *);
typedef CUresult (*f_getglobal)(CUdeviceptr *, size_t *, CUlibrary, const char *);
typedef CUresult (*f_launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void **, void **);
typedef CUresult (*f_alloc)(CUdeviceptr *, size_t);
typedef CUresult (*f_free)(CUdeviceptr);
typedef CUresult (*f_htod)(CUdeviceptr, const void *, size_t);
typedef CUresult (*f_dtoh)(void *, CUdeviceptr, size_t);
typedef CUresult (*f_memset32)(CUdeviceptr, unsigned, size_t);
typedef CUresult (*f_stream_create)(CUstream *, unsigned);
typedef CUresult (*f_stream)(CUstream);
typedef CUresult (*f_event_create)(CUevent *, unsigned);
typedef CUresult (*f_event)(CUevent);
typedef CUresult (*f_record)(CUevent, CUstream);
typedef CUresult (*f_elapsed)(float *, CUevent, CUevent);
typedef CUresult (*f_meminfo)(size_t *, size_t *);
typedef CUresult (*f_attr)(int *, int, CUdevice);
typedef CUresult (*f_kname)(const char **, CUkernel);

static f_launch launch_pt;
static CUkernel kernel_handle;
static f_pctx ctx_get_current;

static void *other_thread(void *arg) {
    CUcontext c = (CUcontext)1;
    CUresult rc = ctx_get_current(&c);
    EXPECT(rc == 0 && c == NULL);   /* the stack is per thread */
    /* No current context on this thread: launches fail. */
    rc = launch_pt((CUfunction)kernel_handle, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL);
    EXPECT(rc == 201);
    (void)arg;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s <fatbin> <kernel> <global>\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }
    static unsigned char image[1 << 22];
    size_t image_size = fread(image, 1, sizeof image, f);
    fclose(f);
    EXPECT(image_size > 16);

    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) { printf("FAILED: dlopen: %s\n", dlerror()); return 1; }
    getproc = (getproc_t)dlsym(h, "cuGetProcAddress_v2");
    if (!getproc) { printf("FAILED: no cuGetProcAddress_v2\n"); return 1; }

    /* Unknown names: CUDA_SUCCESS, NULL, status 1 (as the real driver does). */
    void *fn = (void *)1;
    int status = -1;
    EXPECT(getproc("cuNoSuchFunction", &fn, 13000, 0, &status) == 0 && fn == NULL && status == 1);
    fn = (void *)1;
    EXPECT(getproc("cuNoSuchFunction", &fn, 13000, 0, NULL) == 0 && fn == NULL);
    /* Explicit suffixes are not names cuGetProcAddress knows. */
    EXPECT(getproc("cuMemAlloc_v2", &fn, 13000, 0, &status) == 0 && fn == NULL && status == 1);
    /* The double has no ABI of cuCtxCreate older than the four-argument one. */
    EXPECT(getproc("cuCtxCreate", &fn, 12000, 0, &status) == 0 && fn == NULL && status == 2);
    /* A version newer than the driver's is refused. */
    EXPECT(getproc("cuInit", &fn, 13010, 0, &status) == 1);
    /* Per-thread variants differ from the legacy ones; plain names do not. */
    void *l0 = proc("cuLaunchKernel", 0), *l2 = proc("cuLaunchKernel", 2);
    EXPECT(l0 != l2);
    EXPECT(proc("cuMemAlloc", 0) == proc("cuMemAlloc", 2));
    /* cuCtxSynchronize takes a context from cudaVersion 13000 on. */
    void *s13 = proc("cuCtxSynchronize", 0), *s12 = NULL;
    EXPECT(getproc("cuCtxSynchronize", &s12, 12080, 0, &status) == 0 && s12 && s12 != s13);

    FN(f_u, cuInit);
    FN(f_pi, cuDriverGetVersion);
    FN(f_pi, cuDeviceGetCount);
    FN(f_dev_get, cuDeviceGet);
    FN(f_retain, cuDevicePrimaryCtxRetain);
    FN(f_dev, cuDevicePrimaryCtxRelease);
    FN(f_dev, cuDevicePrimaryCtxReset);
    FN(f_state, cuDevicePrimaryCtxGetState);
    FN(f_setflags, cuDevicePrimaryCtxSetFlags);
    FN(f_ctx, cuCtxSetCurrent);
    FN(f_pctx, cuCtxGetCurrent);
    FN(f_ctx, cuCtxPushCurrent);
    FN(f_pctx, cuCtxPopCurrent);
    FN(f_create, cuCtxCreate);
    FN(f_ctx, cuCtxDestroy);
    FN(f_ctxdev, cuCtxGetDevice);
    FN(f_ctx, cuCtxSynchronize);
    FN(f_load, cuLibraryLoadData);
    FN(f_getkernel, cuLibraryGetKernel);
    FN(f_getglobal, cuLibraryGetGlobal);
    FN(f_kname, cuKernelGetName);
    FN(f_launch, cuLaunchKernel);
    FN(f_alloc, cuMemAlloc);
    FN(f_free, cuMemFree);
    FN(f_htod, cuMemcpyHtoD);
    FN(f_dtoh, cuMemcpyDtoH);
    FN(f_memset32, cuMemsetD32);
    FN(f_stream_create, cuStreamCreate);
    FN(f_stream, cuStreamDestroy);
    FN(f_stream, cuStreamSynchronize);
    FN(f_event_create, cuEventCreate);
    FN(f_event, cuEventDestroy);
    FN(f_record, cuEventRecord);
    FN(f_elapsed, cuEventElapsedTime);
    FN(f_meminfo, cuMemGetInfo);
    FN(f_attr, cuDeviceGetAttribute);
    launch_pt = (f_launch)l2;
    ctx_get_current = cuCtxGetCurrent;

    int v = 0, n = 0;
    CUdevice dev = -1;
    EXPECT(cuDriverGetVersion(&v) == 0 && v == 13000);
    EXPECT(cuDeviceGetCount(&n) == 3);           /* before cuInit */
    EXPECT(cuInit(0) == 0);
    EXPECT(cuDeviceGetCount(&n) == 0 && n == 1);
    EXPECT(cuDeviceGet(&dev, 0) == 0 && dev == 0);
    EXPECT(cuDeviceGet(&dev, 1) == 101);
    EXPECT(cuDeviceGetAttribute(&v, 75, 0) == 0 && v == 9);   /* cc major */
    EXPECT(cuDeviceGetAttribute(&v, 16, 0) == 0 && v == 132); /* SMs */

    /* No context yet. */
    CUdeviceptr dp = 0;
    EXPECT(cuMemAlloc(&dp, 16) == 201);
    CUcontext cur = (CUcontext)1;
    EXPECT(cuCtxGetCurrent(&cur) == 0 && cur == NULL);
    EXPECT(cuCtxPopCurrent(&cur) == 201);

    /* The primary context: retain count, flags, state. */
    unsigned flags = 99;
    int active = -1;
    EXPECT(cuDevicePrimaryCtxGetState(0, &flags, &active) == 0 && flags == 0 && active == 0);
    EXPECT(cuDevicePrimaryCtxRelease(0) == 201);
    EXPECT(cuDevicePrimaryCtxSetFlags(0, 4) == 0);
    EXPECT(cuDevicePrimaryCtxSetFlags(0, 3) == 1);
    CUcontext p0 = NULL, p0b = NULL;
    EXPECT(cuDevicePrimaryCtxRetain(&p0, 0) == 0 && p0);
    EXPECT(cuDevicePrimaryCtxRetain(&p0b, 0) == 0 && p0b == p0);
    EXPECT(cuDevicePrimaryCtxGetState(0, &flags, &active) == 0 && flags == 4 && active == 1);
    EXPECT(cuDevicePrimaryCtxRelease(0) == 0);
    EXPECT(cuDevicePrimaryCtxGetState(0, &flags, &active) == 0 && active == 1);
    EXPECT(cuCtxSetCurrent(p0) == 0);
    EXPECT(cuCtxGetCurrent(&cur) == 0 && cur == p0);
    EXPECT(cuCtxGetDevice(&dev, NULL) == 0 && dev == 0);
    EXPECT(cuCtxSynchronize(NULL) == 0);
    EXPECT(cuCtxSetCurrent((CUcontext)&v) == 201);  /* not a context */

    /* Memory really copies. */
    EXPECT(cuMemAlloc(&dp, 16) == 0 && dp != 0);
    int in[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
    EXPECT(cuMemcpyHtoD(dp, in, sizeof in) == 0);
    EXPECT(cuMemcpyDtoH(out, dp, sizeof out) == 0 && memcmp(in, out, sizeof in) == 0);
    EXPECT(cuMemsetD32(dp, 7, 4) == 0);
    EXPECT(cuMemcpyDtoH(out, dp, sizeof out) == 0 && out[0] == 7 && out[3] == 7);
    EXPECT(cuMemcpyDtoH(out, dp, 32) == 1);          /* past the end */
    CUdeviceptr dp2 = 0;
    EXPECT(cuMemAlloc(&dp2, 8) == 0 && cuMemFree(dp2) == 0 && cuMemFree(dp2) == 1);
    size_t fr = 0, tot = 0;
    EXPECT(cuMemGetInfo(&fr, &tot) == 0 && fr > 0 && fr < tot);

    /* Libraries and kernels. */
    CUlibrary lib = NULL, bad = NULL;
    EXPECT(cuLibraryLoadData(&bad, "not an image", NULL, NULL, 0, NULL, NULL, 0) == 200);
    EXPECT(cuLibraryLoadData(&lib, image, NULL, NULL, 0, NULL, NULL, 0) == 0 && lib);
    CUkernel k = NULL, k2 = NULL, k3 = NULL;
    EXPECT(cuLibraryGetKernel(&k, lib, argv[2]) == 0 && k);
    EXPECT(cuLibraryGetKernel(&k2, lib, argv[2]) == 0 && k2 == k);
    EXPECT(cuLibraryGetKernel(&k3, lib, "__missing_kernel") == 500);
    EXPECT(cuLibraryGetKernel(&k3, lib, "no_such_kernel_in_the_cubin") == 500);
    const char *kn = NULL;
    EXPECT(cuKernelGetName(&kn, k) == 0 && kn && strcmp(kn, argv[2]) == 0);
    CUdeviceptr g = 0;
    size_t gsize = 0;
    EXPECT(cuLibraryGetGlobal(&g, &gsize, lib, argv[3]) == 0 && g && gsize == sizeof(int));
    int gval = 0;
    EXPECT(cuMemcpyDtoH(&gval, g, sizeof gval) == 0 && gval == 5);  /* its initialiser */
    kernel_handle = k;

    /* Launches: kernel handle accepted as a CUfunction; a bad handle is not. */
    void *args[] = {&dp};
    EXPECT(cuLaunchKernel((CUfunction)k, 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL) == 0);
    EXPECT(cuLaunchKernel((CUfunction)argv, 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL) == 400);
    EXPECT(cuLaunchKernel((CUfunction)k, 1, 1, 1, 2048, 1, 1, 0, NULL, args, NULL) == 1);
    EXPECT(launch_pt((CUfunction)k, 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL) == 0);

    /* Streams and events. */
    CUstream s = NULL;
    CUevent e1 = NULL, e2 = NULL;
    EXPECT(cuStreamCreate(&s, 1) == 0 && s);
    EXPECT(cuLaunchKernel((CUfunction)k, 2, 1, 1, 4, 1, 1, 0, s, args, NULL) == 0);
    EXPECT(cuEventCreate(&e1, 0) == 0 && cuEventCreate(&e2, 0) == 0);
    float ms = -1;
    EXPECT(cuEventElapsedTime(&ms, e1, e2) == 400);  /* not recorded */
    EXPECT(cuEventRecord(e1, s) == 0 && cuEventRecord(e2, s) == 0);
    EXPECT(cuEventElapsedTime(&ms, e1, e2) == 0 && ms >= 0);
    EXPECT(cuStreamSynchronize(s) == 0);
    EXPECT(cuStreamDestroy(s) == 0);
    EXPECT(cuStreamDestroy(s) == 400);
    EXPECT(cuStreamSynchronize((CUstream)&v) == 400);
    EXPECT(cuEventDestroy(e1) == 0 && cuEventDestroy(e2) == 0 && cuEventDestroy(e1) == 400);

    /* Another thread has its own (empty) context stack. */
    pthread_t t;
    pthread_create(&t, NULL, other_thread, NULL);
    pthread_join(t, NULL);

    /* Created contexts are distinct, pushed on creation, popped on destroy. */
    CUcontext c1 = NULL;
    EXPECT(cuCtxCreate(&c1, NULL, 0, 0) == 0 && c1 && c1 != p0);
    EXPECT(cuCtxGetCurrent(&cur) == 0 && cur == c1);
    EXPECT(cuCtxDestroy(c1) == 0);
    EXPECT(cuCtxGetCurrent(&cur) == 0 && cur == p0);
    EXPECT(cuCtxPushCurrent(c1) == 201);

    /* Reset destroys the context's resources but keeps the retain count. */
    EXPECT(cuDevicePrimaryCtxReset(0) == 0);
    EXPECT(cuDevicePrimaryCtxGetState(0, &flags, &active) == 0 && active == 0 && flags == 0);
    EXPECT(cuMemAlloc(&dp, 16) == 709);              /* current primary is reset */
    EXPECT(cuDevicePrimaryCtxRetain(&p0b, 0) == 0 && p0b == p0);
    EXPECT(cuMemAlloc(&dp, 16) == 0);
    EXPECT(cuDevicePrimaryCtxRelease(0) == 0);
    EXPECT(cuDevicePrimaryCtxRelease(0) == 0);
    EXPECT(cuDevicePrimaryCtxGetState(0, &flags, &active) == 0 && active == 0);
    EXPECT(cuDevicePrimaryCtxRelease(0) == 201);

    if (failures) return 1;
    printf("selftest ok\n");
    return 0;
}
