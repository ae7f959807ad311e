/* double_runtime.cu: runtime-API programs run against OUR libcudart.so.13
 * with the test-double driver (abi-tests/driver-double) first on the
 * library path; tests/double.rs reads the double's call log. Kernels are
 * never executed by the double, so nothing here checks kernel results.
 *
 *   double_runtime vecadd    malloc, copy in, 3 launches, sync, copy back
 *   double_runtime threads   two threads: cudaSetDevice(0), malloc, launch
 *   double_runtime device1   cudaSetDevice(1) (CUDA_DOUBLE_DEVICES=2)
 *   double_runtime reset     launch, cudaDeviceReset, launch again
 *   double_runtime symbol    cudaMemcpyToSymbol / FromSymbol on a __device__ int
 *   double_runtime nodevice  cudaMalloc etc. with CUDA_DOUBLE_DEVICES=0
 *   double_runtime unknown   cudaLaunchKernel of a host pointer that is no kernel
 *   double_runtime funcattr  cudaFuncGetAttributes before and after raising
 *                            the kernel's max dynamic shared memory size
 *
 * Built twice: plain, and with --default-stream per-thread (the "_ptsz"
 * executable). Exit status 0 when every call that must succeed did. */
#include <pthread.h>
#include <string.h>
#include "double_mark.h"
#include "report.h"

__device__ int dev_var = 5;

__global__ void add(int *a, int n) {
    int i = threadIdx.x;
    if (i < n) a[i] += dev_var;
}

/* Never launched: must never be looked up (kernels resolve lazily). */
__global__ void unused(float *p) { p[threadIdx.x] = 1.0f; }

static int failures;

/* Prints "name -> code name"; counts it when it is not cudaSuccess. */
#define CHECK(name, expr)                                                     \
    do {                                                                      \
        cudaError_t check_err_ = (expr);                                      \
        abi_report(name, check_err_);                                         \
        if (check_err_ != cudaSuccess) __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED); \
    } while (0)

static void vecadd(void) {
    int h[4] = {1, 2, 3, 4};
    int *d = NULL;
    CHECK("cudaMalloc", cudaMalloc(&d, sizeof h));
    CHECK("cudaMemcpy(HostToDevice)", cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    double_mark("launch 1");
    for (int i = 0; i < 3; i++) {
        add<<<1, 4>>>(d, 4);
        CHECK("launch", cudaGetLastError());
    }
    double_mark("launches done");
    CHECK("cudaDeviceSynchronize", cudaDeviceSynchronize());
    int back[4] = {0, 0, 0, 0};
    CHECK("cudaMemcpy(DeviceToHost)", cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost));
    SHOW("back = %d %d %d %d", back[0], back[1], back[2], back[3]);
    CHECK("cudaFree", cudaFree(d));
}

static pthread_barrier_t barrier;

static void *thread_main(void *arg) {
    (void)arg;
    pthread_barrier_wait(&barrier);
    CHECK("cudaSetDevice(0)", cudaSetDevice(0));
    int *d = NULL;
    CHECK("cudaMalloc", cudaMalloc(&d, 4 * sizeof(int)));
    add<<<1, 4>>>(d, 4);
    CHECK("launch", cudaGetLastError());
    CHECK("cudaStreamSynchronize(0)", cudaStreamSynchronize(0));
    CHECK("cudaFree", cudaFree(d));
    return NULL;
}

static void threads(void) {
    pthread_t t[2];
    pthread_barrier_init(&barrier, NULL, 2);
    for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, thread_main, NULL);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&barrier);
}

static void device1(void) {
    CHECK("cudaSetDevice(1)", cudaSetDevice(1));
    int dev = -1;
    CHECK("cudaGetDevice", cudaGetDevice(&dev));
    SHOW("device = %d", dev);
    int *d = NULL;
    CHECK("cudaMalloc", cudaMalloc(&d, 16));
    add<<<2, 2>>>(d, 4);
    CHECK("launch", cudaGetLastError());
    CHECK("cudaDeviceSynchronize", cudaDeviceSynchronize());
    CHECK("cudaFree", cudaFree(d));
}

