#!/bin/sh
# Install what the tests need beyond pip, from Debian's packages:
# - chromium at /usr/bin/chromium, for the browser tests. Playwright for Python drives that
#   package; no browser is downloaded (`playwright install` is never run). fonts-liberation, a
#   Recommends of chromium that --no-install-recommends would skip, gives the screenshots
#   legible text.
# - gnugo (GNU Go 3.8), the outside oracle of the Go tests and the engine of the GTP tests.
#   Debian puts it in /usr/games/gnugo; the tests look there too when /usr/games is not on PATH.
# Idempotent: installs only what is missing, does nothing when everything is there.
# Prints one line saying what it did. Usage: scripts/test-deps.sh (as root, or with sudo).
set -eu

CHROMIUM=/usr/bin/chromium

have_chromium() { [ -x "$CHROMIUM" ]; }
have_gnugo() { command -v gnugo >/dev/null 2>&1 || [ -x /usr/games/gnugo ]; }
gnugo_path() { command -v gnugo 2>/dev/null || echo /usr/games/gnugo; }

MISSING=""
have_chromium || MISSING="$MISSING chromium fonts-liberation"
have_gnugo || MISSING="$MISSING gnugo"
MISSING=${MISSING# }

if [ -z "$MISSING" ]; then
    echo "test-deps: chromium and gnugo already installed ($CHROMIUM, $(gnugo_path))"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "test-deps: missing $MISSING and apt-get is not available: install them from your distribution's packages" >&2
    exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "test-deps: missing $MISSING and installing needs root (no sudo found): run 'apt-get install $MISSING' as root" >&2
    exit 1
fi

LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
# shellcheck disable=SC2086 # $MISSING is a list of package names
if ! { $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
        && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $MISSING; } >"$LOG" 2>&1; then
    echo "test-deps: apt-get could not install $MISSING:" >&2
    tail -n 20 "$LOG" >&2
    exit 1
fi

if ! have_chromium; then
    echo "test-deps: apt-get ran but $CHROMIUM is not there" >&2
    exit 1
fi
if ! have_gnugo; then
    echo "test-deps: apt-get ran but gnugo is not there (neither on PATH nor /usr/games/gnugo)" >&2
    exit 1
fi
echo "test-deps: installed $MISSING with apt-get ($("$CHROMIUM" --version 2>/dev/null | head -n 1); $("$(gnugo_path)" --version 2>/dev/null | head -n 1))"
