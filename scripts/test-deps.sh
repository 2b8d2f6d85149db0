#!/bin/sh
# Install what the browser tests need beyond pip: Debian's Chromium at /usr/bin/chromium.
# Playwright for Python drives that package; no browser is downloaded (`playwright install`
# is never run). fonts-liberation, a Recommends of chromium that --no-install-recommends would
# skip, gives the screenshots legible text. Idempotent: does nothing when chromium is there.
# Prints one line saying what it did. Usage: scripts/test-deps.sh (as root, or with sudo).
set -eu

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
    echo "test-deps: chromium already installed ($CHROMIUM)"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "test-deps: $CHROMIUM is missing and apt-get is not available: install Chromium from your distribution's packages" >&2
    exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "test-deps: $CHROMIUM is missing and installing it needs root (no sudo found): run 'apt-get install chromium' as root" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
if ! { $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
        && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-liberation; } >"$LOG" 2>&1; then
    echo "test-deps: apt-get could not install chromium:" >&2
    tail -n 20 "$LOG" >&2
    exit 1
fi

if [ ! -x "$CHROMIUM" ]; then
    echo "test-deps: apt-get installed chromium but $CHROMIUM is not there" >&2
    exit 1
fi
echo "test-deps: installed chromium and fonts-liberation with apt-get ($("$CHROMIUM" --version 2>/dev/null | head -n 1))"
