"""What the whole-process benchmarks share (scripts/corpus-run.sh,
bench/scale/run.sh, and scripts/corpus-report.py for the order): the order NVIDIA's runtime and ours take turns in,
why a run is skipped, the facts recorded about the machine and the
libraries, and the results file written whole after every step (a run cut
short keeps what it measured)."""
import hashlib
import json
import os
import subprocess
import time

RUNTIMES = ("nvidia", "ours")


def turns(rnd, order):
    """The runtimes in the order they run in round `rnd` (from 1): NVIDIA's
    first, or with order "abba" ours first in even rounds."""
    return RUNTIMES if order == "abab" or rnd % 2 else RUNTIMES[::-1]


def budget_s(env, name):
    """The seconds a run has for all its processes: `name` in `env` where
    set, else the seconds scripts/gpu-all.sh gave the part (PART_LIMIT_S)
    less 10, else 540."""
    if env.get(name):
        return float(env[name])
    if env.get("PART_LIMIT_S"):
        return float(env["PART_LIMIT_S"]) - 10
    return 540.0


def skip_reason(key, t_start, budget, banned, expect=0.0):
    """Why the run of `key` (program, runtime) is not started: past the
    budget (seconds since `t_start`, time.monotonic), or it would end past
    it (`expect`: the seconds the run is expected to take, such as the
    longest an earlier run of the program took), or it timed out before;
    None to run it."""
    elapsed = time.monotonic() - t_start
    if elapsed > budget:
        return "budget"
    if elapsed + expect > budget:
        return "budget (would end past it)"
    if key in banned:
        return "timed out before"
    return None


def sh(cmd, timeout=20):
    """A command's stdout, for the facts in a log (its error as text)."""
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True,
                              timeout=timeout).stdout.strip()
    except Exception as e:  # noqa: BLE001 - facts for the log
        return "(%s)" % e


def file_info(path):
    """Path, real path, size and sha256 of a file (which library ran)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        return {"path": path, "real": os.path.realpath(path), "size": len(data),
                "sha256": hashlib.sha256(data).hexdigest()}
    except OSError as e:
        return {"path": path, "error": str(e)}


def write_json(path, doc):
    """`doc` to `path`, replaced whole (a reader never sees half a file)."""
    tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)
