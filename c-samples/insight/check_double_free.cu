// CUDART_CHECK: cudaFree of an interior pointer, then cudaFree twice of the
// same pointer. NVIDIA's runtime answers each with an error code that
// programs commonly ignore.
// Expected with CUDART_CHECK=1: one "not the base of an allocation" report
// and one "double free" report, both naming cudaMalloc.
#include "insight.h"

int main() {
  char *q = NULL, *p = NULL;
  RC(cudaMalloc((void **)&q, 4096));
  RC(cudaFree(q + 16));  // interior pointer
  RC(cudaFree(q));       // the right one: no report
  RC(cudaMalloc((void **)&p, 1024));
  RC(cudaFree(p));
  RC(cudaFree(p));       // twice
  RC(cudaDeviceSynchronize());
  printf("DONE check_double_free\n");
  return 0;
}
