/*
 * newer_driver.cu (built by nvcc 13.5): the calls CUDA 13.5 added that
 * need a driver newer than 13.0, run on the test-double driver. NVIDIA's
 * 13.5 runtime on driver 580 (CUDA 13.0) answers them
 * cudaErrorCallRequiresNewerDriver and records it as the last error
 * (measured on the H200 for cudaFuncGetParamCount and cudaGraphGetId);
 * the error is not sticky: the next call works.
 *
 * Prints "<call> -> <code>" and "lasterror -> <code>" for each call.
 */
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void k(int *p, int a) { *p = a; }

static void host_fn(void *) {}

#define CALL(name, call)                                                       \
    do {                                                                       \
        cudaError_t e_ = (call);                                               \
        cudaError_t l_ = cudaGetLastError();                                   \
        printf("%s -> %d %s; lasterror -> %d\n", name, (int)e_,                \
               cudaGetErrorName(e_), (int)l_);                                 \
    } while (0)

int main() {
    int *d = NULL;
    CALL("cudaMalloc", cudaMalloc(&d, 16));
    size_t n = 0;
    CALL("cudaFuncGetParamCount", cudaFuncGetParamCount((const void *)k, &n));
    /* The double has no graphs: a NULL graph (the driver is not asked). */
    unsigned int id = 0;
    CALL("cudaGraphGetId", cudaGraphGetId(NULL, &id));
    CALL("cudaLaunchHostFunc_v2", cudaLaunchHostFunc_v2(0, host_fn, NULL, cudaHostTaskBlocking));
    cudaMemLocation loc = {};
    CALL("cudaMemGetLocationInfo", cudaMemGetLocationInfo(d, 16, 16, 16, &loc));
    cudaDevResource r = {};
    CALL("cudaStreamGetDevResource", cudaStreamGetDevResource(0, &r, cudaDevResourceTypeSm));
    CALL("cudaMemset", cudaMemset(d, 0, 16));
    CALL("cudaFree", cudaFree(d));
    return 0;
}
