// CUDART_CHECK: cudaMemcpyAsync from malloc()'d (pageable) host memory to
// the device on a created stream: the copy is staged and not asynchronous
// with respect to the host, which programs that expect overlap do not see.
// Expected with CUDART_CHECK=1: one "pageable host memory" report; the same
// copy from cudaMallocHost memory before it must not report.
#include "insight.h"

int main() {
  const size_t n = 1 << 20;
  char *d = NULL, *pinned = NULL;
  char *pageable = (char *)malloc(n);
  memset(pageable, 1, n);
  cudaStream_t s;
  RC(cudaMalloc((void **)&d, n));
  if (RC(cudaMallocHost((void **)&pinned, n)) == cudaSuccess) memset(pinned, 2, n);
  RC(cudaStreamCreate(&s));
  if (pinned) RC(cudaMemcpyAsync(d, pinned, n, cudaMemcpyHostToDevice, s));  // fine
  RC(cudaMemcpyAsync(d, pageable, n, cudaMemcpyHostToDevice, s));  // the mistake
  RC(cudaStreamSynchronize(s));
  RC(cudaStreamDestroy(s));
  RC(cudaFreeHost(pinned));
  RC(cudaFree(d));
  free(pageable);
  printf("DONE check_pageable_async\n");
  return 0;
}
