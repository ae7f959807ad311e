// lib_occupancy_coop: a cooperative launch (cudaLaunchCooperativeKernel)
// of a kernel that synchronizes the whole grid (cooperative_groups
// this_grid().sync()) sized with the occupancy calculator, and one grid
// too large to be co-resident; the other occupancy calculators
// (cudaOccupancyAvailableDynamicSMemPerBlock,
// cudaOccupancyMaxPotentialClusterSize, cudaOccupancyMaxActiveClusters);
// kernel parameter layout (cudaFuncGetParamInfo); the deprecated
// cudaFuncSetSharedMemConfig.
#define SAMPLE_NAME "lib_occupancy_coop"
#include "common/check.h"
#include <cooperative_groups.h>
#include <string.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace cg = cooperative_groups;

// Phase 1: every thread adds its share into its block's partial sum.
// Grid sync. Phase 2: block 0 adds the partial sums up.
__global__ void coop_sum(const int *data, int n, int *partial, long long *out) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int acc;
  if (threadIdx.x == 0) acc = 0;
  __syncthreads();
  int local = 0;
  for (int i = (int)grid.thread_rank(); i < n; i += (int)grid.size()) local += data[i];
  atomicAdd(&acc, local);
  __syncthreads();
  if (threadIdx.x == 0) partial[blockIdx.x] = acc;
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    long long s = 0;
    for (unsigned b = 0; b < gridDim.x; b++) s += partial[b];
    *out = s;
  }
}

