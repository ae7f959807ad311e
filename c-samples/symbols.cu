// symbols: __device__ and __constant__ variables through
// cudaMemcpyToSymbol / cudaMemcpyFromSymbol (with offsets, device-to-device,
// and the Async forms on a stream), cudaGetSymbolAddress, cudaGetSymbolSize,
// and a host variable that is not a symbol (cudaErrorInvalidSymbol).
#define SAMPLE_NAME "symbols"
#include "common/check.h"
#include <string.h>

#define N 256
__device__ int d_arr[N];
__constant__ float c_coef[16];
__device__ unsigned long long d_counter = 1000;  // statically initialised
__device__ int d_init[4] = {11, 22, 33, 44};

static int not_a_symbol[4];

// out[i] = d_arr[i] * c_coef[i % 16]; then d_arr[i] += 1
__global__ void use_symbols(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    out[i] = (float)d_arr[i] * c_coef[i % 16];
    d_arr[i] += 1;
  }
}

__global__ void bump_counter(unsigned long long by) { atomicAdd(&d_counter, by); }

int main() {
  // Statically initialised values are visible before any write.
  int init[4] = {0, 0, 0, 0};
  CK(cudaMemcpyFromSymbol(init, d_init, sizeof(init)));
  EXPECT(init[0] == 11 && init[1] == 22 && init[2] == 33 && init[3] == 44,
         "d_init = %d %d %d %d", init[0], init[1], init[2], init[3]);
  printf("d_init = %d %d %d %d\n", init[0], init[1], init[2], init[3]);

  // Sizes.
  size_t sz = 0;
  CK(cudaGetSymbolSize(&sz, d_arr));
  EXPECT(sz == N * sizeof(int), "size of d_arr %zu", sz);
  printf("size d_arr=%zu", sz);
  CK(cudaGetSymbolSize(&sz, c_coef));
  EXPECT(sz == 16 * sizeof(float), "size of c_coef %zu", sz);
  printf(" c_coef=%zu", sz);
  CK(cudaGetSymbolSize(&sz, d_counter));
  EXPECT(sz == 8, "size of d_counter %zu", sz);
  printf(" d_counter=%zu\n", sz);

  // Write d_arr in two halves (the second with an offset) and the constants.
  int h[N];
  for (int i = 0; i < N; i++) h[i] = 3 * i - 100;
  CK(cudaMemcpyToSymbol(d_arr, h, (N / 2) * sizeof(int)));
  CK(cudaMemcpyToSymbol(d_arr, h + N / 2, (N / 2) * sizeof(int),
                        (N / 2) * sizeof(int), cudaMemcpyHostToDevice));
  float coef[16];
  for (int i = 0; i < 16; i++) coef[i] = 0.5f * (float)(i + 1);
  CK(cudaMemcpyToSymbol(c_coef, coef, sizeof(coef)));

  float *dout;
  CK(cudaMalloc(&dout, N * sizeof(float)));
  use_symbols<<<N / 64, 64>>>(dout);
  CK_LAUNCH();
  float out[N];
  CK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    EXPECT(out[i] == (float)h[i] * coef[i % 16], "out[%d] = %g", i, out[i]);
  printf("kernel read d_arr and c_coef: ok\n");

  // Read d_arr back, whole and from an offset.
  int back[N];
  CK(cudaMemcpyFromSymbol(back, d_arr, sizeof(back)));
  for (int i = 0; i < N; i++)
    EXPECT(back[i] == h[i] + 1, "d_arr[%d] = %d after kernel", i, back[i]);
  int tail[8];
  CK(cudaMemcpyFromSymbol(tail, d_arr, sizeof(tail), (N - 8) * sizeof(int),
                          cudaMemcpyDeviceToHost));
  for (int i = 0; i < 8; i++)
    EXPECT(tail[i] == h[N - 8 + i] + 1, "tail[%d] = %d", i, tail[i]);
  printf("d_arr[0]=%d d_arr[255]=%d\n", back[0], back[N - 1]);

  // The symbol's address: plain cudaMemcpy from it sees the same data.
  void *addr = NULL;
  CK(cudaGetSymbolAddress(&addr, d_arr));
  EXPECT(addr != NULL, "cudaGetSymbolAddress gave NULL");
  memset(back, 0, sizeof(back));
  CK(cudaMemcpy(back, addr, sizeof(back), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++)
    EXPECT(back[i] == h[i] + 1, "via address: d_arr[%d] = %d", i, back[i]);
  void *caddr = NULL;
  CK(cudaGetSymbolAddress(&caddr, c_coef));
  EXPECT(caddr != NULL && caddr != addr, "constant symbol address");
  printf("cudaGetSymbolAddress: ok\n");

  // Device-to-device into a symbol, from a cudaMalloc'd buffer.
  int *dsrc;
  CK(cudaMalloc(&dsrc, N * sizeof(int)));
  for (int i = 0; i < N; i++) h[i] = 7 * i;
  CK(cudaMemcpy(dsrc, h, N * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpyToSymbol(d_arr, dsrc, N * sizeof(int), 0, cudaMemcpyDeviceToDevice));
  CK(cudaMemcpyFromSymbol(back, d_arr, sizeof(back)));
  for (int i = 0; i < N; i++)
    EXPECT(back[i] == 7 * i, "device-to-device: d_arr[%d] = %d", i, back[i]);
  printf("device-to-device to symbol: ok\n");

  // Async forms on a stream, ordered with a kernel on that stream.
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  unsigned long long *pin;
  CK(cudaMallocHost(&pin, 2 * sizeof(unsigned long long)));
  pin[0] = 5;
  pin[1] = 0;
  CK(cudaMemcpyFromSymbolAsync(&pin[1], d_counter, 8, 0, cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  EXPECT(pin[1] == 1000, "initial d_counter = %llu", pin[1]);
  CK(cudaMemcpyToSymbolAsync(d_counter, &pin[0], 8, 0, cudaMemcpyHostToDevice, s));
  bump_counter<<<4, 32, 0, s>>>(3);  // 128 threads add 3 each
  CK(cudaGetLastError());
  CK(cudaMemcpyFromSymbolAsync(&pin[1], d_counter, 8, 0, cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  EXPECT(pin[1] == 5 + 128 * 3, "d_counter = %llu", pin[1]);
  printf("async on a stream: d_counter=%llu\n", pin[1]);

  // A host variable is no symbol.
  CK_EQ(cudaGetSymbolSize(&sz, not_a_symbol), cudaErrorInvalidSymbol);
  CK_EQ(cudaGetLastError(), cudaErrorInvalidSymbol);
  CK(cudaGetLastError());  // not sticky
  printf("non-symbol: %s\n", err_name(cudaErrorInvalidSymbol));

  CK(cudaStreamDestroy(s));
  CK(cudaFreeHost(pin));
  CK(cudaFree(dsrc));
  CK(cudaFree(dout));
  return sample_pass();
}
