// Pure runtime calls: what the runtime answers from its own state (and, for
// cudaSetDevice, one question to the driver). The issue's target is 10 ns
// or less for each.
#include "bench.h"

// The launch-configuration push/pop that nvcc's `<<<>>>` code calls around
// every launch (cuda_runtime.h declares the push; the pop is declared in
// the host-stub header, so we declare it here ourselves).
extern "C" cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                  size_t *sharedMem, void *stream);

static Driver drv;

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
  // cudaSetDevice must bind the device's primary context unless it is
  // already current, which only the driver knows (the program may have made
  // another context current through the driver API): one cuCtxGetCurrent
  // per call is its floor, measured interleaved as the raw counterpart.
  L.add("calls.cudaSetDevice_current", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)cudaSetDevice(dev);
    return e;
  }, "calls.raw_cuCtxGetCurrent");
  L.add("calls.raw_cuCtxGetCurrent", "ns", [](long n) {
    int e = 0;
    CUcontext c;
    for (long i = 0; i < n; i++) e |= (int)drv.ctx_get_current(&c);
    return e;
  }).setup = [] { return Driver::need(drv.ctx_get_current); };
  auto push_pop = [](long n) {
    int e = 0;
    dim3 g(1), b(1), g2, b2;
    size_t shm = 0;
    cudaStream_t st = nullptr;
    for (long i = 0; i < n; i++) {
      e |= (int)__cudaPushCallConfiguration(g, b, 0, nullptr);
      e |= (int)__cudaPopCallConfiguration(&g2, &b2, &shm, &st);
    }
    return e;
  };
  // The pair as `<<<>>>` makes it, and the same loop per call (two calls).
  L.add("calls.push_pop_call_configuration", "ns", push_pop);
  L.add("calls.push_pop_call_configuration.per_call", "ns", push_pop).per_call = 2;
  return bench_main("bench_calls", argc, argv, L, [] {
    drv.load();
    return (int)cudaGetDevice(&dev);
  });
}
