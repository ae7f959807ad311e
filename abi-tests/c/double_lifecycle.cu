/* double_lifecycle.cu: lifecycle scenarios run against OUR libcudart.so.13
 * with the test-double driver; tests/lifecycle.rs reads the double's call
 * log (marks "# <text>" separate the steps) and the runtime's trace.
 *
 *   double_lifecycle nocontext   versions, count, device, properties,
 *                                flags, last error: no context
 *   double_lifecycle flags       cudaSetDeviceFlags, then cudaMalloc
 *   double_lifecycle initdevice  cudaInitDevice, then cudaMalloc
 *   double_lifecycle setdevice   cudaSetDevice, then cudaMalloc
 *   double_lifecycle threads     4 threads: cudaGetDevice, then cudaMalloc
 *                                and a launch; then device 1 on a thread
 *                                (CUDA_DOUBLE_DEVICES=2)
 *   double_lifecycle reset       cudaMalloc, launch, an event and a
 *                                stream, reset, both used, again
 *   double_lifecycle ownreset    cudaDeviceReset with a cuCtxCreate'd
 *                                context current
 *   double_lifecycle exit        calls from atexit handlers registered
 *                                before and after the first CUDA call
 *   double_lifecycle fork        a child forked after init calls CUDA
 *   double_lifecycle destroyed   streams, events and async notification
 *                                handles used after their
 *                                destruction
 *
 * Linked with -lcuda (the double). Exit status 0 when the calls that must
 * succeed did. */
#include <cuda.h>
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "double_mark.h"
#include "report.h"

__device__ int dev_var = 5;

__global__ void add(int *a, int n) {
    int i = threadIdx.x;
    if (i < n) a[i] += dev_var;
}

static int failures;

#define CHECK(name, expr)                                                     \
    do {                                                                      \
        cudaError_t check_err_ = (expr);                                      \
        abi_report(name, check_err_);                                         \
        if (check_err_ != cudaSuccess) __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED); \
    } while (0)

static void alloc_and_launch(void) {
    int *d = NULL;
    CHECK("cudaMalloc", cudaMalloc(&d, 16));
    add<<<1, 4>>>(d, 4);
    CHECK("launch", cudaGetLastError());
    CHECK("cudaDeviceSynchronize", cudaDeviceSynchronize());
    CHECK("cudaFree", cudaFree(d));
}

