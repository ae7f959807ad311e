/* nodriver.cu: what the runtime does when there is no driver at all (no
 * libcuda.so.1 on the library path). Run as `nodriver <scenario>`; each
 * scenario runs in a fresh process, `all` runs every scenario in order in one
 * process (so a sticky error from an early call shows in the later ones).
 * Output is compared byte-for-byte between NVIDIA's libcudart.so.13 and ours.
 *
 * Observed with NVIDIA's libcudart.so.13 13.0.96 (wheel), no libcuda.so.1:
 *   - cudaRuntimeGetVersion -> 0 (13000) and does not look for the driver.
 *   - Nearly every other entry point first tries to load the driver (seen
 *     with LD_DEBUG=libs: dlopen of libcuda.so.1 on the first call), even
 *     cudaDriverGetVersion, cudaGetErrorName, cudaGetLastError and
 *     cudaPeekAtLastError. The failed load becomes a sticky error 35
 *     (cudaErrorInsufficientDriver): cudaGetLastError returns 35 even when
 *     the only calls before it succeeded (or when it is the first call),
 *     and keeps returning 35; cudaPeekAtLastError likewise.
 *   - cudaDriverGetVersion -> 0 with version 0.
 *   - cudaGetErrorName/String work (names as printed in `errors`; codes
 *     outside the enum give "unrecognized error code").
 *   - cudaGetDeviceCount -> 35 and leaves the count untouched (-1 here);
 *     cudaGetDevice -> 35, out value untouched;
 *     cudaSetDevice(0), cudaMalloc, cudaFree(0), cudaMemcpy (any kind, even
 *     HostToHost: nothing is copied), cudaDeviceSynchronize,
 *     cudaStreamCreate, cudaEventCreate, cudaGetDeviceProperties,
 *     cudaDeviceGetAttribute, cudaMemcpyToSymbol, cudaMemcpyFromSymbol,
 *     cudaLaunchKernel, cudaFuncGetAttributes, cudaDeviceReset: all -> 35,
 *     out-pointers and out-structs untouched. cudaDeviceReset does not
 *     clear the sticky error.
 *   - A <<<>>> launch: cudaPeekAtLastError twice and cudaGetLastError twice
 *     all return 35.
 * (The exact observed lines are the expected output: tests/nodriver.rs runs
 * both libraries and compares.) */
#include <stdlib.h>
#include <string.h>
#include "report.h"

__device__ int dev_var;
__device__ int dev_array[4];

__global__ void add(int *a, int n) {
    int i = threadIdx.x;
    if (i < n) a[i] += dev_var + dev_array[i & 3];
}

