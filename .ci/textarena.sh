#!/usr/bin/env bash
# The TextArena adapter's tests: a virtual environment with textarena from the package
# index and our package, then a few real Stratego-v0 games against a random agent.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-$PWD/target}"
[ -x "$target/release/marshal" ] || cargo build --release
venv="$target/textarena-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "./gui-adapters/textarena[test]"
MARSHAL_BIN="${MARSHAL_BIN:-$target/release/marshal}" \
  "$venv/bin/python" -m pytest -q -p no:cacheprovider gui-adapters/textarena/tests