__global__ void dyn_smem_kernel(int *out) {
  extern __shared__ int buf[];
  buf[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

struct Pair {
  double d;
  char c;
};
__global__ void params_kernel(char a, long long b, Pair p, int c[4], short s) {}

__global__ void cluster_kernel(int *out) {
  if (threadIdx.x == 0) out[blockIdx.x] = blockIdx.x;
}

int main() {
  CK(cudaSetDevice(0));
  int sms = 0, coop = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
  printf("cooperative launch supported: %s\n", coop ? "yes" : "no");
  EXPECT(coop, "this sample needs cooperative launch");

  // 1. Cooperative launch with a grid-wide barrier.
  const int threads = 256;
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, coop_sum, threads, 0));
  EXPECT(per_sm > 0, "occupancy 0");
  int blocks = per_sm * sms;
  fprintf(stderr, "coop_sum: %d blocks per SM, %d SMs\n", per_sm, sms);
  const int n = 1 << 20;
  int *data = NULL, *partial = NULL;
  long long *out = NULL;
  CK(cudaMalloc(&data, n * sizeof(int)));
  CK(cudaMalloc(&partial, (blocks + 1) * sizeof(int)));
  CK(cudaMalloc(&out, sizeof(long long)));
  int *h = (int *)malloc(n * sizeof(int));
  long long want = 0;
  for (int i = 0; i < n; i++) {
    h[i] = (i % 97) - 40;
    want += h[i];
  }
  CK(cudaMemcpy(data, h, n * sizeof(int), cudaMemcpyHostToDevice));
  free(h);
  int nn = n;
  void *args[] = {&data, &nn, &partial, &out};
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int grid : {sms, blocks}) {
    CK(cudaMemset(out, 0, sizeof(long long)));
    CK(cudaLaunchCooperativeKernel((const void *)coop_sum, dim3(grid), dim3(threads), args, 0, s));
    CK(cudaStreamSynchronize(s));
    long long got = 0;
    CK(cudaMemcpy(&got, out, sizeof(got), cudaMemcpyDeviceToHost));
    EXPECT(got == want, "grid %d: sum %lld, want %lld", grid, got, want);
    printf("cooperative sum over %s: %lld\n", grid == sms ? "one block per SM" : "a full device", got);
  }
  // Through a kernel handle and on the legacy stream.
  cudaKernel_t k = NULL;
  CK(cudaGetKernel(&k, coop_sum));
  CK(cudaMemset(out, 0, sizeof(long long)));
  CK(cudaLaunchCooperativeKernel((const void *)k, dim3(sms), dim3(threads), args, 0, 0));
  CK(cudaDeviceSynchronize());
  long long got = 0;
  CK(cudaMemcpy(&got, out, sizeof(got), cudaMemcpyDeviceToHost));
  EXPECT(got == want, "kernel handle: sum %lld", got);
  printf("cooperative launch through cudaKernel_t: ok\n");

  cudaError_t e = cudaLaunchCooperativeKernel((const void *)coop_sum, dim3(blocks + 1), dim3(threads), args, 0, s);
  printf("grid one block too large: %s\n", err_name(e));
  EXPECT(e != cudaSuccess, "too large a cooperative grid must be refused");
  (void)cudaGetLastError();
  CK(cudaStreamSynchronize(s));

  // 2. Dynamic shared memory available per block.
  size_t avail1 = 0, avail4 = 0;
  CK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail1, dyn_smem_kernel, 1, 256));
  CK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail4, dyn_smem_kernel, 4, 256));
  printf("available dynamic shared memory: 1 block/SM %zu, 4 blocks/SM %zu\n", avail1, avail4);
  EXPECT(avail1 >= avail4 && avail4 > 0, "availability must shrink with more blocks");
  int max_blocks = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&max_blocks, dyn_smem_kernel, 256, avail4));
  printf("blocks per SM with that much: %d\n", max_blocks);
  EXPECT(max_blocks >= 4, "4 blocks must fit with the reported size");

  // 3. Clusters.
  cudaLaunchConfig_t cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.gridDim = dim3(64);
  cfg.blockDim = dim3(128);
  int cluster_size = 0;
  CK(cudaOccupancyMaxPotentialClusterSize(&cluster_size, (const void *)cluster_kernel, &cfg));
  printf("max potential cluster size: %d\n", cluster_size);
  cudaLaunchAttribute attr;
  memset(&attr, 0, sizeof(attr));
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = 2;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  int clusters = 0;
  CK(cudaOccupancyMaxActiveClusters(&clusters, (const void *)cluster_kernel, &cfg));
  printf("max active clusters of 2: %d\n", clusters);
  EXPECT(clusters > 0, "clusters of 2 must fit");

  // 4. Parameter layout.
  for (size_t i = 0; i < 6; i++) {
    size_t off = 99, size = 99;
    e = cudaFuncGetParamInfo((const void *)params_kernel, i, &off, &size);
    if (e == cudaSuccess)
      printf("param %zu: offset %zu size %zu\n", i, off, size);
    else
      printf("param %zu: %s\n", i, err_name(e));
  }
  (void)cudaGetLastError();
  size_t off = 0, size = 0;
  CK(cudaFuncGetParamInfo((const void *)k, 3, &off, &size));
  printf("coop_sum param 3 through the kernel handle: offset %zu size %zu\n", off, size);

  // 5. Shared memory bank configuration (no effect on current devices).
  e = cudaFuncSetSharedMemConfig((const void *)coop_sum, cudaSharedMemBankSizeFourByte);
  printf("cudaFuncSetSharedMemConfig(FourByte): %s\n", err_name(e));
  (void)cudaGetLastError();
  e = cudaFuncSetSharedMemConfig((const void *)coop_sum, (cudaSharedMemConfig)9);
  printf("cudaFuncSetSharedMemConfig(9): %s\n", err_name(e));
  (void)cudaGetLastError();

  // 6. NULL arguments, last: NVIDIA's runtime crashed (rc 139) in this
  // sample, most likely here (the cluster occupancy query with a NULL
  // launch configuration it may read through).
  e = cudaFuncGetParamInfo((const void *)k, 3, &off, NULL);
  printf("without a size pointer: %s\n", err_name(e));
  (void)cudaGetLastError();
  e = cudaLaunchCooperativeKernel(NULL, dim3(1), dim3(1), args, 0, s);
  printf("NULL function: %s\n", err_name(e));
  (void)cudaGetLastError();
  CK(cudaStreamSynchronize(s));
  CK_EQ(cudaOccupancyMaxActiveClusters(&clusters, (const void *)cluster_kernel, NULL), cudaErrorInvalidValue);
  printf("cluster occupancy without a launch configuration: cudaErrorInvalidValue\n");
  (void)cudaGetLastError();

  CK(cudaStreamDestroy(s));
  CK(cudaFree(data));
  CK(cudaFree(partial));
  CK(cudaFree(out));
  return sample_pass();
}
