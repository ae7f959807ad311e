#!/usr/bin/env python3
"""Turns a static-runtime run (scripts/static-run.sh's OUT/static) into the
markdown report docs/static-report.md.

    scripts/static-report.py OUT/static > docs/static-report.md

Samples: per sample the outcome of the -cudart shared build on our
libcudart.so.13, the default (static) build with our libcudart_static.a
and with NVIDIA's, whether their stdout is identical, and whether any
libcudart.so was mapped by a static build (it must not be).
Benchmarks: per benchmark the median over rounds of each runtime's median,
ours/NVIDIA, and each runtime's ratio to the raw driver call it was
interleaved with (the `pair=` figure, free of drift between processes).
"""
import glob
import json
import os
import re
import statistics
import sys

SETS = ("shared", "ours-static", "nvidia-static")


def passed(run):
    out = run.get("stdout", "").strip().splitlines()
    return run.get("rc") == 0 and bool(out) and out[-1].startswith("PASS ")


def outcome(run):
    if run is None:
        return "not run"
    if run.get("rc") == "missing":
        return "not built"
    if passed(run):
        return "PASS"
    if run.get("rc") == 124:
        return "timeout"
    last = run.get("stdout", "").strip().splitlines()[-1:] or ["(no output)"]
    return f"rc {run['rc']}: {last[0][:80]}"


def first_difference(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f"line {i + 1}: `{x[:60]}` vs `{y[:60]}`"
    return f"{len(la)} vs {len(lb)} lines"


def samples_section(d):
    runs = {}
    order = []
    for line in open(os.path.join(d, "samples.jsonl")):
        j = json.loads(line)
        if j["sample"] not in runs:
            order.append(j["sample"])
        runs.setdefault(j["sample"], {})[j["set"]] = j
    out = ["## Samples", ""]
    count = {s: sum(passed(runs[n].get(s, {})) for n in order) for s in SETS}
    same_nv = [n for n in order if all(s in runs[n] for s in SETS)
               and runs[n]["ours-static"].get("stdout") == runs[n]["nvidia-static"].get("stdout")]
    same_sh = [n for n in order if all(s in runs[n] for s in SETS)
               and runs[n]["ours-static"].get("stdout") == runs[n]["shared"].get("stdout")]
    leaked = [n for n in order for s in ("ours-static", "nvidia-static")
              if runs[n].get(s, {}).get("libcudart_mapped")]
    out += [
        f"{len(order)} samples, each run three ways on the H200 (same sources):",
        "",
        "| build | runtime | PASS |",
        "|---|---|---:|",
        f"| `-cudart shared` | our `libcudart.so.13` | {count['shared']}/{len(order)} |",
        f"| nvcc's default flags, `-L<prefix>/lib64` | our `libcudart_static.a` | {count['ours-static']}/{len(order)} |",
        f"| nvcc's default flags | NVIDIA's `libcudart_static.a` | {count['nvidia-static']}/{len(order)} |",
        "",
        f"- stdout of our static build identical to NVIDIA's static build: {len(same_nv)}/{len(order)}",
        f"- stdout of our static build identical to the shared build on ours: {len(same_sh)}/{len(order)}",
        f"- static builds that mapped a `libcudart.so`: {len(leaked)}"
        + (f" ({', '.join(sorted(set(leaked)))})" if leaked else ""),
        "",
        "| sample | shared, ours | static, ours | static, NVIDIA | ours = NVIDIA (static) | static = shared (ours) |",
        "|---|---|---|---|---|---|",
    ]
    for n in order:
        r = runs[n]
        cells = [outcome(r.get(s)) for s in SETS]
        nv = "yes" if n in same_nv else (
            first_difference(r["ours-static"].get("stdout", ""), r["nvidia-static"].get("stdout", ""))
            if all(s in r for s in SETS) else "-")
        sh = "yes" if n in same_sh else (
            first_difference(r["ours-static"].get("stdout", ""), r["shared"].get("stdout", ""))
            if all(s in r for s in SETS) else "-")
        out.append(f"| {n} | " + " | ".join(cells) + f" | {nv} | {sh} |")
    return out


BENCH = re.compile(r"^BENCH (\S+) (\S+) (\S+) \d+ .*?(?: pair=(\S+))?$")


def bench_section(d):
    vals = {}  # name -> rt -> [median per round]
    pairs = {}
    for f in sorted(glob.glob(os.path.join(d, "bench-*-*-*.txt"))):
        rt = os.path.basename(f).split("-")[1]
        for line in open(f, errors="replace"):
            m = BENCH.match(line.strip())
            if not m or m.group(3) != "ns":
                continue
            name = m.group(1)
            vals.setdefault(name, {}).setdefault(rt, []).append(float(m.group(2)))
            if m.group(4):
                pairs.setdefault(name, {}).setdefault(rt, []).append(float(m.group(4)))
    if not vals:
        return ["## Benchmarks", "", "No benchmark output."]
    rounds = max(len(v) for r in vals.values() for v in r.values())
    out = [
        "## Benchmarks",
        "",
        f"Both programs built with nvcc's default flags; {rounds} rounds, the runtimes "
        "alternating. Median over rounds of each process's median; `/raw` is the median "
        "of the per-repetition ratio to the raw driver call run interleaved in the same "
        "process.",
        "",
        "| benchmark | NVIDIA static | ours static | ours/NVIDIA | NVIDIA/raw | ours/raw |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name in sorted(vals):
        nv = vals[name].get("nvidia")
        ours = vals[name].get("ours")
        if not nv or not ours:
            continue
        mn, mo = statistics.median(nv), statistics.median(ours)
        p = pairs.get(name, {})
        pn = f"{statistics.median(p['nvidia']):.3f}" if p.get("nvidia") else ""
        po = f"{statistics.median(p['ours']):.3f}" if p.get("ours") else ""
        out.append(f"| `{name}` | {mn:.2f} ns | {mo:.2f} ns | {mo / mn:.2f} | {pn} | {po} |")
    return out


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    d = sys.argv[1]
    info = {}
    for path in (os.path.join(d, "BUILD-INFO"),):
        if os.path.exists(path):
            for line in open(path):
                k, _, v = line.partition(": ")
                info[k.strip()] = v.strip()
    log = open(os.path.join(d, "log.txt"), errors="replace").read().splitlines()
    lines = [
        "# The static runtime on the H200",
        "",
        "Generated by `scripts/static-report.py` from a run of `scripts/static-run.sh` "
        "(bundle from `scripts/static-prepare.sh`).",
        "",
        f"- Run: {log[0] if log else '?'}; GPU: {log[1] if len(log) > 1 else '?'}",
        f"- Bundle: commit {info.get('commit', '?')[:12]}, {info.get('nvcc', '?')}",
        f"- Archive size: ours {int(info.get('archive ours', '0').split()[0]) / 1e6:.2f} MB, "
        f"NVIDIA's {int(info.get('archive nvidia', '0').split()[0]) / 1e6:.2f} MB; "
        f"`vector_add` linked: ours {int(info.get('vector_add bytes ours', '0')) / 1e6:.2f} MB, "
        f"NVIDIA's {int(info.get('vector_add bytes nvidia', '0')) / 1e6:.2f} MB",
        f"- Link time of `vector_add` (nvcc, best of 3, on the 2-core CPU machine): "
        f"ours {info.get('link ms ours', '?')} ms, NVIDIA's {info.get('link ms nvidia', '?')} ms",
        "",
    ]
    lines += samples_section(d) + [""] + bench_section(d)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
