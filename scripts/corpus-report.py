#!/usr/bin/env python3
"""Markdown report of the corpus benchmark (OUT/corpus.json of
scripts/corpus-run.sh): whole processes of the c-samples, the corpus's own
programs (bench/corpus), the PyTorch workload and any extra commands, under
NVIDIA's libcudart.so.13 and ours.

    python3 scripts/corpus-report.py OUT/corpus.json [--png docs/corpus-report.png] \\
        [--meta "date, commit, machine"] > docs/corpus-report.md

Per program and runtime: the median wall time of the processes and their
spread, (max - min) / median; ours/NVIDIA, the ratio of the medians; the
range of the paired ratios (ours over NVIDIA in the same round: the two
processes ran back to back); whether the difference exceeds the spread
(|ours/NVIDIA - 1| larger than both runtimes' spreads); the medians of the
phases phases.so marks. The geometric mean of ours/NVIDIA is taken over the
programs that passed in every run under both runtimes. With --png (and
matplotlib importable) a picture of the per-program ratios with their paired
ranges is written there and linked from the report; without matplotlib the
picture is skipped and the report says so.
"""
import argparse
import json
import math
import os
import sys

from abab import turns
from differences import DEFAULT as DEFAULT_REASONS, load_reasons

PHASES = [  # key, column title, what it holds
    ("start", "start", "spawn to phases.so's constructor: exec, the loader, the "
     "constructors of the libraries the program links (libcudart.so.13's among them)"),
    ("static_init", "init", "constructor to main: the executable's initialisers "
     "(nvcc's fatbin registration)"),
    ("main", "main", "main, entry to return"),
    ("main_and_exit", "main+exit", "main to the exit handler, for processes that left "
     "through exit() (main's return not seen)"),
    ("exit_handlers", "exit", "main's return to phases.so's exit handler: the exit "
     "handlers registered while main ran (the runtime's and the driver's shutdown)"),
    ("late_exit", "late", "exit handler to phases.so's destructor: earlier exit handlers "
     "(fatbin unregistration, static destructors) and the loader's first destructors"),
    ("teardown", "teardown", "phases.so's destructor to the parent's wait4: the remaining "
     "destructors, _exit and the kernel's teardown of the process"),
]
DRIVER_PHASES = [
    ("main_to_driver", "main to driver", "main to the first look-up of a driver symbol "
     "(the runtime loading libcuda.so.1)"),
    ("cuinit", "cuInit", "the first cuInit call"),
    ("ctx", "context", "the first cuDevicePrimaryCtxRetain / cuCtxCreate (ours only: "
     "NVIDIA's runtime makes it through the driver's private tables)"),
    ("main_to_ctx_done", "main to context", "main to the return of that call"),
]


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    if n == 0:
        return None
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def spread(xs):
    m = median(xs)
    return (max(xs) - min(xs)) / m if xs and m else None


def fmt_s(ns):
    return "-" if ns is None else "%.3f" % (ns / 1e9)


def fmt_ms(ns):
    if ns is None:
        return "-"
    ms = ns / 1e6
    return "%.2f" % ms if ms < 100 else "%.0f" % ms


def ms3(ns):
    return "-" if ns is None else "%.3f" % (ns / 1e6)


def fmt_r(x, digits=2):
    return "-" if x is None else "%.*f" % (digits, x)


# A teardown shorter than this leaves part of itself to the next process,
# whose context then takes longer to make. Teardowns come in two kinds, a
# short one well under this and a full one well above it
# (docs/wholeprog.md, "Whole programs").
SHORT_TEARDOWN_NS = 60e6


def fill_after_teardown(doc):
    """Runs of a corpus.json written before corpus-run.sh recorded each
    run's predecessor: their "after_teardown_ns" from the order the runs
    took (rounds, programs in order, the runtimes' turns; the warm-up
    runs' teardowns were not kept, so round 1's first run has none)."""
    progs = doc.get("programs", [])
    if any("after_teardown_ns" in r for p in progs for rt in ("nvidia", "ours")
           for r in p["runs"][rt]):
        return
    st = doc.get("settings", {})
    last = None
    for rnd in range(1, int(st.get("rounds") or 0) + 1):
        for p in progs:
            for rt in turns(rnd, st.get("order", "abab")):
                r = next((x for x in p["runs"][rt] if x.get("round") == rnd), None)
                if r is None or r.get("skipped"):
                    continue
                if last is not None:
                    r["after_teardown_ns"] = (last.get("phases") or {}).get("teardown")
                last = r


