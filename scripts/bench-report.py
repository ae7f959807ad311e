#!/usr/bin/env python3
"""Markdown report of a benchmark run (OUT/bench.json of scripts/bench-run.sh).

    python3 scripts/bench-report.py OUT/bench.json > docs/benchmarks.md

One table per group: NVIDIA's median, ours, ours/NVIDIA, ours built without
the trace and ours over it (issue 4: launch and call groups, when the run
has that library), the raw driver call (where the benchmark has one),
ours/raw and NVIDIA/raw, the spread of the per-process values, the issue's
target (issue 8) and whether it is met.
Ratios are ratios of times: lower is better, 1.00 is a tie. For rates (GB/s,
launch/s) the ratio is inverted (NVIDIA's rate over ours) so it reads the
same way.
"""
import json
import sys

GROUPS = [
    ("launch", "Launch, one thread (legacy default stream)",
     "Host time per launch of an empty kernel `<<<1,1>>>` in a loop (the device is "
     "synchronized, untimed, after each repetition). `p0`/`p8`: 0 or 8 parameters "
     "(8 x 8 bytes). The raw counterpart calls `cuLaunchKernel` (from `libcuda.so.1` by "
     "`dlsym`) on the CUfunction of the same kernel, in the same process."),
    ("launch_mt8", "Launch, 8 threads on 8 streams",
     "8 threads, each launching on its own non-blocking stream, released together by a "
     "barrier: wall time over all launches (ns per launch, aggregate) and its inverse "
     "(`.rate`, launches per second)."),
    ("calls", "Pure runtime calls",
     "Calls the runtime answers from its own state; the push/pop pair is what every "
     "`<<<>>>` does around a launch (`.per_call`: the same loop per call, the row with the "
     "target). `cudaSetDevice` to the current device must ask the driver which context is "
     "current (the program may have made its own current through the driver API; then the "
     "primary context is bound again): its raw counterpart is that question, "
     "`cuCtxGetCurrent`, measured interleaved in the same processes, and its target is 10 ns "
     "over it."),
    ("memory", "Memory", "4-byte copies measure latency; 256 MiB pinned copies bandwidth "
     "(GB/s; the ratio is inverted so that lower is better). `cudaMemset` includes a final "
     "synchronize, amortized over the loop."),
    ("streams", "Streams and events", None),
    ("graph", "Graphs of 100 empty kernels",
     "A chain of 100 kernel nodes built explicitly; the capture benchmark captures 100 "
     "launches on a stream. Launch alone is host time; `+sync` waits for the graph."),
    ("startup", "Start-up (separate processes, one sample each)",
     "`cudaFree(0)` is the first runtime call of the process (context creation). "
     "`k2000_*`: a program with 2,000 kernels in one file, under "
     "`CUDA_MODULE_LOADING=LAZY` (the default) and `EAGER`: the first launch of one of "
     "them, and of a second. `process_wall`: the whole process, exec to exit, timed by "
     "bench-run.sh."),
    ("registration", "Registration of 10,000 kernels in 100 fatbins",
     "`dlopen(RTLD_NOW)` of a generated library of 100 units x 100 kernels, before any "
     "other CUDA call. `ctor_span`: from the library's first constructor to its last "
     "(timestamps linked first and last), i.e. nvcc's registration code; "
     "`dlopen_minus_baseline`: its dlopen time minus that of the same library built as "
     "plain host functions (`k0_baseline`). *no-op floor*: the same under a no-op "
     "runtime whose registration entry points return at once (`bench/nullrt.c`): the part "
     "of the cost no runtime can remove (nvcc's constructor code, 10,000 calls through the "
     "PLT, first touches of the library's pages). Then the first launch of one kernel of the "
     "last fatbin and `dlclose` (unregistration)."),
    ("torch", "PyTorch: `import torch` and the first CUDA operation",
     "`python3` with `LD_PRELOAD` of the libcudart.so.13 under test; "
     "`torch.zeros(1, device='cuda')` + `torch.cuda.synchronize()`."),
    ("torch_ops", "PyTorch eager operations (launch-bound)",
     "`bench/torch_ops.py`, run as the row above: host time per operation of PyTorch's own "
     "kernels, launched by libtorch_cuda through the runtime (`add_`: in place on one "
     "element; `mul_add`: `a * b + a` on 4,096 elements, per operation, with the caching "
     "allocator; `graph_replay`: a CUDA graph of 100 adds, per replay); `+sync` includes the "
     "final `torch.cuda.synchronize()`. Median of 7 repetitions per process; every result "
     "checked. No target of the issue; the runtime's share of each operation."),
]


