"""Which runtime calls PyTorch makes per eager operation (torch_ops.py's).

  python3 torch_calls.py run [N]        the operations of torch_ops.py, N
                                        each (default 1000), every section
                                        between cudaProfilerStart and
                                        cudaProfilerStop
  python3 torch_calls.py count FILE [N]  from the trace of that run under
                                        our runtime (CUDART_TRACE=all,
                                        CUDART_TRACE_FILE=FILE): the calls
                                        per operation in each section

The profiler calls are ordinary runtime calls (no profiler is attached):
they only mark the sections in the trace. Under NVIDIA's runtime the same
calls are made (they are PyTorch's), without a trace to see them.
"""
import re
import sys
from collections import Counter

SECTIONS = ("add_ (1 element, in place)", "a * b + a (4,096 elements), per operation",
            "replay of a CUDA graph of 100 adds")


def run(n):
    import torch

    rt = torch.cuda.cudart()
    x = torch.zeros(1, device="cuda")
    a = torch.arange(4096, device="cuda", dtype=torch.float32)
    b = torch.full((4096,), 2.0, device="cuda")
    for _ in range(50):  # the lazy loads, the caching allocator's first blocks
        x.add_(1.0)
        a * b + a
    torch.cuda.synchronize()

    rt.cudaProfilerStart()
    for _ in range(n):
        x.add_(1.0)
    rt.cudaProfilerStop()

    rt.cudaProfilerStart()
    for _ in range(n // 2):
        y = a * b + a
    rt.cudaProfilerStop()

    g_x = torch.zeros(1, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        g_x.add_(1.0)
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(100):
            g_x.add_(1.0)
    g.replay()
    torch.cuda.synchronize()
    rt.cudaProfilerStart()
    for _ in range(n):
        g.replay()
    rt.cudaProfilerStop()
    torch.cuda.synchronize()

    ok = (float(x.item()) == 50.0 + n and torch.equal(y, a * 3)
          and float(g_x.item()) == 1.0 + 100 * (1 + n))
    print("torch_calls: %s, n=%d" % ("results right" if ok else "WRONG RESULTS", n))
    return 0 if ok else 1


def count(path, n):
    api = re.compile(r"\] api: (\w+)")
    sections, cur = [], None
    with open(path, errors="replace") as f:
        for line in f:
            m = api.search(line)
            if not m:
                continue
            name = m.group(1)
            if name == "cudaProfilerStart":
                cur = Counter()
            elif name == "cudaProfilerStop":
                if cur is not None:
                    sections.append(cur)
                cur = None
            elif cur is not None:
                cur[name] += 1
    if len(sections) != len(SECTIONS):
        print("expected %d sections, found %d" % (len(SECTIONS), len(sections)))
        return 1
    for title, c in zip(SECTIONS, sections):
        total = sum(c.values())
        print("%s: %.2f runtime calls per operation" % (title, total / n))
        for name, k in c.most_common():
            print("  %-40s %8.2f" % (name, k / n))
    return 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "run":
        return run(int(argv[2]) if len(argv) > 2 else 1000)
    if len(argv) >= 3 and argv[1] == "count":
        return count(argv[2], int(argv[3]) if len(argv) > 3 else 1000)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