def analyse(prog):
    """Figures of one program (None where not measured)."""
    a = {"name": prog["name"], "kind": prog["kind"]}
    for rt in ("nvidia", "ours"):
        runs = prog["runs"][rt]
        ran = [r for r in runs if not r.get("skipped") and r.get("wall_ns") is not None]
        a[rt] = {
            "runs": len(ran), "skipped": sum(bool(r.get("skipped")) for r in runs),
            "pass": sum(bool(r.get("pass")) for r in ran),
            "timed_out": sum(bool(r.get("timed_out")) for r in ran),
            "rcs": sorted({r.get("rc") for r in ran}, key=lambda x: (x is None, x)),
            "walls": [r["wall_ns"] for r in ran],
            "lib_bad": sum(r.get("libcudart_ok") is False for r in ran),
            "libs": sorted({l for r in ran for l in r.get("libcudart", [])}),
        }
        a[rt]["after_short"] = sum(1 for r in ran if r.get("after_teardown_ns") is not None
                                   and r["after_teardown_ns"] < SHORT_TEARDOWN_NS)
        w = a[rt]["walls"]
        a[rt]["median"] = median(w)
        a[rt]["spread"] = spread(w)
        ph = {}
        for key, _, _ in PHASES + DRIVER_PHASES:
            vals = [r["phases"][key] for r in ran if key in r.get("phases", {})]
            if vals:
                ph[key] = median(vals)
        a[rt]["phases"] = ph
        cpu = [r["rusage"]["utime_s"] + r["rusage"]["stime_s"] for r in ran if "rusage" in r]
        a[rt]["cpu_s"] = median(cpu)
        rss = [r["rusage"]["maxrss_kib"] for r in ran if "rusage" in r]
        a[rt]["maxrss_mib"] = median(rss) / 1024 if rss else None
        # calltime.so's figures (CORPUS_CALLTIME=1): per runtime function,
        # the medians over the processes of its calls, total and longest.
        calls = [r["calls"] for r in ran if r.get("calls")]
        a[rt]["calls"] = {
            fn: {k: median([c[fn][k] for c in calls if fn in c]) for k in ("n", "total_ns", "max_ns")}
            for fn in sorted({fn for c in calls for fn in c})}
        wl = [r["workload"] for r in ran if r.get("workload")]
        if wl:
            parts = sorted({k for w_ in wl for k in (w_.get("parts_s") or {})})
            a[rt]["workload_parts"] = {
                k: median([w_["parts_s"][k] for w_ in wl if (w_.get("parts_s") or {}).get(k) is not None])
                for k in parts}
    n, o = a["nvidia"], a["ours"]
    a["ratio"] = o["median"] / n["median"] if n["median"] and o["median"] else None
    # Paired ratios: the two runs of one round.
    by_round = {}
    for rt in ("nvidia", "ours"):
        for r in prog["runs"][rt]:
            if not r.get("skipped") and r.get("wall_ns"):
                by_round.setdefault(r.get("round"), {})[rt] = r["wall_ns"]
    paired = [v["ours"] / v["nvidia"] for v in by_round.values() if "ours" in v and "nvidia" in v]
    a["paired"] = paired
    a["paired_lo"] = min(paired) if paired else None
    a["paired_hi"] = max(paired) if paired else None
    a["paired_ours_slower"] = sum(p > 1 for p in paired)
    # The median of the rounds' ratios: a round that ran slow on the host
    # under one runtime only moves it by one place, not the median walls.
    a["paired_median"] = median(paired) if paired else None
    a["comparable"] = (n["runs"] > 0 and o["runs"] > 0 and n["pass"] == n["runs"]
                       and o["pass"] == o["runs"] and not n["lib_bad"] and not o["lib_bad"])
    if a["ratio"] is not None and n["spread"] is not None and o["spread"] is not None:
        a["exceeds"] = abs(a["ratio"] - 1) > max(n["spread"], o["spread"])
    else:
        a["exceeds"] = None
    notes = []
    for rt, label in (("nvidia", "NVIDIA"), ("ours", "ours")):
        x = a[rt]
        if x["runs"] == 0:
            notes.append("%s: no run" % label)
            continue
        if x["pass"] < x["runs"]:
            notes.append("%s: %d/%d pass (rc %s)" % (label, x["pass"], x["runs"],
                                                     ",".join(str(c) for c in x["rcs"])))
        if x["timed_out"]:
            notes.append("%s: %d timed out" % (label, x["timed_out"]))
        if x["skipped"]:
            notes.append("%s: %d skipped" % (label, x["skipped"]))
        if x["lib_bad"]:
            notes.append("%s: other libcudart mapped (%s)" % (label, ", ".join(x["libs"])))
    if abs(n["after_short"] - o["after_short"]) >= 2:
        notes.append("runs after a short teardown: NVIDIA %d/%d, ours %d/%d" % (
            n["after_short"], n["runs"], o["after_short"], o["runs"]))
    a["after_short_skew"] = abs(n["after_short"] - o["after_short"]) >= 2
    a["notes"] = notes
    return a


