#!/usr/bin/env bash
# Installs Debian's chromium with apt (through sudo unless root) when no
# `chromium` is on PATH: the first step of the browser tests
# (tools/report_browser_test.sh, tools/live_browser_test.sh). Exit status:
# 0 when chromium was there, else apt-get's (non-zero if either apt step fails).
#
#   tools/install_chromium.sh
set -euo pipefail
command -v chromium >/dev/null && exit 0
echo "== installing chromium (apt)"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
