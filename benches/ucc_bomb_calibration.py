#!/usr/bin/env python3
"""How well Marshal's beliefs foresaw the Bombs it attacked, from UCC ladder folders.

    python3 benches/ucc_bomb_calibration.py [--marshal PATH] [--attackers 1234] OUTDIR [...]

For every finished game of the folders (benches/ucc-ladder.sh's <opponent>/<i>.log), each
attack of Marshal's on an enemy piece that had neither moved nor been seen is replayed: the
game up to that ply is turned into protocol lines (`marshal convert --to record`), the
engine is asked for its `beliefs`, and the Bomb and Flag chances it gave the attacked
square are set beside what the piece was. `--attackers` picks Marshal's attacking ranks
in the manager's characters (1 Marshal .. 9 Scout, s Spy; default 1234: Major and up).

Prints, by the belief's Bomb chance in tenths, how many such attacks there were, how many
hit a Bomb, and the chances summed (a calibrated belief has the two sums close), then the
same for the Flag over all attacks. The engine's chance nodes reshape the Bomb chance with
this table (`BOMB_SLOPE`, `BOMB_SHIFT` in src/search/think.rs).
"""
import argparse
import glob
import json
import os
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ucc_losses  # noqa: E402  (the manager log's replay and a game's result)

RESULTS = {"attacker_wins": "a", "defender_wins": "d", "both_die": "b"}


def square(x, y):
    """The protocol's name of the manager's square (x, y): the record puts Red's back row
    on rank 1 and mirrors the files."""
    return "abcdefghij"[9 - x] + str(y + 1)


def attacks(log_path, ranks):
    """Marshal's side and the (ply, square, truth) of its attacks by `ranks` on unmoved,
    unseen pieces in one manager log."""
    lines = open(log_path).read().splitlines()
    board, me = ucc_losses.setups(lines)
    out = []
    for m, _, to, att, dfd, _ in ucc_losses.moves(lines, board):
        if dfd and att["c"] == me and att["p"] in ranks and not dfd["seen"] and not dfd["moved"]:
            turn, side = int(m.group(1)), m.group(2)
            ply = (turn - 1) * 2 + (0 if side == "RED" else 1)
            out.append((ply, square(*to), dfd["p"]))
    return me, out


def protocol(record, ply):
    """Protocol lines that put Marshal's view of `record` before `ply`, then `beliefs`."""
    meta = record["meta"]
    red = meta.get("red", meta.get("red_player", ""))
    me = "red" if "marshal" in red.split("/")[-1] else "blue"
    moves = []
    for m in record["moves"][:ply]:
        t = m["move"]
        if "combat" in m:
            t += ":%sx%s:%s" % (m["attacker"], m["defender"], RESULTS.get(m["combat"], "a"))
        moves.append(t)
    return "\n".join([
        "setoption name TwoSquares value 0", "setoption name MoreSquares value false",
        "setoption name MaxPlies value 0", "setoption name MaxQuietPlies value 0",
        "setup %s %s" % (me, record[me + "_setup"]),
        "position %s moves %s" % (me, " ".join(moves)), "beliefs", "quit", ""])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--marshal", default="target/release/marshal")
    ap.add_argument("--attackers", default="1234")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    bins = defaultdict(lambda: [0, 0, 0.0])
    flags = [0, 0.0]
    for d in a.dirs:
        for out in sorted(glob.glob(os.path.join(d, "*", "*.out"))):
            log = out[:-4] + ".log"
            if ucc_losses.result(out, log) is None:
                continue
            me, found = attacks(log, a.attackers)
            if not found:
                continue
            record = json.loads(subprocess.run([a.marshal, "convert", "--to", "record", log],
                                               capture_output=True, text=True, check=True).stdout)
            for ply, sq, truth in found:
                said = subprocess.run([a.marshal], input=protocol(record, ply),
                                      capture_output=True, text=True).stdout
                p = None
                for line in said.splitlines():
                    if line.startswith("info string belief %s " % sq):
                        p = dict(kv.split(":") for kv in line.split()[4:])
                if p is None:
                    continue
                pb, pf = float(p.get("B", 0)), float(p.get("F", 0))
                b = bins[min(int(pb * 10), 6)]
                b[0] += 1
                b[1] += truth == "B"
                b[2] += pb
                flags[0] += truth == "F"
                flags[1] += pf
    print("| Bomb chance | attacks | Bombs | chances summed |")
    print("|---|---|---|---|")
    for k in sorted(bins):
        n, hits, s = bins[k]
        label = "%.1f-%.1f" % (k / 10, (k + 1) / 10) if k < 6 else "0.6+"
        print("| %s | %d | %d (%.0f%%) | %.1f |" % (label, n, hits, 100 * hits / n, s))
    print("Flags: %d taken where the beliefs summed %.1f" % tuple(flags))


if __name__ == "__main__":
    main()
