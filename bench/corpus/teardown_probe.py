#!/usr/bin/env python3
"""What a CUDA process's teardown follows (issue 30), no runtime involved.

    python3 teardown_probe.py CHILD [ROUNDS] [MODE ...] [--json OUT.json]

Runs bench/corpus/teardown_child (CHILD) once per mode per round, the
modes rotating round by round so that the host's drift spreads over all
of them (default: every mode, 10 rounds). For each process: its set-up
(cuInit, the context, the allocations), what it did before exiting (the
context's release or reset, the frees: "end"), and the teardown, from
its last timestamp before exit() to the parent's wait4: the exit
handlers, the destructors and the kernel's teardown of the process.

Prints per mode the medians and each process's teardown in ms, so that a
bimodal teardown (about 40 or 80-120 ms in the corpus runs) shows, and
whether ending the context first makes end + teardown shorter.
"""
import json
import os
import subprocess
import sys
import time

MODES = ["init", "ctx", "ctx_release", "ctx_reset", "alloc", "alloc_free", "alloc_reset",
         "alloc_idle", "two_ctx"]


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    if not n:
        return None
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def one(child, mode):
    t0 = time.monotonic_ns()
    p = subprocess.Popen([child, mode], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate(timeout=60)
    t1 = time.monotonic_ns()
    rec = {"mode": mode, "rc": p.returncode, "wall_ns": t1 - t0}
    for line in out.decode(errors="replace").splitlines():
        if line.startswith("teardown "):
            kv = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
            rec["driver_rc"] = int(kv.get("rc", "-1"))
            rec["setup_ns"] = int(kv["setup_ns"])
            rec["end_ns"] = int(kv["end_ns"])
            rec["teardown_ns"] = t1 - int(kv["t_exit"])
    if p.returncode != 0:
        rec["stderr"] = err.decode(errors="replace")[-500:]
    return rec


def main(argv):
    args = [a for a in argv[1:]]
    json_out = None
    if "--json" in args:
        i = args.index("--json")
        json_out = args[i + 1]
        del args[i:i + 2]
    if not args:
        sys.exit(__doc__)
    child = os.path.abspath(args[0])
    rounds = int(args[1]) if len(args) > 1 else 10
    modes = args[2:] or MODES
    bad = [m for m in modes if m not in MODES]
    if bad:
        sys.exit("teardown_probe: unknown modes %s (known: %s)" % (bad, " ".join(MODES)))
    recs = []
    for r in range(rounds):
        for i in range(len(modes)):
            rec = one(child, modes[(i + r) % len(modes)])
            rec["round"] = r + 1
            recs.append(rec)
    print("%-12s %4s %9s %9s %12s %12s  %s" % ("mode", "ok", "setup ms", "end ms", "teardown ms",
                                             "end+td ms", "teardown of each process, ms"))
    for m in modes:
        ok = [x for x in recs if x["mode"] == m and x["rc"] == 0 and "teardown_ns" in x]
        n = len([x for x in recs if x["mode"] == m])
        if not ok:
            print("%-12s %d/%d  (no process ran to its end: %s)" % (
                m, 0, n, next((x.get("stderr", "").strip() for x in recs if x["mode"] == m), "")))
            continue
        ms = lambda k: median([x[k] for x in ok]) / 1e6
        both = median([x["end_ns"] + x["teardown_ns"] for x in ok]) / 1e6
        print("%-12s %d/%d %9.2f %9.2f %12.2f %12.2f  %s" % (
            m, len(ok), n, ms("setup_ns"), ms("end_ns"), ms("teardown_ns"), both,
            " ".join("%.0f" % (x["teardown_ns"] / 1e6) for x in ok)))
    if json_out:
        os.makedirs(os.path.dirname(os.path.abspath(json_out)), exist_ok=True)
        with open(json_out, "w") as f:
            json.dump({"child": child, "rounds": rounds, "modes": modes, "runs": recs}, f, indent=1)
    return 0 if all(x["rc"] == 0 for x in recs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
