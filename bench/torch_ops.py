"""PyTorch eager operations: what a launch-bound model sees of the runtime.

bench-run.sh runs it like torch_first_op.py (LD_PRELOAD of the
libcudart.so.13 under test, or torch's own NVIDIA runtime). Each benchmark
is the median of REPS repetitions of N operations after a warm-up; one
value per process. Host time per operation is the loop alone (the queue
is drained, untimed, before each repetition); `+sync` includes a final
`torch.cuda.synchronize()`, spread over the loop. The operations are
PyTorch's own kernels, launched by libtorch_cuda through the runtime's
`cudaLaunchKernel`; a CUDA graph replay goes through `cudaGraphLaunch`.
Every result is checked. Prints BENCH lines (bench/README.md); `--list`
prints the declarations.
"""
import statistics
import sys
import time

REPS = 7
N = 2000
GRAPH_OPS = 100
GRAPH_N = 200

BENCHES = (
    ("torch_ops.add_.1elem", "ns"),
    ("torch_ops.add_.1elem+sync", "ns"),
    ("torch_ops.mul_add.4096", "ns"),
    ("torch_ops.graph_replay.100_add_", "ns"),
    ("torch_ops.graph_replay.100_add_+sync", "ns"),
)

if len(sys.argv) > 1 and sys.argv[1] == "--list":
    for n, u in BENCHES:
        print("BENCH_DECL %s %s" % (n, u))
    sys.exit(0)


def emit(name, per_op_ns):
    med = statistics.median(per_op_ns)
    print("BENCH %s %.6g ns %d min=%.6g max=%.6g" % (name, med, len(per_op_ns), min(per_op_ns),
                                                    max(per_op_ns)))


def error(name, what):
    print("BENCH_ERROR %s -1 %s" % (name, str(what).replace("\n", " ")[:300]))


try:
    import torch
except Exception as e:  # noqa: BLE001 - any failure is a result here
    error("torch_ops.add_.1elem", "%s %s" % (type(e).__name__, e))
    sys.exit(7)

sync = torch.cuda.synchronize
failed = False

# One element, in place: one launch of PyTorch's elementwise kernel per op.
try:
    x = torch.zeros(1, device="cuda")
    for _ in range(N):  # warm-up: the kernel's lazy load, the caching allocator
        x.add_(1.0)
    sync()
    host, total = [], []
    for _ in range(REPS):
        sync()
        t0 = time.perf_counter_ns()
        for _ in range(N):
            x.add_(1.0)
        t1 = time.perf_counter_ns()
        sync()
        t2 = time.perf_counter_ns()
        host.append((t1 - t0) / N)
        total.append((t2 - t0) / N)
    want = float(N * (REPS + 1))
    got = float(x.item())
    if got != want:
        failed = True
        error("torch_ops.add_.1elem", "wrong-result %r != %r" % (got, want))
    else:
        emit("torch_ops.add_.1elem", host)
        emit("torch_ops.add_.1elem+sync", total)
except Exception as e:  # noqa: BLE001
    failed = True
    error("torch_ops.add_.1elem", "%s %s" % (type(e).__name__, e))

# Two operations on 4096 elements, out of place: launches and the caching
# allocator's allocation and free for each result.
try:
    a = torch.arange(4096, device="cuda", dtype=torch.float32)
    b = torch.full((4096,), 2.0, device="cuda")
    for _ in range(N // 2):
        y = a * b + a
    sync()
    host = []
    for _ in range(REPS):
        sync()
        t0 = time.perf_counter_ns()
        for _ in range(N // 2):
            y = a * b + a
        t1 = time.perf_counter_ns()
        host.append((t1 - t0) / N)  # two ops per iteration
    sync()
    if not torch.equal(y, a * 3):
        failed = True
        error("torch_ops.mul_add.4096", "wrong-result")
    else:
        emit("torch_ops.mul_add.4096", host)
except Exception as e:  # noqa: BLE001
    failed = True
    error("torch_ops.mul_add.4096", "%s %s" % (type(e).__name__, e))

# A CUDA graph of 100 in-place adds, captured once, replayed.
try:
    g_x = torch.zeros(1, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            g_x.add_(1.0)
    torch.cuda.current_stream().wait_stream(s)
    sync()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(GRAPH_OPS):
            g_x.add_(1.0)
    for _ in range(10):
        g.replay()
    sync()
    host, total = [], []
    for _ in range(REPS):
        sync()
        t0 = time.perf_counter_ns()
        for _ in range(GRAPH_N):
            g.replay()
        t1 = time.perf_counter_ns()
        sync()
        t2 = time.perf_counter_ns()
        host.append((t1 - t0) / GRAPH_N)
        total.append((t2 - t0) / GRAPH_N)
    want = float(3 + GRAPH_OPS * (10 + REPS * GRAPH_N))
    got = float(g_x.item())
    if got != want:
        failed = True
        error("torch_ops.graph_replay.100_add_", "wrong-result %r != %r" % (got, want))
    else:
        emit("torch_ops.graph_replay.100_add_", host)
        emit("torch_ops.graph_replay.100_add_+sync", total)
except Exception as e:  # noqa: BLE001
    failed = True
    error("torch_ops.graph_replay.100_add_", "%s %s" % (type(e).__name__, e))

libs = []
try:
    with open("/proc/self/maps") as f:
        for line in f:
            if "libcudart" in line:
                p = line.split()[-1]
                if p not in libs:
                    libs.append(p)
except OSError:
    pass
print("INFO torch %s cuda %s libcudart %s" % (torch.__version__, torch.version.cuda, ",".join(libs) or "?"))
sys.exit(9 if failed else 0)
