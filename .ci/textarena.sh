#!/usr/bin/env bash
# The TextArena adapter's tests: a virtual environment with textarena from the package
# index and our package (.ci/prepare.sh), then a few real Stratego-v0 games against a
# random agent.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-$PWD/target}"
[ -x "$target/release/marshal" ] || cargo build --release
bash .ci/prepare.sh textarena
MARSHAL_BIN="${MARSHAL_BIN:-$target/release/marshal}" \
  "$target/textarena-venv/bin/python" -m pytest -q -p no:cacheprovider gui-adapters/textarena/tests
