#!/usr/bin/env python3
"""Turns the records of a `marshal match --out FILE` into a UCC ladder folder, so that
benches/ucc_ladder_stats.py and benches/ucc_losses.py read arbiter matches as they read
ladders in the real manager.

    python3 benches/match_to_ucc.py RECORDS OUTDIR [MARSHAL]

Each game of RECORDS (one JSON record per line) becomes OUTDIR/<opponent>/<i>.log, the
manager-style log that `marshal convert --to ucc` writes, and <i>.out, its result line;
<opponent> is the last path component of the other player. Marshal is the player whose
command ends in /marshal (as the ladder's scripts expect). MARSHAL is the engine that
converts (default: target/release/marshal).

A quick yardstick, much faster than the real manager (about 20 s a game at 100 ms):

    marshal match --engine marshal --engine ucc:<path>/peternlewis --games 120 \\
        --movetime 100 --seed 100 --out pl.jsonl
    python3 benches/match_to_ucc.py pl.jsonl pl-ladder
    python3 benches/ucc_ladder_stats.py pl-ladder
    python3 benches/ucc_losses.py pl-ladder
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ucc_ladder_stats import is_marshal  # noqa: E402  (the ladder's own naming of Marshal)


def opponent(meta):
    for side in ("red", "blue"):
        name = meta.get(side, "")
        if not is_marshal(name):
            return os.path.basename(name.split(":", 1)[-1]) or "opponent"
    return "marshal"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    records, out = sys.argv[1], sys.argv[2]
    engine = sys.argv[3] if len(sys.argv) > 3 else "target/release/marshal"
    done = 0
    with open(records) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            meta = json.loads(line).get("meta", {})
            if not any(is_marshal(meta.get(s, "")) for s in ("red", "blue")):
                sys.exit(f"{records}: game {n} has no player whose command ends in /marshal")
            log = subprocess.run([engine, "convert", "--to", "ucc", "--game", str(n), records],
                                 check=True, capture_output=True, text=True).stdout
            d = os.path.join(out, opponent(meta))
            os.makedirs(d, exist_ok=True)
            i = meta.get("game", str(n - 1))
            with open(os.path.join(d, f"{i}.log"), "w") as g:
                g.write(log)
            with open(os.path.join(d, f"{i}.out"), "w") as g:
                g.write(log.rstrip("\n").split("\n")[-1] + "\n")
            done += 1
    print(f"{done} games written under {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
