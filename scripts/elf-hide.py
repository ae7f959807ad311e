#!/usr/bin/env python3
"""Gives the global symbols of a relocatable ELF64 object that match the
given patterns hidden visibility (STV_HIDDEN), in place, as NVIDIA's
libcudart_static.a has its entry points: a program or shared library that
links the object resolves them at its own link and exports none of them.

    scripts/elf-hide.py OBJECT PATTERN...

PATTERN is an fnmatch pattern (`cuda*`). objcopy localizes symbols but has
no option for visibility; this edits each matching symbol's st_other byte
in every SHT_SYMTAB section and nothing else. Prints how many it hid.
"""
import fnmatch
import struct
import sys

SHT_SYMTAB = 2
STB_GLOBAL, STB_WEAK = 1, 2
STV_HIDDEN = 2
ET_REL = 1


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) > 1 else 2
    path, patterns = sys.argv[1], sys.argv[2:]
    data = bytearray(open(path, "rb").read())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit(f"elf-hide: {path}: not a little-endian ELF64 file")
    if struct.unpack_from("<H", data, 0x10)[0] != ET_REL:
        sys.exit(f"elf-hide: {path}: not a relocatable object")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)

    def section(i):
        off = shoff + i * shentsize
        if off + 64 > len(data):
            sys.exit(f"elf-hide: {path}: section header {i} out of the file")
        # name, type, flags, addr, offset, size, link, info, align, entsize
        return struct.unpack_from("<IIQQQQIIQQ", data, off)

    hidden = 0
    for i in range(shnum):
        _, kind, _, _, off, size, link, info, _, entsize = section(i)
        if kind != SHT_SYMTAB:
            continue
        if entsize != 24 or off + size > len(data):
            sys.exit(f"elf-hide: {path}: malformed symbol table {i}")
        str_off, str_size = section(link)[4], section(link)[5]
        if str_off + str_size > len(data):
            sys.exit(f"elf-hide: {path}: string table out of the file")
        for sym in range(info, size // 24):
            at = off + sym * 24
            name_off, st_info, st_other, shndx = struct.unpack_from("<IBBH", data, at)
            if shndx == 0 or (st_info >> 4) not in (STB_GLOBAL, STB_WEAK):
                continue
            start = str_off + name_off
            end = data.index(b"\0", start, str_off + str_size)
            name = data[start:end].decode("ascii", "replace")
            if any(fnmatch.fnmatchcase(name, p) for p in patterns):
                data[at + 5] = (st_other & ~3) | STV_HIDDEN
                hidden += 1
    open(path, "wb").write(data)
    print(f"elf-hide: {hidden} symbols hidden in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
