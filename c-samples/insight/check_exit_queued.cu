// CUDART_CHECK: a ~200 ms kernel launched on a created stream, and main
// returns without synchronizing: the work is cut off (or waited for) by the
// process's teardown, silently.
// Expected with CUDART_CHECK=1: one "work still queued at exit" report.
#include "insight.h"

__global__ void spin(long long cycles) { insight_spin(cycles); }

int main() {
  cudaStream_t s;
  long long per_ms = insight_cycles_per_ms();
  RC(cudaStreamCreate(&s));
  spin<<<1, 1, 0, s>>>(200 * per_ms);
  RC(cudaGetLastError());
  printf("DONE check_exit_queued\n");
  return 0;  // the mistake: no cudaStreamSynchronize
}
