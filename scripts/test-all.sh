#!/usr/bin/env bash
# Install everything the tests need on a fresh machine, then run every test.
# This is the README's second command; `.ci/run` runs it as written.
#
#   bash scripts/test-all.sh [PYTEST ARGS]     install, then lint, type-check and test
#   bash scripts/test-all.sh --plan            say what would be installed; change nothing
#
# What it installs:
# - Debian's `chromium` package for the browser tests, only when no Chromium is found,
#   through apt-get (root, or sudo when not root). apt's own plan (the packages, the
#   download size) is printed before anything is installed, and its progress shown.
#   Without apt-get, or without root or sudo, the browser tests are skipped, and this
#   script and pytest both say so.
# - A virtual environment `.venv` with the project, its test and measure extras, and
#   the CPU build of torch (never the CUDA one): a CPU wheel the default index already
#   offers (a local wheel, as on the project's machines) is used as it is; otherwise
#   torch comes from PyTorch's CPU index (REWIRE_TORCH_INDEX overrides it).
set -euo pipefail
cd "$(dirname "$0")/.."

TORCH_PIN="torch==2.13.0"
TORCH_INDEX="${REWIRE_TORCH_INDEX:-https://download.pytorch.org/whl/cpu}"
PLAN=0
if [ "${1:-}" = "--plan" ]; then
  PLAN=1
  shift
fi

say() { printf '\n==> %s\n' "$*"; }

# ---------------------------------------------------------------- Chromium (apt)
find_chromium() {
  if [ -n "${REWIRE_CHROMIUM:-}" ] && [ -x "$REWIRE_CHROMIUM" ]; then
    echo "$REWIRE_CHROMIUM"
  elif [ -x /usr/bin/chromium ]; then
    echo /usr/bin/chromium
  else
    command -v chromium || true
  fi
}

browser_skip() {
  say "SKIPPING the browser tests: $1"
  echo "    Every other test runs. To run them, install Chromium (Debian: apt-get install chromium)"
  echo "    or point REWIRE_CHROMIUM at a Chromium binary, then run this script again."
}

chromium="$(find_chromium)"
if [ -n "$chromium" ]; then
  say "Chromium for the browser tests: $chromium (nothing to install)"
elif ! command -v apt-get >/dev/null 2>&1; then
  browser_skip "Chromium is not installed and apt-get is not available to install it."
else
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo_cmd=(sudo)
    else
      sudo_cmd=(none)
    fi
  fi
  if [ "${sudo_cmd[*]:-}" = "none" ]; then
    browser_skip "Chromium is not installed, and installing it needs root (no sudo here)."
  else
    say "Chromium is missing: Debian's chromium package will be installed with apt-get"
    echo "    (root is needed for apt-get only${sudo_cmd[*]:+; it runs through sudo})."
    echo "    On a minimal Debian 12 that is about 115 packages; apt lists them and the"
    echo "    download size first."
    if [ "$PLAN" = 1 ]; then
      apt-get install --simulate chromium | grep -E '^(Inst|[0-9]+ upgraded)' || true
    else
      say "apt-get update"
      "${sudo_cmd[@]}" apt-get update
      say "apt-get install chromium: the plan"
      "${sudo_cmd[@]}" apt-get install --assume-no chromium || true
      say "apt-get install chromium"
      "${sudo_cmd[@]}" apt-get install -y chromium
      chromium="$(find_chromium)"
    fi
  fi
fi
if [ -n "$chromium" ]; then
  export REWIRE_CHROMIUM="$chromium"
fi

# ---------------------------------------------------------------- Python packages (pip)
cuda_packages() {  # names of CUDA packages in a `pip install --report` file, one a line
  python3 - "$1" <<'EOF'
import json, re, sys
report = json.load(open(sys.argv[1], encoding="utf-8"))
cuda = re.compile(r"^(nvidia-(?!ml-py)|triton$|cuda-)", re.IGNORECASE)  # not NVML's binding
for item in report.get("install", []):
    name = item["metadata"]["name"]
    if cuda.match(name):
        print(name)
EOF
}

torch_version() {  # the torch version a `pip install --report` file would install
  python3 - "$1" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1], encoding="utf-8"))
print(next((i["metadata"]["version"] for i in report.get("install", [])
            if i["metadata"]["name"].lower() == "torch"), ""))
EOF
}

report="$(mktemp)"
scratch="$(mktemp -d)"
trap 'rm -rf "$report" "$scratch"' EXIT
if [ "$PLAN" = 1 ]; then
  python3 -m venv "$scratch/venv"  # a throw-away pip: .venv is not touched
  python="$scratch/venv/bin/python"
else
  say "Virtual environment .venv"
  python3 -m venv .venv
  python=.venv/bin/python
fi

# torch: the CPU build. Ask the default index what $TORCH_PIN would be (metadata only,
# nothing installed): a "+cpu" build is used as it is; anything else (PyPI's Linux
# wheel is the CUDA build: about 2.7 GB of nvidia-* packages) comes from the CPU index.
torch_args=(--index-url "$TORCH_INDEX" "$TORCH_PIN")
where="PyTorch's CPU index ($TORCH_INDEX)"
if "$python" -m pip install --dry-run --quiet --no-deps --ignore-installed --report "$report" \
    "$TORCH_PIN" 2>/dev/null; then
  version="$(torch_version "$report")"
  if [[ "$version" == *+cpu ]]; then
    torch_args=("$TORCH_PIN")
    where="the default index, which offers the CPU build $version"
  fi
fi
say "torch: $TORCH_PIN from $where (about 190 MB; no CUDA packages)"

if [ "$PLAN" = 1 ]; then
  "$python" -m pip install --dry-run --quiet --ignore-installed --report "$report" \
    "${torch_args[@]}"
  echo "    would install: $(python3 -c 'import json,sys; print(", ".join(sorted(
    i["metadata"]["name"] + " " + i["metadata"]["version"]
    for i in json.load(open(sys.argv[1]))["install"])))' "$report")"
  cuda="$(cuda_packages "$report")"
  echo "    CUDA packages: ${cuda:-none}"
  exit 0
fi

"$python" -m pip install "${torch_args[@]}"
cuda="$("$python" -m pip list --format=freeze | grep -iE '^(nvidia-|triton=|cuda-)' \
  | grep -iv '^nvidia-ml-py' || true)"
if [ -n "$cuda" ]; then
  echo "error: CUDA packages are installed in .venv, though the CPU build was asked for:" >&2
  echo "$cuda" >&2
  exit 1
fi

say "The project with its test and measure extras (about 150 MB more from PyPI)"
# DeepSpeed builds as a pure-Python wheel without its CUDA ops; the torch just installed
# satisfies the pin, so pip keeps it.
DS_BUILD_OPS=0 .venv/bin/python -m pip install -e ".[test,measure]" "$TORCH_PIN"

. .venv/bin/activate
say "ruff, mypy, schemas, records"
ruff check .
ruff format --check .
mypy
rewire schema --check
rewire validate records --strict
if [ -z "$chromium" ]; then
  echo "note: the browser tests will be reported as skipped (no Chromium; see above)"
fi
say "pytest"
pytest -n 2 "$@"
