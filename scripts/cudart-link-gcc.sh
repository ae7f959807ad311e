#!/usr/bin/env bash
# Linker wrapper (see .cargo/config.toml). For the output libcudart*.so it
# replaces rustc's `-Wl,--version-script=...` with cudart/libcudart.map,
# sets the SONAME and adds cudart/layout.ld (the start-up and first-launch
# code in one place); every other link is passed to cc untouched.
here=$(cd "$(dirname "$0")/.." && pwd)
out=""
prev=""
for a in "$@"; do
  [[ "$prev" == "-o" ]] && out="$a"
  prev="$a"
done
case "$(basename -- "$out")" in
  libcudart.so|libcudart-*.so)
    args=()
    for a in "$@"; do
      case "$a" in
        -Wl,--version-script=*) args+=("-Wl,--version-script=$here/cudart/libcudart.map") ;;
        *) args+=("$a") ;;
      esac
    done
    exec "${CC:-cc}" "${args[@]}" -Wl,-soname,libcudart.so.13 -Wl,-T,"$here/cudart/layout.ld"
    ;;
  *) exec "${CC:-cc}" "$@" ;;
esac
