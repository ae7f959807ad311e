#!/usr/bin/env python3
"""A CuPy workload for the corpus benchmark (issue 30): one process that
does what CuPy programs commonly do, each part checked against NumPy.

Parts: elementwise, reduction, matmul (cuBLAS), fft (cuFFT), random
(cuRAND), sort (CUB/Thrust), rawkernel (NVRTC), streams (events, two
streams), graph (stream capture and launch), pool (many allocations
through CuPy's memory pool).

Prints one JSON document on stdout, the shape pytorch/workload.py and
jax/workload.py print: {"parts": {name: {"ok", "result" or "error",
"time_s"}}, "runtime_version", "libcudart" (the libcudart files this
process mapped), "total_s"}. Exit status 0 when every part is ok, else 1.

Run it with the CuPy to test first on PYTHONPATH; scripts/gpu-all.sh's
corpus part runs the shared-runtime wheel of scripts/cupy-prepare.sh under
each libcudart.so.13 by LD_LIBRARY_PATH.
"""
import json
import sys
import time


def mapped_cudarts():
    with open("/proc/self/maps") as f:
        return sorted({l.split()[-1] for l in f if "libcudart" in l and len(l.split()) >= 6})


def main():
    t0 = time.perf_counter()
    import numpy as np
    import cupy as cp

    doc = {"parts": {}}

    def elementwise():
        a = cp.arange(1_000_000, dtype=cp.float32)
        got = float((a * 2 + 1).sum())
        want = float((np.arange(1_000_000, dtype=np.float64) * 2 + 1).sum())
        assert abs(got - want) / want < 1e-5, (got, want)
        return got

    def reduction():
        x = cp.linspace(-3, 3, 100_001, dtype=cp.float64)
        h = np.linspace(-3, 3, 100_001)
        got = [float(x.mean()), float(x.std()), float(x.max()), float(cp.abs(x).min())]
        want = [h.mean(), h.std(), h.max(), np.abs(h).min()]
        assert np.allclose(got, want, atol=1e-12), (got, want)
        return got

    def matmul():
        rs = np.random.RandomState(1)
        a = rs.standard_normal((512, 512)).astype(np.float32)
        b = rs.standard_normal((512, 512)).astype(np.float32)
        got = cp.asnumpy(cp.asarray(a) @ cp.asarray(b))
        assert np.allclose(got, a @ b, rtol=1e-3, atol=1e-3)
        return float(got[0, 0])

    def fft():
        h = np.sin(np.arange(4096) * 0.01) + 0.5 * np.cos(np.arange(4096) * 0.3)
        got = cp.asnumpy(cp.fft.fft(cp.asarray(h)))
        assert np.allclose(got, np.fft.fft(h), atol=1e-8)
        return float(abs(got).max())

    def random():
        rng = cp.random.default_rng(1234)
        x = rng.standard_normal(1_000_000, dtype=cp.float32)
        m, s = float(x.mean()), float(x.std())
        assert abs(m) < 0.01 and abs(s - 1) < 0.01, (m, s)
        y = cp.random.RandomState(7).uniform(size=100_000)
        assert 0.0 <= float(y.min()) and float(y.max()) < 1.0
        return [m, s]

    def sort():
        h = np.random.RandomState(3).standard_normal(200_000)
        d = cp.asarray(h)
        assert np.array_equal(cp.asnumpy(cp.sort(d)), np.sort(h))
        assert np.array_equal(cp.asnumpy(d[cp.argsort(d)]), np.sort(h))
        return float(cp.sort(d)[0])

    def rawkernel():
        k = cp.RawKernel(r'''
        extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) y[i] = a * x[i] + y[i];
        }''', "saxpy")
        n = 100_000
        x = cp.arange(n, dtype=cp.float32)
        y = cp.ones(n, dtype=cp.float32)
        k(((n + 255) // 256,), (256,), (cp.float32(3.0), x, y, cp.int32(n)))
        want = 3.0 * np.arange(n, dtype=np.float32) + 1
        assert np.array_equal(cp.asnumpy(y), want)
        return float(y[-1])

    def streams():
        s1 = cp.cuda.Stream(non_blocking=True)
        s2 = cp.cuda.Stream(non_blocking=True)
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        with s1:
            start.record()
            a = cp.arange(4_000_000, dtype=cp.float32) * 2
            stop.record()
        done = cp.cuda.Event()
        done.record(s1)
        s2.wait_event(done)
        with s2:
            total = a.sum()
        s2.synchronize()
        ms = cp.cuda.get_elapsed_time(start, stop)
        assert ms >= 0, ms
        # a float32 sum of 4e6 terms: rounding, so a relative tolerance
        want = float(np.arange(4_000_000, dtype=np.float64).sum() * 2)
        assert abs(float(total) - want) / want < 1e-5, (float(total), want)
        return ms

    def graph():
        s = cp.cuda.Stream(non_blocking=True)
        x = cp.arange(1000, dtype=cp.float32)
        out = cp.empty_like(x)
        with s:
            x * 1  # the kernel is compiled and loaded before capture
            s.begin_capture()
            cp.multiply(x, 3, out=out)
            g = s.end_capture()
        for _ in range(5):
            g.launch(stream=s)
        s.synchronize()
        assert np.array_equal(cp.asnumpy(out), np.arange(1000, dtype=np.float32) * 3)
        return float(out[-1])

    def pool():
        pool = cp.get_default_memory_pool()
        keep = [cp.empty(1 << (10 + i % 12), dtype=cp.uint8) for i in range(2000)]
        used = pool.used_bytes()
        del keep
        pool.free_all_blocks()
        return used

    parts = [("elementwise", elementwise), ("reduction", reduction), ("matmul", matmul),
             ("fft", fft), ("random", random), ("sort", sort), ("rawkernel", rawkernel),
             ("streams", streams), ("graph", graph), ("pool", pool)]
    for name, fn in parts:
        t = time.perf_counter()
        try:
            res = fn()
            cp.cuda.Device().synchronize()
            doc["parts"][name] = {"ok": True, "result": res, "time_s": time.perf_counter() - t}
        except Exception as e:  # noqa: BLE001
            doc["parts"][name] = {"ok": False, "error": "%s: %s" % (type(e).__name__, e),
                                  "time_s": time.perf_counter() - t}
        p = doc["parts"][name]
        print("cupy-workload: %-11s %s %.2fs" % (name, "ok" if p["ok"] else "FAIL " + p["error"][:200],
                                                 p["time_s"]), file=sys.stderr)
    doc["runtime_version"] = cp.cuda.runtime.runtimeGetVersion()
    doc["libcudart"] = mapped_cudarts()
    doc["total_s"] = time.perf_counter() - t0
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0 if all(p["ok"] for p in doc["parts"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
