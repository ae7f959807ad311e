// templates_many_kernels: one template kernel instantiated for 10 types x
// 5 constants (50 kernels), plus distinct kernels with awkward parameter
// lists (mixed sizes and alignments, a struct by value, a 1 KiB struct, many
// scalars), all launched and checked on the host.
#define SAMPLE_NAME "templates_many_kernels"
#include "common/check.h"
#include <stdint.h>

template <typename T, int K>
__global__ void affine_t(T *out, int n, T add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (T)((i % 16) * K) + add;
}

template <typename T, int K>
static long long run_one(const char *tname, int n) {
  T *d;
  CK(cudaMalloc(&d, n * sizeof(T)));
  CK(cudaMemset(d, 0xFF, n * sizeof(T)));
  const T add = (T)3;
  affine_t<T, K><<<(n + 63) / 64, 64>>>(d, n, add);
  CK(cudaGetLastError());
  T *h = (T *)malloc(n * sizeof(T));
  CK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
  long long sum = 0;
  for (int i = 0; i < n; i++) {
    T want = (T)((i % 16) * K) + add;
    EXPECT(h[i] == want, "affine_t<%s,%d> out[%d] wrong", tname, K, i);
    sum += (long long)h[i];
  }
  free(h);
  CK(cudaFree(d));
  return sum;
}

template <typename T>
static void run_type(const char *tname, int n) {
  long long s1 = run_one<T, 1>(tname, n), s2 = run_one<T, 2>(tname, n),
            s3 = run_one<T, 3>(tname, n), s5 = run_one<T, 5>(tname, n),
            s7 = run_one<T, 7>(tname, n);
  printf("affine_t<%s, 1|2|3|5|7> n=%d sums %lld %lld %lld %lld %lld\n", tname, n,
         s1, s2, s3, s5, s7);
}

// Mixed scalar sizes: the driver lays out the parameter buffer.
__global__ void mixed(int64_t *out, char a, short b, int c, long long d, float e,
                      double f, unsigned char g, void *h, unsigned short i, double j) {
  out[0] = a;
  out[1] = b;
  out[2] = c;
  out[3] = d;
  out[4] = (int64_t)(e * 4.0f);
  out[5] = (int64_t)(f * 8.0);
  out[6] = g;
  out[7] = (int64_t)(uintptr_t)h;
  out[8] = i;
  out[9] = (int64_t)(j * 16.0);
}

struct Small {
  char tag;
  double scale;
  int count;
};
struct Big {
  int v[256];  // 1 KiB by value
};

__global__ void by_value(int *out, Small s, Big b, int idx) {
  int i = threadIdx.x;
  out[i] = (int)(b.v[i] * s.scale) + s.count + s.tag + idx;
}

__global__ void many_ints(int *out, int a0, int a1, int a2, int a3, int a4, int a5,
                          int a6, int a7, int a8, int a9, int a10, int a11, int a12,
                          int a13, int a14, int a15) {
  out[0] = a0 + 2 * a1 + 3 * a2 + 4 * a3 + 5 * a4 + 6 * a5 + 7 * a6 + 8 * a7 + 9 * a8 +
           10 * a9 + 11 * a10 + 12 * a11 + 13 * a12 + 14 * a13 + 15 * a14 + 16 * a15;
}

__global__ void no_params() {}

int main() {
  int kernels = 0;
  run_type<int8_t>("int8", 1000);
  run_type<uint8_t>("uint8", 1001);
  run_type<int16_t>("int16", 1002);
  run_type<uint16_t>("uint16", 1003);
  run_type<int32_t>("int32", 1004);
  run_type<uint32_t>("uint32", 1005);
  run_type<int64_t>("int64", 1006);
  run_type<uint64_t>("uint64", 1007);
  run_type<float>("float", 1008);
  run_type<double>("double", 1009);
  kernels += 50;

  int64_t *d64, h64[10];
  CK(cudaMalloc(&d64, sizeof(h64)));
  void *marker = (void *)(uintptr_t)0x123456789abcULL;
  mixed<<<1, 1>>>(d64, (char)-7, (short)-30000, 2000000000, -9000000000000LL, 2.5f,
                  -1.125, (unsigned char)250, marker, (unsigned short)65000, 0.0625);
  CK_LAUNCH();
  CK(cudaMemcpy(h64, d64, sizeof(h64), cudaMemcpyDeviceToHost));
  const int64_t want64[10] = {-7, -30000, 2000000000, -9000000000000LL, 10, -9, 250,
                              (int64_t)0x123456789abcULL, 65000, 1};
  for (int i = 0; i < 10; i++)
    EXPECT(h64[i] == want64[i], "mixed param %d = %lld, expected %lld", i,
           (long long)h64[i], (long long)want64[i]);
  printf("mixed parameters: ok\n");
  kernels++;

  Small s = {5, 0.5, 100};
  Big b;
  for (int i = 0; i < 256; i++) b.v[i] = 2 * i;
  int *d, h[256];
  CK(cudaMalloc(&d, sizeof(h)));
  by_value<<<1, 256>>>(d, s, b, 9);
  CK_LAUNCH();
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 256; i++)
    EXPECT(h[i] == i + 100 + 5 + 9, "by_value out[%d] = %d", i, h[i]);
  printf("struct parameters (%zu + %zu bytes): ok\n", sizeof(Small), sizeof(Big));
  kernels++;

  many_ints<<<1, 1>>>(d, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
  CK_LAUNCH();
  CK(cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost));
  int want = 0;
  for (int k = 1; k <= 16; k++) want += k * k;
  EXPECT(h[0] == want, "many_ints = %d, expected %d", h[0], want);
  printf("16 int parameters: %d\n", h[0]);
  kernels++;

  no_params<<<3, 3>>>();
  CK_LAUNCH();
  kernels++;

  printf("kernels launched: %d distinct\n", kernels);
  CK(cudaFree(d));
  CK(cudaFree(d64));
  return sample_pass();
}
