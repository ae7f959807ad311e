// Streams and events: create/destroy, record + query, synchronize on an
// idle stream, and one launch + cudaDeviceSynchronize (the round trip to
// the device); each with its raw driver counterpart.
#include "bench.h"

__global__ void k0() {}

static Driver drv;
static CUfunction f0;
static cudaStream_t stream;
static cudaEvent_t event;

int main(int argc, char **argv) {
  BenchList L;
  L.add("streams.cudaStreamCreate_Destroy", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      cudaStream_t s;
      e |= (int)cudaStreamCreate(&s);
      e |= (int)cudaStreamDestroy(s);
    }
    return e;
  }, "streams.raw_cuStreamCreate_Destroy");
  L.add("streams.raw_cuStreamCreate_Destroy", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      CUstream s;
      e |= (int)drv.stream_create(&s, 0);
      e |= (int)drv.stream_destroy(s);
    }
    return e;
  }).setup = [] { return Driver::need(drv.stream_create, drv.stream_destroy); };
  L.add("streams.cudaEventCreate_Destroy", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      cudaEvent_t ev;
      e |= (int)cudaEventCreate(&ev);
      e |= (int)cudaEventDestroy(ev);
    }
    return e;
  }, "streams.raw_cuEventCreate_Destroy");
  L.add("streams.raw_cuEventCreate_Destroy", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      CUevent ev;
      e |= (int)drv.event_create(&ev, CU_EVENT_DEFAULT);
      e |= (int)drv.event_destroy(ev);
    }
    return e;
  }).setup = [] { return Driver::need(drv.event_create, drv.event_destroy); };
  L.add("streams.cudaEventRecord_Query", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      e |= (int)cudaEventRecord(event, stream);
      cudaError_t q = cudaEventQuery(event);
      if (q != cudaErrorNotReady) e |= (int)q;
    }
    return e;
  }, "streams.raw_cuEventRecord_Query");
  L.add("streams.raw_cuEventRecord_Query", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      e |= (int)drv.event_record((CUevent)event, (CUstream)stream);
      CUresult q = drv.event_query((CUevent)event);
      if (q != CUDA_ERROR_NOT_READY) e |= (int)q;
    }
    return e;
  }).setup = [] { return Driver::need(drv.event_record, drv.event_query); };
  L.add("streams.cudaStreamSynchronize_idle", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)cudaStreamSynchronize(stream);
    return e;
  }, "streams.raw_cuStreamSynchronize_idle");
  L.add("streams.raw_cuStreamSynchronize_idle", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)drv.stream_sync((CUstream)stream);
    return e;
  }).setup = [] { return Driver::need(drv.stream_sync); };
  L.add("streams.launch+cudaDeviceSynchronize", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      k0<<<1, 1>>>();
      e |= (int)cudaDeviceSynchronize();
    }
    return e | (int)cudaGetLastError();
  }, "streams.raw_cuLaunchKernel+cuCtxSynchronize");
  L.add("streams.raw_cuLaunchKernel+cuCtxSynchronize", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      e |= (int)drv.launch(f0, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr);
      e |= (int)drv.ctx_sync();
    }
    return e;
  }).setup = [] { return f0 ? Driver::need(drv.launch, drv.ctx_sync) : (int)cudaErrorInvalidDeviceFunction; };
  for (auto &b : L.items) b.settle = [] { cudaDeviceSynchronize(); };
  return bench_main("bench_streams", argc, argv, L, [] {
    drv.load();
    int e = (int)cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    e |= (int)cudaEventCreate(&event);
    if (cudaGetFuncBySymbol(&f0, (const void *)k0) != cudaSuccess) f0 = nullptr;
    cudaGetLastError();
    return e;
  });
}