def target_of(b):
    """(text, check) for the issue's target of this benchmark, or None."""
    name, group = b["name"], b["group"]
    if b.get("is_raw") or name.endswith(".rate"):
        return None  # a driver call; a rate is its ns row's measurement again
    if group in ("launch", "launch_mt8"):
        def check(b):
            r = b.get("ratio_ours_nvidia")
            if r is None:
                return None
            ok = r <= 1.00
            if b.get("raw"):
                rr = b.get("ratio_ours_raw")
                if rr is None:
                    return None
                ok = ok and rr <= 1.02
            return ok
        return ("<=1.00x NVIDIA, <=1.02x raw" if b.get("raw") else "<=1.00x NVIDIA"), check
    if group == "calls":
        if name == "calls.push_pop_call_configuration":
            return None  # the pair; its per-call row carries the target
        if b.get("raw"):
            # One driver question per call is part of the call's meaning
            # (cudaSetDevice: is the primary context current?): the target
            # is the runtime's own cost over that driver call.
            def over_floor(b):
                o, r = b.get("ours_median"), b.get("raw_ours_median")
                return None if o is None or r is None else o - r <= 10
            return "<= 10 ns + the driver call", over_floor
        return "<= 10 ns", lambda b: None if b.get("ours_median") is None else b["ours_median"] <= 10
    if group == "registration":
        if name in ("registration.k10000.ctor_span", "registration.k10000.dlopen_minus_baseline"):
            return "<= 1 ms", (lambda b: None if b.get("ours_median") is None
                               else b["ours_median"] <= 1.0)
        if name.startswith("registration.k10000.first_launch"):
            return "<= NVIDIA", ratio_check
        return None
    if group in ("startup", "torch"):
        return "<= NVIDIA", ratio_check
    return None


def ratio_check(b):
    r = b.get("ratio_ours_nvidia")
    return None if r is None else r <= 1.00


def num(v):
    if v is None:
        return "—"
    a = abs(v)
    if a >= 1000:
        return "%.0f" % v
    if a >= 100:
        return "%.1f" % v
    if a >= 10:
        return "%.2f" % v
    return "%.3g" % v


def ratio(v):
    return "—" if v is None else "%.3f" % v


