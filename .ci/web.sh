#!/usr/bin/env bash
# The web page's tests (gui-adapters/web/tests/web_test.py): Debian's chromium and a
# virtual environment with playwright and websockets, each installed only when missing,
# then the page in a headless browser and the server's messages checked.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-$PWD/target}"
# A no-op when the binaries are fresh (in .ci/run, the test build made them).
cargo build --release --bin marshal --bin marshal-web
if ! [ -x /usr/bin/chromium ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
venv="$target/web-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c "import playwright, websockets" 2>/dev/null ||
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "playwright>=1.40" "websockets>=13"
"$venv/bin/python" gui-adapters/web/tests/web_test.py "$target"
