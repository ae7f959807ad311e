// launch_api: cudaLaunchKernel with the host stub, cudaLaunchKernelExC with
// a config (no attributes, then a cluster dimension), cudaGetKernel and a
// launch through the kernel handle, cudaGetFuncBySymbol, cudaFuncGetName,
// cudaFuncGetAttributes, cudaFuncSetAttribute (100 KiB of dynamic shared
// memory, refused before and used after), cudaFuncSetCacheConfig,
// occupancy.
#define SAMPLE_NAME "launch_api"
#include "common/check.h"
#include <string.h>

__global__ void scale_add(int *out, int n, int mul, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * mul + add;
}

__global__ void with_static_smem(int *out) {
  __shared__ int tile[256];
  tile[threadIdx.x] = threadIdx.x * 3;
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

// Fills all of its dynamic shared memory, then sums it back.
__global__ void big_dyn_smem(long long *out, int words) {
  extern __shared__ int buf[];
  for (int i = threadIdx.x; i < words; i += blockDim.x) buf[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long s = 0;
    for (int i = 0; i < words; i++) s += buf[i];
    *out = s;
  }
}

__global__ void cluster_rank(int *out) {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  if (threadIdx.x == 0) out[blockIdx.x] = (int)r;
}

static int *g_d;
static const int N = 512;

static void check_scale_add(int mul, int add, const char *what) {
  int h[N];
  CK(cudaMemcpy(h, g_d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    EXPECT(h[i] == i * mul + add, "%s: out[%d] = %d", what, i, h[i]);
  printf("%s: ok\n", what);
  CK(cudaMemset(g_d, 0, sizeof(h)));
}

int main() {
  CK(cudaMalloc(&g_d, N * sizeof(int)));
  int n = N, mul = 3, add = 7;
  void *args[] = {&g_d, &n, &mul, &add};

  CK(cudaLaunchKernel((const void *)scale_add, dim3(N / 128), dim3(128), args, 0, 0));
  CK(cudaDeviceSynchronize());
  check_scale_add(3, 7, "cudaLaunchKernel(host stub)");

  cudaLaunchConfig_t cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.gridDim = dim3(N / 64);
  cfg.blockDim = dim3(64);
  mul = 5;
  CK(cudaLaunchKernelExC(&cfg, (const void *)scale_add, args));
  CK(cudaDeviceSynchronize());
  check_scale_add(5, 7, "cudaLaunchKernelExC(no attributes)");

  cudaKernel_t kern = NULL;
  CK(cudaGetKernel(&kern, scale_add));
  EXPECT(kern != NULL, "cudaGetKernel gave NULL");
  add = -1;
  CK(cudaLaunchKernelEx(&cfg, kern, g_d, n, mul, add));  // func = the kernel handle
  CK(cudaDeviceSynchronize());
  check_scale_add(5, -1, "cudaLaunchKernelEx(cudaKernel_t)");

  // Cluster launch: 8 blocks in clusters of 2.
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t ccfg;
  memset(&ccfg, 0, sizeof(ccfg));
  ccfg.gridDim = dim3(8);
  ccfg.blockDim = dim3(32);
  ccfg.attrs = attr;
  ccfg.numAttrs = 1;
  void *cargs[] = {&g_d};
  CK(cudaLaunchKernelExC(&ccfg, (const void *)cluster_rank, cargs));
  CK(cudaDeviceSynchronize());
  int ranks[8];
  CK(cudaMemcpy(ranks, g_d, sizeof(ranks), cudaMemcpyDeviceToHost));
  printf("cluster ranks:");
  for (int b = 0; b < 8; b++) {
    printf(" %d", ranks[b]);
    EXPECT(ranks[b] == b % 2, "block %d cluster rank %d", b, ranks[b]);
  }
  printf("\n");

  // Function handles and names.
  cudaFunction_t fn = NULL;
  CK(cudaGetFuncBySymbol(&fn, (const void *)scale_add));
  EXPECT(fn != NULL, "cudaGetFuncBySymbol gave NULL");
  const char *name = NULL;
  CK(cudaFuncGetName(&name, (const void *)scale_add));
  printf("cudaFuncGetName: %s\n", name ? name : "(null)");
  EXPECT(name && strstr(name, "scale_add") != NULL, "unexpected name");

  // Attributes.
  cudaFuncAttributes fa;
  memset(&fa, 0, sizeof(fa));
  CK(cudaFuncGetAttributes(&fa, (const void *)with_static_smem));
  printf("with_static_smem: sharedSizeBytes %zu maxThreadsPerBlock %d numRegs>0 %s "
         "binaryVersion %d ptxVersion %d maxDynamicSharedSizeBytes %d\n",
         fa.sharedSizeBytes, fa.maxThreadsPerBlock, fa.numRegs > 0 ? "yes" : "no",
         fa.binaryVersion, fa.ptxVersion, fa.maxDynamicSharedSizeBytes);
  EXPECT(fa.sharedSizeBytes == 1024, "sharedSizeBytes %zu", fa.sharedSizeBytes);
  EXPECT(fa.maxThreadsPerBlock > 0 && fa.numRegs > 0 && fa.binaryVersion == 90,
         "attributes implausible");
  with_static_smem<<<1, 256>>>(g_d);
  CK_LAUNCH();
  int h[256];
  CK(cudaMemcpy(h, g_d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 256; i++) EXPECT(h[i] == (255 - i) * 3, "static smem out[%d]", i);

  // 100 KiB of dynamic shared memory: refused until the attribute is set.
  const int dyn = 100 * 1024, words = dyn / 4;
  long long *sum;
  CK(cudaMalloc(&sum, sizeof(long long)));
  big_dyn_smem<<<1, 256, dyn>>>(sum, words);
  cudaError_t e = cudaGetLastError();
  printf("100 KiB dynamic shared before cudaFuncSetAttribute: %s\n", err_name(e));
  EXPECT(e != cudaSuccess, "launch with 100 KiB accepted without the attribute");
  CK(cudaFuncSetAttribute((const void *)big_dyn_smem,
                          cudaFuncAttributeMaxDynamicSharedMemorySize, dyn));
  CK(cudaFuncGetAttributes(&fa, (const void *)big_dyn_smem));
  EXPECT(fa.maxDynamicSharedSizeBytes == dyn, "maxDynamicSharedSizeBytes %d",
         fa.maxDynamicSharedSizeBytes);
  big_dyn_smem<<<1, 256, dyn>>>(sum, words);
  CK_LAUNCH();
  long long hs = 0;
  CK(cudaMemcpy(&hs, sum, sizeof(hs), cudaMemcpyDeviceToHost));
  EXPECT(hs == (long long)words * (words - 1) / 2, "dynamic smem sum %lld", hs);
  printf("100 KiB dynamic shared after cudaFuncSetAttribute: sum %lld\n", hs);

  // Cache config and carveout are hints: they must be accepted.
  CK(cudaFuncSetCacheConfig((const void *)scale_add, cudaFuncCachePreferShared));
  CK(cudaFuncSetAttribute((const void *)scale_add,
                          cudaFuncAttributePreferredSharedMemoryCarveout, 50));
  CK(cudaLaunchKernel((const void *)scale_add, dim3(N / 128), dim3(128), args, 0, 0));
  CK(cudaDeviceSynchronize());
  check_scale_add(5, -1, "launch after cache config");

  int blocks = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale_add, 128, 0));
  printf("occupancy scale_add 128 threads: %d blocks/SM\n", blocks);
  EXPECT(blocks > 0, "occupancy %d", blocks);

  // Not a kernel: NVIDIA's runtime takes an unregistered pointer for a
  // kernel handle and reports the driver's verdict (measured on the H200:
  // cudaErrorInvalidResourceHandle), so the name is printed and compared.
  cudaError_t nk = cudaFuncGetAttributes(&fa, (const void *)&check_scale_add);
  EXPECT(nk != cudaSuccess, "a host function was taken for a kernel");
  CK_EQ(cudaGetLastError(), nk);
  printf("host function as kernel: %s\n", err_name(nk));

  CK(cudaFree(sum));
  CK(cudaFree(g_d));
  return sample_pass();
}
