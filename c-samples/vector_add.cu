// vector_add: cudaMalloc, cudaMemcpy both ways, a <<<>>> launch,
// cudaDeviceSynchronize, and an exact check of every element.
#define SAMPLE_NAME "vector_add"
#include "common/check.h"

__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1 << 20;  // 4096 blocks of 256
  const size_t bytes = n * sizeof(float);
  float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes),
        *c = (float *)malloc(bytes);
  for (int i = 0; i < n; i++) {
    a[i] = (float)(i % 1000);
    b[i] = (float)(2 * (i % 777));
    c[i] = -1.0f;
  }
  float *da, *db, *dc;
  CK(cudaMalloc(&da, bytes));
  CK(cudaMalloc(&db, bytes));
  CK(cudaMalloc(&dc, bytes));
  CK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
  CK(cudaMemset(dc, 0, bytes));

  const int threads = 256;
  add<<<(n + threads - 1) / threads, threads>>>(da, db, dc, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));

  double sum = 0;
  for (int i = 0; i < n; i++) {
    float want = a[i] + b[i];
    EXPECT(c[i] == want, "c[%d] = %g, expected %g", i, c[i], want);
    sum += c[i];
  }
  printf("n=%d blocks=%d threads=%d\n", n, (n + threads - 1) / threads, threads);
  printf("c[0]=%g c[1]=%g c[n-1]=%g sum=%.1f\n", c[0], c[1], c[n - 1], sum);

  // A second launch over an odd size: the bounds check in the kernel matters.
  const int m = 1000003 % n;  // 1000003 < n, odd size
  add<<<(m + 127) / 128, 128>>>(dc, da, db, m);  // b := c + a for i < m
  CK(cudaGetLastError());
  CK(cudaMemcpy(b, db, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float want = i < m ? c[i] + a[i] : (float)(2 * (i % 777));
    EXPECT(b[i] == want, "second launch: b[%d] = %g, expected %g", i, b[i], want);
  }
  printf("second launch m=%d ok\n", m);

  CK(cudaFree(da));
  CK(cudaFree(db));
  CK(cudaFree(dc));
  free(a); free(b); free(c);
  return sample_pass();
}
