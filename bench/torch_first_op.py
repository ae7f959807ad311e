"""import torch and the first CUDA operation, timed in-process.

bench-run.sh runs it with LD_PRELOAD of the libcudart.so.13 under test.
Prints BENCH lines (bench/README.md); `--list` prints the declarations.
"""
import sys
import time

from torchbench import info_line

NAMES = ("torch.import", "torch.first_cuda_op", "torch.import+first_cuda_op")

if len(sys.argv) > 1 and sys.argv[1] == "--list":
    for n in NAMES:
        print("BENCH_DECL %s ms" % n)
    sys.exit(0)

t0 = time.perf_counter()
try:
    import torch
except Exception as e:  # noqa: BLE001 - any failure is a result here
    print("BENCH_ERROR torch.import -1 %s %s" % (type(e).__name__, str(e).replace("\n", " ")[:300]))
    sys.exit(7)
t1 = time.perf_counter()
try:
    x = torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    t2 = time.perf_counter()
    ok = float(x.sum().item()) == 0.0
except Exception as e:  # noqa: BLE001
    print("BENCH torch.import %.6g ms 1" % ((t1 - t0) * 1e3))
    print("BENCH_ERROR torch.first_cuda_op -1 %s %s" % (type(e).__name__, str(e).replace("\n", " ")[:300]))
    sys.exit(8)

print(info_line(torch))
print("BENCH torch.import %.6g ms 1" % ((t1 - t0) * 1e3))
print("BENCH torch.first_cuda_op %.6g ms 1" % ((t2 - t1) * 1e3))
print("BENCH torch.import+first_cuda_op %.6g ms 1" % ((t2 - t0) * 1e3))
if not ok:
    print("BENCH_ERROR torch.check -1 wrong-result zeros(1).sum() != 0")
    sys.exit(9)