static void versions(void) {
    int v = -1;
    CALL("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&v));
    SHOW("runtime version = %d", v);
    v = -1;
    CALL("cudaDriverGetVersion", cudaDriverGetVersion(&v));
    SHOW("driver version = %d", v);
}

static void count(void) {
    int n = -1;
    CALL("cudaGetDeviceCount", cudaGetDeviceCount(&n));
    SHOW("count = %d", n);
}

static void getdevice(void) {
    int d = -1;
    CALL("cudaGetDevice", cudaGetDevice(&d));
    SHOW("device = %d", d);
}

static void setdevice(void) {
    CALL("cudaSetDevice(0)", cudaSetDevice(0));
    int d = -1;
    CALL("cudaGetDevice", cudaGetDevice(&d));
    SHOW("device = %d", d);
}

static void malloc_free(void) {
    void *p = (void *)0x1;
    CALL("cudaMalloc", cudaMalloc(&p, 16));
    SHOW("pointer %s", p == NULL ? "null" : p == (void *)0x1 ? "untouched" : "set");
    if (p != NULL && p != (void *)0x1) CALL("cudaFree(p)", cudaFree(p));
}

static void free0(void) {
    CALL("cudaFree(0)", cudaFree(0));
}

static void memcpy_calls(void) {
    int src[4] = {1, 2, 3, 4};
    int dst[4] = {0, 0, 0, 0};
    CALL("cudaMemcpy(HostToHost)", cudaMemcpy(dst, src, sizeof src, cudaMemcpyHostToHost));
    SHOW("dst = %d %d %d %d", dst[0], dst[1], dst[2], dst[3]);
    CALL("cudaMemcpy(Default)", cudaMemcpy(dst, src, sizeof src, cudaMemcpyDefault));
    CALL("cudaMemcpy(HostToDevice)", cudaMemcpy((void *)0x10000, src, sizeof src, cudaMemcpyHostToDevice));
}

static void launch(void) {
    add<<<1, 4>>>((int *)NULL, 4);
    cudaError_t e;
    e = cudaPeekAtLastError(); abi_report("cudaPeekAtLastError", e);
    e = cudaPeekAtLastError(); abi_report("cudaPeekAtLastError", e);
    e = cudaGetLastError(); abi_report("cudaGetLastError", e);
    e = cudaGetLastError(); abi_report("cudaGetLastError", e);
}

static void lastfirst(void) {
    cudaError_t e = cudaPeekAtLastError();
    abi_report("cudaPeekAtLastError", e);
    e = cudaGetLastError();
    abi_report("cudaGetLastError", e);
    e = cudaGetLastError();
    abi_report("cudaGetLastError", e);
}

static void sync(void) {
    CALL("cudaDeviceSynchronize", cudaDeviceSynchronize());
}

static void stream(void) {
    cudaStream_t s = (cudaStream_t)0x1234;
    CALL("cudaStreamCreate", cudaStreamCreate(&s));
    SHOW("stream %s", s == (cudaStream_t)0x1234 ? "untouched" : s == NULL ? "null" : "set");
    if (s != NULL && s != (cudaStream_t)0x1234) CALL("cudaStreamDestroy", cudaStreamDestroy(s));
}

static void event(void) {
    cudaEvent_t ev = (cudaEvent_t)0x1234;
    CALL("cudaEventCreate", cudaEventCreate(&ev));
    SHOW("event %s", ev == (cudaEvent_t)0x1234 ? "untouched" : ev == NULL ? "null" : "set");
    if (ev != NULL && ev != (cudaEvent_t)0x1234) CALL("cudaEventDestroy", cudaEventDestroy(ev));
}

static void props(void) {
    static struct cudaDeviceProp prop;
    memset(&prop, 0x5a, sizeof prop);
    CALL("cudaGetDeviceProperties", cudaGetDeviceProperties(&prop, 0));
    SHOW("major = %d", prop.major);
    int v = -1;
    CALL("cudaDeviceGetAttribute(ccmajor)",
         cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    SHOW("value = %d", v);
}

static void reset(void) {
    CALL("cudaDeviceReset", cudaDeviceReset());
}

static void symbol(void) {
    int x = 42;
    CALL("cudaMemcpyToSymbol", cudaMemcpyToSymbol(dev_var, &x, sizeof x));
    int y = -1;
    CALL("cudaMemcpyFromSymbol", cudaMemcpyFromSymbol(&y, dev_var, sizeof y));
    SHOW("y = %d", y);
}

static void launchkernel(void) {
    int *p = NULL;
    int n = 4;
    void *args[] = {&p, &n};
    CALL("cudaLaunchKernel", cudaLaunchKernel((const void *)add, dim3(1), dim3(4), args, 0, 0));
    struct cudaFuncAttributes fa;
    memset(&fa, 0, sizeof fa);
    CALL("cudaFuncGetAttributes", cudaFuncGetAttributes(&fa, (const void *)add));
}

static void errors(void) {
    static const int codes[] = {0, 1, 2, 3, 34, 35, 36, 98, 100, 200, 201, 209, 400, 500, 700, 801, 999, 1000, 12345, -1};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        cudaError_t e = (cudaError_t)codes[i];
        const char *s = cudaGetErrorString(e);
        printf("error %d name=%s string=%s\n", codes[i], abi_name(e), s ? "set" : "null");
    }
    abi_report_last();
}

struct scenario { const char *name; void (*run)(void); };
static const struct scenario scenarios[] = {
    {"lastfirst", lastfirst}, {"versions", versions}, {"errors", errors},   {"count", count},
    {"getdevice", getdevice}, {"setdevice", setdevice}, {"malloc", malloc_free},
    {"free0", free0},       {"memcpy", memcpy_calls}, {"launch", launch},
    {"sync", sync},         {"stream", stream},   {"event", event},
    {"props", props},       {"symbol", symbol},   {"launchkernel", launchkernel},
    {"reset", reset},
};

int main(int argc, char **argv) {
    const char *which = argc > 1 ? argv[1] : "all";
    int found = 0;
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        if (strcmp(which, "all") == 0 || strcmp(which, scenarios[i].name) == 0) {
            printf("== %s\n", scenarios[i].name);
            fflush(stdout);
            scenarios[i].run();
            found = 1;
        }
    }
    if (!found) {
        fprintf(stderr, "unknown scenario %s\n", which);
        return 2;
    }
    printf("== end\n");
    return 0;
}
