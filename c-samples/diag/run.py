#!/usr/bin/env python3
"""Runs the diagnostics cases (issue 11) under NVIDIA's runtime and ours.

    run.py BIN_DIR NVIDIA_LIB_DIR OUR_LIB_DIR OUT_JSON [CASE...]

For each case: the program's stdout (the error codes) under NVIDIA's
runtime and under ours must be the same; ours runs twice, once plain (no
diagnostic may appear: off by default) and once with CUDART_DIAGNOSTICS=1,
whose stderr must name every fact listed for the case below. Prints a table
and writes the details to OUT_JSON; exit status 1 if any case fails.
The "no driver" case runs in CI (abi-tests/tests/diagnostics.rs).
"""
import json
import os
import subprocess
import sys

# case -> (program, facts the diagnostic must name)
CASES = {
    "none": ("diag", []),
    "threads": ("diag", ["small_k", "2048 threads per block", "limit of 1024"]),
    "dims": ("diag", ["block.z = 65", "maximum 64"]),
    "smem_default": ("diag", ["100000 bytes of dynamic shared memory",
                              "cudaFuncSetAttribute(", "cudaFuncAttributeMaxDynamicSharedMemorySize"]),
    "smem_optin": ("diag", ["300000 bytes of dynamic shared memory", "no attribute can raise"]),
    "symbol": ("diag", ["not the host shadow of a registered", "nearest registered variable is"]),
    "function": ("diag", ["never registered as a kernel"]),
    "dlclosed": ("diag", ["dlclose", "librelfire.so"]),
    "static": ("diag", ["libdiagstatic.so", "statically linked", "-cudart shared"]),
    "sticky": ("diag", ["first seen by cudaDeviceSynchronize", "cudaDeviceReset"]),
    "no_image": ("diag_no_image", ["sm_90", "cubin sm_80", "-gencode arch=compute_90,code=sm_90"]),
}
MARK = "cudart diagnostic:"


def run(exe, case, libdir, diag):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = libdir + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    env.pop("CUDART_DIAGNOSTICS", None)
    if diag:
        env["CUDART_DIAGNOSTICS"] = "1"
    try:
        p = subprocess.run([exe, case], env=env, capture_output=True, text=True, timeout=60)
        return {"rc": p.returncode, "stdout": p.stdout, "stderr": p.stderr[-4000:]}
    except subprocess.TimeoutExpired:
        return {"rc": "timeout", "stdout": "", "stderr": ""}


def main():
    bindir, nv, ours, dest = sys.argv[1:5]
    cases = sys.argv[5:] or list(CASES)
    results, failed = [], 0
    print("%-13s %-9s %-9s %-12s %s" % ("case", "codes", "quiet", "explained", "missing facts"))
    for case in cases:
        prog, facts = CASES[case]
        exe = os.path.join(bindir, prog)
        r_nv = run(exe, case, nv, False)
        r_plain = run(exe, case, ours, False)
        r_diag = run(exe, case, ours, True)
        same = r_nv["stdout"] == r_plain["stdout"] == r_diag["stdout"] and r_nv["rc"] == r_plain["rc"]
        quiet = MARK not in r_plain["stderr"]
        msgs = [l for l in r_diag["stderr"].splitlines() if MARK in l]
        text = "\n".join(msgs)
        missing = [f for f in facts if f not in text]
        explained = (not facts and not msgs) or (bool(facts) and not missing)
        ok = same and quiet and explained
        failed += not ok
        print("%-13s %-9s %-9s %-12s %s" % (case, "same" if same else "DIFFER", "yes" if quiet else "NO",
                                           "yes" if explained else "NO", ", ".join(missing)))
        results.append({"case": case, "ok": ok, "same_codes": same, "quiet_by_default": quiet,
                        "explained": explained, "missing": missing, "nvidia": r_nv,
                        "ours": r_plain, "ours_diagnostics": r_diag["stderr"], "messages": msgs})
    with open(dest, "w") as f:
        json.dump({"cases": results, "failed": failed}, f, indent=1)
    print("diag: %d/%d cases pass" % (len(results) - failed, len(results)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
