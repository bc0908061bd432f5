#!/usr/bin/env bash
# Makes sure Chromium is installed at /usr/bin/chromium, for test/report-browser.test.ts (the
# `caplint report --html` page opened in headless Chromium through playwright-core).
# Installs Debian's `chromium` package with apt-get when it is missing (CI runs as root); does
# nothing when it is already there. Exits non-zero only when it is missing and cannot be installed.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  echo "chromium already installed: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available; install Chromium there" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ensure-chromium: $CHROMIUM is missing and installing it needs root (or sudo)" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# The package's recommended fonts (DejaVu, Liberation) are wanted: the report is rendered with them.
$SUDO apt-get install -y -qq chromium >/dev/null
if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: installed the chromium package but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "installed $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
