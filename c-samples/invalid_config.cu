// invalid_config: launches the runtime must refuse, each reported by
// cudaGetLastError and NOT sticky. Which code each gets is NVIDIA's call
// (measured on the H200 with 13.0.96: 2048 threads per block is
// cudaErrorInvalidValue, the driver's answer), so the names are printed and
// the stdout comparison with NVIDIA's runtime checks them (the next valid launch works):
// 2048 threads per block, grid dimension 0, block z above 64, grid y above
// 65535, dynamic shared memory above the per-block limit. The error names
// are printed; stdout is compared with NVIDIA's runtime.
#define SAMPLE_NAME "invalid_config"
#include "common/check.h"

__global__ void write_idx(int *out, int n) {
  extern __shared__ int dyn[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i + 1;
  (void)dyn;
}

static int *g_d;
static const int N = 1024;

// A valid launch after an error: it must work and give the right data.
static void valid_launch(const char *after) {
  CK(cudaMemset(g_d, 0, N * sizeof(int)));
  write_idx<<<N / 128, 128>>>(g_d, N);
  cudaError_t e = cudaGetLastError();
  EXPECT(e == cudaSuccess, "valid launch after %s: %s", after, err_name(e));
  CK(cudaDeviceSynchronize());
  int h[N];
  CK(cudaMemcpy(h, g_d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) EXPECT(h[i] == i + 1, "after %s: out[%d] = %d", after, i, h[i]);
}

// Checks the error of a refused launch; `want` < 0 means "any error".
static void refused(const char *what, int want) {
  cudaError_t e = cudaGetLastError();
  printf("%-28s -> %s\n", what, err_name(e));
  EXPECT(e != cudaSuccess, "%s was accepted", what);
  if (want >= 0)
    EXPECT(e == (cudaError_t)want, "%s: %s, expected %s", what, err_name(e),
           err_name((cudaError_t)want));
  cudaError_t again = cudaGetLastError();
  EXPECT(again == cudaSuccess, "%s: error is sticky (%s)", what, err_name(again));
  CK(cudaDeviceSynchronize());
  valid_launch(what);
}

int main() {
  CK(cudaMalloc(&g_d, N * sizeof(int)));
  valid_launch("nothing");

  write_idx<<<1, 2048>>>(g_d, N);
  refused("2048 threads per block", -1);

  write_idx<<<0, 128>>>(g_d, N);
  refused("grid dimension 0", -1);

  write_idx<<<1, dim3(1, 1, 65)>>>(g_d, N);
  refused("block z = 65", -1);

  write_idx<<<dim3(1, 65536, 1), 32>>>(g_d, N);
  refused("grid y = 65536", -1);

  int optin = 0;
  CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  write_idx<<<1, 32, (size_t)optin + 1024>>>(g_d, N);
  refused("dynamic shared above opt-in", -1);

  write_idx<<<1, 32, 64 * 1024>>>(g_d, N);  // > 48 KiB without the attribute
  refused("dynamic shared 64 KiB", -1);

  // cudaPeekAtLastError does not clear; cudaGetLastError does.
  write_idx<<<1, 4096>>>(g_d, N);
  cudaError_t p1 = cudaPeekAtLastError(), p2 = cudaPeekAtLastError();
  EXPECT(p1 != cudaSuccess && p2 == p1, "peek: %s %s", err_name(p1), err_name(p2));
  CK_EQ(cudaGetLastError(), p1);
  CK(cudaPeekAtLastError());
  printf("peek keeps, get clears: ok\n");
  valid_launch("peek");

  CK(cudaFree(g_d));
  return sample_pass();
}
