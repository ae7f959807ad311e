// CUDART_PROFILE: a program that times itself with events, so that run.py
// can compare the runtime's profile with the program's own measurement.
//
//   1. `busy(float*, int)` (spins a fixed number of clock cycles, ~1 ms)
//      launched 20 times on a created stream, grid 4 x block 64, each launch
//      between its own cudaEventRecord pair on that stream; the sum of the
//      20 cudaEventElapsedTime goes to stdout:
//        SELF busy launches=20 total_ms=<x.xxx>
//      A `gate` kernel (~50 ms) runs first on the stream so that all 20
//      launches are queued before the first one starts (no host gaps inside
//      the brackets), and cudaFuncGetAttributes loads `busy` beforehand.
//   2. cudaMemcpy of 64 MiB HtoD and DtoH from/to a pinned and a pageable
//      buffer, each between events on the legacy stream:
//        SELF copy <HtoD|DtoH> <pinned|pageable> bytes=<n> ms=<x.xxx>
// Everything is freed before exit (allocations' "current" is 0 at exit).
#include "insight.h"

#define BUSY_CYCLES 2000000  // ~1 ms at ~2 GHz
#define LAUNCHES 20

__global__ void busy(float *out, int cycles) {
  insight_spin(cycles);
  out[blockIdx.x * blockDim.x + threadIdx.x] = (float)cycles;
}

__global__ void gate(long long cycles) { insight_spin(cycles); }

static void time_copy(void *dst, const void *src, size_t n, cudaMemcpyKind kind,
                      const char *dir, const char *mem, cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  RC(cudaEventRecord(a, 0));
  RC(cudaMemcpy(dst, src, n, kind));
  RC(cudaEventRecord(b, 0));
  RC(cudaEventSynchronize(b));
  RC(cudaEventElapsedTime(&ms, a, b));
  printf("SELF copy %s %s bytes=%zu ms=%.3f\n", dir, mem, n, ms);
}

int main() {
  float *out = NULL;
  cudaStream_t s;
  cudaEvent_t start[LAUNCHES], stop[LAUNCHES];
  cudaFuncAttributes attr;
  RC(cudaMalloc((void **)&out, 4 * 64 * sizeof(float)));  // 1024 bytes
  RC(cudaStreamCreate(&s));
  for (int i = 0; i < LAUNCHES; i++) {
    RC(cudaEventCreate(&start[i]));
    RC(cudaEventCreate(&stop[i]));
  }
  RC(cudaFuncGetAttributes(&attr, busy));
  gate<<<1, 1, 0, s>>>(50 * insight_cycles_per_ms());
  RC(cudaGetLastError());
  for (int i = 0; i < LAUNCHES; i++) {
    RC(cudaEventRecord(start[i], s));
    busy<<<4, 64, 0, s>>>(out, BUSY_CYCLES);
    RC(cudaGetLastError());
    RC(cudaEventRecord(stop[i], s));
  }
  RC(cudaStreamSynchronize(s));
  double total = 0;
  for (int i = 0; i < LAUNCHES; i++) {
    float ms = 0;
    RC(cudaEventElapsedTime(&ms, start[i], stop[i]));
    total += ms;
  }
  printf("SELF busy launches=%d total_ms=%.3f\n", LAUNCHES, total);

  const size_t n = 64u << 20;
  void *dev = NULL, *pinned = NULL;
  void *pageable = malloc(n), *back = malloc(n);
  memset(pageable, 0x5a, n);
  memset(back, 0, n);  // touched: no page faults inside the timed copy
  if (RC(cudaMalloc(&dev, n)) != cudaSuccess || RC(cudaMallocHost(&pinned, n)) != cudaSuccess) {
    fprintf(stderr, "# no 64 MiB buffers: stopping\n");
    return 1;
  }
  memset(pinned, 0xa5, n);
  time_copy(dev, pinned, n, cudaMemcpyHostToDevice, "HtoD", "pinned", start[0], stop[0]);
  time_copy(pinned, dev, n, cudaMemcpyDeviceToHost, "DtoH", "pinned", start[0], stop[0]);
  time_copy(dev, pageable, n, cudaMemcpyHostToDevice, "HtoD", "pageable", start[0], stop[0]);
  time_copy(back, dev, n, cudaMemcpyDeviceToHost, "DtoH", "pageable", start[0], stop[0]);
  fprintf(stderr, "# round trip %s\n", memcmp(pageable, back, n) == 0 ? "equal" : "DIFFERENT");

  for (int i = 0; i < LAUNCHES; i++) {
    RC(cudaEventDestroy(start[i]));
    RC(cudaEventDestroy(stop[i]));
  }
  RC(cudaStreamDestroy(s));
  RC(cudaFreeHost(pinned));
  RC(cudaFree(dev));
  RC(cudaFree(out));
  free(pageable);
  free(back);
  printf("DONE profile_timed\n");
  return 0;
}
