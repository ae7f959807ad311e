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
import sys

from torchbench import emit, info_line, time_reps

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
    host, total = time_reps(lambda: x.add_(1.0), N, REPS, sync)
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
        a * b + a
    sync()
    last = [None]

    def mul_add():
        last[0] = a * b + a

    # Two operations per step; the last result is checked.
    host, _ = time_reps(mul_add, N // 2, REPS, sync, per=N)
    if not torch.equal(last[0], a * 3):
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
    host, total = time_reps(g.replay, GRAPH_N, REPS, sync)
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

print(info_line(torch))
sys.exit(9 if failed else 0)
