#!/usr/bin/env python3
"""Markdown report of the scale benchmarks (OUT/scale.json of
bench/scale/run.sh, issue 30): how each runtime call's cost grows with the
number of objects, threads, graph nodes, fatbins or kernels, under NVIDIA's
libcudart.so.13 and ours.

    python3 scripts/scale-report.py OUT/scale.json [--png docs/scale-report.png] \\
        [--growth 1.5] [--meta "date, commit, machine"] > docs/scale-report.md

For every benchmark and N: the median ns per operation over the rounds,
per runtime, and ours/NVIDIA. Per benchmark: the growth of the ratio
(ours/NVIDIA at the largest N both reached over ours/NVIDIA at the
smallest) and each runtime's growth exponent (the slope of log ns_per_op
over log N between those two points: 0 is a constant cost per operation, 1
a cost per operation that grows linearly with N). A benchmark is flagged
when the ratio grows by more than --growth (default 1.5) both between the
two end points and along a least-squares line through every N (log ratio
over log N, read between the same two N): ours grows faster than NVIDIA's
over the whole curve, not at one noisy end point; a benchmark whose end
points alone grow that much is listed apart. Benchmarks whose name has a
part starting `drv_` (the driver's own calls, timed in the same processes as
the runtime's) are the run's controls: no runtime sits between, so how far
their ratio moves is the noise floor of the growth measure in that run, and
the summary says which flagged benchmarks grew beyond it. Sweeps that
stopped early (a failed create, the time budget) and failed result checks
are listed. With --png (and matplotlib) the curves are drawn on log-log
axes, one panel per benchmark.
"""
import argparse
import json
import math
import os
import sys


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return None if not n else (xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2)


def fmt_ns(x):
    if x is None:
        return "-"
    if x >= 1e9:
        return "%.2f s" % (x / 1e9)
    if x >= 1e6:
        return "%.2f ms" % (x / 1e6)
    if x >= 1e4:
        return "%.1f us" % (x / 1e3)
    return "%.0f ns" % x


def fmt_n(n):
    """1e4, 3e5 for round numbers from 1000 on; the number otherwise."""
    if n >= 1000:
        e = len(str(n)) - 1
        d, r = divmod(n, 10 ** e)
        if r == 0:
            return "%de%d" % (d, e)
    return str(n)


def collect(doc):
    """{bench: {n: {rt: [ns_per_op...]}}}, stops, failed checks, lib problems."""
    data, stops, checks, libs, runs = {}, [], [], [], {}
    for run in doc.get("runs", []):
        rt = run.get("runtime")
        key = (run.get("program"), rt)
        runs.setdefault(key, {"ran": 0, "skipped": 0, "rc": set(), "timed_out": 0})
        if run.get("skipped"):
            runs[key]["skipped"] += 1
            continue
        runs[key]["ran"] += 1
        runs[key]["rc"].add(run.get("rc"))
        runs[key]["timed_out"] += bool(run.get("timed_out"))
        if not run.get("libcudart_ok", True):
            libs.append((run.get("program"), rt, run.get("round"), run.get("libcudart")))
        for r in run.get("results", []):
            b = r.get("bench")
            if not b or b == "info":
                continue
            if "stopped" in r:
                stops.append((b, rt, run.get("round"), r.get("n"), r["stopped"], r.get("error", "")))
                continue
            if r.get("check") is False:
                checks.append((b, rt, run.get("round"), r.get("n")))
            if r.get("ns_per_op") is None or r.get("n") is None:
                continue
            data.setdefault(b, {}).setdefault(int(r["n"]), {}).setdefault(rt, []).append(
                float(r["ns_per_op"]))
    return data, stops, checks, libs, runs


def held_memory(doc):
    """{n: {rt: [(loaded_bytes, freed_bytes)...]}} from the kernels.dlclose rows."""
    mem = {}
    for run in doc.get("runs", []):
        for r in run.get("results", []):
            if r.get("bench") == "kernels.dlclose" and "freed_bytes" in r and r.get("n") is not None:
                mem.setdefault(int(r["n"]), {}).setdefault(run.get("runtime"), []).append(
                    (r.get("loaded_bytes", 0), r["freed_bytes"]))
    return mem


def fmt_mib(b):
    return "%.1f" % (b / 2**20)


def is_control(bench):
    """A driver-only benchmark (e.g. event.drv_pair, threads.drv_event_pair)."""
    return any(part.startswith("drv_") for part in bench.split(".")[1:])


def noise_floor(analyses):
    """The largest factor by which a control's ratio moved over N (either
    way), and the controls measured at two or more N."""
    controls = [a for a in analyses if is_control(a["bench"]) and a["growth"]]
    floor = max((max(a["growth"], 1 / a["growth"]) for a in controls), default=None)
    return floor, controls


