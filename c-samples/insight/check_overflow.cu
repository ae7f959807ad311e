// CUDART_CHECK: a cudaMemset and a cudaMemcpy that run past the end of a
// 1024-byte allocation. NVIDIA's runtime may well return cudaSuccess for
// both (the driver maps memory in larger pages), so the mistake passes
// unnoticed there; the codes only go to stderr.
// Expected with CUDART_CHECK=1: two "past the end" reports, each naming the
// allocation's cudaMalloc. The in-bounds calls before them must not report.
#include "insight.h"

int main() {
  char *d = NULL;
  static char host[2048];
  memset(host, 7, sizeof host);
  RC(cudaMalloc((void **)&d, 1024));
  // In bounds: no report.
  RC(cudaMemset(d, 0, 1024));
  RC(cudaMemcpy(d + 512, host, 512, cudaMemcpyHostToDevice));
  RC(cudaDeviceSynchronize());
  // The mistakes: 2048 bytes into 1024.
  RC(cudaMemset(d, 0, 2048));
  RC(cudaMemcpy(d, host, 2048, cudaMemcpyHostToDevice));
  RC(cudaDeviceSynchronize());
  RC(cudaFree(d));
  printf("DONE check_overflow\n");
  return 0;
}
