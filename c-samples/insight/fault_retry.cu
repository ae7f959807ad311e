// CUDART_FAULTS: a program with an out-of-memory recovery path and a count
// of failed launches.
//
//   1. Five cudaMalloc of 1 MiB. On cudaErrorMemoryAllocation: clear the
//      error (cudaGetLastError), print
//        recovered from injected cudaErrorMemoryAllocation at allocation <i>
//      (i counts allocations from 1) and retry once.
//   2. The kernel `step` launched 10 times; cudaGetLastError after each
//      launch; the failures are counted. `step` adds 1 to a counter, read
//      back at the end ("step ran=<k>", informational).
//   stdout ends with
//        launch failures=<n>
//        step ran=<k>
//        DONE fault_retry allocations=<ok> retries=<r>
//
// With CUDART_FAULTS=cudaMalloc:3=cudaErrorMemoryAllocation,launch:step:4-5=cudaErrorLaunchFailure
// expect recovery at allocation 3, retries=1, launch failures=2; without,
// retries=0 and launch failures=0. The counter's cudaMalloc comes after the
// loop, so it never shifts the loop's call numbers.
#include "insight.h"

__global__ void step(int *counter) { atomicAdd(counter, 1); }

int main() {
  void *p[5] = {0};
  int ok = 0, retries = 0;
  for (int i = 1; i <= 5; i++) {
    cudaError_t e = RC(cudaMalloc(&p[i - 1], 1 << 20));
    if (e == cudaErrorMemoryAllocation) {
      RC(cudaGetLastError());
      printf("recovered from injected cudaErrorMemoryAllocation at allocation %d\n", i);
      retries++;
      e = RC(cudaMalloc(&p[i - 1], 1 << 20));
    }
    if (e == cudaSuccess) ok++;
    else p[i - 1] = NULL;
  }

  int *counter = NULL, ran = -1, failures = 0;
  RC(cudaMalloc((void **)&counter, sizeof(int)));
  RC(cudaMemset(counter, 0, sizeof(int)));
  for (int i = 1; i <= 10; i++) {
    step<<<1, 1>>>(counter);
    if (RC(cudaGetLastError()) != cudaSuccess) failures++;
  }
  RC(cudaDeviceSynchronize());
  RC(cudaMemcpy(&ran, counter, sizeof(int), cudaMemcpyDeviceToHost));
  RC(cudaFree(counter));
  for (int i = 0; i < 5; i++)
    if (p[i]) RC(cudaFree(p[i]));
  printf("launch failures=%d\n", failures);
  printf("step ran=%d\n", ran);
  printf("DONE fault_retry allocations=%d retries=%d\n", ok, retries);
  return 0;
}