def why_left_out(r, reasons):
    """(class, text) for a program not in the mean: NVIDIA's runtime died
    of a signal where ours passed every run; a listed difference; or not
    explained."""
    n, o = r["nvidia"], r["ours"]
    ours_ok = o["runs"] > 0 and o["pass"] == o["runs"] and not o["lib_bad"]
    failed_rcs = [c for c in n["rcs"] if c not in (0, None)]
    if ours_ok and n["pass"] < n["runs"] and failed_rcs and all(128 < c < 160 for c in failed_rcs):
        return "crash", ("NVIDIA's runtime died of signal %s in %d of %d runs (its time ends at the "
                         "crash); ours passed every run") % (
            "/".join(str(c - 128) for c in failed_rcs), n["runs"] - n["pass"], n["runs"])
    if r["name"] in reasons:
        return "listed", reasons[r["name"]]
    return "unexplained", "; ".join(r["notes"]) or "-"


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def picture(rows, path):
    """Per-program ratio (log axis) with the paired range; True when written."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in rows if r["ratio"]]
    if not rows:
        return False
    rows = sorted(rows, key=lambda r: r["ratio"])
    h = max(3.0, 0.22 * len(rows) + 1.2)
    fig, ax = plt.subplots(figsize=(8, h))
    ys = range(len(rows))
    for y, r in zip(ys, rows):
        color = ("tab:red" if r["ratio"] > 1 else "tab:green") if r["exceeds"] else "tab:gray"
        if not r["comparable"]:
            color = "tab:orange"
        lo, hi = r["paired_lo"] or r["ratio"], r["paired_hi"] or r["ratio"]
        ax.plot([lo, hi], [y, y], color=color, lw=1.5, alpha=0.7)
        ax.plot([r["ratio"]], [y], "o", color=color, ms=4)
    ax.axvline(1.0, color="black", lw=0.8)
    ax.set_xscale("log")
    from matplotlib.ticker import FuncFormatter
    plain = FuncFormatter(lambda v, _: "%g" % v)
    ax.xaxis.set_major_formatter(plain)
    lo_all = min((r["paired_lo"] or r["ratio"]) for r in rows)
    hi_all = max((r["paired_hi"] or r["ratio"]) for r in rows)
    nice = [0.1, 0.2, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.5, 2, 3, 5, 10, 20, 50, 100]
    ticks = [t for t in nice if lo_all / 1.05 <= t <= hi_all * 1.05] or [1]
    if 1 not in ticks:
        ticks.append(1)
    ax.set_xticks(sorted(ticks))
    ax.xaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
    ax.set_yticks(list(ys))
    ax.set_yticklabels([r["name"] for r in rows], fontsize=7)
    ax.set_xlabel("ours / NVIDIA, whole-process wall time (median; bar: paired rounds' range)")
    ax.set_title("Corpus: ours over NVIDIA's libcudart.so.13 (lower is better)\n"
                 "red/green: difference larger than the spread; gray: within it; "
                 "orange: failed runs", fontsize=8)
    ax.grid(axis="x", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus_json", nargs="+",
                    help="one or more corpus.json (e.g. the samples' run and the corpus + torch "
                         "run): their programs are reported together")
    ap.add_argument("--png", help="write the ratio picture here (needs matplotlib)")
    ap.add_argument("--meta", help='"date, commit, machine" for the header')
    ap.add_argument("--reasons", default=DEFAULT_REASONS,
                    help="the known differences and their reasons (default: "
                         "c-samples/differences.txt)")
    args = ap.parse_args()
    docs = []
    for path in args.corpus_json:
        with open(path) as f:
            docs.append(json.load(f))
    rows = []
    for d in docs:
        fill_after_teardown(d)
        rows += [analyse(p) for p in d.get("programs", [])]
    w = sys.stdout.write

    w("# Corpus benchmark: whole programs under NVIDIA's libcudart.so.13 and ours\n\n")
    w("Generated by `scripts/corpus-report.py` from %s (`scripts/corpus-run.sh`, issue 30)%s.\n\n"
      % (", ".join("`%s`" % p for p in args.corpus_json), (" of " + args.meta) if args.meta else ""))
    w("| | |\n|---|---|\n")
    for i, doc in enumerate(docs):
        st, mach = doc.get("settings", {}), doc.get("machine", {})
        libs, bi = doc.get("libraries", {}), doc.get("build_info", {})
        parts = " ".join(st.get("parts", []))
        tag = (" (run %d%s)" % (i + 1, ": " + parts if parts else "")) if len(docs) > 1 else ""
        w("| machine%s | %s; %s; %s CPUs |\n" % (tag, mach.get("gpu") or "-", mach.get("uname", "-"),
                                               mach.get("nproc", "-")))
        w("| run%s | %s, %s s%s |\n" % (tag, mach.get("date", "-"), doc.get("elapsed_s", "-"),
                                       "" if doc.get("complete", True)
                                       else ", **cut short** (rounds written so far)"))
        w("| bundle%s | commit %s, %s |\n" % (tag, bi.get("commit", "-")[:12], bi.get("built", "-")))
        for rt, label in (("nvidia", "NVIDIA's libcudart"), ("ours", "ours")):
            li = libs.get(rt, {})
            w("| %s%s | `%s` (sha256 %s) |\n" % (label, tag, li.get("real", li.get("path", "-")),
                                                (li.get("sha256") or "-")[:16]))
        gap = st.get("gap_ms")
        w("| method%s | %s rounds; each program under both runtimes back to back (order %s%s%s); "
          "phases: %s |\n" % (tag, st.get("rounds", "-"), st.get("order", "-"),
                              ", one untimed warm-up run each first" if st.get("warmup") else "",
                              ", %.0f ms idle before each process" % gap if gap else "",
                              st.get("phases", "-")))
        if st.get("skip"):
            w("| left out%s | %s (CORPUS_SKIP) |\n" % (tag, ", ".join(st["skip"])))
    w("\n")

    comp = [r for r in rows if r["comparable"] and r["ratio"]]
    gm = geomean([r["ratio"] for r in comp])
    w("## Summary\n\n")
    w("- programs: %d; passing every run under both runtimes: %d\n" % (len(rows), len(comp)))
    if gm:
        w("- **geometric mean of ours/NVIDIA over those %d: %.4f**\n" % (len(comp), gm))
        for kind in sorted({r["kind"] for r in comp}):
            ks = [r["ratio"] for r in comp if r["kind"] == kind]
            w("  - %s (%d): %.3f\n" % (kind, len(ks), geomean(ks)))
        slower = [r for r in comp if r["exceeds"] and r["ratio"] > 1]
        faster = [r for r in comp if r["exceeds"] and r["ratio"] < 1]
        w("- differences larger than the spread: ours slower in %d (%s), faster in %d (%s); "
          "the other %d are within the spread\n"
          % (len(slower), ", ".join("%s %.2f" % (r["name"], r["ratio"]) for r in slower) or "-",
             len(faster), ", ".join("%s %.2f" % (r["name"], r["ratio"]) for r in faster) or "-",
             len(comp) - len(slower) - len(faster)))
        pm = geomean([r["paired_median"] for r in comp if r["paired_median"]])
        if pm:
            w("- geometric mean of each program's median paired ratio (the rounds' ours/NVIDIA, "
              "which cancels the host's drift between rounds): %.4f\n" % pm)
        skew = [r for r in comp if r["after_short_skew"]]
        if skew:
            w("- programs run after a short teardown (under %.0f ms: part of it is left to the "
              "next process's context) more often under one runtime than the other: %s\n" % (
                  SHORT_TEARDOWN_NS / 1e6,
                  ", ".join("%s %.2f (NVIDIA %d, ours %d)" % (
                      r["name"], r["ratio"], r["nvidia"]["after_short"], r["ours"]["after_short"])
                      for r in skew)))
        tot_n = sum(r["nvidia"]["median"] for r in comp)
        tot_o = sum(r["ours"]["median"] for r in comp)
        w("- sum of the medians: NVIDIA %.2f s, ours %.2f s (%.3f)\n" % (tot_n / 1e9, tot_o / 1e9,
                                                                      tot_o / tot_n))
    left = [r for r in rows if not r["comparable"]]
    reasons = load_reasons(args.reasons)
    why = {r["name"]: why_left_out(r, reasons) for r in left}
    if left:
        w("- not in the mean (a run failed or timed out, no run, or another libcudart "
          "mapped): %s\n" % ", ".join(r["name"] for r in left))
        for cls, label in (("crash", "NVIDIA's runtime crashed where ours passed"),
                           ("listed", "a listed difference (`c-samples/differences.txt`)"),
                           ("unexplained", "**not explained**")):
            names = [r["name"] for r in left if why[r["name"]][0] == cls]
            if names:
                w("  - %s: %s\n" % (label, ", ".join(names)))
    if args.png:
        if picture(rows, args.png):
            w("\n![ours/NVIDIA per program](%s)\n" % os.path.basename(args.png))
        else:
            w("\n(No picture: matplotlib is not importable here, or nothing was measured.)\n")
    w("\n")

    # Where the difference goes, over the comparable programs.
    keys = [k for k, _, _ in PHASES + DRIVER_PHASES
            if any(k in r["nvidia"]["phases"] or k in r["ours"]["phases"] for r in comp)]
    if keys and comp:
        w("## Where the time goes (sums over the %d programs in the mean)\n\n" % len(comp))
        w("Sum over the programs of each runtime's median of the phase, in ms; a phase is "
          "summed over the programs that have it under both runtimes. ")
        w("Phases (from `bench/corpus/phases.so`, preloaded under both):\n\n")
        for k, title, what in PHASES + DRIVER_PHASES:
            if k in keys:
                w("- **%s**: %s\n" % (title, what))
        w("\n| phase | programs | NVIDIA ms | ours ms | ours - NVIDIA ms |\n|---|---:|---:|---:|---:|\n")
        for k, title, _ in PHASES + DRIVER_PHASES:
            if k not in keys:
                continue
            both = [r for r in comp if k in r["nvidia"]["phases"] and k in r["ours"]["phases"]]
            if not both:
                only = [(rt, r) for r in comp for rt in ("nvidia", "ours") if k in r[rt]["phases"]]
                w("| %s | %d | %s | %s | (one runtime only) |\n" % (
                    title, len({r["name"] for _, r in only}),
                    fmt_ms(sum(r["nvidia"]["phases"][k] for rt, r in only if rt == "nvidia") or None),
                    fmt_ms(sum(r["ours"]["phases"][k] for rt, r in only if rt == "ours") or None)))
                continue
            sn = sum(r["nvidia"]["phases"][k] for r in both)
            so = sum(r["ours"]["phases"][k] for r in both)
            w("| %s | %d | %s | %s | %+.2f |\n" % (title, len(both), fmt_ms(sn), fmt_ms(so),
                                                  (so - sn) / 1e6))
        w("\n")

    w("## Per program\n\n")
    w("Wall time per process, from just before posix_spawn to just after wait4 (s, medians); "
      "spread = (max - min) / median; paired = the range of ours/NVIDIA over the rounds (the "
      "two processes of a round ran back to back), its median, and in how many rounds ours "
      "was slower; "
      "**yes** in *beyond spread* when |ours/NVIDIA - 1| exceeds both spreads.\n\n")
    w("| program | kind | runs | NVIDIA s | spread | ours s | spread | ours/NVIDIA | paired | "
      "paired median | beyond spread | note |\n"
      "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---|---|\n")
    for r in rows:
        n, o = r["nvidia"], r["ours"]
        paired = ("%.2f..%.2f (%d/%d slower)" % (r["paired_lo"], r["paired_hi"],
                                                  r["paired_ours_slower"], len(r["paired"]))
                  if r["paired"] else "-")
        ex = "-" if r["exceeds"] is None else ("**yes**" if r["exceeds"] else "no")
        w("| %s | %s | %d/%d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n" % (
            r["name"], r["kind"], n["runs"], o["runs"], fmt_s(n["median"]),
            fmt_r(n["spread"]), fmt_s(o["median"]), fmt_r(o["spread"]),
            "**%s**" % fmt_r(r["ratio"], 3) if r["ratio"] else "-", paired,
            fmt_r(r["paired_median"], 3) if r["paired_median"] else "-", ex,
            "; ".join(r["notes"])))
    w("\n")

    if left:
        w("## Not in the mean\n\n")
        w("| program | NVIDIA s | ours s | why |\n|---|---:|---:|---|\n")
        for r in left:
            w("| %s | %s | %s | %s |\n" % (r["name"], fmt_s(r["nvidia"]["median"]),
                                          fmt_s(r["ours"]["median"]), why[r["name"]][1]))
        w("\n")

    have_phases = [r for r in rows if r["nvidia"]["phases"] or r["ours"]["phases"]]
    if have_phases:
        cols = [(k, t) for k, t, _ in PHASES + DRIVER_PHASES
                if any(k in r[rt]["phases"] for r in have_phases for rt in ("nvidia", "ours"))]
        w("## Phases per program (ms, medians)\n\n")
        w("Each cell: NVIDIA / ours. CPU = user + system time of the process (wait4's "
          "rusage, s); RSS = peak resident set (MiB).\n\n")
        w("| program | " + " | ".join(t for _, t in cols) + " | CPU s | RSS MiB |\n")
        w("|---|" + "---:|" * (len(cols) + 2) + "\n")
        for r in have_phases:
            cells = ["%s / %s" % (fmt_ms(r["nvidia"]["phases"].get(k)), fmt_ms(r["ours"]["phases"].get(k)))
                     for k, _ in cols]
            cells.append("%s / %s" % (fmt_r(r["nvidia"]["cpu_s"]), fmt_r(r["ours"]["cpu_s"])))
            cells.append("%s / %s" % (fmt_r(r["nvidia"]["maxrss_mib"], 0), fmt_r(r["ours"]["maxrss_mib"], 0)))
            w("| %s | %s |\n" % (r["name"], " | ".join(cells)))
        w("\n")

    timed = [r for r in rows if r["nvidia"]["calls"] or r["ours"]["calls"]]
    if timed:
        w("## Runtime calls per program (calltime.so)\n\n")
        w("Each wrapped runtime function a program called, timed around the call by "
          "`bench/corpus/calltime.so` under both runtimes (medians over the processes): calls, "
          "their total and the longest one, in ms; sorted by how much more time ours spent.\n\n")
        w("| program | function | calls | NVIDIA total | ours total | ours - NVIDIA | "
          "NVIDIA longest | ours longest |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
        for r in timed:
            cn, co = r["nvidia"]["calls"], r["ours"]["calls"]
            fns = sorted(set(cn) | set(co), key=lambda f: -((co.get(f) or {}).get("total_ns", 0)
                                                          - (cn.get(f) or {}).get("total_ns", 0)))
            for fn in fns:
                a, b = cn.get(fn) or {}, co.get(fn) or {}
                w("| %s | `%s` | %s | %s | %s | %+.3f | %s | %s |\n" % (
                    r["name"], fn, "%s / %s" % (fmt_r(a.get("n"), 0), fmt_r(b.get("n"), 0)),
                    ms3(a.get("total_ns")), ms3(b.get("total_ns")),
                    (b.get("total_ns", 0) - a.get("total_ns", 0)) / 1e6,
                    ms3(a.get("max_ns")), ms3(b.get("max_ns"))))
        w("\n")

    wl = [r for r in rows if r["nvidia"].get("workload_parts") or r["ours"].get("workload_parts")]
    for r in wl:
        w("## %s: the workload's parts (s, medians of the processes)\n\n" % r["name"])
        w("| part | NVIDIA | ours | ours/NVIDIA |\n|---|---:|---:|---:|\n")
        pn, po = r["nvidia"].get("workload_parts", {}), r["ours"].get("workload_parts", {})
        for k in sorted(set(pn) | set(po)):
            a, b = pn.get(k), po.get(k)
            w("| %s | %s | %s | %s |\n" % (k, fmt_r(a), fmt_r(b),
                                           fmt_r(b / a) if a and b else "-"))
        w("\n")

    w("## How this was measured\n\n")
    w("`scripts/corpus-run.sh` (its header has the details): every program in its own "
      "process, under `LD_LIBRARY_PATH=<runtime dir>` (the samples, the corpus programs) or, "
      "for Python, the environment of `scripts/with-cudart.sh --env` (ours) and plain "
      "`python3` (NVIDIA's, torch's own wheel). `bench/corpus/phases.so` is preloaded under "
      "both runtimes; it interposes no CUDA function (only `__libc_start_main`, to see main). "
      "Which call first creates the context is not timed in the default mode: the runtimes "
      "reach the driver through their own `dlopen` handle and `cuGetProcAddress`, out of "
      "reach of symbol interposition; `CORPUS_PHASES=driver` interposes `dlsym` to time "
      "`cuInit` (both runtimes) and the first context call (ours only).\n")


if __name__ == "__main__":
    main()
