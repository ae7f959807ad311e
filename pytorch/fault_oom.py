"""Recovery from an injected out-of-memory in PyTorch's caching allocator.

Our runtime's CUDART_FAULTS makes chosen runtime calls fail (see
c-samples/insight/). Here it makes PyTorch's own cudaMalloc fail, to show
what the caching allocator does about it:

  1. a 256 MiB tensor is allocated (the allocator's 1st cudaMalloc), then
     deleted: the segment stays cached (memory_reserved stays 256 MiB);
  2. a 512 MiB tensor is allocated: the cache cannot serve it, so the
     allocator calls cudaMalloc again (the 2nd call).
     - CUDART_FAULTS=cudaMalloc:2=cudaErrorMemoryAllocation: that call fails
       once; the allocator clears the error, frees its cached segments
       (cudaFree of the 256 MiB) and retries (the 3rd call), which succeeds:
       memory_stats()['num_alloc_retries'] == 1, the tensor's values are
       right.                                              --expect retry
     - CUDART_FAULTS=cudaMalloc:2+=cudaErrorMemoryAllocation: the retry fails
       too and PyTorch raises torch.cuda.OutOfMemoryError; the script
       catches it, frees what it holds (empty_cache) and computes the same
       tensor on the CPU instead.                          --expect oom
     - no CUDART_FAULTS (or NVIDIA's runtime): no retry, no error.
                                                           --expect none
A process cannot change CUDART_FAULTS once the runtime has read it, hence
one run per case. Run on our runtime through scripts/with-cudart.sh, as
pytorch/run.sh runs workload.py (LD_PRELOAD of our libcudart.so.13, the
alias directory for renamed vendored copies, scripts/pyshim on PYTHONPATH
for torch's ctypes preload):

  CUDART_FAULTS=cudaMalloc:2=cudaErrorMemoryAllocation \\
    scripts/with-cudart.sh --lib LIBDIR --check -- python3 pytorch/fault_oom.py --expect retry
  CUDART_FAULTS=cudaMalloc:2+=cudaErrorMemoryAllocation \\
    scripts/with-cudart.sh --lib LIBDIR --check -- python3 pytorch/fault_oom.py --expect oom
  scripts/with-cudart.sh --lib LIBDIR -- python3 pytorch/fault_oom.py --expect none
  python3 pytorch/fault_oom.py --expect none          # NVIDIA's runtime

The call numbers assume that nothing else calls cudaMalloc before the
256 MiB tensor: no GPU work here before it, and the default allocator
(PYTORCH_CUDA_ALLOC_CONF without backend:cudaMallocAsync or
expandable_segments, which do not allocate through cudaMalloc; the script
refuses those, exit 2). Every step prints one JSON line on stdout; the last
is the result. Exit status 1 if what happened is not what --expect says.
"""
import argparse
import gc
import json
import os
import sys
import time

from workload import mapped_cudarts  # beside this file

SMALL = 256 << 20  # bytes
BIG = 512 << 20
STAT_KEYS = ("num_alloc_retries", "num_ooms", "num_device_alloc", "num_device_free",
             "segment.all.allocated", "segment.all.freed", "reserved_bytes.all.current")


def emit(**kw):
    print(json.dumps(kw), flush=True)


def stats(torch, base=None):
    s = torch.cuda.memory_stats()
    out = {k: s.get(k, 0) for k in STAT_KEYS}
    if base:  # counters as deltas from base; the current value as is
        for k in STAT_KEYS:
            if not k.endswith(".current"):
                out[k] -= base.get(k, 0)
    return out


def main():
    ap = argparse.ArgumentParser(description="recovery from an injected cudaMalloc failure in PyTorch")
    ap.add_argument("--expect", choices=("retry", "oom", "none"), required=True)
    args = ap.parse_args()

    import torch
    conf = os.environ.get("PYTORCH_CUDA_ALLOC_CONF", "") + "," + os.environ.get("PYTORCH_ALLOC_CONF", "")
    torch.cuda.init()
    backend = torch.cuda.get_allocator_backend()
    emit(event="start", torch=torch.__version__, device=torch.cuda.get_device_name(0),
         faults=os.environ.get("CUDART_FAULTS"), allocator=backend, libcudart=mapped_cudarts())
    if backend != "native" or "expandable_segments:true" in conf.replace(" ", "").lower():
        emit(event="refused", why="needs the native caching allocator without expandable segments",
             alloc_conf=conf)
        return 2
    base = stats(torch)

    # 1. 256 MiB, deleted: cached, not returned to the driver.
    a = torch.full((SMALL // 4,), 1.0, dtype=torch.float32, device="cuda")
    torch.cuda.synchronize()
    del a
    emit(event="small freed", mib=SMALL >> 20, reserved_mib=torch.cuda.memory_reserved() >> 20,
         allocated_mib=torch.cuda.memory_allocated() >> 20, stats=stats(torch, base))

    # 2. 512 MiB: a new segment; the injected failure lands here.
    n = BIG // 4
    saw, values_ok, err = None, None, None
    t0 = time.perf_counter()
    try:
        b = torch.arange(n, dtype=torch.int32, device="cuda")
        torch.cuda.synchronize()
        st = stats(torch, base)
        saw = "retry" if st["num_alloc_retries"] > 0 else "none"
        values_ok = torch.equal(b.cpu(), torch.arange(n, dtype=torch.int32))
        emit(event="big allocated", mib=BIG >> 20, ms=round((time.perf_counter() - t0) * 1e3, 3),
             num_alloc_retries=st["num_alloc_retries"], values_ok=values_ok,
             reserved_mib=torch.cuda.memory_reserved() >> 20, stats=st)
        del b
    except torch.cuda.OutOfMemoryError as e:
        saw = "oom"
        err = str(e).splitlines()[0][:300]
        st = stats(torch, base)
        emit(event="caught OutOfMemoryError", message=err,
             num_alloc_retries=st["num_alloc_retries"], stats=st)
        # Free what is held (nothing but cached segments by now) and fall
        # back to the CPU.
        e = None
        gc.collect()
        torch.cuda.empty_cache()
        c = torch.arange(n, dtype=torch.int32)
        values_ok = int(c.sum(dtype=torch.int64)) == n * (n - 1) // 2 and int(c[-1]) == n - 1
        emit(event="cpu fallback", mib=BIG >> 20, values_ok=values_ok,
             reserved_mib=torch.cuda.memory_reserved() >> 20)

    final = stats(torch, base)
    ok = saw == args.expect and bool(values_ok)
    if args.expect == "retry":
        ok = ok and final["num_alloc_retries"] == 1 and final["num_ooms"] == 0
    elif args.expect == "none":
        ok = ok and final["num_alloc_retries"] == 0 and final["num_ooms"] == 0
    emit(result=saw, expect=args.expect, ok=ok, values_ok=values_ok,
         num_alloc_retries=final["num_alloc_retries"], num_ooms=final["num_ooms"],
         faults=os.environ.get("CUDART_FAULTS"), stats=final)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