def fitted_growth(both):
    """The ratio's growth between the first and last N of `both` along the
    least-squares line of log(ratio) over log(N); None under three points."""
    if len(both) < 3:
        return None
    xs = [math.log(r["n"]) for r in both]
    ys = [math.log(r["ratio"]) for r in both]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return math.exp(slope * (xs[-1] - xs[0]))


def analyse(bench, per_n, growth_limit):
    rows = []
    for n in sorted(per_n):
        m = {rt: median(per_n[n].get(rt, [])) for rt in ("nvidia", "ours")}
        ratio = m["ours"] / m["nvidia"] if m["nvidia"] and m["ours"] else None
        rows.append({"n": n, "nvidia": m["nvidia"], "ours": m["ours"], "ratio": ratio,
                     "count": {rt: len(per_n[n].get(rt, [])) for rt in ("nvidia", "ours")}})
    both = [r for r in rows if r["ratio"]]
    a = {"bench": bench, "rows": rows, "both": both}
    if len(both) >= 2:
        lo, hi = both[0], both[-1]
        a["n_lo"], a["n_hi"] = lo["n"], hi["n"]
        a["growth"] = hi["ratio"] / lo["ratio"]
        span = math.log(hi["n"] / lo["n"])
        a["exp"] = {rt: math.log(hi[rt] / lo[rt]) / span if lo[rt] > 0 and hi[rt] > 0 else None
                    for rt in ("nvidia", "ours")}
        a["fit"] = fitted_growth(both)
        a["ends_only"] = a["growth"] > growth_limit and a["fit"] is not None \
            and a["fit"] <= growth_limit
        a["flag"] = a["growth"] > growth_limit and not a["ends_only"]
    else:
        a["growth"], a["exp"], a["flag"] = None, {"nvidia": None, "ours": None}, False
        a["fit"], a["ends_only"] = None, False
    ns = {rt: [r["n"] for r in rows if r[rt] is not None] for rt in ("nvidia", "ours")}
    a["max_n"] = {rt: max(v) if v else None for rt, v in ns.items()}
    return a


