#!/usr/bin/env bash
# Install everything the tests need on a fresh machine, then run every test.
# This is the README's second command; `.ci/run` runs it as written.
set -euo pipefail
cd "$(dirname "$0")/.."

# Headless Chromium for the browser tests: Debian's package (never a browser download).
if ! command -v chromium >/dev/null 2>&1; then
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi

python3 -m venv .venv
. .venv/bin/activate
# torch==2.13.0 is the CPU build on this project's machines; the GPU-free tests of
# measure/ run on it. DeepSpeed builds as a pure-Python wheel without its CUDA ops.
DS_BUILD_OPS=0 pip install -q -e ".[test,measure]" "torch==2.13.0"

ruff check .
ruff format --check .
mypy
rewire schema --check
rewire validate records --strict
pytest -n 2 "$@"
