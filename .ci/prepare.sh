#!/usr/bin/env bash
# What the browser and TextArena checks install, and nothing else: `web` (Debian's
# chromium and the web test's virtual environment with playwright and websockets),
# `textarena` (the TextArena adapter's, with textarena and our package); both when none is
# named. Each is skipped when already there. .ci/web.sh and .ci/textarena.sh call it for
# their part; .ci/run starts it in the background while the Rust build runs, as it waits
# on the network, not on the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-$PWD/target}"
mkdir -p "$target"
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(web textarena)
for part in "${parts[@]}"; do
  case "$part" in
    web)
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
      ;;
    textarena)
      venv="$target/textarena-venv"
      [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
      # Installed again only when the adapter's tracked files changed (.ci/run prepares
      # it in the background, then .ci/textarena.sh asks again).
      stamp="$(git ls-files -z gui-adapters/textarena 2>/dev/null | xargs -0 -r sha1sum | sha1sum)"
      if [ -z "$(git ls-files gui-adapters/textarena 2>/dev/null)" ] ||
        [ "$(cat "$venv/.marshal-stamp" 2>/dev/null)" != "$stamp" ]; then
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "./gui-adapters/textarena[test]"
        echo "$stamp" > "$venv/.marshal-stamp"
      fi
      ;;
    *)
      echo "prepare: no part '$part' (web, textarena)" >&2
      exit 1
      ;;
  esac
done
