#!/usr/bin/env python3
"""Scores a UCC ladder folder (benches/ucc-ladder.sh) from the manager's own files.

    python3 benches/ucc_ladder_stats.py OUTDIR [OUTDIR ...]

Several folders (ladders run side by side, or one ladder's shards) are counted together,
an opponent's games in all of them making its one row. For every OUTDIR/<opponent>/<i>.out (the manager's result line) and <i>.log (its -o log),
with Marshal the player whose path ends in /marshal: wins, draws, losses and score; games
in which Marshal's Marshal (UCC '1') died attacking a Bomb; how many times its General or
a Colonel (UCC '2', '3') did; games in which Marshal's Flag was taken; games that ended by
an error (not counted in the score). Lost, drawn and failed games are listed on stderr, a
draw with the turn of its last capture (a draw at the turn cap long after the last capture
is a game neither side found a way forward in).
"""
import os
import sys

WIN_FOR_NAMED = {"VICTORY": 1, "DEFAULT": 1, "DEFEAT": 0, "SURRENDER": 0, "ILLEGAL": 0}
DRAWS = {"DRAW", "DRAW_DEFAULT"}
FIGHTS = {"KILLS", "DIES", "BOTHDIE"}
# What main counts per opponent and over all.
COUNTS = ("W", "D", "L", "E", "bomb", "top", "flag", "n")


def is_marshal(name):
    return os.path.basename(name) == "marshal"


def game(out_path, log_path):
    """(result from Marshal's side: 'W', 'D', 'L' or 'E', marshal_on_bomb, flag_lost, turns, why,
    turn of the last fight or None, General and Colonel deaths on Bombs)."""
    line = open(out_path).read().split()
    if len(line) < 4:
        return "E", False, False, 0, "no result line", None, 0
    name, colour, outcome, turns = line[0], line[1], line[2], int(line[3])
    if outcome in DRAWS:
        res = "D"
    elif outcome in WIN_FOR_NAMED:
        named_wins = WIN_FOR_NAMED[outcome] == 1
        res = "W" if named_wins == is_marshal(name) else "L"
    else:
        res = "E"
    ours = None
    bomb = flag = False
    last_fight = None
    top_on_bomb = 0
    if os.path.exists(log_path):
        for l in open(log_path):
            w = l.split()
            if len(w) >= 3 and w[1] in ("RED", "BLUE") and w[2] == "SETUP" and is_marshal(w[0]):
                ours = "RED:" if w[1] == "RED" else "BLU:"
            if len(w) >= 4 and w[1] in ("RED:", "BLU:"):
                if FIGHTS.intersection(w[2:]):
                    last_fight = w[0]
                if w[1] == ours and w[-3] == "DIES" and w[-1] == "B":
                    bomb |= w[-2] == "1"
                    top_on_bomb += w[-2] in ("2", "3")
                if w[1] != ours and w[-1] == "VICTORY_FLAG":
                    flag = True
    return res, bomb, flag, turns, outcome, last_fight, top_on_bomb


def main():
    roots = sys.argv[1:]
    if not roots:
        sys.exit("usage: ucc_ladder_stats.py OUTDIR [OUTDIR ...]")
    per_opp = {}
    for root in roots:
        # Lost games are named by folder too when there are several.
        where = f"{root}: " if len(roots) > 1 else ""
        for opp in sorted(os.listdir(root)):
            d = os.path.join(root, opp)
            if not os.path.isdir(d):
                continue
            c = per_opp.setdefault(opp, dict.fromkeys(COUNTS, 0))
            outs = sorted((f for f in os.listdir(d) if f.endswith(".out")), key=lambda f: int(f[:-4]))
            for f in outs:
                i = f[:-4]
                res, bomb, flag, turns, why, last_fight, top = game(
                    os.path.join(d, f), os.path.join(d, i + ".log"))
                c[res] += 1
                c["n"] += 1
                c["bomb"] += bomb
                c["top"] += top
                c["flag"] += flag
                if res in "LE":
                    print(f"{where}{opp} game {i}: {res} ({why} at turn {turns})", file=sys.stderr)
                elif res == "D":
                    fought = f"last capture at turn {last_fight}" if last_fight else "no capture"
                    print(f"{where}{opp} game {i}: D ({why} at turn {turns}, {fought})", file=sys.stderr)
    rows = [(opp, c) for opp, c in sorted(per_opp.items()) if c["n"]]
    total = dict.fromkeys(COUNTS, 0)
    for _, c in rows:
        for k in total:
            total[k] += c[k]
    print("| opponent | games | W/D/L | score | Marshal on a Bomb | General/Colonel on a Bomb "
          "| Flag lost | errors |")
    print("|---|---|---|---|---|---|---|---|")
    for opp, c in rows + [("all", total)]:
        played = c["W"] + c["D"] + c["L"]
        score = 100.0 * (c["W"] + 0.5 * c["D"]) / played if played else 0.0
        print(f"| {opp} | {c['n']} | {c['W']}/{c['D']}/{c['L']} | {score:.1f}% | "
              f"{c['bomb']} | {c['top']} | {c['flag']} | {c['E']} |")


if __name__ == "__main__":
    main()
