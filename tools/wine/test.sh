#!/usr/bin/env bash
# The Windows test set (docs/platforms.md, "Windows"): the workspace's
# Windows build (x86_64-pc-windows-gnu, linked by mingw-w64) linted, and its
# tests run under Wine through runner.sh:
#   - the rules, protocol, bots and ratings crates: unit and integration
#     tests (their doctests are left to the Linux run: the same pure code);
#   - the arena: its unit tests and arena/tests/windows_smoke.rs (arena
#     check, a tournament of bundled bots through pipes, rate, replay, and
#     the Job Object ending the bots of a killed arena). The other
#     integration tests need Python, a shell or Unix signals: Unix only.
# Without Wine or mingw-w64 it says so and skips, unless
# ENDODOI_REQUIRE_WINE=1 (CI), where that fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
missing=""
command -v wine >/dev/null || missing="wine (Debian's wine, wine64)"
command -v x86_64-w64-mingw32-gcc >/dev/null || missing="${missing:+$missing and }mingw-w64 (Debian's gcc-mingw-w64-x86-64)"
rustup target list --installed 2>/dev/null | grep -qx x86_64-pc-windows-gnu \
  || missing="${missing:+$missing and }the Rust target (rustup target add x86_64-pc-windows-gnu)"
if [ -n "$missing" ]; then
  if [ "${ENDODOI_REQUIRE_WINE:-0}" = 1 ]; then
    echo "the Windows tests need $missing (ENDODOI_REQUIRE_WINE=1)" >&2
    exit 1
  fi
  echo "SKIPPED: the Windows tests need $missing"
  exit 0
fi
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER="$PWD/tools/wine/runner.sh"
# (Rust links this target with x86_64-w64-mingw32-gcc by default.)
target=(--target x86_64-pc-windows-gnu)
cargo clippy -p arena --all-targets "${target[@]}" -- -D warnings
# The Wine prefix once, before any test (wineboot takes a while).
tools/wine/runner.sh --init
cargo test "${target[@]}" -p endodoi -p endodoi-protocol -p endodoi-bots -p endodoi-ratings \
  --lib --bins --tests
cargo test "${target[@]}" -p arena --lib --test windows_smoke
