// managed_migrate: managed memory the way real programs use it (issue 30's
// corpus). A 256 MiB cudaMallocManaged buffer (CORPUS_MANAGED_MIB) written
// by the host, then
//   1. on-demand migration: kernels touch pages the host wrote (GPU page
//      faults), the host reads them back (CPU faults);
//   2. explicit migration: cudaMemPrefetchAsync to device 0 and back to the
//      host, with the CUDA 13 cudaMemLocation forms, kernels in between;
//   3. advice: a read-mostly lookup table read by every thread
//      (cudaMemAdviseSetReadMostly), a buffer with a preferred location on
//      the device and accessed by the host, then preferred on the host
//      (cudaMemLocationTypeHost), read back with cudaMemRangeGetAttribute;
//   4. two streams working on two halves, each half prefetched on its own
//      stream.
// Every result is checked on the host; stdout is deterministic.
#define SAMPLE_NAME "managed_migrate"
#include "../../c-samples/common/check.h"
#include <stdint.h>
#include <string.h>

__global__ void add_k(uint32_t *p, size_t n, uint32_t v) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] += v;
}

// out[i] = table[i % tn] + in[i]: every thread reads the read-mostly table.
__global__ void lookup_k(const uint32_t *table, size_t tn, const uint32_t *in, uint32_t *out,
                         size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    out[i] = table[i % tn] + in[i];
}

static uint32_t init_val(size_t i) { return (uint32_t)(i * 2654435761u); }

static int range_int(cudaMemRangeAttribute a, const void *p, size_t bytes) {
  int v = -99;
  CK(cudaMemRangeGetAttribute(&v, sizeof(v), a, p, bytes));
  return v;
}

// Every element of p (n of them) equals init_val(i) + add.
static void check_all(const uint32_t *p, size_t n, uint32_t add, const char *what) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != init_val(i) + add)
      sample_fail("%s: element %zu is %u, expected %u", what, i, p[i], init_val(i) + add);
}

