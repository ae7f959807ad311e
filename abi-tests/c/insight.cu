/* insight.cu: the mistakes CUDART_CHECK reports, the objects CUDART_LEAKS
 * lists, the calls CUDART_FAULTS fails and the work CUDART_PROFILE counts,
 * on the test-double driver (abi-tests/tests/insight.rs). Each step prints
 * the code the runtime returned, so the test can hold the checks to "only
 * report": the codes must not change when a feature is on. */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void touch(int *p, int n) {
    if (n > 0) p[0] = n;
}

#define SHOW(name, expr) printf("%s -> %d\n", name, (int)(expr))

int main(void) {
    int *a = NULL, *b = NULL, *leak = NULL, *gone = NULL;
    /* the faults test fails the 2nd cudaMalloc: a program's retry */
    SHOW("cudaMalloc a", cudaMalloc((void **)&a, 1024));
    cudaError_t e = cudaMalloc((void **)&b, 256);
    SHOW("cudaMalloc b", e);
    if (e == cudaErrorMemoryAllocation) {
        SHOW("cudaGetLastError", cudaGetLastError());
        SHOW("cudaMalloc b again", cudaMalloc((void **)&b, 256));
    }
    /* past the end: 2048 bytes into a 1024-byte allocation */
    SHOW("cudaMemset past the end", cudaMemset(a, 0, 2048));
    SHOW("cudaMemset inside", cudaMemset(a, 0, 1024));
    /* free of an interior pointer, then a double free */
    SHOW("cudaFree interior", cudaFree((char *)b + 16));
    SHOW("cudaFree b", cudaFree(b));
    SHOW("cudaFree b again", cudaFree(b));
    /* a stream used after destroy */
    cudaStream_t s;
    SHOW("cudaStreamCreate", cudaStreamCreate(&s));
    SHOW("cudaStreamDestroy", cudaStreamDestroy(s));
    SHOW("cudaStreamSynchronize destroyed", cudaStreamSynchronize(s));
    /* kernels, counted by the profile; one with a freed pointer */
    SHOW("cudaMalloc gone", cudaMalloc((void **)&gone, 64));
    SHOW("cudaFree gone", cudaFree(gone));
    for (int i = 0; i < 3; i++) {
        touch<<<2, 32>>>(a, i);
        SHOW("launch", cudaGetLastError());
    }
    touch<<<1, 1>>>(gone, 1);
    SHOW("launch freed", cudaGetLastError());
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    /* leaks: one allocation and one event never freed */
    cudaEvent_t ev, ev2;
    SHOW("cudaMalloc leak", cudaMalloc((void **)&leak, 4096));
    SHOW("cudaEventCreate", cudaEventCreate(&ev));
    SHOW("cudaEventCreate 2", cudaEventCreate(&ev2));
    SHOW("cudaEventDestroy 2", cudaEventDestroy(ev2));
    SHOW("cudaFree a", cudaFree(a));
    printf("DONE\n");
    return 0;
}