def spread(xs):
    xs = [x for x in xs or [] if x is not None]
    if len(xs) < 2:
        return None
    xs = sorted(xs)
    med = xs[len(xs) // 2] if len(xs) % 2 else 0.5 * (xs[len(xs) // 2 - 1] + xs[len(xs) // 2])
    return None if not med else 100.0 * (xs[-1] - xs[0]) / abs(med)


def pct(v):
    return "—" if v is None else "%.0f%%" % v


def own_errors(b, rt):
    """The benchmark's own BENCH_ERROR messages (not a failure of its whole
    program, which the Runs section lists), each once, with its runs."""
    seen = {}
    for e in b.get(rt + "_errors") or []:
        run, _, msg = e.partition(": ")
        if msg.startswith("no result ("):
            continue
        if msg.startswith(b["name"] + " "):
            msg = msg[len(b["name"]) + 1:]
        seen.setdefault(msg, []).append(run)
    return ["%s (%s)" % (msg, " ".join(runs)) for msg, runs in seen.items()]


def main():
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return
    if len(sys.argv) != 2:
        sys.exit("usage: bench-report.py OUT/bench.json > docs/benchmarks.md")
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    benches = doc.get("benchmarks", [])
    m, bi, libs = doc.get("machine", {}), doc.get("build_info", {}), doc.get("libraries", {})
    st = doc.get("settings", {})
    w = sys.stdout.write

    w("# Benchmarks: our libcudart.so.13 against NVIDIA's\n\n")
    w("Generated by `scripts/bench-report.py` from the `bench.json` of `scripts/bench-run.sh` "
      "(issue 8). Do not edit by hand. Whole programs and costs as work grows (issue 30): "
      "[wholeprog.md](wholeprog.md).\n\n")
    w("| | |\n|---|---|\n")
    w("| date | %s |\n" % doc.get("generated", "?"))
    gpu = m.get("gpu") or "unknown (no nvidia-smi)"
    drv = m.get("driver_version")
    w("| machine | %s%s; %s, %s CPUs; %s |\n" % (
        gpu, ", driver %s" % drv if drv else "", m.get("cpu") or "?", m.get("nproc", "?"),
        m.get("uname", "?")))
    w("| our library | commit %s%s, built %s (sha256 %s) |\n" % (
        (bi.get("commit") or "unknown")[:12],
        " + %s" % bi["uncommitted changes"] if bi.get("uncommitted changes", "0 paths") not in ("0 paths", "0") else "",
        bi.get("built", "?"), (libs.get("ours", {}).get("sha256") or "?")[:16]))
    nv = libs.get("nvidia", {})
    w("| NVIDIA's library | %s (%s bytes) |\n" % (nv.get("real") or nv.get("path") or "?",
                                                  nv.get("size", "?")))
    nt = libs.get("notrace", {})
    has_notrace = any(b.get("notrace") for b in benches)
    if has_notrace:
        w("| ours, trace compiled out | the same commit built with `--no-default-features` "
          "(no cargo feature `trace`: every event site compiled out), sha256 %s, %s bytes |\n"
          % ((nt.get("sha256") or "?")[:16], nt.get("size", "?")))
    w("| method | %s rounds, alternating (NVIDIA first in odd rounds, ours first in even); "
      "in-process benchmarks: median of %s repetitions of ~%s ms each, one value per process; "
      "start-up programs: %s processes per round; the table shows the median over the "
      "processes |\n\n" % (st.get("rounds", "?"), st.get("reps", "?"), st.get("rep_ms", "?"),
                           st.get("startup_reps", "?")))

    # Target summary.
    rows = []
    for b in benches:
        t = target_of(b)
        if t:
            res = t[1](b)
            rows.append((b, t[0], res))
    met = sum(1 for r in rows if r[2] is True)
    missed = sum(1 for r in rows if r[2] is False)
    nodata = sum(1 for r in rows if r[2] is None)
    w("## Targets\n\n")
    w("%d benchmarks carry a target of issue 8: **%d met, %d missed, %d without data**.\n\n"
      % (len(rows), met, missed, nodata))
    w("| target | met | missed | no data |\n|---|---|---|---|\n")
    classes = [
        ("launches: ours/NVIDIA <= 1.00 and ours/raw driver <= 1.02 (single and 8 threads)",
         lambda b: b["group"] in ("launch", "launch_mt8")),
        ("pure runtime calls <= 10 ns", lambda b: b["group"] == "calls"),
        ("start-up, lazy first launch, import torch <= NVIDIA",
         lambda b: b["group"] in ("startup", "torch")
         or b["name"].startswith("registration.k10000.first_launch")),
        ("registration of 10,000 kernels <= 1 ms",
         lambda b: b["group"] == "registration"
         and not b["name"].startswith("registration.k10000.first_launch")),
    ]
    for text, pred in classes:
        sel = [r for r in rows if pred(r[0])]
        w("| %s | %d | %d | %d |\n" % (text, sum(1 for r in sel if r[2] is True),
                                       sum(1 for r in sel if r[2] is False),
                                       sum(1 for r in sel if r[2] is None)))
    w("\n")
    # The drift-free comparison: each runtime's cost over the raw driver
    # call measured in its own processes (paired repetitions), so that the
    # machine's drift between processes cancels.
    paired = [b for b in benches if b["group"] in ("launch", "launch_mt8") and b.get("raw")
              and not b["name"].endswith(".rate")
              and b.get("ratio_ours_raw") is not None and b.get("ratio_nvidia_raw") is not None]
    if paired:
        less = sum(1 for b in paired if b["ratio_ours_raw"] < b["ratio_nvidia_raw"])
        w("Launches, drift-free: ours adds less over the raw `cuLaunchKernel` of its own "
          "processes than NVIDIA's over the raw call of its own in **%d of %d** rows "
          "(ours/raw %s-%s, NVIDIA/raw %s-%s).\n\n"
          % (less, len(paired),
             ratio(min(b["ratio_ours_raw"] for b in paired)),
             ratio(max(b["ratio_ours_raw"] for b in paired)),
             ratio(min(b["ratio_nvidia_raw"] for b in paired)),
             ratio(max(b["ratio_nvidia_raw"] for b in paired))))

    w("Columns: medians over the processes; *spread*: (max - min) / median of the "
      "per-process values, NVIDIA / ours; *raw driver*: the driver call measured in the same "
      "processes (both runtimes pooled); ratios are of times, lower is better; *ours/raw* and "
      "*NVIDIA/raw*: where the benchmark ran interleaved with its raw counterpart (repetitions "
      "A B, B A, ... in one process), the median over processes of the median ratio of "
      "adjacent repetitions, which cancels the machine's drift within a process.")
    if has_notrace:
        w(" *ours (trace compiled out)*: our library built without trace support, run next to "
          "ours in every round; *ours/compiled out* near 1.00 means the trace, compiled in but "
          "off (one relaxed atomic load per event site and per call), costs nothing measurable "
          "(issue 4).")
    w("\n\n")

    known = [g for g, _, _ in GROUPS]
    groups = list(GROUPS) + [(g, g, None) for g in
                             dict.fromkeys(b["group"] for b in benches) if g not in known]
    for key, title, note in groups:
        sel = [b for b in benches if b["group"] == key]
        if not sel:
            continue
        w("## %s\n\n" % title)
        if note:
            w(note + "\n\n")
        has_raw = any(b.get("raw") for b in sel)
        has_floor = key == "registration"
        has_nt = any(b.get("notrace") for b in sel)
        head = ["benchmark", "unit", "NVIDIA", "ours", "ours/NVIDIA"]
        if has_nt:
            head += ["ours (trace compiled out)", "ours/compiled out"]
        if has_floor:
            head += ["no-op floor"]
        if has_raw:
            head += ["raw driver", "ours/raw", "NVIDIA/raw"]
        head += ["spread", "target", "status"]
        w("| " + " | ".join(head) + " |\n")
        w("|" + "|".join("---" for _ in head) + "|\n")
        notes = []
        for b in sel:
            t = target_of(b)
            res = t[1](b) if t else None
            if t is None:
                status = ("driver call" if b.get("is_raw") else
                          "as ns row" if b["name"].endswith(".rate") else "")
            elif res is None:
                status = "no data"
            else:
                status = "met" if res else "**missed**"
            name = "`%s`" % b["name"]
            cells = [name, b["unit"], num(b.get("nvidia_median")), num(b.get("ours_median")),
                     ratio(b.get("ratio_ours_nvidia"))]
            if has_nt:
                cells += [num(b.get("notrace_median")), ratio(b.get("ratio_ours_notrace"))]
            if has_floor:
                cells += [num(b.get("floor_median")) if b.get("floor") else ""]
            if has_raw:
                if b.get("raw"):
                    cells += [num(b.get("raw_median")), ratio(b.get("ratio_ours_raw")),
                              ratio(b.get("ratio_nvidia_raw"))]
                else:
                    cells += ["", "", ""]
            cells += ["%s / %s" % (pct(spread(b.get("nvidia"))), pct(spread(b.get("ours")))),
                      t[0] if t else "", status]
            w("| " + " | ".join(cells) + " |\n")
            for rt, who in (("nvidia", "NVIDIA"), ("ours", "ours"),
                            ("notrace", "ours, trace compiled out")):
                for e in own_errors(b, rt):
                    notes.append("`%s` (%s): %s" % (b["name"], who, e))
        if notes:
            w("\n<details><summary>%d errors</summary>\n\n" % len(notes))
            for n in notes[:40]:
                w("- %s\n" % n.replace("|", "\\|"))
            if len(notes) > 40:
                w("- ... %d more\n" % (len(notes) - 40))
            w("\n</details>\n")
        w("\n")

    # Runs that failed, condensed.
    runs = doc.get("runs", [])
    failed = {}
    for r in runs:
        if r.get("skipped"):
            key = (r["program"], r["runtime"], "skipped: %s" % (r.get("why_skipped") or "?"))
        elif r.get("rc") != 0 or r.get("errors"):
            key = (r["program"], r["runtime"], "rc=%s: %s" % (
                r.get("rc"), "; ".join(r.get("errors", [])[:2])[:200]))
        else:
            continue
        failed.setdefault(key, []).append("r%d-%d" % (r["round"], r["rep"]))
    summ = doc.get("summary", {})
    w("## Runs\n\n")
    w("%d processes, %d skipped; failed: NVIDIA %s, ours %s; timed out: NVIDIA %s, ours %s" % (
        summ.get("runs", len(runs)), summ.get("skipped_runs", 0),
        summ.get("failed_runs", {}).get("nvidia", "?"), summ.get("failed_runs", {}).get("ours", "?"),
        summ.get("timed_out_runs", {}).get("nvidia", "?"),
        summ.get("timed_out_runs", {}).get("ours", "?")))
    if "notrace" in summ.get("failed_runs", {}):
        w("; ours with the trace compiled out: failed %s, timed out %s" % (
            summ["failed_runs"]["notrace"], summ.get("timed_out_runs", {}).get("notrace", "?")))
    w(".\n\n")
    # Runs written before bench-run.sh knew it: torch under NVIDIA's runtime
    # loads the copy of NVIDIA's library in torch's wheel, as intended.
    mism = [m for m in summ.get("libcudart_mismatches") or []
            if not (m.split("/", 1)[0].startswith("torch") and "/nvidia r" in m
                    and m.endswith("/site-packages/nvidia/cu13/lib/libcudart.so.13"))]
    wheel = sorted({x for r in runs if r.get("program", "").startswith("torch") and r.get("runtime") == "nvidia"
                    for x in r.get("libcudart") or []})
    if wheel:
        w("The PyTorch programs under NVIDIA's runtime loaded %s (NVIDIA's library from torch's own wheel).\n\n"
          % ", ".join("`%s`" % x for x in wheel))
    if mism:
        w("**The loaded libcudart.so.13 was not the one intended** in %d runs: %s\n\n"
          % (len(mism), "; ".join(mism[:5])))
    if failed:
        w("| program | runtime | runs | what |\n|---|---|---|---|\n")
        for (prog, rt, what), which in sorted(failed.items()):
            w("| %s | %s | %s | %s |\n" % (prog, rt, " ".join(which),
                                           what.replace("|", "\\|").replace("\n", " ")))
        w("\n")


if __name__ == "__main__":
    main()
