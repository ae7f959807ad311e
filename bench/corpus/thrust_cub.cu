// thrust_cub: a Thrust and CUB pipeline (issue 30's corpus), the library
// code most CUDA programs run: Thrust's device_vector (cudaMalloc/cudaFree
// per temporary), its algorithms on the default stream and on a stream of
// their own (thrust::cuda::par.on), and CUB's two-phase device algorithms
// (a temp-storage size query, then the run). On 1 Mi keys (CORPUS_THRUST_N):
//   Thrust: tabulate, transform, sort, sort_by_key, reduce, inclusive_scan,
//           exclusive_scan, count_if, unique, copy_if
//   CUB:    DeviceRadixSort::SortKeys and SortPairs, DeviceReduce::Sum and
//           Max, DeviceScan::ExclusiveSum, DeviceSelect::If,
//           DeviceHistogram::HistogramEven
// The pipeline repeats 3 times; every result is checked against the same
// computation on the host.
#define SAMPLE_NAME "thrust_cub"
#include "../../c-samples/common/check.h"
#include <cub/cub.cuh>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/tabulate.h>
#include <thrust/transform.h>
#include <thrust/unique.h>

#include <algorithm>
#include <numeric>
#include <stdint.h>
#include <vector>

struct hash_op {
  uint32_t seed;
  __host__ __device__ uint32_t operator()(uint32_t i) const {
    uint32_t x = i * 2654435761u + seed;
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    return x;
  }
};
struct low_bits {  // keys with many duplicates, for unique/histogram
  __host__ __device__ uint32_t operator()(uint32_t x) const { return x & 0xffffu; }
};
struct is_odd {
  __host__ __device__ bool operator()(uint32_t x) const { return x & 1u; }
};

template <class T>
static std::vector<T> to_host(const thrust::device_vector<T> &d) {
  thrust::host_vector<T> h = d;
  return std::vector<T>(h.begin(), h.end());
}

