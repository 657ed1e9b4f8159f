#!/usr/bin/env bash
# The strength ladder against the UCC 2012 AIs, in their own manager (the final word on
# issue-level strength goals): `stratego -T 5 -m 1000`, Marshal through `marshal-ucc`,
# colours alternating (even games Marshal is RED).
#
#   UCC_HOME=/path/to/ucc benches/ucc-ladder.sh OUTDIR [opponent ...]
#
# UCC_HOME is the output folder of a UCC 2012 build (the manager in
# judge/manager/stratego, the AIs in agents/<name>/; see README, "Strength"). Default
# ladder: peternlewis:40 celsius:40 vixen:20 asmodeus:20 hunter:20 basic_cpp:20.
# An opponent is `name:games` (the AI of that name in $UCC_HOME/agents) or
# `name=PATH:games` (any program the manager can seat, e.g. a build of Demon of
# Ignorance), either followed by `:VAR=VALUE` settings for that opponent's environment
# only, e.g. `doi2=/path/to/doi:10:DOI_LEVEL=2` (no colon in PATH or VALUE). Its games go
# to OUTDIR/<name>/; OUTDIR/<name>/params records the program, its settings, the seed,
# Marshal's move time and the manager's options, and a resumed run with other params for
# that name stops rather than mix games of two set-ups in one folder.
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
manager_opts=(-T 5 -m 1000)
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

play() { # opponent path index [VAR=VALUE ...]
  local opp=$1 path=$2 i=$3 dir=$out/$1
  shift 3
  [ -s "$dir/$i.out" ] && return 0
  local red=$wrapper blue=$path
  if [ $((i % 2)) -eq 1 ]; then red=$path; blue=$wrapper; fi
  # The manager runs each AI from the manager's own folder; python AIs cd themselves.
  # The opponent's settings reach it through the manager, which passes its environment on
  # (Marshal sees them too and ignores them).
  env "$@" MARSHAL_UCC_MOVETIME=$movetime MARSHAL_UCC_SEED=$((seed * 1000 + i)) \
    "$manager" "${manager_opts[@]}" -o "$dir/$i.log" "$red" "$blue" > "$dir/$i.tmp" 2> "$dir/$i.err" < /dev/null || true
  tail -n 1 "$dir/$i.tmp" > "$dir/$i.out"
  rm -f "$dir/$i.tmp"
  echo "$opp game $i: $(cat "$dir/$i.out")" >&2
}

jobs_list=()
for spec in "${specs[@]}"; do
  IFS=: read -r -a parts <<< "$spec"
  opp=${parts[0]}; n=${parts[1]:-}
  settings=("${parts[@]:2}")
  [[ $n =~ ^[0-9]+$ ]] || { echo "ucc-ladder: '$spec' is not name[=PATH]:games[:VAR=VALUE ...]" >&2; exit 1; }
  for kv in "${settings[@]}"; do
    [[ $kv =~ ^[A-Za-z_][A-Za-z0-9_]*=[^[:space:]]*$ ]] || {
      echo "ucc-ladder: '$kv' in '$spec' is not VAR=VALUE" >&2; exit 1; }
  done
  if [[ $opp == *=* ]]; then
    path=${opp#*=}; opp=${opp%%=*}
    [ -x "$path" ] || { echo "ucc-ladder: '$path' (for $opp) is not an executable" >&2; exit 1; }
    path=$(cd "$(dirname "$path")" && pwd)/$(basename "$path")
  else
    path=$(ai_path "$opp")
  fi
  [[ $opp =~ ^[A-Za-z0-9_.-]+$ && $opp != marshal ]] || {
    echo "ucc-ladder: '$opp' is no usable opponent name (letters, digits, _ . -; not marshal)" >&2; exit 1; }
  mkdir -p "$out/$opp"
  # What the games of this folder were played with; the stats and loss scripts ignore it.
  params=$(printf 'program %s\nsettings %s\nseed %s\nmarshal_ucc_movetime %s\nmanager %s\n' \
    "$path" "${settings[*]:-none}" "$seed" "$movetime" "${manager_opts[*]}")
  if [ -s "$out/$opp/params" ]; then
    [ "$(cat "$out/$opp/params")" = "$params" ] || {
      echo "ucc-ladder: $out/$opp/params differs from this run's; use another OUTDIR or name:" >&2
      diff <(cat "$out/$opp/params") <(echo "$params") >&2 || true
      exit 1; }
  else
    echo "$params" > "$out/$opp/params"
  fi
  for ((i = 0; i < n; i++)); do jobs_list+=("$opp $path $i ${settings[*]}"); done
done
for j in "${jobs_list[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$conc" ]; do sleep 0.5; done
  # shellcheck disable=SC2086
  play $j &
done
wait
python3 benches/ucc_ladder_stats.py "$out"
