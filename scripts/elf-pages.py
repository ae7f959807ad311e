#!/usr/bin/env python3
"""Which exported functions of a shared library lie on given pages of its
code mapping: the pages `bench/probe_first` (PROBE_PAGES=1) reports as
faulted in, named (issue 8, docs/first-launch.md finding 11).

    scripts/elf-pages.py LIBRARY START+LENGTH...

START and LENGTH are hex page counts from the start of the library's
executable mapping, as the probe prints them (`56+16`). Prints, per run,
the dynamic symbols (functions) whose code overlaps it, and the closest
one below its start (a run inside a large unexported function names that
function's exported neighbour, not itself).
"""
import argparse
import struct

PT_LOAD, PF_X = 1, 1
SHT_DYNSYM = 11
STT_FUNC = 2


def read_elf(path):
    """(base vaddr of the executable mapping, [(value, size, name)])."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise SystemExit(f"{path}: not a 64-bit ELF file")
    (phoff, shoff) = struct.unpack_from("<QQ", data, 0x20)
    (phentsize, phnum, shentsize, shnum) = struct.unpack_from("<HHHH", data, 0x36)
    base = None
    for i in range(phnum):
        p_type, p_flags, _off, vaddr = struct.unpack_from("<IIQQ", data, phoff + i * phentsize)
        if p_type == PT_LOAD and p_flags & PF_X and base is None:
            base = vaddr & ~0xFFF  # the kernel maps from the page holding p_vaddr
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    syms = []
    for sh in sections:
        if sh[1] != SHT_DYNSYM:
            continue
        strtab = sections[sh[6]]
        str_off = strtab[4]
        for j in range(sh[5] // 24):
            name_off, info, _other, shndx, value, size = struct.unpack_from("<IBBHQQ", data, sh[4] + j * 24)
            if info & 0xF != STT_FUNC or not shndx or not value:
                continue
            end = data.index(b"\0", str_off + name_off)
            syms.append((value, size, data[str_off + name_off:end].decode(errors="replace")))
    syms.sort()
    return base, syms


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("library")
    ap.add_argument("runs", nargs="+", help="START+LENGTH, hex pages into the code mapping")
    args = ap.parse_args()
    base, syms = read_elf(args.library)
    if base is None:
        raise SystemExit("no executable segment")
    for run in args.runs:
        start, _, length = run.partition("+")
        lo = base + int(start, 16) * 4096
        hi = lo + int(length or "1", 16) * 4096
        inside = [s for s in syms if s[0] < hi and s[0] + max(s[1], 1) > lo]
        below = [s for s in syms if s[0] < lo]
        print(f"run {run}: 0x{lo:x}-0x{hi:x}")
        if below:
            v, n, name = below[-1]
            print(f"  below: {name} 0x{v:x} size {n} (page +{(v - base) >> 12:x})")
        for v, n, name in inside[:40]:
            print(f"  {name} 0x{v:x} size {n} (page +{(v - base) >> 12:x})")
        if len(inside) > 40:
            print(f"  ... {len(inside) - 40} more")


if __name__ == "__main__":
    main()