int main() {
  size_t mib = 256;
  if (const char *e = getenv("CORPUS_MANAGED_MIB")) mib = strtoul(e, NULL, 10);
  if (mib < 1) mib = 1;
  const size_t bytes = mib << 20, n = bytes / sizeof(uint32_t);
  int cma = 0, pageable = 0;
  CK(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, 0));
  CK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0));
  fprintf(stderr, "concurrent managed access %d, pageable memory access %d\n", cma, pageable);
  printf("managed buffer: %zu MiB\n", mib);

  uint32_t *m;
  CK(cudaMallocManaged(&m, bytes));
  for (size_t i = 0; i < n; i++) m[i] = init_val(i);  // first touch: the host

  // 1. On demand: the kernel faults the pages over, the host faults them back.
  const int grid = 1024, block = 256;
  add_k<<<grid, block>>>(m, n, 1);
  CK_LAUNCH();
  check_all(m, n, 1, "on-demand migration");
  printf("on demand: kernel after host writes, host reads: ok\n");
  // Sparse host touches between kernels (a page here and there comes back).
  for (int round = 0; round < 4; round++) {
    add_k<<<grid, block>>>(m, n, 1);
    CK_LAUNCH();
    for (size_t i = round; i < n; i += (1u << 20) / sizeof(uint32_t)) m[i] -= 1;
    for (size_t i = round; i < n; i += (1u << 20) / sizeof(uint32_t)) m[i] += 1;
  }
  check_all(m, n, 5, "sparse host touches");
  printf("on demand: 4 kernels with sparse host touches between: ok\n");

  // 2. Prefetch to the device, work there, prefetch back.
  cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
  cudaMemLocation host = {cudaMemLocationTypeHost, 0};
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int round = 0; round < 3; round++) {
    CK(cudaMemPrefetchAsync(m, bytes, dev0, 0, s));
    add_k<<<grid, block, 0, s>>>(m, n, 2);
    CK(cudaGetLastError());
    CK(cudaMemPrefetchAsync(m, bytes, host, 0, s));
    CK(cudaStreamSynchronize(s));
    EXPECT(range_int(cudaMemRangeAttributeLastPrefetchLocation, m, bytes) == cudaCpuDeviceId,
           "last prefetch location after round %d", round);
  }
  check_all(m, n, 11, "prefetch rounds");
  printf("prefetch: 3 rounds device -> kernel -> host: ok\n");

  // 3. Advice. A read-mostly table of 64 Ki entries read by every thread.
  const size_t tn = 1 << 16;
  uint32_t *table, *out;
  CK(cudaMallocManaged(&table, tn * sizeof(uint32_t)));
  CK(cudaMallocManaged(&out, bytes));
  for (size_t i = 0; i < tn; i++) table[i] = (uint32_t)(i * 7u);
  CK(cudaMemAdvise(table, tn * sizeof(uint32_t), cudaMemAdviseSetReadMostly, dev0));
  EXPECT(range_int(cudaMemRangeAttributeReadMostly, table, tn * sizeof(uint32_t)) == 1,
         "read mostly");
  CK(cudaMemAdvise(out, bytes, cudaMemAdviseSetPreferredLocation, dev0));
  CK(cudaMemAdvise(out, bytes, cudaMemAdviseSetAccessedBy, host));
  EXPECT(range_int(cudaMemRangeAttributePreferredLocation, out, bytes) == 0, "preferred device");
  EXPECT(range_int(cudaMemRangeAttributePreferredLocationType, out, bytes) ==
             cudaMemLocationTypeDevice,
         "preferred location type");
  CK(cudaMemPrefetchAsync(m, bytes, dev0, 0, s));
  CK(cudaMemPrefetchAsync(table, tn * sizeof(uint32_t), dev0, 0, s));
  for (int round = 0; round < 3; round++) {
    lookup_k<<<grid, block, 0, s>>>(table, tn, m, out, n);
    CK(cudaGetLastError());
  }
  CK(cudaStreamSynchronize(s));
  for (size_t i = 0; i < n; i++)
    if (out[i] != (uint32_t)((i % tn) * 7u) + init_val(i) + 11)
      sample_fail("lookup: out[%zu] = %u", i, out[i]);
  printf("advice: read-mostly table, output preferred on device 0 and accessed by the host: ok\n");
  CK(cudaMemAdvise(out, bytes, cudaMemAdviseUnsetAccessedBy, host));
  CK(cudaMemAdvise(out, bytes, cudaMemAdviseSetPreferredLocation, host));
  EXPECT(range_int(cudaMemRangeAttributePreferredLocation, out, bytes) == cudaCpuDeviceId,
         "preferred host");
  add_k<<<grid, block, 0, s>>>(out, n, 1);
  CK(cudaGetLastError());
  CK(cudaStreamSynchronize(s));
  for (size_t i = 0; i < n; i += 4099)
    if (out[i] != (uint32_t)((i % tn) * 7u) + init_val(i) + 12)
      sample_fail("preferred host: out[%zu] = %u", i, out[i]);
  printf("advice: output preferred on the host, kernel writes it: ok\n");
  CK(cudaMemAdvise(table, tn * sizeof(uint32_t), cudaMemAdviseUnsetReadMostly, dev0));
  CK(cudaMemAdvise(out, bytes, cudaMemAdviseUnsetPreferredLocation, dev0));

  // 4. Two streams, one half each, each prefetching its half.
  cudaStream_t s2[2];
  for (int k = 0; k < 2; k++) CK(cudaStreamCreateWithFlags(&s2[k], cudaStreamNonBlocking));
  for (int round = 0; round < 2; round++)
    for (int k = 0; k < 2; k++) {
      uint32_t *half = m + k * (n / 2);
      CK(cudaMemPrefetchAsync(half, bytes / 2, dev0, 0, s2[k]));
      add_k<<<grid / 2, block, 0, s2[k]>>>(half, n / 2, 3);
      CK(cudaGetLastError());
      CK(cudaMemPrefetchAsync(half, bytes / 2, host, 0, s2[k]));
    }
  for (int k = 0; k < 2; k++) CK(cudaStreamSynchronize(s2[k]));
  check_all(m, n - n % 2, 17, "two streams");
  printf("two streams, a half each, prefetch -> kernel -> prefetch back, twice: ok\n");

  for (int k = 0; k < 2; k++) CK(cudaStreamDestroy(s2[k]));
  CK(cudaStreamDestroy(s));
  CK(cudaFree(out));
  CK(cudaFree(table));
  CK(cudaFree(m));
  return sample_pass();
}