def picture(analyses, path, growth_limit):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import NullFormatter
    except ImportError:
        return False
    items = [a for a in analyses if len({r["n"] for r in a["rows"]}) >= 2]
    if not items:
        return False
    cols = 5
    rows = (len(items) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 2.8 * rows), squeeze=False)
    for ax in axes.flat[len(items):]:
        ax.set_visible(False)
    for ax, a in zip(axes.flat, items):
        for rt, color, label in (("nvidia", "tab:blue", "NVIDIA"), ("ours", "tab:orange", "ours")):
            pts = [(r["n"], r[rt]) for r in a["rows"] if r[rt] is not None]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=color, ms=3,
                        lw=1.2, label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
        title = a["bench"]
        if a["growth"]:
            title += "\nratio x%.2f over N" % a["growth"]
        ax.set_title(title, fontsize=8, color="tab:red" if a["flag"] else "black")
        ax.tick_params(labelsize=7)
        ax.grid(which="major", alpha=0.3)
        ax.set_xlabel("N", fontsize=7)
        ax.set_ylabel("ns per op", fontsize=7)
    axes.flat[0].legend(fontsize=7)
    fig.suptitle("Scale benchmarks: ns per operation against N (log-log); red title: ours/NVIDIA "
                 "grows by more than %.2fx" % growth_limit, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.98))
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scale_json")
    ap.add_argument("--png")
    ap.add_argument("--growth", type=float, default=1.5)
    ap.add_argument("--meta")
    args = ap.parse_args()
    with open(args.scale_json) as f:
        doc = json.load(f)
    data, stops, checks, libs, runs = collect(doc)
    analyses = [analyse(b, data[b], args.growth) for b in sorted(data)]
    w = sys.stdout.write
    m, st = doc.get("machine", {}), doc.get("settings", {})
    w("# Scale benchmarks: NVIDIA's libcudart.so.13 and ours as N grows\n\n")
    w("Generated by `scripts/scale-report.py` from `%s` (`bench/scale/run.sh`, issue 30)%s.\n\n"
      % (os.path.basename(args.scale_json), (" of " + args.meta) if args.meta else ""))
    w("| | |\n|---|---|\n")
    w("| machine | %s; %s; %s CPUs |\n" % (m.get("gpu") or "-", m.get("uname", "-"), m.get("nproc", "-")))
    w("| run | %s, %s s, %s rounds (order %s) |\n" % (m.get("date", "-"), doc.get("elapsed_s", "-"),
                                                     st.get("rounds", "-"), st.get("order", "-")))
    for rt, label in (("nvidia", "NVIDIA's libcudart"), ("ours", "ours")):
        li = doc.get("libraries", {}).get(rt, {})
        w("| %s | `%s` (sha256 %s) |\n" % (label, li.get("real", li.get("path", "-")),
                                           (li.get("sha256") or "-")[:16]))
    if st.get("env"):
        w("| settings | %s |\n" % ", ".join("`%s=%s`" % kv for kv in sorted(st["env"].items())))
    w("\n")

    flagged = [a for a in analyses if a["flag"]]
    w("## Summary\n\n")
    w("- benchmarks: %d with both runtimes at two or more N: %d\n" % (
        len(analyses), sum(a["growth"] is not None for a in analyses)))
    w("- **ours grows faster than NVIDIA's** (ours/NVIDIA at the largest N over the same at the "
      "smallest > %.2f, and along the line through every N): %s\n" % (args.growth, ", ".join(
          "`%s` (x%.2f, %s..%s)" % (a["bench"], a["growth"], fmt_n(a["n_lo"]), fmt_n(a["n_hi"]))
          for a in flagged) or "none"))
    floor, controls = noise_floor(analyses)
    if controls:
        w("- driver-only controls (the driver's own calls in the same processes, no runtime "
          "between): %s; the largest move either way, x%.2f, is this run's noise floor for growth\n" % (
              ", ".join("`%s` x%.2f" % (a["bench"], a["growth"]) for a in controls), floor))
        runtime_flags = [a for a in flagged if not is_control(a["bench"])]
        beyond = [a for a in runtime_flags if a["growth"] > floor]
        within = [a for a in runtime_flags if a["growth"] <= floor]
        w("  - flagged beyond the noise floor: %s\n" % (
            ", ".join("`%s` (x%.2f)" % (a["bench"], a["growth"]) for a in beyond) or "none"))
        if within:
            w("  - flagged but within it: %s\n" % ", ".join(
                "`%s` (x%.2f)" % (a["bench"], a["growth"]) for a in within))
    ends = [a for a in analyses if a["ends_only"]]
    if ends:
        w("- grown by more than %.2f between the end points only (along the line through every "
          "N, within it): %s\n" % (args.growth, ", ".join(
              "`%s` (ends x%.2f, line x%.2f)" % (a["bench"], a["growth"], a["fit"]) for a in ends)))
    shrink = [a for a in analyses if a["growth"] and a["growth"] < 1 / args.growth]
    if shrink:
        w("- NVIDIA's grows faster (the ratio falls by more than %.2fx): %s\n" % (args.growth, ", ".join(
            "`%s` (x%.2f)" % (a["bench"], a["growth"]) for a in shrink)))
    reach = [a for a in analyses if a["max_n"]["nvidia"] != a["max_n"]["ours"]
             and a["max_n"]["nvidia"] is not None and a["max_n"]["ours"] is not None]
    only_one = [a["bench"] for a in analyses
                if (a["max_n"]["nvidia"] is None) != (a["max_n"]["ours"] is None)]
    if only_one:
        w("- measured under one runtime only: %s\n" % ", ".join("`%s`" % b for b in only_one))
    if reach:
        w("- sweeps that reached a different N under each runtime: %s\n" % ", ".join(
            "`%s` (NVIDIA %s, ours %s)" % (a["bench"], fmt_n(a["max_n"]["nvidia"] or 0),
                                          fmt_n(a["max_n"]["ours"] or 0)) for a in reach))
    bad_runs = [(k, v) for k, v in sorted(runs.items()) if v["rc"] - {0} or v["timed_out"]]
    if bad_runs:
        w("- processes that failed or timed out: %s\n" % ", ".join(
            "%s under %s (rc %s%s)" % (k[0], k[1], ",".join(str(x) for x in sorted(v["rc"], key=str)),
                                       ", %d timed out" % v["timed_out"] if v["timed_out"] else "")
            for k, v in bad_runs))
    if checks:
        bad = {}
        for b, rt, rnd, n in checks:
            bad.setdefault((b, rt), set()).add(n)
        w("- **failed result checks** (the counter the kernels add to was wrong): %s\n" % ", ".join(
            "`%s` under %s (N = %s)" % (b, rt, ", ".join(fmt_n(n) for n in sorted(ns)))
            for (b, rt), ns in sorted(bad.items())))
    if libs:
        w("- **runs that mapped another libcudart**: %s\n" % ", ".join(
            "%s %s r%s (%s)" % (p, rt, rnd, ",".join(l or [])) for p, rt, rnd, l in libs))
    if args.png:
        if picture(analyses, args.png, args.growth):
            w("\n![scale curves](%s)\n" % os.path.basename(args.png))
        else:
            w("\n(No picture: matplotlib is not importable here, or no curve has two points.)\n")
    w("\n")

    if stops:
        w("## Where sweeps stopped\n\n| benchmark | runtime | round | at N | why | error |\n"
          "|---|---|---:|---:|---|---|\n")
        seen = set()
        for b, rt, rnd, n, why, err in stops:
            key = (b, rt, n, why, err)
            if key in seen:
                continue
            seen.add(key)
            w("| `%s` | %s | %s | %s | %s | %s |\n" % (b, rt, rnd, fmt_n(n or 0), why, err or "-"))
        w("\n")

    mem = held_memory(doc)
    if mem:
        w("## Device memory a library's kernels held, and what dlclose gave back\n\n"
          "`kernels.dlclose`: cudaMemGetInfo's free memory before the `dlopen` less that after "
          "every kernel's first launch (held), and after the `dlclose` less before it (given "
          "back), MiB, per round. A runtime that unloads the library at `dlclose` gives back "
          "what it held; one that keeps it loaded gives back nothing.\n\n"
          "| kernels | NVIDIA held / given back | ours held / given back |\n|---:|---|---|\n")
        for n in sorted(mem):
            cells = []
            for rt in ("nvidia", "ours"):
                xs = mem[n].get(rt, [])
                cells.append(", ".join("%s / %s" % (fmt_mib(a), fmt_mib(b)) for a, b in xs) or "-")
            w("| %s | %s | %s |\n" % (fmt_n(n), cells[0], cells[1]))
        w("\n")

    w("## Growth per benchmark\n\n")
    w("ns per operation at the smallest and the largest N both runtimes reached (medians over "
      "the rounds); exponent = slope of log(ns per op) over log(N) between them (0: constant "
      "per operation; 1: linear in N); growth = (ours/NVIDIA at the largest N) / (ours/NVIDIA "
      "at the smallest); line = the same growth along the least-squares line of log(ours/NVIDIA) "
      "over log(N) through every N both reached.\n\n")
    w("| benchmark | N | NVIDIA | ours | ours/NVIDIA | exponent NVIDIA / ours | growth | line |\n"
      "|---|---|---|---|---|---|---:|---:|\n")
    for a in analyses:
        if a["growth"] is None:
            r = a["rows"][-1] if a["rows"] else None
            w("| `%s` | %s | %s | %s | %s | - | - | - |\n" % (
                a["bench"], fmt_n(r["n"]) if r else "-", fmt_ns(r["nvidia"]) if r else "-",
                fmt_ns(r["ours"]) if r else "-", "%.2f" % r["ratio"] if r and r["ratio"] else "-"))
            continue
        lo, hi = a["both"][0], a["both"][-1]
        ex = a["exp"]
        w("| `%s` | %s -> %s | %s -> %s | %s -> %s | %.2f -> %.2f | %s / %s | %s | %s |\n" % (
            a["bench"], fmt_n(lo["n"]), fmt_n(hi["n"]), fmt_ns(lo["nvidia"]), fmt_ns(hi["nvidia"]),
            fmt_ns(lo["ours"]), fmt_ns(hi["ours"]), lo["ratio"], hi["ratio"],
            "%.2f" % ex["nvidia"] if ex["nvidia"] is not None else "-",
            "%.2f" % ex["ours"] if ex["ours"] is not None else "-",
            ("**%.2f**" if a["flag"] else "%.2f") % a["growth"],
            "%.2f" % a["fit"] if a["fit"] is not None else "-"))
    w("\n## Every point\n\n")
    groups = {}
    for a in analyses:
        groups.setdefault(a["bench"].split(".")[0], []).append(a)
    for g, items in groups.items():
        w("<details><summary>%s (%d benchmarks)</summary>\n\n" % (g, len(items)))
        w("| benchmark | N | NVIDIA ns/op | ours ns/op | ours/NVIDIA | rounds (NVIDIA/ours) |\n"
          "|---|---:|---:|---:|---:|---|\n")
        for a in items:
            for r in a["rows"]:
                w("| `%s` | %s | %s | %s | %s | %d/%d |\n" % (
                    a["bench"], fmt_n(r["n"]),
                    "%.1f" % r["nvidia"] if r["nvidia"] is not None else "-",
                    "%.1f" % r["ours"] if r["ours"] is not None else "-",
                    "%.2f" % r["ratio"] if r["ratio"] else "-",
                    r["count"]["nvidia"], r["count"]["ours"]))
        w("\n</details>\n\n")
    w("Each program's header comment (bench/scale/*.cu) says what an operation is; "
      "bench/scale/README.md how to run them.\n")


if __name__ == "__main__":
    main()
