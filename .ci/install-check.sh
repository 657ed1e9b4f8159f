#!/usr/bin/env bash
# Test-only check, not part of .ci/run (a full release build, about 5 minutes on 2 cores):
# `cargo install --path . --root <tmp>` from a clone of the repository, then the clone is
# deleted and every subcommand of `marshal --help`, the protocol loop and `marshal-ucc`
# run from another folder. Usage: bash .ci/install-check.sh [REPO] (default: this checkout).
set -euo pipefail
src="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone --quiet "$src" "$work/src"
unset CARGO_TARGET_DIR
cargo install --quiet --locked --path "$work/src" --root "$work/root" --target-dir "$work/target"
# What the checks below read, copied out before the source tree goes.
mkdir "$work/files"
cp "$work/src/tests/play_pty.py" "$work/src/tests/data/ucc-logs/walled-in-then-freed.log" \
  "$work/src/tests/data/gravon/classic-flag.xml" "$work/files/"
rm -rf "$work/src" "$work/target"
mkdir "$work/elsewhere"
cd "$work/elsewhere"
m="$work/root/bin/marshal"
step() { echo "install-check: \$ $*"; }
expect() { # expect TEXT COMMAND...: runs COMMAND, which must succeed and print TEXT
  local text="$1"; shift
  step "$@"
  local out
  out="$("$@")" || { echo "install-check: failed: $*" >&2; echo "$out" >&2; exit 1; }
  grep -qF -- "$text" <<<"$out" || { echo "install-check: no '$text' in the output of: $*" >&2; echo "$out" >&2; exit 1; }
}
expect "nodes " "$m" perft 2 --variant duel
expect "result " "$m" replay "$work/files/walled-in-then-freed.log"
expect "result " "$m" replay "$work/files/classic-flag.xml"
expect "W/D/L" "$m" match --engine marshal --engine builtin:random --games 2 --movetime 20 --concurrency 2 --out m.jsonl
expect "result " "$m" replay m.jsonl
expect "W/D/L" "$m" stats m.jsonl
# marshal-ucc as a UCC AI under our arbiter; it finds the engine next to itself. It
# thinks 50 ms a move; the arbiter's limit is ten times that, for a busy machine.
expect "W/D/L" env MARSHAL_UCC_MOVETIME=50 "$m" match --engine "ucc:$work/root/bin/marshal-ucc" --engine builtin:random --games 2 --movetime 500 --concurrency 2
expect "nps" "$m" bench
expect "flag-back" "$m" setup --count 1 --explain
expect "setups 200" "$m" setup --variant duel --count 200 --report
expect "human file data/classic-human-setups.txt (built in)" "$m" setup --count 500 --compare-human
expect "human file data/barrage-human-setups.txt (built in)" "$m" setup --variant barrage --count 500 --compare-human
expect "(held-out human setups)" "$m" calibrate --games 2 --setups human --max-plies 60
expect "bestmove" bash -c "printf 'stratego\nnewgame\nsetup red\ngo movetime 100\n' | '$m'"
step python3 play_pty.py "$m" pty 1
python3 "$work/files/play_pty.py" "$m" "$work/elsewhere/pty" 1
echo "install-check: every subcommand ran from $work/elsewhere without the source tree"
