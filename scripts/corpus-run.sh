#!/usr/bin/env bash
# The end-to-end corpus benchmark (issue 30): whole processes of real
# programs under NVIDIA's libcudart.so.13 and under ours, alternating, on
# the GPU machine. Needs bash and python3 (no cargo).
#
#   scripts/corpus-run.sh BUNDLE OUR_LIB_DIR NVIDIA_LIB_DIR OUT [ROUNDS]
#
# BUNDLE is a bundle of scripts/gpu-prepare.sh, with the corpus's parts
# built into it by `bench/corpus/build.sh BUNDLE/corpus`. NVIDIA_LIB_DIR may
# be `auto`: the first of /usr/local/cuda/lib64 and /usr/local/cuda/targets/
# x86_64-linux/lib holding libcudart.so.13 (as gpu-run.sh looks). ROUNDS
# defaults to 5. The programs, in this order (CORPUS_PARTS picks):
#   samples  every c-sample of BUNDLE/bin/samples.txt, run as gpu-run.sh runs
#            them: cwd BUNDLE/bin, `./NAME`, no arguments, stdin /dev/null,
#            CUDART_TRACE* unset, LD_LIBRARY_PATH=<runtime dir>:<inherited>;
#            less CORPUS_SKIP (default: rel_stress rel_dlopen_fire, which run
#            for a fixed number of seconds: their wall time says nothing)
#   corpus   the programs of BUNDLE/corpus/corpus.txt (bench/corpus), the same way
#   torch    BUNDLE/pytorch/workload.py when python3 finds torch: NVIDIA's
#            run is plain python3 (torch loads its wheel's libcudart); ours
#            runs in the environment `BUNDLE/scripts/with-cudart.sh --lib
#            OUR_LIB_DIR --env` prints, made once (what with-cudart.sh --
#            does, without timing its own start-up in every process)
#   extra    CORPUS_EXTRA: lines `name<TAB>nvidia-command<TAB>ours-command`.
#            A command is split as the shell splits words (no shell runs
#            it: the process timed is the program itself); leading VAR=value
#            words set variables; an ours-command starting with the word
#            WITH_CUDART runs in the with-cudart.sh environment; a leading
#            EXPECT_LIB=DIR word sets no variable but names the folder whose
#            libcudart.so.13 must be the one mapped; {BUNDLE}, {OURS},
#            {NVIDIA} are replaced by the three directories. E.g.
#              cupy<TAB>python3 t.py<TAB>WITH_CUDART python3 t.py
#            A program whose stdout is a JSON document with "parts" (as
#            the PyTorch, JAX and CuPy workloads print) passes when every
#            part is ok; any other passes on exit status 0.
#
# Method. Every program runs ROUNDS times under each runtime. Rounds are
# the outer loop; inside one, each program runs under NVIDIA's runtime and
# then ours, back to back (CORPUS_ORDER=abab, the default; abba: ours first
# in even rounds). Before round 1 the files are read once (page cache) and
# the first program runs once under each runtime, untimed (CORPUS_WARMUP=0:
# not). Each process is started with posix_spawn in its own process group
# by a Python parent that takes CLOCK_MONOTONIC just before the spawn and
# just after wait4 returns (wall_ns), and keeps wait4's rusage (user and
# system CPU, peak RSS, page faults, context switches). The phases come from
# bench/corpus/phases.so, preloaded under both runtimes (LD_PRELOAD, and
# PHASES_FILE, one file per process): its constructor, main's entry and
# return, an exit handler and its destructor (phases.c says what each
# marks); CORPUS_PHASES=driver preloads phases-drv.so instead (adds cuInit
# and, under ours only, the first context call), off preloads nothing.
# A process that runs past CORPUS_TIMEOUT (torch: CORPUS_TORCH_TIMEOUT) is
# killed (its group: TERM, then KILL 5 s later) and recorded as rc 124; a
# program that timed out under a runtime is not run under it again. Runs
# that would start after CORPUS_BUDGET seconds, or end after it by the
# longest an earlier run of the program took (its warm-up included), are
# recorded as skipped.
#
# Writes (OUT/corpus.json after every round, so a run cut short keeps what
# it measured):
#   OUT/corpus.json     per program and runtime, every process: round, rc,
#                       pass, wall_ns, phase marks and durations, rusage,
#                       the libcudart mapped at exit (and whether it is the
#                       intended one); machine, libraries, settings
#   OUT/corpus-log.txt  machine facts, one line per process, a summary
#   OUT/raw.tar.gz      every stdout, stderr and phases file
# Then, back here:
#   python3 scripts/corpus-report.py OUT/corpus.json --png docs/corpus-report.png > docs/corpus-report.md
#
# Environment:
#   CORPUS_PARTS     samples corpus torch extra (default: all four)
#   CORPUS_ONLY      program names to run (default: all of the parts)
#   CORPUS_SKIP      program names left out (default: rel_stress rel_dlopen_fire)
#   CORPUS_ORDER     abab (default) or abba
#   CORPUS_WARMUP    1 (default) or 0
#   CORPUS_GAP_MS    milliseconds of idle before each process (default 150):
#                    a process whose teardown the kernel finishes after it
#                    has exited hands the rest to whichever process makes
#                    the next context, which then takes longer to make
#                    it; the gap lets each process start on a
#                    settled device, as a program run on its own does
#   CORPUS_PHASES    base (default), driver or off
#   CORPUS_CALLTIME  1: also preload bench/corpus/calltime.so (each wrapped
#                    runtime call's count, total, longest and first time,
#                    per process: a run's "calls"); default 0
#   CORPUS_TIMEOUT   seconds per process (default 60)
#   CORPUS_TORCH_TIMEOUT  seconds per workload process (default 300)
#   CORPUS_BUDGET    seconds for all runs (default: PART_LIMIT_S less 10
#                    where scripts/gpu-all.sh sets it, else 540)
#   CORPUS_EXTRA     see above
#   WORKLOAD_STEPS, WORKLOAD_PARTS   the torch workload's --steps (default 200)
#                    and --parts (default: all of its parts)
set -uo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
if [[ $# -lt 4 || $# -gt 5 ]]; then
  echo "usage: $0 BUNDLE OUR_LIB_DIR NVIDIA_LIB_DIR OUT [ROUNDS]" >&2
  exit 2
fi
bundle=$(cd "$1" && pwd) || exit 2
ours_lib=$(cd "$2" && pwd) || exit 2
nv_lib=$3
if [[ $nv_lib == auto ]]; then  # where gpu-run.sh looks
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [[ -e $d/libcudart.so.13 ]] && { nv_lib=$d; break; }
  done
fi
nv_lib=$(cd "$nv_lib" && pwd) || exit 2
mkdir -p "$4" && out=$(cd "$4" && pwd) || exit 2
rounds=${5:-5}
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "corpus-run: ROUNDS is a number >= 1" >&2; exit 2; }
[[ -e $nv_lib/libcudart.so.13 ]] || echo "corpus-run: WARNING: no $nv_lib/libcudart.so.13" >&2
[[ -e $ours_lib/libcudart.so.13 ]] || echo "corpus-run: WARNING: no $ours_lib/libcudart.so.13" >&2
command -v python3 >/dev/null || { echo "corpus-run: needs python3" >&2; exit 2; }

PYTHONPATH="$(cd "$(dirname "$0")" && pwd)${PYTHONPATH:+:$PYTHONPATH}" \
  exec python3 - "$bundle" "$ours_lib" "$nv_lib" "$out" "$rounds" <<'PY'
import json, os, re, shlex, shutil, signal, subprocess, sys, tarfile, tempfile
import threading, time
from abab import budget_s, file_info, sh, skip_reason, turns, write_json as write_whole

bundle, ours_lib, nv_lib, out, rounds = sys.argv[1:6]
rounds = int(rounds)
E = os.environ
parts = (E.get("CORPUS_PARTS") or "samples corpus torch extra").split()
only = set((E.get("CORPUS_ONLY") or "").split())
skip = set(E.get("CORPUS_SKIP", "rel_stress rel_dlopen_fire").split())
order = E.get("CORPUS_ORDER", "abab")
warmup = E.get("CORPUS_WARMUP", "1") != "0"
try:
    gap_s = max(0.0, float(E.get("CORPUS_GAP_MS", "150")) / 1000)
except ValueError:
    sys.exit("corpus-run: CORPUS_GAP_MS is a number of milliseconds")
phases_mode = E.get("CORPUS_PHASES", "base")
timeout_s = float(E.get("CORPUS_TIMEOUT", "60"))
torch_timeout_s = float(E.get("CORPUS_TORCH_TIMEOUT", "300"))
budget = budget_s(E, "CORPUS_BUDGET")
steps = E.get("WORKLOAD_STEPS", "200")
wl_parts = E.get("WORKLOAD_PARTS", "")
if order not in ("abab", "abba") or phases_mode not in ("base", "driver", "off"):
    sys.exit("corpus-run: CORPUS_ORDER is abab or abba; CORPUS_PHASES base, driver or off")

t_start = time.monotonic()
work = tempfile.mkdtemp(prefix="corpus-run.")
log_path = os.path.join(out, "corpus-log.txt")
logf = open(log_path, "w")


def say(msg, quiet=False):
    logf.write(msg + "\n")
    logf.flush()
    if not quiet:
        print(msg, file=sys.stderr, flush=True)


# ---- the shim ---------------------------------------------------------------
shim = None
if phases_mode != "off":
    shim = os.path.join(bundle, "corpus", "phases.so" if phases_mode == "base" else "phases-drv.so")
    if not os.path.exists(shim):
        say("WARNING: no %s (bench/corpus/build.sh BUNDLE/corpus): no phases, wall times only" % shim)
        shim, phases_mode = None, "off"

calltime = None
if E.get("CORPUS_CALLTIME", "0") == "1":
    calltime = os.path.join(bundle, "corpus", "calltime.so")
    if not os.path.exists(calltime):
        say("WARNING: no %s (bench/corpus/build.sh BUNDLE/corpus): no call times" % calltime)
        calltime = None

# ---- environments -------------------------------------------------------------
base_env = {k: v for k, v in E.items()
            if not k.startswith("CUDART_TRACE") and k not in ("LD_DEBUG", "LD_DEBUG_OUTPUT")}
inherited_llp = E.get("LD_LIBRARY_PATH", "")


def with_libdir(env, libdir):
    env = dict(env)
    env["LD_LIBRARY_PATH"] = libdir + (":" + inherited_llp if inherited_llp else "")
    return env


def with_shim(env, phases_file, calls_file):
    env = dict(env)
    for so, var, path in ((shim, "PHASES_FILE", phases_file),
                          (calltime, "CALLTIME_FILE", calls_file)):
        if so:
            pre = env.get("LD_PRELOAD", "")
            env["LD_PRELOAD"] = (pre + ":" + so) if pre else so
            env[var] = path
    return env


def parse_calls(path, pid):
    """calltime.so's lines of process pid: {function: {n, total_ns, max_ns, first_ns}}."""
    calls = {}
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return None
    for l in lines:
        kv = dict(w.split("=", 1) for w in l.split()[1:] if "=" in w)
        if l.startswith("calltime ") and kv.get("pid") == str(pid) and "fn" in kv:
            calls[kv["fn"]] = {k: int(kv.get(k, 0)) for k in ("n", "total_ns", "max_ns", "first_ns")}
    return calls


wc_env = None
wc_alias = None


def with_cudart_env():
    """The environment with-cudart.sh --env sets up, made once."""
    global wc_env, wc_alias
    if wc_env is not None:
        return wc_env
    script = os.path.join(bundle, "scripts", "with-cudart.sh")
    if not os.path.exists(script):
        say("WARNING: no %s: ours-runs needing it use LD_LIBRARY_PATH only" % script)
        wc_env = with_libdir(base_env, ours_lib)
        return wc_env
    r = subprocess.run(["bash", "-c", 'eval "$(bash "$1" --lib "$2" --env)" && env -0',
                        "_", script, ours_lib], capture_output=True, env=base_env)
    if r.returncode != 0:
        say("WARNING: with-cudart.sh --env failed: %s" % r.stderr.decode(errors="replace")[-500:])
        wc_env = with_libdir(base_env, ours_lib)
        return wc_env
    env = {}
    for item in r.stdout.split(b"\0"):
        if b"=" in item:
            k, v = item.split(b"=", 1)
            env[k.decode()] = v.decode()
    for k in ("SHLVL", "_", "PWD", "OLDPWD"):
        env.pop(k, None)
    first = env.get("LD_LIBRARY_PATH", "").split(":")[0]
    if os.path.basename(first).startswith("with-cudart."):
        wc_alias = first
    say("with-cudart.sh --env: LD_PRELOAD=%s LD_LIBRARY_PATH=%s PYTHONPATH=%s" % (
        env.get("LD_PRELOAD"), env.get("LD_LIBRARY_PATH"), env.get("PYTHONPATH")), quiet=True)
    wc_env = env
    return env


# ---- the programs -------------------------------------------------------------
# A program: name, kind, cwd, and per runtime argv and env (env without the shim).
programs = []


def read_list(path):
    try:
        with open(path) as f:
            return [l.strip() for l in f if l.strip() and not l.startswith("#")]
    except OSError:
        return None


def add_native(kind, d, names):
    for n in names:
        if n in skip or (only and n not in only):
            continue
        programs.append({"name": n, "kind": kind, "cwd": d, "timeout": timeout_s,
                         "argv": {"nvidia": ["./" + n], "ours": ["./" + n]},
                         "env": {"nvidia": with_libdir(base_env, nv_lib),
                                 "ours": with_libdir(base_env, ours_lib)},
                         "expect_lib": {"nvidia": nv_lib, "ours": ours_lib}})


for part in parts:
    if part == "samples":
        names = read_list(os.path.join(bundle, "bin", "samples.txt"))
        if names is None:
            say("samples: no %s/bin/samples.txt" % bundle)
        else:
            add_native("sample", os.path.join(bundle, "bin"), names)
    elif part == "corpus":
        names = read_list(os.path.join(bundle, "corpus", "corpus.txt"))
        if names is None:
            say("corpus: no %s/corpus/corpus.txt (bench/corpus/build.sh BUNDLE/corpus)" % bundle)
        else:
            add_native("corpus", os.path.join(bundle, "corpus"), names)
    elif part == "torch":
        wl = os.path.join(bundle, "pytorch", "workload.py")
        if only and "torch_workload" not in only:
            continue
        if not os.path.exists(wl):
            say("torch: no %s" % wl)
            continue
        if subprocess.run(["python3", "-c", "import importlib.util as u, sys; "
                           "sys.exit(0 if u.find_spec('torch') else 1)"]).returncode != 0:
            say("torch: python3 finds no torch; the workload is left out")
            continue
        argv = ["python3", wl, "--steps", steps] + (["--parts", wl_parts] if wl_parts else [])
        env_nv = dict(base_env)
        env_nv["PYTHONFAULTHANDLER"] = "1"
        env_ours = dict(with_cudart_env())
        env_ours["PYTHONFAULTHANDLER"] = "1"
        programs.append({"name": "torch_workload", "kind": "torch",
                         "cwd": os.path.join(bundle, "pytorch"), "timeout": torch_timeout_s,
                         "argv": {"nvidia": argv, "ours": argv},
                         "env": {"nvidia": env_nv, "ours": env_ours},
                         "expect_lib": {"nvidia": None, "ours": ours_lib}})
    elif part == "extra":
        for line in (E.get("CORPUS_EXTRA") or "").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            f = line.split("\t")
            if len(f) != 3:
                say("CORPUS_EXTRA: not name<TAB>nvidia-command<TAB>ours-command: %r" % line)
                continue
            name = f[0].strip()
            if name in skip or (only and name not in only):
                continue
            p = {"name": name, "kind": "extra", "cwd": bundle, "timeout": torch_timeout_s,
                 "argv": {}, "env": {}, "expect_lib": {"nvidia": None, "ours": None}}
            for rt, cmd in (("nvidia", f[1]), ("ours", f[2])):
                for k, v in (("{BUNDLE}", bundle), ("{OURS}", ours_lib), ("{NVIDIA}", nv_lib)):
                    cmd = cmd.replace(k, v)
                words = shlex.split(cmd)
                env = dict(base_env)
                if words and words[0] == "WITH_CUDART":
                    env = dict(with_cudart_env())
                    words = words[1:]
                    p["expect_lib"][rt] = ours_lib
                while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
                    k, v = words.pop(0).split("=", 1)
                    if k == "EXPECT_LIB":
                        p["expect_lib"][rt] = v
                    else:
                        env[k] = v
                p["argv"][rt], p["env"][rt] = words, env
            if p["argv"]["nvidia"] and p["argv"]["ours"]:
                programs.append(p)
    else:
        say("CORPUS_PARTS: unknown part %r" % part)

if not programs:
    say("corpus-run: nothing to run")

# ---- machine facts ----------------------------------------------------------
smi = sh("nvidia-smi --query-gpu=name,driver_version,memory.total,persistence_mode "
         "--format=csv,noheader")
build_info = {}
for l in (open(os.path.join(bundle, "BUILD-INFO")).read().splitlines()
          if os.path.exists(os.path.join(bundle, "BUILD-INFO")) else []):
    if ":" in l:
        k, v = l.split(":", 1)
        build_info[k.strip()] = v.strip()
machine = {
    "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    "uname": sh("uname -srm"), "nproc": os.cpu_count(), "gpu": smi,
    "nvidia_smi_L": sh("nvidia-smi -L"), "python3": sys.version.split()[0],
    "loadavg": sh("cat /proc/loadavg"),
}
libraries = {"nvidia": file_info(os.path.join(nv_lib, "libcudart.so.13")),
             "ours": file_info(os.path.join(ours_lib, "libcudart.so.13"))}
settings = {"rounds": rounds, "order": order, "warmup": warmup, "gap_ms": gap_s * 1000,
            "phases": phases_mode,
            "calltime": bool(calltime),
            "shim": shim, "timeout_s": timeout_s, "torch_timeout_s": torch_timeout_s,
            "budget_s": budget, "parts": parts, "skip": sorted(skip), "only": sorted(only),
            "workload_steps": steps, "workload_parts": wl_parts}
say("== machine\n" + "\n".join("%s: %s" % kv for kv in machine.items()), quiet=True)
say("== libraries\n" + json.dumps(libraries, indent=1), quiet=True)
if build_info:
    say("== BUILD-INFO\n" + "\n".join("%s: %s" % kv for kv in build_info.items()), quiet=True)
say("corpus-run: %d programs x %d rounds x 2 runtimes; order %s; phases %s; budget %.0fs" % (
    len(programs), rounds, order, phases_mode, budget))

# ---- one process --------------------------------------------------------------
def resolve(argv0, cwd, env):
    if "/" in argv0:
        return os.path.join(cwd, argv0)
    return shutil.which(argv0, path=env.get("PATH", os.defpath)) or argv0


PHASE_KEYS = ("ctor", "main", "main_ret", "atexit", "dtor", "drv_first", "cuinit_b",
              "cuinit_e", "ctx_b", "ctx_e")


def parse_phases(path, pid):
    mine, others = None, 0
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return None, 0
    for l in lines:
        if not l.startswith("phases "):
            continue
        kv = dict(w.split("=", 1) for w in l.split()[1:] if "=" in w)
        if kv.get("pid") == str(pid) and mine is None:
            mine = kv
        else:
            others += 1
    return mine, others


def derive(rec, t0, t1):
    """Marks (ns after the spawn) and phase durations (ns) of one process."""
    marks = {}
    for k in PHASE_KEYS:
        v = int(rec.get(k, "0") or 0)
        if v:
            marks[k] = v - t0
    marks["spawn"] = 0
    marks["reaped"] = t1 - t0
    ph = {}

    def span(name, a, b):
        if a in marks and b in marks:
            ph[name] = marks[b] - marks[a]
    span("start", "spawn", "ctor")          # exec, loading, libraries' constructors
    span("static_init", "ctor", "main")     # the executable's initialisers
    if "main_ret" in marks:
        span("main", "main", "main_ret")
        span("exit_handlers", "main_ret", "atexit")
    else:
        span("main_and_exit", "main", "atexit")
    span("late_exit", "atexit", "dtor")
    span("teardown", "dtor", "reaped")
    span("main_to_driver", "main", "drv_first")
    span("cuinit", "cuinit_b", "cuinit_e")
    span("ctx", "ctx_b", "ctx_e")
    span("main_to_ctx_done", "main", "ctx_e")
    span("main_to_cuinit_done", "main", "cuinit_e")
    return marks, ph


def tail(path, n):
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - n))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def run_one(p, rt, rnd, tag):
    d = os.path.join(work, p["name"], "%s.%s" % (rt, tag))
    os.makedirs(d, exist_ok=True)
    so, se, pf, cf = (os.path.join(d, x) for x in ("stdout", "stderr", "phases", "calls"))
    env = with_shim(p["env"][rt], pf, cf)
    argv = p["argv"][rt]
    exe = resolve(argv[0], p["cwd"], env)
    fa = [(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
          (os.POSIX_SPAWN_OPEN, 1, so, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
          (os.POSIX_SPAWN_OPEN, 2, se, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
    killed = []

    def kill(pid):
        killed.append(True)
        for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 0)):
            try:
                os.killpg(pid, sig)
            except OSError:
                return
            time.sleep(wait)

    os.chdir(p["cwd"])
    time.sleep(gap_s)
    t0 = time.monotonic_ns()
    try:
        pid = os.posix_spawn(exe, argv, env, file_actions=fa, setpgroup=0)
    except OSError as e:
        return {"round": rnd, "rc": None, "error": "spawn: %s" % e, "pass": False,
                "timed_out": False, "skipped": False}
    timer = threading.Timer(p["timeout"], kill, (pid,))
    timer.daemon = True
    timer.start()
    _, status, ru = os.wait4(pid, 0)
    t1 = time.monotonic_ns()
    timer.cancel()
    try:
        os.killpg(pid, signal.SIGKILL)  # whatever the program left running
    except OSError:
        pass
    rc = 128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    timed_out = bool(killed)
    if timed_out:
        rc = 124
    r = {"round": rnd, "rc": rc, "timed_out": timed_out, "skipped": False,
         "wall_ns": t1 - t0, "pid": pid,
         "rusage": {"utime_s": ru.ru_utime, "stime_s": ru.ru_stime, "maxrss_kib": ru.ru_maxrss,
                    "minflt": ru.ru_minflt, "majflt": ru.ru_majflt, "nvcsw": ru.ru_nvcsw,
                    "nivcsw": ru.ru_nivcsw}}
    rec, others = parse_phases(pf, pid) if shim else (None, 0)
    r["children_records"] = others
    if calltime:
        r["calls"] = parse_calls(cf, pid)
    if rec:
        r["marks"], r["phases"] = derive(rec, t0, t1)
        libs = [x for x in rec.get("libcudart", "").split(",") if x]
        r["libcudart"] = libs
        want = p["expect_lib"][rt]
        if want is not None:
            wr = os.path.realpath(os.path.join(want, "libcudart.so.13"))
            r["libcudart_ok"] = bool(libs) and all(os.path.realpath(x) == wr for x in libs)
    out_text = ""
    try:
        out_text = open(so, "rb").read().decode("utf-8", "replace")
    except OSError:
        pass
    lines = [l for l in out_text.splitlines() if l.strip()]
    r["last_line"] = lines[-1][:300] if lines else ""
    if p["kind"] in ("sample", "corpus"):
        r["pass"] = rc == 0 and r["last_line"] == "PASS " + p["name"]
    elif p["kind"] == "torch" or (p["kind"] == "extra" and out_text.lstrip().startswith("{")):
        ok = False
        try:
            doc = json.loads(out_text)
            ok = bool(doc.get("parts")) and all(v.get("ok") for v in doc["parts"].values())
            r["workload"] = {"total_s": doc.get("total_s"),
                             "parts_s": {k: v.get("time_s") for k, v in doc.get("parts", {}).items()},
                             "failed_parts": [k for k, v in doc.get("parts", {}).items() if not v.get("ok")],
                             "libcudart": doc.get("libcudart")}
        except (ValueError, AttributeError):
            pass
        r["pass"] = rc == 0 and ok
    else:
        r["pass"] = rc == 0
    if not r["pass"]:
        r["stderr_tail"] = tail(se, 3000)
    return r


# ---- the rounds -----------------------------------------------------------------
results = {p["name"]: {"nvidia": [], "ours": []} for p in programs}
banned = set()  # (program, runtime) that timed out


def write_json(final=False):
    doc = {"schema": 1, "generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "complete": final, "machine": machine, "build_info": build_info,
           "libraries": libraries, "settings": settings,
           "elapsed_s": round(time.monotonic() - t_start, 1), "programs": []}
    for p in programs:
        doc["programs"].append({
            "name": p["name"], "kind": p["kind"], "cwd": p["cwd"],
            "argv": p["argv"], "runs": results[p["name"]]})
    write_whole(os.path.join(out, "corpus.json"), doc)


def fmt(r):
    if r.get("skipped"):
        return "skipped (%s)" % r.get("why", "")
    s = "rc=%-4s %8.3fs %s" % (r["rc"], r.get("wall_ns", 0) / 1e9,
                                 "pass" if r["pass"] else ("TIMEOUT" if r["timed_out"] else "FAIL"))
    if r.get("libcudart_ok") is False:
        s += " LIBCUDART? %s" % ",".join(r.get("libcudart", []))
    return s


# Page cache: every file the processes will read, once.
for d in (os.path.join(bundle, "bin"), os.path.join(bundle, "corpus"), ours_lib, nv_lib):
    if os.path.isdir(d):
        for f in os.listdir(d):
            fp = os.path.join(d, f)
            if os.path.isfile(fp):
                try:
                    with open(fp, "rb") as fh:
                        while fh.read(1 << 20):
                            pass
                except OSError:
                    pass

# The teardown of the process before each run ("after_teardown_ns"): a
# short one leaves part of its teardown to the next process's context
# (see CORPUS_GAP_MS), which the report counts per program and runtime.
last = None


longest = {}  # program -> the longest wall time of its runs so far, s


def after_last(r, name):
    global last
    if last is not None:
        r["after_teardown_ns"] = (last.get("phases") or {}).get("teardown")
    last = r
    if r.get("wall_ns"):
        longest[name] = max(longest.get(name, 0.0), r["wall_ns"] / 1e9)
    return r


warm = []
if warmup and programs:
    p = programs[0]
    for rt in ("nvidia", "ours"):
        r = after_last(run_one(p, rt, 0, "warmup"), p["name"])
        warm.append({"program": p["name"], "runtime": rt, "rc": r.get("rc"),
                     "wall_ns": r.get("wall_ns")})
        say("warm-up %-6s %-28s %s" % (rt, p["name"], fmt(r)))
settings["warmup_runs"] = warm

for rnd in range(1, rounds + 1):
    say("== round %d of %d (+%.0fs)" % (rnd, rounds, time.monotonic() - t_start))
    for p in programs:
        for pos, rt in enumerate(turns(rnd, order)):
            why = skip_reason((p["name"], rt), t_start, budget, banned,
                              longest.get(p["name"], 0.0))
            if why:
                r = {"round": rnd, "skipped": True, "why": why, "pass": False,
                     "timed_out": False, "rc": None}
            else:
                r = after_last(run_one(p, rt, rnd, "r%d" % rnd), p["name"])
                if r.get("timed_out"):
                    banned.add((p["name"], rt))
            r["position"] = pos
            results[p["name"]][rt].append(r)
            say("r%d %-6s %-28s %s" % (rnd, rt, p["name"], fmt(r)), quiet=True)
    write_json()

# ---- summary ----------------------------------------------------------------------
def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return None if n == 0 else (xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2)


say("== summary (medians of wall time; scripts/corpus-report.py makes the report)")
say("%-28s %-8s %10s %10s %8s %s" % ("program", "kind", "nvidia s", "ours s", "ratio", "passes nv/ours"))
for p in programs:
    res = results[p["name"]]
    m = {rt: median([r["wall_ns"] for r in res[rt] if not r.get("skipped") and "wall_ns" in r])
         for rt in ("nvidia", "ours")}
    ratio = m["ours"] / m["nvidia"] if m["nvidia"] and m["ours"] else None
    say("%-28s %-8s %10s %10s %8s %d/%d" % (
        p["name"], p["kind"],
        "%.3f" % (m["nvidia"] / 1e9) if m["nvidia"] else "-",
        "%.3f" % (m["ours"] / 1e9) if m["ours"] else "-",
        "%.3f" % ratio if ratio else "-",
        sum(r["pass"] for r in res["nvidia"]), sum(r["pass"] for r in res["ours"])))
write_json(final=True)

# Raw outputs, under the 16 MiB a returned file may have.
tgz = os.path.join(out, "raw.tar.gz")
with tarfile.open(tgz, "w:gz") as t:
    t.add(work, arcname="raw")
if os.path.getsize(tgz) > 15 * 1024 * 1024:
    with tarfile.open(tgz, "w:gz") as t:
        t.add(work, arcname="raw", filter=lambda ti: None if ti.name.endswith("/stdout") else ti)
say("corpus-run: done in %.0fs; %s: %s" % (time.monotonic() - t_start, out, " ".join(sorted(os.listdir(out)))))
shutil.rmtree(work, ignore_errors=True)
if wc_alias and os.path.basename(wc_alias).startswith("with-cudart."):
    shutil.rmtree(wc_alias, ignore_errors=True)
PY
