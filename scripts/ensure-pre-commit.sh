#!/usr/bin/env bash
# Makes sure the `pre-commit` tool is installed, for test/integrations/pre-commit.test.ts.
# Installs Debian's package with apt-get when it is missing (CI runs as root); does nothing when
# pre-commit is already on PATH. Exits non-zero only when it is missing and cannot be installed.
set -euo pipefail

if command -v pre-commit >/dev/null 2>&1; then
  echo "pre-commit already installed: $(pre-commit --version)"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-pre-commit: pre-commit is missing and apt-get is not available; install it (e.g. pipx install pre-commit)" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ensure-pre-commit: pre-commit is missing and installing it needs root (or sudo)" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends pre-commit >/dev/null
echo "installed $(pre-commit --version)"
