"""Our runtime's CUDART_PROFILE against PyTorch's own profiler (CUPTI), on
the same kernels in the same process.

    CUDART_PROFILE=1 CUDART_PROFILE_FILE=OUT/ours.json \\
      scripts/with-cudart.sh --lib LIBDIR --check -- \\
      python3 pytorch/profile_compare.py run OUT/torch.json
    python3 pytorch/profile_compare.py compare OUT/torch.json OUT/ours.json

`run` launches a fixed set of ATen kernels (elementwise, reductions,
softmax, a copy kernel) ROUNDS times under torch.profiler with CUDA
activity, then writes every kernel the profiler saw (name, count, total
and max device time in ms) to the JSON file. Our profile is written at
exit, so it sees the same kernels, plus the few launched outside the
profiler's window (warm-up). Kernels that libraries launch through their
own embedded runtime or the driver (cuBLAS, cuDNN) never pass through
libcudart and appear only in PyTorch's list.

The tensors are large enough (8192 x 8192) that each kernel runs for a
few hundred microseconds and the host queues work ahead of the GPU. Our
times come from events recorded around each launch, so where the GPU has
nothing queued they also hold the time it waited for the launch itself,
and torch.profiler's CUPTI tracing makes each launch call slower: with
small kernels the two measure different things (docs/insight.md).

`compare` matches kernels by demangled name (both come from the same
mangled symbol), prints launches and total GPU time side by side, and
exits 1 if a kernel seen by both differs in launches by more than the
warm-up launches, or if the summed GPU time of the matched kernels
differs by more than 25 % (events around a launch include its queueing on
the GPU; CUPTI measures the kernel alone).
"""
import json
import sys

ROUNDS = 50
WARMUP = 3
SIZE = 8192  # elements a side: kernels of a few hundred microseconds


def work(torch, x, y):
    a = torch.relu(x) + y                 # elementwise
    b = torch.softmax(a, dim=-1)          # softmax
    c = b.sum(dim=0)                      # reduction
    d = (a * 0.5).to(torch.float16)       # elementwise + cast
    return c, d


def run(path):
    import torch
    from torch.profiler import ProfilerActivity, profile
    x = torch.randn(SIZE, SIZE, device="cuda")
    y = torch.randn(SIZE, SIZE, device="cuda")
    for _ in range(WARMUP):
        work(torch, x, y)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(ROUNDS):
            work(torch, x, y)
        torch.cuda.synchronize()
    kernels = {}
    for ev in prof.events():
        if getattr(ev.device_type, "name", str(ev.device_type)) != "CUDA":
            continue
        k = kernels.setdefault(ev.name, {"count": 0, "total_ms": 0.0, "max_ms": 0.0})
        ms = ev.time_range.elapsed_us() / 1000.0  # the kernel's own span
        k["count"] += 1
        k["total_ms"] += ms
        k["max_ms"] = max(k["max_ms"], ms)
    with open(path, "w") as f:
        json.dump({"rounds": ROUNDS, "warmup": WARMUP, "kernels": kernels}, f, indent=1)
    print("profile_compare run: %d kernels seen by torch.profiler" % len(kernels))


def longest(k):
    """Our longest launch of a kernel, and whether it was the first."""
    top = k.get("max_ms")
    if top is None:
        return "-"
    first = k.get("first_ms")
    which = "" if first is None else (" (the first)" if first == top else " (not the first)")
    return "%.3f ms%s" % (top, which)


def compare(torch_path, ours_path):
    t = json.load(open(torch_path))
    o = json.load(open(ours_path))
    ours = {k["name"]: k for k in o.get("kernels", [])}
    warm = t["warmup"]
    bad = []
    sum_t = sum_o = sum_o_rest = 0.0
    print("%-70s %9s %9s %10s %10s  %s" % ("kernel", "n torch", "n ours", "ms torch", "ms ours",
                                          "our longest launch"))
    for name, tk in sorted(t["kernels"].items(), key=lambda kv: -kv[1]["total_ms"]):
        ok = ours.get(name)
        if ok is None:
            print("%-70s %9d %9s %10.3f %10s" % (name[:70], tk["count"], "-", tk["total_ms"], "-"))
            continue
        # Ours counts the whole process: the profiled launches and the warm-up.
        per_round = tk["count"] // t["rounds"]
        extra = ok["launches"] - tk["count"]
        if not 0 <= extra <= per_round * warm:
            bad.append("%s: torch %d launches, ours %d" % (name, tk["count"], ok["launches"]))
        mean_o = ok["total_ms"] / max(ok["timed"], 1)
        ours_ms = mean_o * tk["count"]  # ours over the same number of launches
        sum_t += tk["total_ms"]
        sum_o += ours_ms
        # The same without our longest launch (a first launch that held
        # its loading shows there): printed, not judged.
        rest = max(ok["timed"] - 1, 1)
        sum_o_rest += (ok["total_ms"] - ok.get("max_ms", 0.0)) / rest * tk["count"]
        print("%-70s %9d %9d %10.3f %10.3f  %s" % (name[:70], tk["count"], ok["launches"],
                                                    tk["total_ms"], ours_ms, longest(ok)))
    matched = sum_t > 0
    ratio = sum_o / sum_t if matched else None
    print("matched kernels: GPU time ours/torch.profiler = %s" %
          ("%.3f" % ratio if ratio else "n/a (no kernel in both)"))
    if matched:
        print("without each kernel's longest launch of ours: %.3f" % (sum_o_rest / sum_t))
    if not matched:
        bad.append("no kernel seen by both")
    elif abs(ratio - 1) > 0.25:
        bad.append("GPU time ratio %.3f beyond 25 %%" % ratio)
    for b in bad:
        print("MISMATCH " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "run":
        run(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
