// mem_managed: managed memory hints. cudaMemAdvise (read mostly, preferred
// location, accessed by) read back with cudaMemRangeGetAttribute /
// cudaMemRangeGetAttributes; cudaMemPrefetchAsync to the device (a kernel
// then works on the data) and back to the host (location type host, the
// CUDA 13 form), with the last prefetch location read back; the batched
// prefetch and discard calls. Edge cases print the runtime's answer.
#define SAMPLE_NAME "mem_managed"
#include "common/check.h"
#include <string.h>

__global__ void twice(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2;
}

static int range_int(cudaMemRangeAttribute a, const void *p, size_t bytes) {
  int v = -99;
  CK(cudaMemRangeGetAttribute(&v, sizeof(v), a, p, bytes));
  return v;
}

int main() {
  int cma = 0;
  CK(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, 0));
  printf("concurrent managed access: %d\n", cma);

  const int n = 1 << 18;  // 1 MiB of ints
  const size_t bytes = n * sizeof(int);
  int *m;
  CK(cudaMallocManaged(&m, bytes));
  for (int i = 0; i < n; i++) m[i] = i;
  cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
  cudaMemLocation host = {cudaMemLocationTypeHost, 0};

  // Read mostly.
  CK(cudaMemAdvise(m, bytes, cudaMemAdviseSetReadMostly, dev0));
  printf("read mostly after set: %d\n", range_int(cudaMemRangeAttributeReadMostly, m, bytes));
  CK(cudaMemAdvise(m, bytes, cudaMemAdviseUnsetReadMostly, dev0));
  printf("read mostly after unset: %d\n", range_int(cudaMemRangeAttributeReadMostly, m, bytes));

  // Preferred location: device 0, then host, then none.
  CK(cudaMemAdvise(m, bytes, cudaMemAdviseSetPreferredLocation, dev0));
  printf("preferred location: %d (type %d, id %d)\n",
         range_int(cudaMemRangeAttributePreferredLocation, m, bytes),
         range_int(cudaMemRangeAttributePreferredLocationType, m, bytes),
         range_int(cudaMemRangeAttributePreferredLocationId, m, bytes));
  EXPECT(range_int(cudaMemRangeAttributePreferredLocation, m, bytes) == 0, "preferred device");
  CK(cudaMemAdvise(m, bytes, cudaMemAdviseSetPreferredLocation, host));
  printf("preferred location host: %d (type %d)\n",
         range_int(cudaMemRangeAttributePreferredLocation, m, bytes),
         range_int(cudaMemRangeAttributePreferredLocationType, m, bytes));
  EXPECT(range_int(cudaMemRangeAttributePreferredLocation, m, bytes) == cudaCpuDeviceId, "preferred host");
  CK(cudaMemAdvise(m, bytes, cudaMemAdviseUnsetPreferredLocation, dev0));
  printf("preferred location unset: %d\n", range_int(cudaMemRangeAttributePreferredLocation, m, bytes));
  EXPECT(range_int(cudaMemRangeAttributePreferredLocation, m, bytes) == cudaInvalidDeviceId, "unset");

  // Accessed by device 0: the attribute lists the devices, padded with
  // cudaInvalidDeviceId.
  CK(cudaMemAdvise(m, bytes, cudaMemAdviseSetAccessedBy, dev0));
  int by[4] = {7, 7, 7, 7};
  CK(cudaMemRangeGetAttribute(by, sizeof(by), cudaMemRangeAttributeAccessedBy, m, bytes));
  printf("accessed by: %d %d %d %d\n", by[0], by[1], by[2], by[3]);
  EXPECT(by[0] == 0, "accessed by device 0");
  CK(cudaMemAdvise(m, bytes, cudaMemAdviseUnsetAccessedBy, dev0));

  // Prefetch to the device, work there, prefetch back to the host.
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  CK(cudaMemPrefetchAsync(m, bytes, dev0, 0, s));
  CK(cudaStreamSynchronize(s));
  printf("after prefetch to device 0: last prefetch location %d (type %d, id %d)\n",
         range_int(cudaMemRangeAttributeLastPrefetchLocation, m, bytes),
         range_int(cudaMemRangeAttributeLastPrefetchLocationType, m, bytes),
         range_int(cudaMemRangeAttributeLastPrefetchLocationId, m, bytes));
  EXPECT(range_int(cudaMemRangeAttributeLastPrefetchLocation, m, bytes) == 0, "prefetched to device");
  twice<<<n / 256, 256, 0, s>>>(m, n);
  CK(cudaGetLastError());
  CK(cudaMemPrefetchAsync(m, bytes, host, 0, s));
  CK(cudaStreamSynchronize(s));
  printf("after prefetch to the host: last prefetch location %d (type %d)\n",
         range_int(cudaMemRangeAttributeLastPrefetchLocation, m, bytes),
         range_int(cudaMemRangeAttributeLastPrefetchLocationType, m, bytes));
  EXPECT(range_int(cudaMemRangeAttributeLastPrefetchLocation, m, bytes) == cudaCpuDeviceId,
         "prefetched to host");
  for (int i = 0; i < n; i++) EXPECT(m[i] == 2 * i, "m[%d] = %d", i, m[i]);
  printf("kernel between the prefetches: %d values doubled\n", n);

  // Several attributes at once.
  int read_mostly = -1, last = -1;
  void *data[2] = {&read_mostly, &last};
  size_t sizes[2] = {sizeof(int), sizeof(int)};
  cudaMemRangeAttribute attrs[2] = {cudaMemRangeAttributeReadMostly,
                                    cudaMemRangeAttributeLastPrefetchLocation};
  CK(cudaMemRangeGetAttributes(data, sizes, attrs, 2, m, bytes));
  printf("cudaMemRangeGetAttributes: read mostly %d, last prefetch %d\n", read_mostly, last);
  EXPECT(read_mostly == 0 && last == cudaCpuDeviceId, "attributes");

  // Batched prefetch: two halves to device 0 (one location for both).
  void *ptrs[2] = {m, m + n / 2};
  size_t lens[2] = {bytes / 2, bytes / 2};
  cudaMemLocation locs[1] = {dev0};
  size_t loc_idx[1] = {0};
  cudaError_t e = cudaMemPrefetchBatchAsync(ptrs, lens, 2, locs, loc_idx, 1, 0, s);
  printf("cudaMemPrefetchBatchAsync: %s\n", err_name(e));
  (void)cudaGetLastError();
  CK(cudaStreamSynchronize(s));
  if (e == cudaSuccess)
    printf("  last prefetch location: %d\n", range_int(cudaMemRangeAttributeLastPrefetchLocation, m, bytes));
  twice<<<n / 256, 256, 0, s>>>(m, n);
  CK(cudaGetLastError());
  CK(cudaStreamSynchronize(s));
  EXPECT(m[n - 1] == 4 * (n - 1), "after batch prefetch");
  e = cudaMemDiscardBatchAsync(ptrs, lens, 1, 0, s);
  printf("cudaMemDiscardBatchAsync: %s\n", err_name(e));
  (void)cudaGetLastError();
  CK(cudaStreamSynchronize(s));
  e = cudaMemDiscardAndPrefetchBatchAsync(ptrs + 1, lens + 1, 1, locs, loc_idx, 1, 0, s);
  printf("cudaMemDiscardAndPrefetchBatchAsync: %s\n", err_name(e));
  (void)cudaGetLastError();
  CK(cudaStreamSynchronize(s));

  // Edge cases.
  cudaMemLocation cpu_as_device = {cudaMemLocationTypeDevice, cudaCpuDeviceId};
  printf("prefetch to {device, cudaCpuDeviceId}: %s\n",
         err_name(cudaMemPrefetchAsync(m, bytes, cpu_as_device, 0, s)));
  (void)cudaGetLastError();
  cudaMemLocation dev9 = {cudaMemLocationTypeDevice, 9};
  printf("prefetch to device 9: %s\n", err_name(cudaMemPrefetchAsync(m, bytes, dev9, 0, s)));
  (void)cudaGetLastError();
  printf("prefetch with flags 1: %s\n", err_name(cudaMemPrefetchAsync(m, bytes, dev0, 1, s)));
  (void)cudaGetLastError();
  int *plain;
  CK(cudaMalloc(&plain, 4096));
  printf("prefetch of cudaMalloc memory: %s\n", err_name(cudaMemPrefetchAsync(plain, 4096, dev0, 0, s)));
  (void)cudaGetLastError();
  printf("advise on cudaMalloc memory: %s\n",
         err_name(cudaMemAdvise(plain, 4096, cudaMemAdviseSetReadMostly, dev0)));
  (void)cudaGetLastError();
  int v = 0;
  printf("range attribute with a short buffer: %s\n",
         err_name(cudaMemRangeGetAttribute(&v, 1, cudaMemRangeAttributeReadMostly, m, bytes)));
  (void)cudaGetLastError();
  CK(cudaStreamSynchronize(s));
  (void)cudaGetLastError();
  CK(cudaGetLastError());

  CK(cudaFree(plain));
  CK(cudaStreamDestroy(s));
  CK(cudaFree(m));
  return sample_pass();
}
