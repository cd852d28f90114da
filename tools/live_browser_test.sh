#!/usr/bin/env bash
# The headless-browser test of the live page (arena run --serve): installs
# Debian's chromium if it is missing, then runs tools/live_browser_test.py
# (see its docstring). Exit status non-zero if the page breaks the DOM
# contract of docs/live.md, has errors, or draws a board other than the
# engine's. Without Chromium it skips, unless ENDODOI_REQUIRE_CHROMIUM=1.
#
#   tools/live_browser_test.sh [--shots OUT]
#
# Screenshots go to target/live-browser-test/ (or --shots OUT).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v python3 >/dev/null || { echo "the browser test needs python3"; exit 2; }
bash tools/install_chromium.sh || true  # without it the test skips, as said above
exec python3 tools/live_browser_test.py "$@"
