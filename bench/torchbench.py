"""Helpers of the PyTorch benchmark programs (torch_first_op.py, torch_ops.py)."""
import time


def mapped_cudart():
    """The libcudart files this process has mapped, in the order first seen."""
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
    return libs


def info_line(torch):
    """The INFO line bench-run.sh reads the loaded libcudart from."""
    return "INFO torch %s cuda %s libcudart %s" % (
        torch.__version__, torch.version.cuda, ",".join(mapped_cudart()) or "?")


def time_reps(step, n, reps, sync, per=None):
    """Runs `step` n times per repetition, reps repetitions, the queue
    drained (untimed) before each. Returns (host, total): ns per `per`
    operations (default n) of the loop alone, and with a final `sync`."""
    per = per or n
    host, total = [], []
    for _ in range(reps):
        sync()
        t0 = time.perf_counter_ns()
        for _ in range(n):
            step()
        t1 = time.perf_counter_ns()
        sync()
        t2 = time.perf_counter_ns()
        host.append((t1 - t0) / per)
        total.append((t2 - t0) / per)
    return host, total


def emit(name, per_op_ns):
    """A BENCH line: the median of the repetitions, with min and max."""
    import statistics  # here: torch_first_op.py times the process, and needs none of it
    print("BENCH %s %.6g ns %d min=%.6g max=%.6g" % (
        name, statistics.median(per_op_ns), len(per_op_ns), min(per_op_ns), max(per_op_ns)))


def section(name, body):
    """Runs one benchmark section: `body()` returns the BENCH rows
    [(name, per-op ns values)] when its result was right, else the text of
    what was wrong. Prints the rows, or a BENCH_ERROR under `name` (also for
    an exception). Returns whether it succeeded."""
    try:
        out = body()
    except Exception as e:  # noqa: BLE001 - any failure is a result here
        out = "%s %s" % (type(e).__name__, e)
    if isinstance(out, str):
        print("BENCH_ERROR %s -1 %s" % (name, out.replace("\n", " ")[:300]))
        return False
    for row, values in out:
        emit(row, values)
    return True
