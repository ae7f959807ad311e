// CUDART_CHECK: cudaStreamSynchronize on a destroyed stream and
// cudaEventRecord of a destroyed event. Nothing else is created in between,
// so the handles' addresses are not reused. Under NVIDIA's runtime this is
// undefined (an error code, or a crash).
// Expected with CUDART_CHECK=1: two "used after destroy" reports, one naming
// cudaStreamCreate and one naming cudaEventCreate.
#include "insight.h"

int main() {
  cudaStream_t s;
  cudaEvent_t e;
  RC(cudaStreamCreate(&s));
  RC(cudaEventCreate(&e));
  RC(cudaEventRecord(e, s));  // valid use first
  RC(cudaStreamSynchronize(s));
  RC(cudaStreamDestroy(s));
  RC(cudaEventDestroy(e));
  RC(cudaStreamSynchronize(s));  // the mistakes
  RC(cudaEventRecord(e, 0));
  RC(cudaDeviceSynchronize());
  printf("DONE check_use_after_destroy\n");
  return 0;
}
