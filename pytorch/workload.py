"""A PyTorch workload that exercises libcudart.so.13 the way real programs do.

Run it under NVIDIA's runtime and under ours (pytorch/run.sh does both, in
one device run) and compare the JSON it prints: every part reports whether
it ran, a digest of its results (sha256 of the result tensors' bytes, so
"same digest" means bitwise the same) or the values themselves, and its
wall time.

    python3 pytorch/workload.py [--parts a,b,...] [--steps N] > result.json

Parts (all deterministic unless noted; see pytorch/README.md):
  first_op     import torch, the first CUDA tensor (time to first op)
  elementwise  elementwise ops, reductions, indexing, sorting (CUB)
  matmul       fp32 (TF32 off), fp16 and bf16 matmuls (cuBLAS)
  train_amp    a small conv net trained for --steps steps with AMP
               (cuDNN + cuBLAS), deterministic settings; losses per step
  streams      streams and events from Python, elapsed time, synchronize
  dataloader   pinned-memory batches from a DataLoader with 2 workers,
               copied with non_blocking=True
  graphs       torch.cuda.graph capture and replay
  allocator    the caching allocator's memory statistics
  alloc_async  the same under PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync
               (a child process: the backend is chosen at CUDA init)
  compile      a torch.compile'd function (Triton kernels next to ours);
               compared with a tolerance (fused arithmetic)
  ipc          a CUDA tensor shared with a child process
               (torch.multiprocessing, CUDA IPC handles)
  torchvision  torchvision.ops.nms and roi_align on the GPU
  nccl         torch.distributed with the NCCL backend at world size 1:
               all_reduce, broadcast and all_gather on a side stream,
               barrier (NCCL's own embedded runtime meets ours on the
               application's streams and events)
Every process also reports which libcudart files it had mapped.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

ALL_PARTS = ("first_op", "elementwise", "matmul", "train_amp", "streams",
             "dataloader", "graphs", "allocator", "alloc_async", "compile",
             "ipc", "torchvision", "nccl")


def mapped_cudarts():
    libs = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                p = line.split()
                if len(p) >= 6 and "libcudart" in p[-1] and p[-1] not in libs:
                    libs.append(p[-1])
    except OSError:
        pass
    return libs


def digest(*tensors):
    h = hashlib.sha256()
    for t in tensors:
        t = t.detach().contiguous().cpu()
        h.update(str(t.dtype).encode())
        h.update(str(tuple(t.shape)).encode())
        h.update(t.view(-1).view(__import__("torch").uint8).numpy().tobytes()
                 if t.numel() else b"")
    return h.hexdigest()[:32]


# ---------------------------------------------------------------- parts

def part_first_op(torch, args, t_import):
    t0 = time.perf_counter()
    x = torch.ones(4, device="cuda")
    torch.cuda.synchronize()
    t1 = time.perf_counter()
    return {"value": float(x.sum().item()), "import_s": t_import,
            "first_op_s": t1 - t0, "device": torch.cuda.get_device_name(0)}


def part_elementwise(torch, args):
    g = torch.Generator(device="cuda").manual_seed(1)
    a = torch.randn(1 << 20, device="cuda", generator=g)
    b = torch.rand(1 << 20, device="cuda", generator=g)
    ew = torch.sin(a) * b + torch.exp(-a.abs()) - a.clamp(-1, 1) ** 2
    red = torch.stack([ew.sum(), ew.mean(), ew.amax(), ew.amin(), ew.norm(),
                       ew.var(), (ew > 0).sum().float()])
    idx = torch.randint(0, a.numel(), (4096,), device="cuda", generator=g)
    gathered = a[idx]
    masked = a[a > 1.5]
    scattered = torch.zeros(4096, device="cuda").index_copy(0, torch.arange(4096, device="cuda").flip(0), gathered)
    vals, order = torch.sort(a)
    topv, topi = torch.topk(b, 100)
    uniq = torch.unique(torch.randint(0, 1000, (100000,), device="cuda", generator=g))
    cums = torch.cumsum(b[:100000], 0)
    torch.cuda.synchronize()
    return {"digest": digest(ew, red, gathered, masked, scattered, vals, order, topv, topi, uniq, cums),
            "sum": float(red[0])}


def part_matmul(torch, args):
    torch.backends.cuda.matmul.allow_tf32 = False
    g = torch.Generator(device="cuda").manual_seed(2)
    out = []
    for dt in (torch.float32, torch.float16, torch.bfloat16):
        a = torch.randn(1024, 768, device="cuda", generator=g).to(dt)
        b = torch.randn(768, 512, device="cuda", generator=g).to(dt)
        out.append(a @ b)
        out.append(torch.baddbmm(torch.zeros(8, 64, 64, device="cuda", dtype=dt),
                                 a[:512, :96].reshape(8, 64, 96),
                                 b[:, :64].reshape(8, 96, 64)))
    torch.cuda.synchronize()
    return {"digest": digest(*out), "fp32_sum": float(out[0].double().sum())}


def part_train_amp(torch, args):
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.manual_seed(3)
    nn = torch.nn
    model = nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 64, 3, padding=1, stride=2), nn.BatchNorm2d(64), nn.ReLU(),
        nn.Conv2d(64, 64, 3, padding=1, stride=2), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    scaler = torch.amp.GradScaler("cuda")
    g = torch.Generator(device="cuda").manual_seed(4)
    data = torch.randn(args.steps, 64, 3, 32, 32, device="cuda", generator=g)
    target = torch.randint(0, 10, (args.steps, 64), device="cuda", generator=g)
    losses = []
    t0 = time.perf_counter()
    for step in range(args.steps):
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.float16):
            loss = nn.functional.cross_entropy(model(data[step]), target[step])
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        losses.append(loss.detach())
    losses = torch.stack(losses).float().cpu().tolist()
    torch.cuda.synchronize()
    return {"losses": losses, "steps_per_s": args.steps / (time.perf_counter() - t0),
            "params_digest": digest(*[p for p in model.parameters()])}


def part_streams(torch, args):
    s1, s2 = torch.cuda.Stream(), torch.cuda.Stream(priority=-1)
    start, mid, end = (torch.cuda.Event(enable_timing=True) for _ in range(3))
    x = torch.arange(1 << 20, device="cuda", dtype=torch.float32)
    start.record()
    with torch.cuda.stream(s1):
        s1.wait_stream(torch.cuda.current_stream())
        y = x * 2
        mid.record(s1)
    with torch.cuda.stream(s2):
        s2.wait_event(mid)
        z = y + 1
    torch.cuda.current_stream().wait_stream(s2)
    end.record()
    end.synchronize()
    ok_query = end.query() and s1.query() and s2.query()
    torch.cuda.synchronize()
    ms = start.elapsed_time(end)
    return {"digest": digest(z), "queries_done": bool(ok_query),
            "priority": s2.priority, "elapsed_ms_positive": ms > 0}


def part_dataloader(torch, args):
    from torch.utils.data import DataLoader, TensorDataset
    g = torch.Generator().manual_seed(5)
    ds = TensorDataset(torch.randn(2048, 256, generator=g), torch.arange(2048))
    dl = DataLoader(ds, batch_size=128, shuffle=False, num_workers=2, pin_memory=True)
    total = torch.zeros(256, device="cuda", dtype=torch.float64)
    pinned = 0
    n = 0
    for xb, yb in dl:
        pinned += int(xb.is_pinned())
        xg = xb.cuda(non_blocking=True)
        total += xg.double().sum(0)
        n += int(yb.cuda(non_blocking=True).sum().item())
    torch.cuda.synchronize()
    return {"digest": digest(total), "batches_pinned": pinned, "index_sum": n}


def part_graphs(torch, args):
    torch.manual_seed(6)  # before the Linear: its weights come from the CPU generator
    static_in = torch.zeros(4096, device="cuda")
    lin = torch.nn.Linear(4096, 256).cuda()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):  # warm-up on a side stream, as the docs ask
        for _ in range(3):
            lin(static_in.relu())
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        static_out = lin(static_in.relu()) * 2
    outs = []
    gen = torch.Generator(device="cuda").manual_seed(7)
    for _ in range(10):
        static_in.copy_(torch.randn(4096, device="cuda", generator=gen))
        g.replay()
        outs.append(static_out.clone())
    torch.cuda.synchronize()
    eager = lin(static_in.relu()) * 2
    return {"digest": digest(*outs), "replay_equals_eager": bool(torch.equal(outs[-1], eager))}


def part_allocator(torch, args):
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    ts = [torch.empty(n * 1024, device="cuda") for n in (1, 7, 64, 512, 4096)]
    allocated = torch.cuda.memory_allocated() - base
    del ts[1]
    after_free = torch.cuda.memory_allocated() - base
    big = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    peak = torch.cuda.max_memory_allocated() - base
    del big, ts
    torch.cuda.synchronize()
    stats = torch.cuda.memory_stats()
    free, total = torch.cuda.mem_get_info()
    return {"backend": torch.cuda.get_allocator_backend(), "allocated": allocated,
            "after_free": after_free, "peak": peak,
            "end_allocated": torch.cuda.memory_allocated() - base,
            "num_alloc_retries": stats.get("num_alloc_retries", 0),
            "mem_get_info_sane": 0 < free <= total}


def part_alloc_async(torch, args):
    env = dict(os.environ, PYTORCH_CUDA_ALLOC_CONF="backend:cudaMallocAsync")
    cmd = [sys.executable, os.path.abspath(__file__), "--parts", "allocator,graphs,elementwise",
           "--child"]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError("child rc %d: %s" % (p.returncode, p.stderr[-600:]))
    child = json.loads(p.stdout)
    bad = [k for k, v in child["parts"].items() if not v.get("ok")]
    if bad:
        raise RuntimeError("child parts failed: %s" % {k: child["parts"][k].get("error") for k in bad})
    res = {k: v["result"] for k, v in child["parts"].items()}
    res["child_libcudart"] = child["libcudart"]
    return res


def _compiled(x, y):
    import torch
    return torch.nn.functional.gelu(x @ y) * torch.sigmoid(x.sum(-1, keepdim=True)) + y.mean()


def part_compile(torch, args):
    torch.backends.cuda.matmul.allow_tf32 = False
    f = torch.compile(_compiled)
    g = torch.Generator(device="cuda").manual_seed(8)
    x = torch.randn(512, 512, device="cuda", generator=g)
    y = torch.randn(512, 512, device="cuda", generator=g)
    t0 = time.perf_counter()
    out = f(x, y)
    torch.cuda.synchronize()
    t1 = time.perf_counter()
    out2 = f(x, y)
    torch.cuda.synchronize()
    ref = _compiled(x, y)
    return {"digest": digest(out), "repeat_same": bool(torch.equal(out, out2)),
            "max_abs_vs_eager": float((out - ref).abs().max()),
            "close_to_eager": bool(torch.allclose(out, ref, rtol=1e-4, atol=1e-4)),
            "compile_and_first_call_s": t1 - t0}


def _ipc_child(t, q):
    import torch
    t.mul_(3).add_(1)  # in place, on the parent's memory (CUDA IPC)
    torch.cuda.synchronize()
    q.put({"child_sum": float(t.sum().item()), "libcudart": mapped_cudarts()})


def part_ipc(torch, args):
    import torch.multiprocessing as mp
    ctx = mp.get_context("spawn")
    t = torch.arange(1000, device="cuda", dtype=torch.float32)
    q = ctx.Queue()
    p = ctx.Process(target=_ipc_child, args=(t, q))
    p.start()
    child = q.get(timeout=240)
    p.join(60)
    torch.cuda.synchronize()
    expect = torch.arange(1000, device="cuda", dtype=torch.float32) * 3 + 1
    return {"child_rc": p.exitcode, "parent_sees_child_write": bool(torch.equal(t, expect)),
            "child_sum": child["child_sum"], "child_libcudart": child["libcudart"]}


def part_torchvision(torch, args):
    import torchvision
    g = torch.Generator(device="cuda").manual_seed(9)
    xy = torch.rand(2000, 2, device="cuda", generator=g) * 500
    wh = torch.rand(2000, 2, device="cuda", generator=g) * 60 + 1
    boxes = torch.cat([xy, xy + wh], 1)
    scores = torch.rand(2000, device="cuda", generator=g)
    keep = torchvision.ops.nms(boxes, scores, 0.5)
    feat = torch.randn(1, 8, 64, 64, device="cuda", generator=g)
    rois = torch.tensor([[0, 1.0, 1.0, 30.0, 30.0], [0, 10.0, 5.0, 60.0, 40.0]], device="cuda")
    pooled = torchvision.ops.roi_align(feat, rois, (7, 7), spatial_scale=1.0, sampling_ratio=2)
    torch.cuda.synchronize()
    return {"version": torchvision.__version__, "kept": int(keep.numel()),
            "digest": digest(keep, pooled)}


def part_nccl(torch, args):
    import socket
    import torch.distributed as dist
    with socket.socket() as sock:  # a free loopback port for the rendezvous
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:%d" % port,
                            rank=0, world_size=1, device_id=torch.device("cuda", 0))
    try:
        x = torch.arange(4096, device="cuda", dtype=torch.float32)
        dist.all_reduce(x)
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            y = torch.full((1024,), 3.0, device="cuda")
            dist.broadcast(y, src=0)
            out = [torch.empty_like(y)]
            dist.all_gather(out, y)
        torch.cuda.current_stream().wait_stream(s)
        work = dist.all_reduce(x, async_op=True)
        work.wait()
        dist.barrier()
        torch.cuda.synchronize()
        return {"backend": dist.get_backend(), "world": dist.get_world_size(),
                "nccl": ".".join(map(str, torch.cuda.nccl.version())),
                "digest": digest(x, out[0])}
    finally:
        dist.destroy_process_group()


# ---------------------------------------------------------------- driver

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", default=",".join(ALL_PARTS))
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    parts = [p for p in args.parts.split(",") if p]
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

    t0 = time.perf_counter()
    import torch
    t_import = time.perf_counter() - t0
    torch.use_deterministic_algorithms(True, warn_only=True)

    doc = {"torch": torch.__version__, "cuda": torch.version.cuda,
           "alloc_conf": os.environ.get("PYTORCH_CUDA_ALLOC_CONF", ""), "parts": {}}
    for name in parts:
        fn = globals()["part_" + name]
        t = time.perf_counter()
        try:
            res = fn(torch, args, t_import) if name == "first_op" else fn(torch, args)
            doc["parts"][name] = {"ok": True, "result": res, "time_s": time.perf_counter() - t}
        except Exception as e:  # noqa: BLE001 - a failure is a result here
            doc["parts"][name] = {"ok": False, "error": "%s: %s" % (type(e).__name__, str(e)[:800]),
                                  "time_s": time.perf_counter() - t}
        if not args.child:
            print("workload: %-12s %s %.2fs" % (name, "ok" if doc["parts"][name]["ok"] else
                                                 "FAIL " + doc["parts"][name]["error"][:200],
                                                 doc["parts"][name]["time_s"]), file=sys.stderr)
    doc["libcudart"] = mapped_cudarts()
    doc["total_s"] = time.perf_counter() - t0
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
