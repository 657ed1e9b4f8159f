#!/usr/bin/env bash
# The strength ladder against the UCC 2012 AIs, in their own manager (the final word on
# issue-level strength goals): `stratego -T 5 -m 1000`, Marshal through `marshal-ucc`,
# colours alternating (even games Marshal is RED).
#
#   UCC_HOME=/path/to/ucc benches/ucc-ladder.sh OUTDIR [opponent:games ...]
#
# UCC_HOME is the output folder of a UCC 2012 build (the manager in
# judge/manager/stratego, the AIs in agents/<name>/; see README, "Strength"). Default
# ladder: peternlewis:40 celsius:40 vixen:20 asmodeus:20 hunter:20 basic_cpp:20.
# Environment: MARSHAL_UCC_MOVETIME (default 300), CONCURRENCY (games at once, default 2),
# MARSHAL (default target/release/marshal-ucc; it runs the `marshal` beside it, or the one
# MARSHAL_BIN names: copy both when you keep binaries aside), SEED (default 1; game i uses
# SEED*1000+i).
# Every game keeps OUTDIR/<opponent>/<i>.log (the manager's -o log) and <i>.out (its result
# line); games already there are not replayed, so an interrupted ladder resumes. The table
# (score, Marshal lost on a Bomb, Flag lost) comes from benches/ucc_ladder_stats.py.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: UCC_HOME=... benches/ucc-ladder.sh OUTDIR [opponent:games ...]}
shift
: "${UCC_HOME:?set UCC_HOME to the folder of a UCC 2012 build}"
manager=$UCC_HOME/judge/manager/stratego
[ -x "$manager" ] || { echo "ucc-ladder: no manager at $manager" >&2; exit 1; }
movetime=${MARSHAL_UCC_MOVETIME:-300}
conc=${CONCURRENCY:-2}
seed=${SEED:-1}
bin=${MARSHAL:-target/release/marshal-ucc}
[ -x "$bin" ] || cargo build --release
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
if [ -z "${MARSHAL_BIN:-}" ] && [ ! -x "$(dirname "$bin")/marshal" ]; then
  echo "ucc-ladder: no engine 'marshal' beside $bin (copy it there or set MARSHAL_BIN)" >&2
  exit 1
fi
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(peternlewis:40 celsius:40 vixen:20 asmodeus:20 hunter:20 basic_cpp:20)

ai_path() {
  local a=$UCC_HOME/agents/$1
  if [ -x "$a/$1" ]; then echo "$a/$1"; elif [ -x "$a/run" ]; then echo "$a/run"; else
    echo "ucc-ladder: no AI '$1' in $UCC_HOME/agents" >&2; return 1; fi
}

mkdir -p "$out"
out=$(cd "$out" && pwd)
# The manager names a player by its path: a wrapper called marshal keeps the logs readable.
wrapper=$out/marshal
printf '#!/bin/sh\nexec "%s"\n' "$bin" > "$wrapper"
chmod +x "$wrapper"

play() { # opponent path index
  local opp=$1 path=$2 i=$3 dir=$out/$1
  [ -s "$dir/$i.out" ] && return 0
  local red=$wrapper blue=$path
  if [ $((i % 2)) -eq 1 ]; then red=$path; blue=$wrapper; fi
  # The manager runs each AI from the manager's own folder; python AIs cd themselves.
  MARSHAL_UCC_MOVETIME=$movetime MARSHAL_UCC_SEED=$((seed * 1000 + i)) \
    "$manager" -T 5 -m 1000 -o "$dir/$i.log" "$red" "$blue" > "$dir/$i.tmp" 2> "$dir/$i.err" < /dev/null || true
  tail -n 1 "$dir/$i.tmp" > "$dir/$i.out"
  rm -f "$dir/$i.tmp"
  echo "$opp game $i: $(cat "$dir/$i.out")" >&2
}

jobs_list=()
for spec in "${specs[@]}"; do
  opp=${spec%%:*}; n=${spec#*:}
  path=$(ai_path "$opp")
  mkdir -p "$out/$opp"
  for ((i = 0; i < n; i++)); do jobs_list+=("$opp $path $i"); done
done
for j in "${jobs_list[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$conc" ]; do sleep 0.5; done
  # shellcheck disable=SC2086
  play $j &
done
wait
python3 benches/ucc_ladder_stats.py "$out"