static void run_pipeline(size_t n, uint32_t seed, cudaStream_t s) {
  // Host reference input.
  std::vector<uint32_t> h(n);
  hash_op hop{seed};
  for (size_t i = 0; i < n; i++) h[i] = hop((uint32_t)i);

  // ---- Thrust ----
  thrust::device_vector<uint32_t> keys(n);
  thrust::tabulate(thrust::cuda::par.on(s), keys.begin(), keys.end(), hop);
  CK(cudaStreamSynchronize(s));
  EXPECT(to_host(keys) == h, "thrust::tabulate");

  thrust::device_vector<uint32_t> low(n);
  thrust::transform(keys.begin(), keys.end(), low.begin(), low_bits());
  std::vector<uint32_t> hlow(n);
  std::transform(h.begin(), h.end(), hlow.begin(), low_bits());
  EXPECT(to_host(low) == hlow, "thrust::transform");

  uint64_t sum = thrust::reduce(low.begin(), low.end(), (uint64_t)0);
  uint64_t hsum = std::accumulate(hlow.begin(), hlow.end(), (uint64_t)0);
  EXPECT(sum == hsum, "thrust::reduce %llu vs %llu", (unsigned long long)sum,
         (unsigned long long)hsum);

  thrust::device_vector<uint32_t> scan(n);
  thrust::inclusive_scan(low.begin(), low.end(), scan.begin());
  std::vector<uint32_t> hscan(n);
  std::partial_sum(hlow.begin(), hlow.end(), hscan.begin());  // uint32 wraps alike
  EXPECT(to_host(scan) == hscan, "thrust::inclusive_scan");
  thrust::exclusive_scan(thrust::cuda::par.on(s), low.begin(), low.end(), scan.begin());
  CK(cudaStreamSynchronize(s));
  std::vector<uint32_t> hex(n);
  uint32_t acc = 0;
  for (size_t i = 0; i < n; i++) hex[i] = acc, acc += hlow[i];
  EXPECT(to_host(scan) == hex, "thrust::exclusive_scan");

  size_t odd = thrust::count_if(keys.begin(), keys.end(), is_odd());
  size_t hodd = std::count_if(h.begin(), h.end(), is_odd());
  EXPECT(odd == hodd, "thrust::count_if");

  thrust::device_vector<uint32_t> odds(odd);
  thrust::copy_if(keys.begin(), keys.end(), odds.begin(), is_odd());
  std::vector<uint32_t> hodds;
  std::copy_if(h.begin(), h.end(), std::back_inserter(hodds), is_odd());
  EXPECT(to_host(odds) == hodds, "thrust::copy_if");

  thrust::device_vector<uint32_t> vals(n);
  thrust::sequence(vals.begin(), vals.end());
  thrust::device_vector<uint32_t> sorted = keys;
  thrust::sort_by_key(sorted.begin(), sorted.end(), vals.begin());
  std::vector<uint32_t> hsorted = h;
  std::sort(hsorted.begin(), hsorted.end());
  EXPECT(to_host(sorted) == hsorted, "thrust::sort_by_key keys");
  {
    std::vector<uint32_t> v = to_host(vals);
    for (size_t i = 0; i < n; i += 997)
      EXPECT(h[v[i]] == hsorted[i], "thrust::sort_by_key values at %zu", i);
  }

  thrust::sort(thrust::cuda::par.on(s), low.begin(), low.end());
  CK(cudaStreamSynchronize(s));
  std::sort(hlow.begin(), hlow.end());
  EXPECT(to_host(low) == hlow, "thrust::sort");
  size_t uniq = thrust::unique(low.begin(), low.end()) - low.begin();
  size_t huniq = std::unique(hlow.begin(), hlow.end()) - hlow.begin();
  EXPECT(uniq == huniq, "thrust::unique %zu vs %zu", uniq, huniq);

  // ---- CUB ----
  uint32_t *d_in = thrust::raw_pointer_cast(keys.data());
  thrust::device_vector<uint32_t> out(n), vout(n);
  uint32_t *d_out = thrust::raw_pointer_cast(out.data());
  void *temp = nullptr;
  size_t temp_bytes = 0, need;
  auto reserve = [&](size_t bytes) {
    if (bytes > temp_bytes) {
      if (temp) CK(cudaFree(temp));
      CK(cudaMalloc(&temp, bytes));
      temp_bytes = bytes;
    }
  };

  need = 0;
  CK(cub::DeviceRadixSort::SortKeys(nullptr, need, d_in, d_out, (int)n, 0, 32, s));
  reserve(need);
  CK(cub::DeviceRadixSort::SortKeys(temp, need, d_in, d_out, (int)n, 0, 32, s));
  CK(cudaStreamSynchronize(s));
  EXPECT(to_host(out) == hsorted, "cub::DeviceRadixSort::SortKeys");

  thrust::sequence(vals.begin(), vals.end());
  uint32_t *d_vin = thrust::raw_pointer_cast(vals.data());
  uint32_t *d_vout = thrust::raw_pointer_cast(vout.data());
  need = 0;
  CK(cub::DeviceRadixSort::SortPairs(nullptr, need, d_in, d_out, d_vin, d_vout, (int)n, 0, 32, s));
  reserve(need);
  CK(cub::DeviceRadixSort::SortPairs(temp, need, d_in, d_out, d_vin, d_vout, (int)n, 0, 32, s));
  CK(cudaStreamSynchronize(s));
  {
    std::vector<uint32_t> v = to_host(vout);
    for (size_t i = 0; i < n; i += 1009)
      EXPECT(h[v[i]] == hsorted[i], "cub::DeviceRadixSort::SortPairs at %zu", i);
  }

  thrust::device_vector<uint64_t> wide(n);
  thrust::transform(keys.begin(), keys.end(), wide.begin(), low_bits());
  thrust::device_vector<uint64_t> dsum(1);
  need = 0;
  CK(cub::DeviceReduce::Sum(nullptr, need, thrust::raw_pointer_cast(wide.data()),
                            thrust::raw_pointer_cast(dsum.data()), (int)n, s));
  reserve(need);
  CK(cub::DeviceReduce::Sum(temp, need, thrust::raw_pointer_cast(wide.data()),
                            thrust::raw_pointer_cast(dsum.data()), (int)n, s));
  CK(cudaStreamSynchronize(s));
  EXPECT((uint64_t)dsum[0] == hsum, "cub::DeviceReduce::Sum");

  thrust::device_vector<uint32_t> dmax(1);
  need = 0;
  CK(cub::DeviceReduce::Max(nullptr, need, d_in, thrust::raw_pointer_cast(dmax.data()), (int)n, s));
  reserve(need);
  CK(cub::DeviceReduce::Max(temp, need, d_in, thrust::raw_pointer_cast(dmax.data()), (int)n, s));
  CK(cudaStreamSynchronize(s));
  EXPECT((uint32_t)dmax[0] == hsorted.back(), "cub::DeviceReduce::Max");

  thrust::transform(keys.begin(), keys.end(), vals.begin(), low_bits());
  need = 0;
  CK(cub::DeviceScan::ExclusiveSum(nullptr, need, d_vin, d_vout, (int)n, s));
  reserve(need);
  CK(cub::DeviceScan::ExclusiveSum(temp, need, d_vin, d_vout, (int)n, s));
  CK(cudaStreamSynchronize(s));
  EXPECT(to_host(vout) == hex, "cub::DeviceScan::ExclusiveSum");

  thrust::device_vector<int> nsel(1);
  need = 0;
  CK(cub::DeviceSelect::If(nullptr, need, d_in, d_out, thrust::raw_pointer_cast(nsel.data()),
                           (int)n, is_odd(), s));
  reserve(need);
  CK(cub::DeviceSelect::If(temp, need, d_in, d_out, thrust::raw_pointer_cast(nsel.data()), (int)n,
                           is_odd(), s));
  CK(cudaStreamSynchronize(s));
  EXPECT((size_t)(int)nsel[0] == hodd, "cub::DeviceSelect::If count");
  {
    std::vector<uint32_t> o = to_host(out);
    EXPECT(std::equal(hodds.begin(), hodds.end(), o.begin()), "cub::DeviceSelect::If values");
  }

  const int bins = 256;
  thrust::device_vector<int> hist(bins);
  need = 0;
  CK(cub::DeviceHistogram::HistogramEven(nullptr, need, d_vin, thrust::raw_pointer_cast(hist.data()),
                                         bins + 1, 0u, 65536u, (int)n, s));
  reserve(need);
  CK(cub::DeviceHistogram::HistogramEven(temp, need, d_vin, thrust::raw_pointer_cast(hist.data()),
                                         bins + 1, 0u, 65536u, (int)n, s));
  CK(cudaStreamSynchronize(s));
  {
    std::vector<int> hh(bins, 0);
    for (size_t i = 0; i < n; i++) hh[(h[i] & 0xffffu) / 256]++;
    EXPECT(to_host(hist) == hh, "cub::DeviceHistogram::HistogramEven");
  }
  if (temp) CK(cudaFree(temp));
  CK(cudaGetLastError());
  printf("seed %u: thrust tabulate/transform/reduce/scans/count_if/copy_if/sort_by_key/sort/"
         "unique, cub radix sorts/reduces/scan/select/histogram: ok (sum %llu, %zu odd, %zu "
         "distinct low halves)\n",
         seed, (unsigned long long)hsum, hodd, huniq);
}

int main() {
  size_t n = 1 << 20;
  if (const char *e = getenv("CORPUS_THRUST_N")) n = strtoul(e, NULL, 10);
  if (n < 1024) n = 1024;
  printf("keys: %zu\n", n);
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  try {
    for (uint32_t seed = 1; seed <= 3; seed++) run_pipeline(n, seed, s);
  } catch (const std::exception &e) {  // thrust reports CUDA errors by throwing
    sample_fail("exception: %s", e.what());
  }
  CK(cudaStreamDestroy(s));
  return sample_pass();
}
