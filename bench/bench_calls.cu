// Pure runtime calls: what the runtime answers from its own state, without
// the driver. The issue's target is 10 ns or less for each.
#include "bench.h"

// The launch-configuration push/pop that nvcc's `<<<>>>` code calls around
// every launch (cuda_runtime.h declares the push; the pop is declared in
// the host-stub header, so we declare it here ourselves).
extern "C" cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                  size_t *sharedMem, void *stream);

int main(int argc, char **argv) {
  static int dev = 0;
  BenchList L;
  L.add("calls.cudaGetLastError", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)cudaGetLastError();
    return e;
  });
  L.add("calls.cudaPeekAtLastError", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)cudaPeekAtLastError();
    return e;
  });
  L.add("calls.cudaGetDevice", "ns", [](long n) {
    int e = 0, d = 0;
    for (long i = 0; i < n; i++) e |= (int)cudaGetDevice(&d);
    return e;
  });
  L.add("calls.cudaSetDevice_current", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)cudaSetDevice(dev);
    return e;
  });
  L.add("calls.push_pop_call_configuration", "ns", [](long n) {
    int e = 0;
    dim3 g(1), b(1), g2, b2;
    size_t shm = 0;
    cudaStream_t st = nullptr;
    for (long i = 0; i < n; i++) {
      e |= (int)__cudaPushCallConfiguration(g, b, 0, nullptr);
      e |= (int)__cudaPopCallConfiguration(&g2, &b2, &shm, &st);
    }
    return e;
  });
  return bench_main("bench_calls", argc, argv, L, [] { return (int)cudaGetDevice(&dev); });
}