static void reset(void) {
    int *d = NULL;
    CHECK("cudaMalloc", cudaMalloc(&d, 16));
    add<<<1, 4>>>(d, 4);
    CHECK("launch", cudaGetLastError());
    CHECK("cudaDeviceSynchronize", cudaDeviceSynchronize());
    double_mark("reset");
    CHECK("cudaDeviceReset", cudaDeviceReset());
    double_mark("after reset");
    CHECK("cudaMalloc", cudaMalloc(&d, 16));
    add<<<1, 4>>>(d, 4);
    CHECK("launch", cudaGetLastError());
    CHECK("cudaDeviceSynchronize", cudaDeviceSynchronize());
    CHECK("cudaFree", cudaFree(d));
}

static void unknown(void) {
    static int not_a_kernel;
    cudaError_t e = cudaLaunchKernel((const void *)&not_a_kernel, dim3(1), dim3(1), NULL, 0, 0);
    abi_report("cudaLaunchKernel(host pointer)", e);
    cudaGetLastError();
}

static void symbol(void) {
    int x = -1;
    double_mark("from symbol");
    CHECK("cudaMemcpyFromSymbol", cudaMemcpyFromSymbol(&x, dev_var, sizeof x));
    SHOW("initial dev_var = %d", x);
    int y = 42;
    double_mark("to symbol");
    CHECK("cudaMemcpyToSymbol", cudaMemcpyToSymbol(dev_var, &y, sizeof y));
    x = -1;
    CHECK("cudaMemcpyFromSymbol", cudaMemcpyFromSymbol(&x, dev_var, sizeof x));
    SHOW("dev_var = %d", x);
}

/* The 13.5 members in 13.0's reserved[16]: [0] deviceNodeUpdateStatus,
 * [1] sharedMemoryMode (the double refuses attributes 16 and 17, as driver
 * 580 does). */
static void funcattr(void) {
    cudaFuncAttributes fa;
    memset(&fa, 0x5a, sizeof fa);
    CHECK("cudaFuncGetAttributes", cudaFuncGetAttributes(&fa, (const void *)add));
    SHOW("max dynamic %d, reserved %d %d", fa.maxDynamicSharedSizeBytes, fa.reserved[0], fa.reserved[1]);
    CHECK("cudaFuncSetAttribute", cudaFuncSetAttribute((const void *)add, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
    memset(&fa, 0x5a, sizeof fa);
    CHECK("cudaFuncGetAttributes", cudaFuncGetAttributes(&fa, (const void *)add));
    SHOW("max dynamic %d, reserved %d %d", fa.maxDynamicSharedSizeBytes, fa.reserved[0], fa.reserved[1]);
}

static void nodevice(void) {
    void *p = (void *)0x1;
    CALL("cudaMalloc", cudaMalloc(&p, 16));
    int n = -1;
    CALL("cudaGetDeviceCount", cudaGetDeviceCount(&n));
    SHOW("count = %d", n);
}

int main(int argc, char **argv) {
    const char *which = argc > 1 ? argv[1] : "";
    if (!strcmp(which, "vecadd")) vecadd();
    else if (!strcmp(which, "threads")) threads();
    else if (!strcmp(which, "device1")) device1();
    else if (!strcmp(which, "reset")) reset();
    else if (!strcmp(which, "symbol")) symbol();
    else if (!strcmp(which, "funcattr")) funcattr();
    else if (!strcmp(which, "nodevice")) { nodevice(); return 0; }
    else if (!strcmp(which, "unknown")) { unknown(); return 0; }
    else {
        fprintf(stderr, "usage: %s vecadd|threads|device1|reset|symbol|funcattr|nodevice|unknown\n", argv[0]);
        return 2;
    }
    printf("failures = %d\n", failures);
    return failures ? 1 : 0;
}
