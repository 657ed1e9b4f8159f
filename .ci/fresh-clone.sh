#!/usr/bin/env bash
# Test-only check, not part of .ci/run (it builds everything again, with the release
# profile's link-time optimisation: about 10 minutes on 2 cores): clones the repository
# into an empty folder with nothing beside it, runs the two commands of the README's
# "Set up" section there, as a new user would, and checks that they leave nothing in the
# temp folder. Usage: bash .ci/fresh-clone.sh [REPO] (default: this checkout's HEAD).
set -euo pipefail
src="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
work="$(mktemp -d)"
tmp="$(mktemp -d)"
trap 'rm -rf "$work" "$tmp"' EXIT
git clone --quiet "$src" "$work/marshal"
cd "$work/marshal"
# Only what cargo itself needs from the caller's environment.
unset CARGO_TARGET_DIR
export TMPDIR="$tmp"
# The commands are read from the README, so that the check follows it.
mapfile -t commands < <(awk '/^## Set up/{on=1; next} /^## /{on=0} on && /^    cargo /{sub(/^    /, ""); print}' README.md)
if [ "${#commands[@]}" -ne 2 ]; then
  echo "fresh-clone: expected 2 commands in the README's Set up section, found ${#commands[@]}" >&2
  exit 1
fi
echo "fresh-clone: $work holds only: $(ls -A "$work")"
for c in "${commands[@]}"; do
  echo "fresh-clone: \$ $c"
  start=$SECONDS
  bash -c "$c"
  echo "fresh-clone: ok in $((SECONDS - start)) s"
done
left="$(ls -A "$TMPDIR")"
if [ -n "$left" ]; then
  echo "fresh-clone: the commands left files in the temp folder:" >&2
  echo "$left" >&2
  exit 1
fi
echo "fresh-clone: both README commands passed; the temp folder is empty"
