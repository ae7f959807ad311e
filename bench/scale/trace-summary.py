#!/usr/bin/env python3
"""bench/scale/trace.sh's summary of the runs it wrote to OUT:

    python3 trace-summary.py OUT > OUT/trace-summary.txt

Per trace-RUNTIME-RUN.txt (bench/drvtrace.so's lines: ns since the first
call, function, result, ns in the call): every driver function with its
calls, total ms and mean ns, and each cuLibraryUnload's time. Per
unload-IMAGE.txt (bench/probe_load unload): each way's unload time in us,
round by round; the probe's set-up lines ("PROBE unload cuInit US") are
not ways and are left out.
"""
import collections, glob, os, sys
out = sys.argv[1]
for path in sorted(glob.glob(os.path.join(out, "trace-*-*.txt"))):
    rt, name = os.path.basename(path)[len("trace-"):-len(".txt")].split("-", 1)
    calls = collections.OrderedDict()
    unloads = []
    for line in open(path, errors="replace"):
        f = line.split()
        if len(f) < 4 or not f[0].isdigit():
            continue
        fn, ns = f[1], int(f[3]) if f[3].isdigit() else 0
        c = calls.setdefault(fn, [0, 0])
        c[0] += 1
        c[1] += ns
        if fn == "cuLibraryUnload":
            unloads.append(ns)
    print("== %s under %s: %d driver functions" % (name, rt, len(calls)))
    for fn, (n, ns) in sorted(calls.items(), key=lambda kv: -kv[1][1]):
        print("  %-36s %9d calls %12.3f ms %10.0f ns each" % (fn, n, ns / 1e6, ns / n if n else 0))
    if unloads:
        print("  cuLibraryUnload, each: %s ns" % ", ".join(str(u) for u in unloads))
    print()
for path in sorted(glob.glob(os.path.join(out, "unload-*.txt"))):
    rows = collections.defaultdict(list)
    for line in open(path, errors="replace"):
        f = line.split()
        # the ways' lines only: "PROBE unload WAY US kernels=K ..." (the
        # set-up lines, "PROBE unload cuInit US", have no kernels= field)
        if len(f) >= 5 and f[:2] == ["PROBE", "unload"] and f[4].startswith("kernels="):
            rows[(f[2], f[4])].append(float(f[3]))
    print("== cuLibraryUnload (module: cuModuleUnload) of %s (us, each round)"
          % os.path.basename(path)[len("unload-"):-len(".txt")])
    for (way, n), us in sorted(rows.items()):
        print("  %-7s %-10s %s" % (way, n, ", ".join("%.1f" % u for u in us)))
    print()
