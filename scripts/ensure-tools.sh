#!/usr/bin/env bash
# Installs, with apt-get, the real tools the integration tests drive when they are missing:
# `pre-commit` (test/integrations/pre-commit.test.ts) and Chromium at /usr/bin/chromium
# (test/report-browser.test.ts). CI runs as root; elsewhere sudo is used when present. Exits non-zero
# only when a tool is missing and cannot be installed: .ci/run then fails, and under CI=true the
# tests that need the tool fail; locally (without CI) they skip and say why.
set -euo pipefail

missing=()
command -v pre-commit >/dev/null 2>&1 || missing+=(pre-commit)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -eq 0 ]; then
  echo "tools present: $(pre-commit --version), $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-tools: ${missing[*]} missing and apt-get is not available; install them by hand" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ensure-tools: ${missing[*]} missing and installing needs root (or sudo)" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# Chromium's recommended fonts (DejaVu, Liberation) are wanted: the report is rendered with them.
$SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
command -v pre-commit >/dev/null 2>&1 && [ -x /usr/bin/chromium ] || { echo "ensure-tools: installed ${missing[*]} but a tool is still missing" >&2; exit 1; }
echo "installed ${missing[*]}"
