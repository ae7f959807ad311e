/*
 * double_resource.cu (built by nvcc 13.5): CUDA 13.5's device resources
 * and execution contexts on the test-double driver, with good and bad
 * arguments. Prints "<call> -> <code>" for each call and the values the
 * double makes up (132 SMs, groups of multiples of 8); the test
 * (abi-tests/tests/resource.rs) checks them and the driver calls made.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#define CALL(name, call) printf("%s -> %d\n", name, (int)(call))

int main() {
    cudaDevResource sm, parts[16], rem, r;
    memset(&sm, 0, sizeof sm);
    CALL("getres", cudaDeviceGetDevResource(0, &sm, cudaDevResourceTypeSm));
    printf("sms %u\n", sm.sm.smCount);
    CALL("getres-null", cudaDeviceGetDevResource(0, NULL, cudaDevResourceTypeSm));
    CALL("getres-baddev", cudaDeviceGetDevResource(7, &r, cudaDevResourceTypeSm));
    CALL("getres-badtype", cudaDeviceGetDevResource(0, &r, (cudaDevResourceType)5));
    unsigned n = 0;
    CALL("split-count", cudaDevSmResourceSplitByCount(NULL, &n, &sm, NULL, 0, 30));
    printf("groups %u\n", n);
    CALL("split", cudaDevSmResourceSplitByCount(parts, &n, &sm, &rem, 0, 30));
    printf("split %u x %u, remaining %u\n", n, parts[0].sm.smCount, rem.sm.smCount);
    CALL("split-nullcount", cudaDevSmResourceSplitByCount(parts, NULL, &sm, &rem, 0, 30));
    CALL("split-nullinput", cudaDevSmResourceSplitByCount(parts, &n, NULL, &rem, 0, 30));
    cudaDevResourceDesc_t desc = NULL;
    CALL("desc", cudaDevResourceGenerateDesc(&desc, parts, 2));
    CALL("desc-null", cudaDevResourceGenerateDesc(NULL, parts, 2));
    CALL("desc-none", cudaDevResourceGenerateDesc(&desc, parts, 0));

    cudaExecutionContext_t green = NULL, primary = NULL;
    CALL("green-flags", cudaGreenCtxCreate(&green, desc, 0, 1));
    CALL("green-nulldesc", cudaGreenCtxCreate(&green, NULL, 0, 0));
    CALL("green-null", cudaGreenCtxCreate(NULL, desc, 0, 0));
    CALL("green", cudaGreenCtxCreate(&green, desc, 0, 0));
    CALL("primary", cudaDeviceGetExecutionCtx(&primary, 0));
    CALL("primary-baddev", cudaDeviceGetExecutionCtx(&primary, 9));
    CALL("green-res", cudaExecutionCtxGetDevResource(green, &r, cudaDevResourceTypeSm));
    printf("green sms %u\n", r.sm.smCount);
    CALL("primary-res", cudaExecutionCtxGetDevResource(primary, &r, cudaDevResourceTypeSm));
    printf("primary sms %u\n", r.sm.smCount);
    int dev = -1;
    CALL("green-dev", cudaExecutionCtxGetDevice(&dev, green));
    unsigned long long id = 0;
    CALL("green-id", cudaExecutionCtxGetId(green, &id));
    CALL("green-id-null", cudaExecutionCtxGetId(green, NULL));

    // Handles the runtime never handed out, and NULL.
    int junk = 0;
    cudaExecutionContext_t bad = (cudaExecutionContext_t)&junk;
    CALL("null-dev", cudaExecutionCtxGetDevice(&dev, NULL));
    CALL("bad-dev", cudaExecutionCtxGetDevice(&dev, bad));
    CALL("bad-sync", cudaExecutionCtxSynchronize(bad));
    CALL("bad-destroy", cudaExecutionCtxDestroy(bad));

    cudaStream_t gs = NULL, ps = NULL;
    CALL("green-stream", cudaExecutionCtxStreamCreate(&gs, green, 0, 0));
    unsigned flags = 0;
    CALL("green-stream-flags", cudaStreamGetFlags(gs, &flags));
    printf("green stream flags %u\n", flags);
    CALL("primary-stream", cudaExecutionCtxStreamCreate(&ps, primary, 0, 0));
    CALL("stream-badflags", cudaExecutionCtxStreamCreate(&ps, primary, 8, 0));
    cudaEvent_t ev = NULL;
    CALL("event", cudaEventCreate(&ev));
    CALL("green-record", cudaExecutionCtxRecordEvent(green, ev));
    CALL("primary-wait", cudaExecutionCtxWaitEvent(primary, ev));
    CALL("green-sync", cudaExecutionCtxSynchronize(green));
    CALL("stream-destroy", cudaStreamDestroy(gs));
    CALL("green-destroy", cudaExecutionCtxDestroy(green));
    CALL("green-destroy-again", cudaExecutionCtxDestroy(green));
    CALL("green-after", cudaExecutionCtxGetDevice(&dev, green));
    CALL("primary-destroy", cudaExecutionCtxDestroy(primary));
    CALL("primary-after", cudaExecutionCtxGetDevice(&dev, primary));
    CALL("malloc-after", cudaMalloc((void **)&id, 16));
    return 0;
}
