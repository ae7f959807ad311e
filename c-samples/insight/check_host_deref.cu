// CUDART_CHECK: the host dereferences a cudaMalloc'd pointer. This dies of
// SIGSEGV under any runtime; with CUDART_CHECK=1 the runtime's signal
// handler first prints one "host access to device memory" report naming
// the allocation's cudaMalloc. run.py accepts the crash and reads stderr.
// (Should the read not fault, e.g. on a system where device memory is host
// accessible, the program says so and exits 0.)
#include "insight.h"

int main() {
  int *d = NULL;
  RC(cudaMalloc((void **)&d, 4096));
  RC(cudaMemset(d, 0, 4096));
  RC(cudaDeviceSynchronize());
  fprintf(stderr, "# reading device pointer on the host\n");
  volatile int *p = d + 8;
  int v = *p;  // the mistake
  fprintf(stderr, "# no fault: read %d\n", v);
  printf("DONE check_host_deref (no crash)\n");
  return 0;
}
