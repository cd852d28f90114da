#!/usr/bin/env bash
# The headless-browser test of report.html: installs Debian's chromium if it
# is missing, then runs tools/report_browser_test.py with --self-check (see
# its docstring). Exit status non-zero if the page has errors or shows a
# board other than the engine's.
#
#   tools/report_browser_test.sh            # plays the demo tournament first
#   tools/report_browser_test.sh DIR        # tests DIR/report.html
#
# Screenshots go to target/report-browser-test/ (or --shots OUT).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v python3 >/dev/null || { echo "the browser test needs python3"; exit 2; }
bash tools/install_chromium.sh
exec python3 tools/report_browser_test.py --self-check "$@"
