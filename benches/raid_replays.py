#!/usr/bin/env python3
"""Replays our raids (our Colonel, General or Marshal attacking an unmoved piece the enemy
had not shown) and asks engines whether they would still raid there.

    python3 benches/raid_replays.py [--nodes N] --marshal PATH [--marshal PATH ...] OUTDIR ...
    python3 benches/raid_replays.py --self-test

From every finished game of the ladder folders (benches/ucc-ladder.sh; Marshal is the
player whose path ends in /marshal, as in ucc_losses.py): each move of ours by a Colonel,
General or Marshal onto an enemy piece that had neither moved nor been seen (the raids of
`doi_losses.py`), split by what the raided piece was: a Bomb, or anything else.

For each such moment every engine given is told the game up to that move (`marshal convert
--to commands --side C --ply N log`) and searches it with `go nodes N` (default 150,000,
about 300 ms; deterministic); the tool counts the moments whose best move is a raid again:
a move of any of our Colonels, Generals or Marshal onto any enemy piece that has neither
moved nor been seen. A change meant to spare our top pieces the Bombs should cut the first
count more than the second (against Demon of Ignorance, 6 of `4e4eacc`'s 22 raids by its
Marshal over seeds 34-35 hit a Bomb, where its beliefs summed to 2.6).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doi_losses  # noqa: E402
from threat_replays import by_engine, count_hits, replay_cases, replay_parser, square  # noqa: E402

TOPS = "123"


def moments(lines):
    """(ply to tell, our colour, 'Bomb' or 'other', our top pieces' squares, the squares of
    its unmoved unseen pieces) for each raid of ours in one log's lines."""
    me, ps = doi_losses.plies(lines)
    if me is None:
        return
    for k, p in enumerate(ps):
        if p["side"] != me or p["dfd"] is None or p["att"]["p"] not in TOPS:
            continue
        if p["dfd_seen"] or p["dfd_moved"]:
            continue
        board, flags = p["before"], p["flags"]
        tops = sorted(square(*sq) for sq, q in board.items() if q["c"] == me and q["p"] in TOPS)
        targets = sorted(square(*sq) for sq, q in board.items()
                         if q["c"] != me and not any(flags[id(q)]))
        yield k, "red" if me == "R" else "blue", "Bomb" if p["dfd"]["p"] == "B" else "other", \
            tops, targets


def raids_again(move, tops, targets):
    """Is `move` (protocol text) a move of one of `tops` onto one of `targets`?"""
    m = re.match(r"([a-j]\d+)([a-j]\d+)", move)
    return bool(m) and m.group(1) in tops and m.group(2) in targets


# A hand-made game, Marshal playing Red: our General walks up and takes an unmoved hidden
# Sergeant; its Scout shuttles; our Colonel walks up and dies on an unmoved hidden Bomb. Two
# raids: before ply 4 (the General, a piece not a Bomb) and before ply 10 (the Colonel, a
# Bomb).
SELF_TEST_LOG = """\
marshal RED SETUP
F.........
..........
..........
........32
doi BLUE SETUP
9.......B7
..........
..........
F.........
1 RED: 9 3 DOWN OK
1 BLU: 0 6 UP OK
2 RED: 9 4 DOWN OK
2 BLU: 0 5 DOWN OK
3 RED: 9 5 DOWN KILLS 2 7
3 BLU: 0 6 UP OK
4 RED: 8 3 DOWN OK
4 BLU: 0 5 DOWN OK
5 RED: 8 4 DOWN OK
5 BLU: 0 6 UP OK
6 RED: 8 5 DOWN DIES 3 B
"""


def self_test():
    got = list(moments(SELF_TEST_LOG.splitlines()))
    want = [(4, "red", "other", ["a6", "b4"], ["a7", "b7", "j10"]),
            (10, "red", "Bomb", ["a7", "b6"], ["b7", "j10"])]
    if got != want:
        sys.exit("self-test: got %s, want %s" % (got, want))
    if not raids_again("b6b7", ["b6"], ["b7"]) or raids_again("b6c6", ["b6"], ["b7"]):
        sys.exit("self-test: raids_again")
    print("self-test: two raids as expected")


def main():
    ap = replay_parser(__doc__)
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return
    cases = replay_cases(ap, a, moments)
    for kind in ("Bomb", "other"):
        some = [c for c in cases if c[3] == kind]
        again = count_hits(a.marshal, some, a.nodes, lambda mv, c: raids_again(mv, c[4], c[5]))
        print("raids on a %s: %d moments; raided again by %s" % (
            "Bomb" if kind == "Bomb" else "piece not a Bomb", len(some),
            by_engine(a.marshal, again)))


if __name__ == "__main__":
    main()
