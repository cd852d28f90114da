#!/usr/bin/env bash
# Builds bcryptprimitives.dll (the ProcessPrng shim for Wine 8, see
# bcryptprimitives.c) with mingw-w64 into the folder given (default
# target/wine), if it is missing or older than its source. Prints the path.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/../../target/wine}"
mkdir -p "$out"
dll="$out/bcryptprimitives.dll"
if [ ! -f "$dll" ] || [ "$here/bcryptprimitives.c" -nt "$dll" ]; then
  command -v x86_64-w64-mingw32-gcc >/dev/null \
    || { echo "building the Wine shim needs x86_64-w64-mingw32-gcc (Debian's gcc-mingw-w64-x86-64)" >&2; exit 1; }
  x86_64-w64-mingw32-gcc -O2 -shared -s -o "$dll.tmp" "$here/bcryptprimitives.c" -ladvapi32
  mv "$dll.tmp" "$dll"
fi
echo "$(cd "$out" && pwd)/bcryptprimitives.dll"
