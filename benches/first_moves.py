#!/usr/bin/env python3
"""Captures made by a piece's first move, both ways, in UCC ladder folders
(benches/ucc-ladder.sh).

    python3 benches/first_moves.py OUTDIR [OUTDIR ...]
    python3 benches/first_moves.py --self-test

A piece that has not moved all game may be a Bomb, so a careful opponent does not walk up
to it, and when it finally moves it often takes what came next to it. For every finished
game's manager log (<opponent>/<i>.log, Marshal the player whose path ends in /marshal)
this counts, for each side, the captures made by a piece on its first move, by what the
victim had done on its side's move just before: taken a piece on that very square (it
stood there revealed after a capture), stepped there, or neither (it stood there before).
Values are the engine's (`ucc_losses.VALUE`); for a victim that had just captured, the
value of what it had taken is summed too.
"""
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ucc_losses  # noqa: E402  (finished_games, setups, moves, VALUE: the manager log's replay)

KINDS = ("had just captured there", "had just stepped there", "stood there")


def count(lines, c):
    """Adds one game's first-move captures to `c`, keyed (side, kind, what), side 'ours'
    for Marshal's pieces and 'its' for the opponent's."""
    board, me = ucc_losses.setups(lines)
    if me is None:
        return
    last = {}  # colour -> (square its last move ended on, value it took there or None)
    for _m, _frm, to, att, dfd, how in ucc_losses.moves(lines, board):
        side = "ours" if att["c"] == me else "its"
        if dfd is not None and not att["moved"] and how in ("KILLS", "VICTORY_FLAG"):
            end, took = last.get(dfd["c"], (None, None))
            kind = KINDS[2] if end != to else KINDS[0] if took is not None else KINDS[1]
            c[(side, kind, "n")] += 1
            c[(side, kind, "value")] += ucc_losses.VALUE[dfd["p"]]
            if took is not None and end == to:
                c[(side, kind, "had taken")] += took
        won = dfd is not None and how in ("KILLS", "VICTORY_FLAG")
        last[att["c"]] = (to, ucc_losses.VALUE[dfd["p"]] if won else None)


def table(c, games):
    out = ["first-move captures over %d games (per game in brackets)" % games,
           "%-28s %22s %22s" % ("victim", "by its pieces", "by ours")]
    for kind in KINDS + ("all",):
        cells = []
        for side in ("its", "ours"):
            ks = KINDS if kind == "all" else (kind,)
            n = sum(c[(side, k, "n")] for k in ks)
            v = sum(c[(side, k, "value")] for k in ks)
            cells.append("%4d, value %6d (%4.0f)" % (n, v, v / max(games, 1)))
        out.append("%-28s %s %s" % (kind, cells[0], cells[1]))
    for side, name in (("its", "by its pieces"), ("ours", "by ours")):
        t = c[(side, KINDS[0], "had taken")]
        out.append("victims that had just captured, what they had taken (%s): %d (%.0f a game)"
                   % (name, t, t / max(games, 1)))
    return "\n".join(out)


# A hand-made game (Marshal red; x to the right, y from red's back row): red's Captain
# walks down and takes blue's unmoved Scout, and blue's unmoved Major beside it takes the
# Captain on its first move (a victim that had just captured, a Scout); blue's Sergeant
# walks up next to red's unmoved Lieutenant, which takes it on its first move (a victim
# that had just stepped there).
SELF_TEST = """\
/x/marshal RED SETUP
F.........
..........
..........
5...6....7
/y/doi BLUE SETUP
94........
....7.....
..........
.........F
1 RED: 0 3 DOWN OK
1 BLU: 4 7 UP OK
2 RED: 0 4 DOWN OK
2 BLU: 4 6 UP OK
3 RED: 0 5 DOWN KILLS 5 9
3 BLU: 1 6 LEFT KILLS 4 5
4 RED: 9 3 DOWN OK
4 BLU: 4 5 UP OK
5 RED: 4 3 DOWN KILLS 6 7
"""


def self_test():
    c = Counter()
    count(SELF_TEST.splitlines(), c)
    want = {("its", KINDS[0], "n"): 1, ("its", KINDS[0], "value"): 100,
            ("its", KINDS[0], "had taken"): 30, ("ours", KINDS[1], "n"): 1,
            ("ours", KINDS[1], "value"): 40}
    got = {k: v for k, v in c.items() if v}
    if got != want:
        print("self-test failed: got %s, want %s" % (got, want))
        return 1
    print("self-test passed")
    return 0


def main():
    args = sys.argv[1:]
    if args == ["--self-test"]:
        return self_test()
    if not args:
        print(__doc__.strip())
        return 2
    c, n = Counter(), 0
    for _opp, _i, _res, path in ucc_losses.finished_games(args):
        count(open(path).read().splitlines(), c)
        n += 1
    print(table(c, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
