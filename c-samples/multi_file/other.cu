// multi_file, second translation unit (no rdc: its own fatbin). It has a
// kernel and a __device__ variable with the same names as main.cu's, in
// an anonymous namespace, doing something else: the runtime must tell
// them apart by their host stubs, not by name.
#define SAMPLE_NAME "multi_file"
#include "common/check.h"

namespace {
__device__ int tag = 200;
__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tag - i;
}
}  // namespace

__global__ void other_only(int *out, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] *= k;
}

void other_fill(int *out, int n) {
  fill<<<(n + 63) / 64, 64>>>(out, n);
  CK(cudaGetLastError());
}

void other_scale(int *out, int n, int k) {
  other_only<<<(n + 63) / 64, 64>>>(out, n, k);
  CK(cudaGetLastError());
}

void other_set_tag(int v) { CK(cudaMemcpyToSymbol(tag, &v, sizeof(int))); }

int other_get_tag() {
  int v = 0;
  CK(cudaMemcpyFromSymbol(&v, tag, sizeof(int)));
  return v;
}
