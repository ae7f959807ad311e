// multi_file: two .cu files without rdc, each with its own kernels and
// variables (two fatbins registered). Both files define `fill` and `tag`
// in anonymous namespaces, so the device names collide across modules.
#define SAMPLE_NAME "multi_file"
#include "common/check.h"

void other_fill(int *out, int n);
void other_scale(int *out, int n, int k);
void other_set_tag(int v);
int other_get_tag();

namespace {
__device__ int tag = 100;
__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tag + i;
}
}  // namespace

int main() {
  const int n = 300;
  int *d, h[n];
  CK(cudaMalloc(&d, n * sizeof(int)));

  fill<<<(n + 127) / 128, 128>>>(d, n);
  CK_LAUNCH();
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(h[i] == 100 + i, "main fill out[%d] = %d", i, h[i]);
  printf("main.cu fill: out[299]=%d\n", h[n - 1]);

  other_fill(d, n);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(h[i] == 200 - i, "other fill out[%d] = %d", i, h[i]);
  printf("other.cu fill: out[299]=%d\n", h[n - 1]);

  other_scale(d, n, 3);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(h[i] == 3 * (200 - i), "other_only out[%d] = %d", i, h[i]);
  printf("other.cu other_only: out[0]=%d\n", h[0]);

  // Same-named variables are distinct.
  int v = 0;
  CK(cudaMemcpyFromSymbol(&v, tag, sizeof(int)));
  EXPECT(v == 100 && other_get_tag() == 200, "tags %d %d", v, other_get_tag());
  other_set_tag(7);
  v = 1;
  CK(cudaMemcpyToSymbol(tag, &v, sizeof(int)));
  EXPECT(other_get_tag() == 7, "other tag %d", other_get_tag());
  fill<<<(n + 127) / 128, 128>>>(d, n);
  CK_LAUNCH();
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  EXPECT(h[5] == 6, "main fill after set: out[5] = %d", h[5]);
  other_fill(d, n);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  EXPECT(h[5] == 2, "other fill after set: out[5] = %d", h[5]);
  printf("tags: main=%d other=%d\n", v, other_get_tag());

  CK(cudaFree(d));
  return sample_pass();
}
