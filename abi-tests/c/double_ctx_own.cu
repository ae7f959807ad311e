/* double_ctx_own.cu: the program creates its own driver context
 * (cuCtxCreate, which makes it current) before any runtime call. The
 * runtime must use that context as it is: no primary-context retain, and
 * launches and allocations happen in the program's context. The current
 * context must still be the program's one afterwards.
 * Linked against the test-double driver (-lcuda); run only with it. */
#include <cuda.h>
#include "double_mark.h"
#include "report.h"

__global__ void add(int *a, int n) {
    int i = threadIdx.x;
    if (i < n) a[i] += 1;
}

static int failures;

#define DRV(name, expr)                                                       \
    do {                                                                      \
        CUresult drv_err_ = (expr);                                           \
        printf("%s -> %d\n", name, (int)drv_err_);                            \
        if (drv_err_ != CUDA_SUCCESS) failures++;                             \
    } while (0)

#define CHECK(name, expr)                                                     \
    do {                                                                      \
        cudaError_t check_err_ = (expr);                                      \
        abi_report(name, check_err_);                                         \
        if (check_err_ != cudaSuccess) failures++;                            \
    } while (0)

int main(void) {
    CUdevice dev = -1;
    CUcontext ctx = NULL, cur = NULL;
    DRV("cuInit", cuInit(0));
    DRV("cuDeviceGet", cuDeviceGet(&dev, 0));
    DRV("cuCtxCreate", cuCtxCreate(&ctx, NULL, 0, dev));
    double_mark("runtime");
    int h[4] = {1, 2, 3, 4};
    int *d = NULL;
    CHECK("cudaMalloc", cudaMalloc(&d, sizeof h));
    CHECK("cudaMemcpy(HostToDevice)", cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    add<<<1, 4>>>(d, 4);
    CHECK("launch", cudaGetLastError());
    add<<<1, 4>>>(d, 4);
    CHECK("launch", cudaGetLastError());
    CHECK("cudaDeviceSynchronize", cudaDeviceSynchronize());
    CHECK("cudaMemcpy(DeviceToHost)", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    CHECK("cudaFree", cudaFree(d));
    double_mark("runtime done");
    DRV("cuCtxGetCurrent", cuCtxGetCurrent(&cur));
    printf("current is own context: %s\n", cur == ctx ? "yes" : "no");
    if (cur != ctx) failures++;
    DRV("cuCtxDestroy", cuCtxDestroy(ctx));
    printf("failures = %d\n", failures);
    return failures ? 1 : 0;
}
