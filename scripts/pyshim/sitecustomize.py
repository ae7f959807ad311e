"""Keeps a Python process on the libcudart.so.13 named by CUDART_LIB.

Put on PYTHONPATH by scripts/with-cudart.sh (never imported otherwise).
LD_PRELOAD already makes every `libcudart.so.13` dependency resolve to that
library; what it cannot catch is a load BY FULL PATH, which the dynamic
loader treats as a different file: torch's `_preload_cuda_deps` does
`ctypes.CDLL(".../nvidia/cu13/lib/libcudart.so.13")`. This shim sends such
ctypes loads of any `libcudart*.so*` to CUDART_LIB instead, which is
already loaded, so the process keeps one runtime.

CUDART_SHIM_REPORT=1 prints each redirected load on stderr.
"""
import ctypes
import os
import re

_LIB = os.environ.get("CUDART_LIB")
_PATTERN = re.compile(r"libcudart(\.[0-9a-f]{8})?\.so(\.\d+)*$")


def _redirect(name):
    # JAX's CUDA plugin passes a pathlib.Path, which ctypes takes as well.
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if not _LIB or not isinstance(name, str) or "/" not in name:
        return name
    base = os.path.basename(name)
    if _PATTERN.match(base) and os.path.realpath(name) != os.path.realpath(_LIB):
        if os.environ.get("CUDART_SHIM_REPORT"):
            import sys
            print("with-cudart: ctypes load of %s -> %s" % (name, _LIB), file=sys.stderr)
        return _LIB
    return name


if _LIB:
    _init = ctypes.CDLL.__init__

    def _cdll_init(self, name, *args, **kwargs):
        return _init(self, _redirect(name), *args, **kwargs)

    ctypes.CDLL.__init__ = _cdll_init


def _record_maps():
    """--check of with-cudart.sh: note every libcudart this process mapped."""
    log = os.environ.get("CUDART_MAPS_LOG")
    if not log:
        return
    try:
        seen = set()
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 6 and "libcudart" in parts[-1]:
                    seen.add(parts[-1])
        lines = ["pid %d" % os.getpid()] + (sorted(seen) or ["(no libcudart mapped)"])
        with open(log, "a") as f:
            f.write("".join(x + "\n" for x in lines))
    except OSError:
        pass


if os.environ.get("CUDART_MAPS_LOG"):
    import atexit

    atexit.register(_record_maps)
