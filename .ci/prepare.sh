#!/usr/bin/env bash
# What the browser and TextArena checks install, and nothing else: Debian's chromium, the
# web test's virtual environment (playwright, websockets) and the TextArena adapter's
# (textarena and our package). Each is skipped when already there. .ci/run starts this in
# the background while the Rust build runs, as it waits on the network, not on the CPU;
# .ci/web.sh and .ci/textarena.sh install the same things themselves when run alone.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-$PWD/target}"
mkdir -p "$target"
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
venv="$target/textarena-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "./gui-adapters/textarena[test]"
