#!/usr/bin/env bash
# Browser tests (tests/browser/run.mjs): the real server over a throwaway PostgreSQL cluster,
# driven by Debian's headless Chromium through playwright-core; every page HTML-validated.
#
# Works on a clean machine: installs Node.js, Chromium and CJK fonts with apt when run as root
# and they are missing, the node packages with `npm ci`, and builds the server binary.
# Never downloads a browser build (`playwright install` cannot work here).
# Usage: tests/browser/run.sh [NAME-FILTER]. Prints "N passed, N failed" last; exits non-zero
# on any failure. Screenshots and PDFs land in test-output/browser/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

apt_install() {
    if [ "$(id -u)" != 0 ]; then
        echo "browser tests need: $* (apt-get install them as root)" >&2
        exit 1
    fi
    if [ -z "${apt_updated:-}" ]; then
        apt-get update -qq
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

missing=()
command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
# Without CJK fonts Chinese pages render as boxes in screenshots and PDFs.
fc-list 2>/dev/null | grep -qi 'cjk' || missing+=(fonts-noto-cjk)
# The print tests read the PDFs' text layer back (every column of every printed table).
command -v pdftotext >/dev/null || missing+=(poppler-utils)
if [ "${#missing[@]}" -gt 0 ]; then
    apt_install "${missing[@]}"
fi

cd "$here"
npm ci --no-audit --no-fund --loglevel=error >/dev/null

cd "$root"
if [ -z "${ARBITER_BIN:-}" ]; then
    cargo build --quiet --bin arbiter
    export ARBITER_BIN="$root/target/debug/arbiter"
fi

# A fresh database every run: the server binary's own throwaway cluster (removed afterwards).
exec "$ARBITER_BIN" with-db -- node "$here/run.mjs" "$@"
