#!/usr/bin/env bash
# Installs the real tools the integration tests drive when they are missing: pre-commit 4 from PyPI
# (test/integrations/pre-commit.test.ts; the version users install with pip today, not Debian's 3.0.4)
# Chromium at /usr/bin/chromium (test/browser/html-report.test.ts), the attr package's setfattr/getfattr
# (test/shipped/output-devices.test.ts: --fix keeps extended attributes) and Neovim 0.7 or newer, Debian's
# package (test/integrations/neovim.test.ts: a real LSP client of `caplint lsp --stdio`). pre-commit
# goes into its own virtual environment (Debian's Python refuses `pip install` outside one) linked
# onto PATH. CI runs as root; elsewhere sudo is used when present. Exits non-zero only when a tool is
# missing and cannot be installed: .ci/run then fails, and under CI=true the tests that need the tool
# fail; locally (without CI) they skip and say why.
set -euo pipefail

TOOLS_DIR="${CAPLINT_TOOLS_DIR:-/opt/caplint-tools}"
pre_commit_major() { pre-commit --version 2>/dev/null | sed -n 's/^pre-commit \([0-9][0-9]*\)\..*/\1/p'; }
pre_commit_ok() { [ "$(pre_commit_major)" -ge 4 ] 2>/dev/null; }

missing=()
pre_commit_ok || missing+=(pre-commit)
[ -x /usr/bin/chromium ] || missing+=(chromium)
attr_ok() { command -v setfattr >/dev/null 2>&1 && command -v getfattr >/dev/null 2>&1; }
attr_ok || missing+=(attr)
nvim_ok() { nvim --version 2>/dev/null | grep -Eq '^NVIM v(0\.([7-9]|[1-9][0-9])|[1-9])'; }
nvim_ok || missing+=(neovim)
if [ ${#missing[@]} -eq 0 ]; then
  echo "tools present: $(pre-commit --version), $(/usr/bin/chromium --version 2>/dev/null || echo chromium), $(getfattr --version | head -1), $(nvim --version | head -1)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ensure-tools: ${missing[*]} missing and installing needs root (or sudo)" >&2
    exit 1
  fi
fi

apt_packages=()
[[ " ${missing[*]} " == *" chromium "* ]] && apt_packages+=(chromium)
[[ " ${missing[*]} " == *" attr "* ]] && apt_packages+=(attr)
[[ " ${missing[*]} " == *" neovim "* ]] && apt_packages+=(neovim)
if [[ " ${missing[*]} " == *" pre-commit "* ]] && ! python3 -m venv --help >/dev/null 2>&1; then apt_packages+=(python3-venv python3-pip); fi
if [ ${#apt_packages[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-tools: ${apt_packages[*]} needed and apt-get is not available; install them by hand" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  # Chromium's recommended fonts (DejaVu, Liberation) are wanted: the report is rendered with them.
  $SUDO apt-get install -y -qq "${apt_packages[@]}" >/dev/null
fi

if [[ " ${missing[*]} " == *" pre-commit "* ]]; then
  $SUDO python3 -m venv "$TOOLS_DIR/pre-commit"
  # No retries, short timeouts: an index that cannot be reached is given up at once for the next one.
  $SUDO "$TOOLS_DIR/pre-commit/bin/pip" install --quiet --disable-pip-version-check --retries 0 --timeout 5 'pre-commit>=4,<5'
  $SUDO ln -sf "$TOOLS_DIR/pre-commit/bin/pre-commit" /usr/local/bin/pre-commit
  hash -r
fi

pre_commit_ok && [ -x /usr/bin/chromium ] && attr_ok && nvim_ok || { echo "ensure-tools: installed ${missing[*]} but a tool is still missing (pre-commit: $(pre-commit --version 2>&1 || true))" >&2; exit 1; }
echo "installed ${missing[*]}: $(pre-commit --version)"
