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

from torchbench import info_line, section, time_reps

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


try:
    import torch
except Exception as e:  # noqa: BLE001 - any failure is a result here
    print("BENCH_ERROR torch_ops.add_.1elem -1 %s %s" % (type(e).__name__, e))
    sys.exit(7)

sync = torch.cuda.synchronize


def add_one_element():
    """One element, in place: one launch of PyTorch's elementwise kernel per op."""
    x = torch.zeros(1, device="cuda")
    for _ in range(N):  # warm-up: the kernel's lazy load, the caching allocator
        x.add_(1.0)
    sync()
    host, total = time_reps(lambda: x.add_(1.0), N, REPS, sync)
    want, got = float(N * (REPS + 1)), float(x.item())
    if got != want:
        return "wrong-result %r != %r" % (got, want)
    return [("torch_ops.add_.1elem", host), ("torch_ops.add_.1elem+sync", total)]


def mul_add_4096():
    """Two operations on 4096 elements, out of place: launches and the
    caching allocator's allocation and free for each result."""
    a = torch.arange(4096, device="cuda", dtype=torch.float32)
    b = torch.full((4096,), 2.0, device="cuda")
    for _ in range(N // 2):
        a * b + a
    sync()
    last = [None]

    def step():
        last[0] = a * b + a

    # Two operations per step; the last result is checked.
    host, _ = time_reps(step, N // 2, REPS, sync, per=N)
    if not torch.equal(last[0], a * 3):
        return "wrong-result"
    return [("torch_ops.mul_add.4096", host)]


def graph_replay():
    """A CUDA graph of 100 in-place adds, captured once, replayed."""
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
    want, got = float(3 + GRAPH_OPS * (10 + REPS * GRAPH_N)), float(g_x.item())
    if got != want:
        return "wrong-result %r != %r" % (got, want)
    return [("torch_ops.graph_replay.100_add_", host),
            ("torch_ops.graph_replay.100_add_+sync", total)]


ok = [section("torch_ops.add_.1elem", add_one_element),
      section("torch_ops.mul_add.4096", mul_add_4096),
      section("torch_ops.graph_replay.100_add_", graph_replay)]
print(info_line(torch))
sys.exit(0 if all(ok) else 9)
