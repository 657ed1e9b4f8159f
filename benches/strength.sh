#!/usr/bin/env bash
# The strength goals of the engine, as matches under our arbiter (100 ms a move):
#   classic: 200 games against builtin:random (goal >= 99%) and builtin:greedy (>= 95%);
#   compact, duel, barrage: 100 games each against builtin:greedy (>= 90%).
# Usage: [SEED=S] [CONCURRENCY=C] benches/strength.sh [OUTDIR] [path/to/marshal]
#   (default OUTDIR strength-out, SEED 1, CONCURRENCY 2)
# Each match writes OUTDIR/<name>.jsonl (replayable records) and OUTDIR/<name>.txt (its
# last lines: W/D/L, score, Elo). Interrupted? Run it again: finished games are kept
# (--resume). Takes about an hour on 2 cores (concurrency 2, one search thread each).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-strength-out}
bin=${2:-target/release/marshal}
seed=${SEED:-1}
concurrency=${CONCURRENCY:-2}
[ -x "$bin" ] || cargo build --release
mkdir -p "$out"
run() { # name variant opponent games
  local name=$1 variant=$2 opp=$3 games=$4
  "$bin" match --engine marshal --engine "$opp" --variant "$variant" --games "$games" \
    --movetime 100 --concurrency "$concurrency" --seed "$seed" --out "$out/$name.jsonl" --resume \
    > "$out/$name.txt" 2> "$out/$name.progress"
  echo "$name: $(tail -n 1 "$out/$name.txt")"
}
run classic-random classic builtin:random 200
run classic-greedy classic builtin:greedy 200
run compact-greedy compact builtin:greedy 100
run duel-greedy duel builtin:greedy 100
run barrage-greedy barrage builtin:greedy 100