static void nocontext(void) {
    int v = 0;
    unsigned flags = 0;
    cudaDeviceProp prop;
    double_mark("no context");
    CHECK("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&v));
    CHECK("cudaDriverGetVersion", cudaDriverGetVersion(&v));
    CHECK("cudaGetDeviceCount", cudaGetDeviceCount(&v));
    CHECK("cudaGetDevice", cudaGetDevice(&v));
    CHECK("cudaGetDeviceProperties", cudaGetDeviceProperties(&prop, 0));
    CHECK("cudaDeviceGetAttribute", cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
    CHECK("cudaGetDeviceFlags", cudaGetDeviceFlags(&flags));
    CHECK("cudaGetLastError", cudaGetLastError());
    int list[1] = {0};
    CHECK("cudaSetValidDevices", cudaSetValidDevices(list, 1));
    memset(&prop, 0, sizeof prop);
    CHECK("cudaChooseDevice", cudaChooseDevice(&v, &prop));
    double_mark("done");
}

static void flags(void) {
    double_mark("set flags");
    CHECK("cudaSetDeviceFlags", cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    double_mark("get flags");
    unsigned f = 0;
    CHECK("cudaGetDeviceFlags", cudaGetDeviceFlags(&f));
    SHOW("flags = 0x%x", f);
    CHECK("cudaSetDeviceFlags(0x100)", cudaSetDeviceFlags(0x100) == cudaErrorInvalidValue
                                           ? cudaSuccess : cudaErrorUnknown);
    CHECK("cudaGetLastError (clears it)", cudaGetLastError() == cudaErrorInvalidValue
                                              ? cudaSuccess : cudaErrorUnknown);
    double_mark("malloc");
    alloc_and_launch();
}

static void initdevice(void) {
    double_mark("init device");
    CHECK("cudaInitDevice", cudaInitDevice(0, cudaDeviceScheduleYield, cudaInitDeviceFlagsAreValid));
    double_mark("malloc");
    alloc_and_launch();
}

static void setdevice(void) {
    double_mark("set device");
    CHECK("cudaSetDevice", cudaSetDevice(0));
    double_mark("malloc");
    alloc_and_launch();
}

static pthread_barrier_t barrier;

static void *worker(void *arg) {
    (void)arg;
    int dev = -1;
    pthread_barrier_wait(&barrier);
    CHECK("cudaGetDevice", cudaGetDevice(&dev));
    if (dev != 0) __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
    pthread_barrier_wait(&barrier);
    if (arg == NULL) double_mark("threads bind");
    pthread_barrier_wait(&barrier);
    alloc_and_launch();
    return NULL;
}

static void *device1(void *arg) {
    (void)arg;
    CHECK("cudaSetDevice(1)", cudaSetDevice(1));
    alloc_and_launch();
    return NULL;
}

static void threads(void) {
    pthread_t t[4];
    pthread_barrier_init(&barrier, NULL, 4);
    double_mark("threads start");
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, i == 0 ? NULL : (void *)1);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    double_mark("device 1");
    pthread_t t1;
    pthread_create(&t1, NULL, device1, NULL);
    pthread_join(t1, NULL);
    double_mark("threads done");
}

static void reset(void) {
    alloc_and_launch();
    cudaEvent_t e = NULL;
    cudaStream_t s = NULL;
    CHECK("cudaEventCreate", cudaEventCreate(&e));
    CHECK("cudaStreamCreate", cudaStreamCreate(&s));
    double_mark("reset");
    CHECK("cudaDeviceReset", cudaDeviceReset());
    double_mark("after reset");
    /* The event and stream died with the context: refused, never handed
     * to the driver. */
    CALL("dead: cudaEventQuery", cudaEventQuery(e));
    CALL("dead: cudaStreamQuery", cudaStreamQuery(s));
    double_mark("new objects");
    alloc_and_launch();
    cudaEvent_t e2 = NULL;
    CHECK("cudaEventCreate", cudaEventCreate(&e2));
    CHECK("new event: cudaEventQuery", cudaEventQuery(e2));
    CHECK("cudaEventDestroy", cudaEventDestroy(e2));
}

static void ownreset(void) {
    CUdevice dev;
    CUcontext ctx = NULL;
    if (cuInit(0) || cuDeviceGet(&dev, 0) || cuCtxCreate(&ctx, NULL, 0, dev)) failures++;
    alloc_and_launch();
    double_mark("reset");
    CHECK("cudaDeviceReset", cudaDeviceReset());
    double_mark("after reset");
    alloc_and_launch();
    unsigned f = 0;
    CHECK("cudaGetDeviceFlags", cudaGetDeviceFlags(&f));
    CUcontext cur = NULL;
    cuCtxGetCurrent(&cur);
    SHOW("own context still current: %s", cur == ctx ? "yes" : "no");
    cuCtxDestroy(ctx);
}

/* Registered before the first CUDA call, hence before the driver's
 * shutdown: runs after it. */
static void at_exit_handler(void) {
    double_mark("exit handler");
    void *p = NULL;
    CALL("exit handler: cudaMalloc", cudaMalloc(&p, 16));
    int n = 0;
    CALL("exit handler: cudaGetDevice", cudaGetDevice(&n));
    CALL("exit handler: cudaGetDeviceCount", cudaGetDeviceCount(&n));
    CALL("exit handler: cudaGetLastError", cudaGetLastError());
    fflush(stdout);
}

/* Registered after the first CUDA call: runs before the driver's shutdown. */
static void late_exit_handler(void) {
    double_mark("late exit handler");
    void *p = NULL;
    CALL("late exit handler: cudaMalloc", cudaMalloc(&p, 16));
    int n = 0;
    CALL("late exit handler: cudaGetDevice", cudaGetDevice(&n));
    fflush(stdout);
}

static void exit_mode(void) {
    atexit(at_exit_handler);
    alloc_and_launch();
    atexit(late_exit_handler);
    double_mark("main returns");
}

static void on_note(cudaAsyncNotificationInfo_t *, void *, cudaAsyncCallbackHandle_t) {}

/* Handles destroyed through the runtime, used again: refused with
 * cudaErrorInvalidResourceHandle, never handed to the driver. A new
 * object at the same address works again. */
static void destroyed_mode(void) {
    cudaStream_t s = NULL;
    cudaEvent_t e = NULL;
    CHECK("cudaStreamCreate", cudaStreamCreate(&s));
    CHECK("cudaEventCreate", cudaEventCreate(&e));
    CHECK("cudaStreamDestroy", cudaStreamDestroy(s));
    CHECK("cudaEventDestroy", cudaEventDestroy(e));
    cudaAsyncCallbackHandle_t note = NULL;
    CHECK("cudaDeviceRegisterAsyncNotification",
          cudaDeviceRegisterAsyncNotification(0, on_note, NULL, &note));
    CHECK("cudaDeviceUnregisterAsyncNotification", cudaDeviceUnregisterAsyncNotification(0, note));
    void *freed = NULL;
    CHECK("cudaMalloc", cudaMalloc(&freed, 64));
    CHECK("cudaFree", cudaFree(freed));
    cudaStream_t live = NULL;
    CHECK("cudaStreamCreate", cudaStreamCreate(&live));
    unsigned char host[16] = {0};
    double_mark("destroyed");
    /* Freed device memory as a copy operand; a live stream passed as
     * objects of other kinds. */
    CALL("destroyed: cudaMemcpy to freed", cudaMemcpy(freed, host, 16, cudaMemcpyDefault));
    CALL("destroyed: cudaMemcpyAsync from freed",
         cudaMemcpyAsync(host, freed, 16, cudaMemcpyDefault, 0));
    CALL("wrong kind: cudaDeviceUnregisterAsyncNotification",
         cudaDeviceUnregisterAsyncNotification(0, (cudaAsyncCallbackHandle_t)live));
    CALL("wrong kind: cudaDestroyExternalSemaphore",
         cudaDestroyExternalSemaphore((cudaExternalSemaphore_t)live));
    CALL("wrong kind: cudaMemPoolTrimTo", cudaMemPoolTrimTo((cudaMemPool_t)live, 0));
    CALL("destroyed: cudaDeviceUnregisterAsyncNotification",
         cudaDeviceUnregisterAsyncNotification(0, note));
    CALL("destroyed: cudaStreamSynchronize", cudaStreamSynchronize(s));
    CALL("destroyed: cudaStreamQuery", cudaStreamQuery(s));
    add<<<1, 1, 0, s>>>(NULL, 0);
    CALL("destroyed: launch", cudaGetLastError());
    CALL("destroyed: cudaEventRecord", cudaEventRecord(e, 0));
    CALL("destroyed: cudaEventSynchronize", cudaEventSynchronize(e));
    CALL("destroyed: cudaStreamWaitEvent", cudaStreamWaitEvent(0, e, 0));
    CALL("destroyed: cudaEventDestroy", cudaEventDestroy(e));
    CALL("destroyed: cudaStreamDestroy", cudaStreamDestroy(s));
    double_mark("new objects");
    cudaStream_t s2 = NULL;
    CHECK("cudaStreamCreate", cudaStreamCreate(&s2));
    SHOW("same address as before: %s", s2 == s ? "yes" : "no");
    CHECK("new stream: cudaStreamSynchronize", cudaStreamSynchronize(s2));
    CHECK("new stream: cudaStreamDestroy", cudaStreamDestroy(s2));
    CHECK("live stream: cudaStreamDestroy", cudaStreamDestroy(live));
    void *again = NULL;
    CHECK("cudaMalloc", cudaMalloc(&again, 64));
    SHOW("same memory address as before: %s", again == freed ? "yes" : "no");
    CHECK("new memory: cudaMemcpy", cudaMemcpy(again, host, 16, cudaMemcpyDefault));
    CHECK("cudaFree", cudaFree(again));
    double_mark("done");
}

static void fork_mode(void) {
    alloc_and_launch();
    fflush(stdout);
    double_mark("fork");
    pid_t pid = fork();
    if (pid == 0) {
        void *p = NULL;
        CALL("child: cudaMalloc", cudaMalloc(&p, 16));
        int n = 0;
        CALL("child: cudaGetDeviceCount", cudaGetDeviceCount(&n));
        fflush(stdout);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    double_mark("child done");
    SHOW("child exit: %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    alloc_and_launch();
}

int main(int argc, char **argv) {
    const char *which = argc > 1 ? argv[1] : "";
    if (!strcmp(which, "nocontext")) nocontext();
    else if (!strcmp(which, "flags")) flags();
    else if (!strcmp(which, "initdevice")) initdevice();
    else if (!strcmp(which, "setdevice")) setdevice();
    else if (!strcmp(which, "threads")) threads();
    else if (!strcmp(which, "reset")) reset();
    else if (!strcmp(which, "ownreset")) ownreset();
    else if (!strcmp(which, "exit")) exit_mode();
    else if (!strcmp(which, "fork")) fork_mode();
    else if (!strcmp(which, "destroyed")) destroyed_mode();
    else {
        fprintf(stderr, "usage: %s nocontext|flags|initdevice|setdevice|threads|reset|ownreset|exit|fork|destroyed\n", argv[0]);
        return 2;
    }
    printf("failures = %d\n", failures);
    return failures ? 1 : 0;
}
