// copies: host <-> device copies of every size real programs make, 4 B to
// 64 MiB in steps of 4x (issue 30's corpus), each size in every way:
//   pageable  cudaMemcpy H2D and D2H from malloc'd memory
//   pinned    cudaMemcpy H2D and D2H from cudaMallocHost memory
//   async     cudaMemcpyAsync H2D and D2H from pinned memory on a stream,
//             one synchronize per batch (the pipelined pattern)
//   pageable-async  cudaMemcpyAsync from pageable memory (staged by the
//             driver), synchronized
//   registered cudaHostRegister'd malloc memory, cudaMemcpyAsync
//   d2d       cudaMemcpy device to device
// Each size is copied until 16 MiB have moved (at least 2, at most 256
// times per way; CORPUS_COPY_MAX_MIB lowers the largest size). Every round
// trip is checked: the pattern written before the H2D copy must come back
// from the D2H copy, with a kernel between that adds the round number.
#define SAMPLE_NAME "copies"
#include "../../c-samples/common/check.h"
#include <stdint.h>
#include <string.h>

__global__ void add_k(uint8_t *p, size_t n, uint8_t v) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] += v;
}

static uint8_t pat(size_t i, size_t size, int rep) {
  return (uint8_t)((i * 131u) ^ (size * 7u) ^ (unsigned)rep);
}

static void fill(uint8_t *h, size_t size, int rep) {
  for (size_t i = 0; i < size; i++) h[i] = pat(i, size, rep);
}

// Only every 61st byte and the last one, for large buffers (the check must
// not dominate the run); all of them for small ones.
static void check(const uint8_t *h, size_t size, int rep, uint8_t add, const char *way) {
  size_t step = size > (1u << 20) ? 61 : 1;
  for (size_t i = 0; i < size; i += step)
    if (h[i] != (uint8_t)(pat(i, size, rep) + add))
      sample_fail("%s size %zu rep %d: byte %zu is %u, expected %u", way, size, rep, i, h[i],
                  (uint8_t)(pat(i, size, rep) + add));
  if (h[size - 1] != (uint8_t)(pat(size - 1, size, rep) + add))
    sample_fail("%s size %zu rep %d: last byte", way, size, rep);
}

static int reps_for(size_t size) {
  size_t r = (16u << 20) / size;
  if (r < 2) r = 2;
  if (r > 256) r = 256;
  return (int)r;
}

int main() {
  size_t max_mib = 64;
  if (const char *e = getenv("CORPUS_COPY_MAX_MIB")) max_mib = strtoul(e, NULL, 10);
  if (max_mib < 1) max_mib = 1;
  const size_t max = max_mib << 20;

  uint8_t *dev, *dev2, *pinned, *pageable, *reg;
  CK(cudaMalloc(&dev, max));
  CK(cudaMalloc(&dev2, max));
  CK(cudaMallocHost(&pinned, max));
  pageable = (uint8_t *)malloc(max);
  reg = (uint8_t *)malloc(max);
  EXPECT(pageable && reg, "malloc");
  memset(pageable, 0, max);
  memset(reg, 0, max);
  CK(cudaHostRegister(reg, max, cudaHostRegisterDefault));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  int sizes = 0;
  unsigned long long copies = 0;
  for (size_t size = 4; size <= max; size *= 4) {
    const int reps = reps_for(size);
    const unsigned grid = (unsigned)((size + 255) / 256 < 1024 ? (size + 255) / 256 : 1024);
    // pageable, synchronous
    for (int r = 0; r < reps; r++) {
      fill(pageable, size, r);
      CK(cudaMemcpy(dev, pageable, size, cudaMemcpyHostToDevice));
      add_k<<<grid, 256>>>(dev, size, (uint8_t)r);
      CK(cudaMemcpy(pageable, dev, size, cudaMemcpyDeviceToHost));
      check(pageable, size, r, (uint8_t)r, "pageable");
    }
    // pinned, synchronous
    for (int r = 0; r < reps; r++) {
      fill(pinned, size, r);
      CK(cudaMemcpy(dev, pinned, size, cudaMemcpyHostToDevice));
      add_k<<<grid, 256>>>(dev, size, (uint8_t)r);
      CK(cudaMemcpy(pinned, dev, size, cudaMemcpyDeviceToHost));
      check(pinned, size, r, (uint8_t)r, "pinned");
    }
    // pinned, asynchronous: a batch of round trips through distinct device
    // slices (when they fit), one synchronize.
    {
      int batch = reps < 16 ? reps : 16;
      size_t slices = max / size < (size_t)batch ? max / size : (size_t)batch;
      if (slices < 1) slices = 1;
      for (int r0 = 0; r0 < reps; r0 += (int)slices) {
        int nb = reps - r0 < (int)slices ? reps - r0 : (int)slices;
        for (int k = 0; k < nb; k++) fill(pinned + k * size, size, r0 + k);
        for (int k = 0; k < nb; k++) {
          CK(cudaMemcpyAsync(dev + k * size, pinned + k * size, size, cudaMemcpyHostToDevice, s));
          add_k<<<grid, 256, 0, s>>>(dev + k * size, size, (uint8_t)(r0 + k));
          CK(cudaMemcpyAsync(pinned + k * size, dev + k * size, size, cudaMemcpyDeviceToHost, s));
        }
        CK(cudaStreamSynchronize(s));
        for (int k = 0; k < nb; k++)
          check(pinned + k * size, size, r0 + k, (uint8_t)(r0 + k), "async pinned");
      }
    }
    // pageable, asynchronous (the driver stages it)
    for (int r = 0; r < reps; r++) {
      fill(pageable, size, r + 1);
      CK(cudaMemcpyAsync(dev, pageable, size, cudaMemcpyHostToDevice, s));
      add_k<<<grid, 256, 0, s>>>(dev, size, 1);
      CK(cudaMemcpyAsync(pageable, dev, size, cudaMemcpyDeviceToHost, s));
      CK(cudaStreamSynchronize(s));
      check(pageable, size, r + 1, 1, "async pageable");
    }
    // registered host memory, asynchronous
    for (int r = 0; r < reps; r++) {
      fill(reg, size, r + 2);
      CK(cudaMemcpyAsync(dev, reg, size, cudaMemcpyHostToDevice, s));
      add_k<<<grid, 256, 0, s>>>(dev, size, 2);
      CK(cudaMemcpyAsync(reg, dev, size, cudaMemcpyDeviceToHost, s));
      CK(cudaStreamSynchronize(s));
      check(reg, size, r + 2, 2, "registered");
    }
    // device to device
    fill(pinned, size, 7);
    CK(cudaMemcpy(dev, pinned, size, cudaMemcpyHostToDevice));
    for (int r = 0; r < reps; r++)
      CK(cudaMemcpy(r % 2 ? dev : dev2, r % 2 ? dev2 : dev, size, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy(pinned, reps % 2 ? dev2 : dev, size, cudaMemcpyDeviceToHost));
    check(pinned, size, 7, 0, "device to device");
    copies += (unsigned long long)reps * 10 + 2;
    sizes++;
    printf("size %zu: %d round trips each way (pageable, pinned, async pinned, async pageable, "
           "registered), %d device-to-device: ok\n",
           size, reps, reps);
  }
  printf("%d sizes, %llu copies\n", sizes, copies);
  CK(cudaStreamDestroy(s));
  CK(cudaHostUnregister(reg));
  free(reg);
  free(pageable);
  CK(cudaFreeHost(pinned));
  CK(cudaFree(dev2));
  CK(cudaFree(dev));
  return sample_pass();
}
