#!/usr/bin/env bash
# The web page's tests (gui-adapters/web/tests/web_test.py): Debian's chromium and a
# virtual environment with playwright and websockets, each installed only when missing
# (.ci/prepare.sh), then the page in a headless browser and the server's messages checked.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-$PWD/target}"
# A no-op when the binaries are fresh (in .ci/run, the test build made them).
cargo build --release --bin marshal --bin marshal-web
bash .ci/prepare.sh web
"$target/web-venv/bin/python" gui-adapters/web/tests/web_test.py "$target"
