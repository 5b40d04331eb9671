#!/usr/bin/env bash
# Debian packages the PDF sheets need (WeasyPrint's Pango and HarfBuzz; poppler for PDF checks), and
# headless Chromium for the tests that drive a real browser: the sheets' accessibility check
# (axe-core, tests/test_sheets_a11y.py) and the web table (tests/test_web_browser.py), through Playwright;
# a C compiler for the native build of an engine (compile --native, tests/test_native.py).
set -euo pipefail
packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 poppler-utils chromium gcc)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "note: install these Debian packages for PDF sheets and the browser tests: ${missing[*]}" >&2
  fi
fi
