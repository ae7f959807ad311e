// Memory: allocation, small copies (latency), pageable copies of 256 KiB
// and 64 MiB (the sizes where the driver stages through its own pinned
// buffers), large pinned copies (bandwidth), async copy + stream
// synchronize, memset; the raw driver counterparts (cuMemAlloc/cuMemFree,
// cuMemcpyHtoD/DtoH, cuMemcpyHtoDAsync + cuStreamSynchronize, cuMemsetD8)
// on the same buffers.
#include "bench.h"

static Driver drv;
static const size_t MiB = 1 << 20;
static const size_t BIG = 256 * MiB;
static const size_t PAGE_BIG = 64 * MiB;
static void *dsmall, *dbig, *hpage, *hpin_small, *hbig, *dpage, *hpage_big;
static cudaStream_t stream;

int main(int argc, char **argv) {
  BenchList L;
  auto dsync = [] { cudaDeviceSynchronize(); };
  L.add("memory.cudaMalloc_cudaFree.1MiB", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      void *p = nullptr;
      e |= (int)cudaMalloc(&p, MiB);
      e |= (int)cudaFree(p);
    }
    return e;
  }, "memory.raw_cuMemAlloc_cuMemFree.1MiB");
  L.add("memory.raw_cuMemAlloc_cuMemFree.1MiB", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      CUdeviceptr p = 0;
      e |= (int)drv.alloc(&p, MiB);
      e |= (int)drv.free(p);
    }
    return e;
  }).setup = [] { return Driver::need(drv.alloc, drv.free); };
  L.add("memory.cudaMemcpy_h2d.4B_pageable", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)cudaMemcpy(dsmall, hpage, 4, cudaMemcpyHostToDevice);
    return e;
  }, "memory.raw_cuMemcpyHtoD.4B_pageable");
  L.add("memory.raw_cuMemcpyHtoD.4B_pageable", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)drv.htod((CUdeviceptr)dsmall, hpage, 4);
    return e;
  }).setup = [] { return Driver::need(drv.htod); };
  L.add("memory.cudaMemcpy_d2h.4B_pageable", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)cudaMemcpy(hpage, dsmall, 4, cudaMemcpyDeviceToHost);
    return e;
  }, "memory.raw_cuMemcpyDtoH.4B_pageable");
  L.add("memory.raw_cuMemcpyDtoH.4B_pageable", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)drv.dtoh(hpage, (CUdeviceptr)dsmall, 4);
    return e;
  }).setup = [] { return Driver::need(drv.dtoh); };
  L.add("memory.cudaMemcpyAsync_h2d.4B_pinned+sync", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      e |= (int)cudaMemcpyAsync(dsmall, hpin_small, 4, cudaMemcpyHostToDevice, stream);
      e |= (int)cudaStreamSynchronize(stream);
    }
    return e;
  }, "memory.raw_cuMemcpyHtoDAsync.4B_pinned+sync");
  L.add("memory.raw_cuMemcpyHtoDAsync.4B_pinned+sync", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) {
      e |= (int)drv.htod_async((CUdeviceptr)dsmall, hpin_small, 4, (CUstream)stream);
      e |= (int)drv.stream_sync((CUstream)stream);
    }
    return e;
  }).setup = [] { return Driver::need(drv.htod_async, drv.stream_sync); };
  // Pageable copies: malloc'd host memory, touched first, so the loop pays
  // the driver's staging and not the first touch of the pages.
  auto page_setup = [] {
    if (dpage) return 0;
    hpage_big = malloc(PAGE_BIG);
    if (!hpage_big) return (int)cudaErrorMemoryAllocation;
    memset(hpage_big, 1, PAGE_BIG);
    return (int)cudaMalloc(&dpage, PAGE_BIG);
  };
  struct PageCopy {
    const char *name, *raw, *unit;
    size_t size;
    bool h2d;
  };
  static const PageCopy page_copies[] = {
      {"memory.cudaMemcpy_h2d.256KiB_pageable", "memory.raw_cuMemcpyHtoD.256KiB_pageable", "ns",
       256 << 10, true},
      {"memory.cudaMemcpy_d2h.256KiB_pageable", "memory.raw_cuMemcpyDtoH.256KiB_pageable", "ns",
       256 << 10, false},
      {"memory.cudaMemcpy_h2d.64MiB_pageable", "memory.raw_cuMemcpyHtoD.64MiB_pageable", "GB/s",
       PAGE_BIG, true},
      {"memory.cudaMemcpy_d2h.64MiB_pageable", "memory.raw_cuMemcpyDtoH.64MiB_pageable", "GB/s",
       PAGE_BIG, false},
  };
  for (const PageCopy &c : page_copies) {
    double bytes = strcmp(c.unit, "GB/s") ? 0 : (double)c.size;
    Bench &rt = L.add(c.name, c.unit, [c](long n) {
      int e = 0;
      for (long i = 0; i < n; i++)
        e |= (int)(c.h2d ? cudaMemcpy(dpage, hpage_big, c.size, cudaMemcpyHostToDevice)
                         : cudaMemcpy(hpage_big, dpage, c.size, cudaMemcpyDeviceToHost));
      return e;
    }, c.raw);
    rt.setup = page_setup;
    rt.bytes = bytes;
    // `rt` is not used past here: the next add may move the list.
    Bench &raw = L.add(c.raw, c.unit, [c](long n) {
      int e = 0;
      for (long i = 0; i < n; i++)
        e |= (int)(c.h2d ? drv.htod((CUdeviceptr)dpage, hpage_big, c.size)
                         : drv.dtoh(hpage_big, (CUdeviceptr)dpage, c.size));
      return e;
    });
    raw.setup = [page_setup] {
      int e = Driver::need(drv.htod, drv.dtoh);
      return e ? e : page_setup();
    };
    raw.bytes = bytes;
  }
  // Memset: the loop includes a final synchronize, so the device's work
  // is counted too (amortized over the loop).
  L.add("memory.cudaMemset.1MiB", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)cudaMemset(dsmall, 0, MiB);
    e |= (int)cudaDeviceSynchronize();
    return e;
  }, "memory.raw_cuMemsetD8.1MiB");
  L.add("memory.raw_cuMemsetD8.1MiB", "ns", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)drv.memset8((CUdeviceptr)dsmall, 0, MiB);
    e |= (int)drv.ctx_sync();
    return e;
  }).setup = [] { return Driver::need(drv.memset8, drv.ctx_sync); };
  // Bandwidth: 256 MiB between pinned host memory and the device.
  auto big_setup = [] {
    if (dbig) return 0;
    int e = (int)cudaMalloc(&dbig, BIG);
    e |= (int)cudaMallocHost(&hbig, BIG);
    if (!e) memset(hbig, 1, BIG);  // touch: no first-use cost in the loop
    return e;
  };
  Bench &h2d = L.add("memory.cudaMemcpy_h2d.256MiB_pinned", "GB/s", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)cudaMemcpy(dbig, hbig, BIG, cudaMemcpyHostToDevice);
    return e;
  });
  h2d.bytes = (double)BIG;
  h2d.setup = big_setup;
  Bench &d2h = L.add("memory.cudaMemcpy_d2h.256MiB_pinned", "GB/s", [](long n) {
    int e = 0;
    for (long i = 0; i < n; i++) e |= (int)cudaMemcpy(hbig, dbig, BIG, cudaMemcpyDeviceToHost);
    return e;
  });
  d2h.bytes = (double)BIG;
  d2h.setup = big_setup;
  for (auto &b : L.items)
    if (!b.settle) b.settle = dsync;
  return bench_main("bench_memory", argc, argv, L, [] {
    drv.load();
    int e = (int)cudaMalloc(&dsmall, MiB);
    e |= (int)cudaMallocHost(&hpin_small, 64);
    e |= (int)cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    hpage = malloc(64);
    memset(hpage, 0, 64);
    memset(hpin_small, 0, 64);
    e |= (int)cudaMemset(dsmall, 0, MiB);
    e |= (int)cudaDeviceSynchronize();
    return e;
  });
}
