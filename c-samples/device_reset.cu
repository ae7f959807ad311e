// device_reset: allocate, launch, change a __device__ variable, then
// cudaDeviceReset; afterwards allocate and launch again. The module must be
// loaded afresh (the variable is back to its initial value), kernels and
// streams work again, and a second reset works too.
#define SAMPLE_NAME "device_reset"
#include "common/check.h"

__device__ int d_state = 7;

__global__ void step(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = d_state * i;
  if (i == 0) d_state += 1;  // visible to the next launch only
}

static void round_trip(int round, int expect_state) {
  const int n = 2048;
  int *d, h[n];
  CK(cudaMalloc(&d, sizeof(h)));
  int st = -1;
  CK(cudaMemcpyFromSymbol(&st, d_state, sizeof(int)));
  EXPECT(st == expect_state, "round %d: d_state = %d at start, expected %d", round, st,
         expect_state);
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  step<<<n / 256, 256, 0, s>>>(d, n);
  CK(cudaGetLastError());
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(h[i] == st * i, "round %d: out[%d] = %d", round, i, h[i]);
  CK(cudaMemcpyFromSymbol(&st, d_state, sizeof(int)));
  EXPECT(st == expect_state + 1, "round %d: d_state = %d after kernel", round, st);
  printf("round %d: d_state %d -> %d, out[2047]=%d\n", round, expect_state, st, h[n - 1]);
  CK(cudaStreamDestroy(s));
  // d is deliberately not freed: the reset must release it.
}

int main() {
  round_trip(1, 7);
  round_trip(2, 8);  // no reset: state carries over
  CK(cudaDeviceReset());
  CK(cudaGetLastError());
  round_trip(3, 7);  // module reloaded
  CK(cudaDeviceReset());
  CK(cudaDeviceReset());  // reset with nothing in between
  round_trip(4, 7);
  int dev = -1;
  CK(cudaGetDevice(&dev));
  EXPECT(dev == 0, "device after reset = %d", dev);
  CK(cudaDeviceSynchronize());
  return sample_pass();
}
