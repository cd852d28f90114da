#!/usr/bin/env bash
# Runs a Windows executable under Wine, for cargo:
#   CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=/path/to/tools/wine/runner.sh
# (set by tools/wine/env.sh). Before the first run it builds the ProcessPrng
# shim (build.sh) and creates a Wine prefix of its own under the target
# folder, so the tests never touch ~/.wine; WINEDEBUG=-all keeps Wine quiet.
# The shim is put in the prefix's system32, so every Windows process started
# in the prefix (test executables, the arena, its bots) finds it.
#   runner.sh --init   only prepares the prefix (CI does this once, first).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
target="${CARGO_TARGET_DIR:-$here/../../target}"
mkdir -p "$target/wine"
target="$(cd "$target" && pwd)"
export WINEPREFIX="${ENDODOI_WINEPREFIX:-$target/wine/prefix}"
export WINEDEBUG=-all
# No "install Mono / Gecko?" dialogs, no desktop integration in the prefix.
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:-mscoree,mshtml=;winemenubuilder.exe=d}"
command -v wine >/dev/null \
  || { echo "runner.sh: wine is not installed (Debian's wine, wine64)" >&2; exit 127; }

system32="$WINEPREFIX/drive_c/windows/system32"
# One prefix, made once (wineboot takes a while): under a lock, since cargo
# may start several executables at a time.
(
  flock 9
  if [ ! -f "$WINEPREFIX/.endodoi-ready" ]; then
    wineboot --init >/dev/null 2>&1
    wineserver -w
    touch "$WINEPREFIX/.endodoi-ready"
  fi
  dll="$("$here/build.sh" "$target/wine")"
  if [ ! -f "$system32/bcryptprimitives.dll" ] || [ "$dll" -nt "$system32/bcryptprimitives.dll" ]; then
    cp "$dll" "$system32/bcryptprimitives.dll"
  fi
) 9>"$target/wine/prefix.lock"

[ "${1:-}" = "--init" ] && exit 0
exec wine "$@"
