#!/usr/bin/env python3
"""How soon the search settles on its move: the best move at a few node budgets against
the best move at a large one, over positions of finished games.

    python3 benches/settle.py --marshal PATH [--marshal PATH ...] [--nodes 60000,230000,700000]
        [--reference 5000000] [--plies 40,90,140,190,240] [--games N] [--seeds A,B] OUTDIR ...
    python3 benches/settle.py --self-test

From the first `--games` finished games of the ladder folders (benches/ucc-ladder.sh;
Marshal is the player whose path ends in /marshal, as in ucc_losses.py), Marshal's view
before each ply of `--plies` the game reached (`marshal convert --to commands --side C
--ply N log`). Each engine searches each position with `go nodes N` for every budget and
for the reference budget (deterministic: a node budget, not a clock; at about 750,000
nodes a second, 230,000 nodes is about 300 ms and 700,000 about 1000 ms). Printed per
engine and budget: in how many positions the best move is the reference's; with
`--show`, also each position where a budget's move differs (the log, the ply, the moves).

A search whose move at 1000 ms is mostly its move at 300 ms cannot gain much from the
extra time, whatever the move is worth; a search that keeps changing its mind as the
budget grows spends the time on something. The count says which, not which is better:
only games say that. With `--seeds A,B` each search runs with option `Seed` A, and every
budget is also searched with Seed B: how often two seeds agree at one budget is the
yardstick for how often two budgets agree (a budget that changes the move no more often
than a seed does only re-draws near ties).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doi_losses  # noqa: E402
import threat_replays  # noqa: E402
import ucc_losses  # noqa: E402


def positions(logs, plies):
    """(log, ply, side) for each ply of `plies` each game reached, Marshal's side."""
    for log in logs:
        me, ps = doi_losses.plies(open(log).read().splitlines())
        if me is None:
            continue
        side = "red" if me == "R" else "blue"
        # The view before a ply of ours: Red moves at even plies (from 0), Blue at odd.
        mine = 0 if me == "R" else 1
        for p in plies:
            q = p + (p - mine) % 2
            if q < len(ps):
                yield log, q, side


def agreement(moves, reference):
    """How many of `moves` match `reference`, position by position."""
    return sum(a == b for a, b in zip(moves, reference))


def self_test():
    if agreement(["a1a2", "b1b2", "c1c2"], ["a1a2", "b1b3", "c1c2"]) != 2:
        sys.exit("self-test: agreement miscounted")
    lines = threat_replays.SELF_TEST_LOG.splitlines()
    me, ps = doi_losses.plies(lines)
    if me != "R" or len(ps) != 10:
        sys.exit("self-test: the hand-made game read as %s with %d plies" % (me, len(ps)))
    print("self-test: agreement and plies as expected")


def main():
    ap = threat_replays.replay_parser(__doc__, nodes=False)
    ap.add_argument("--nodes", default="60000,230000,700000")
    ap.add_argument("--reference", type=int, default=5_000_000)
    ap.add_argument("--plies", default="40,90,140,190,240")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--show", action="store_true", help="list the positions where the moves differ")
    ap.add_argument("--seeds", help="A,B: search with Seed A, and also each budget with Seed B")
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return
    threat_replays.require_engines(ap, a)
    try:
        budgets = [int(x) for x in a.nodes.split(",")]
        plies = [int(x) for x in a.plies.split(",")]
        seeds = [int(x) for x in a.seeds.split(",")] if a.seeds else [None]
    except ValueError:
        ap.error("--nodes, --plies and --seeds take numbers separated by commas")
    if a.seeds and len(seeds) != 2:
        ap.error("--seeds takes two numbers, A,B")
    logs = [log for _, _, _, log in ucc_losses.finished_games(a.dirs)][: a.games]
    cases = list(positions(logs, plies))
    print("%d positions from %d games" % (len(cases), len(logs)))
    for m in a.marshal:
        ref = [threat_replays.best_move(m, log, ply, side, a.reference, seeds[0]) for log, ply, side in cases]
        said, seeded = [], []
        for n in budgets:
            moves = [threat_replays.best_move(m, log, ply, side, n, seeds[0]) for log, ply, side in cases]
            said.append("%d nodes %d" % (n, agreement(moves, ref)))
            if len(seeds) == 2:
                other = [threat_replays.best_move(m, log, ply, side, n, seeds[1]) for log, ply, side in cases]
                seeded.append("%d nodes %d" % (n, agreement(moves, other)))
            if a.show:
                for (log, ply, side), mv, r in zip(cases, moves, ref):
                    if mv != r:
                        print("  %s ply %d (%s): %s at %d nodes, %s at %d" % (
                            log, ply, side, mv, n, r, a.reference))
        print("%s: the move at %d nodes matched at %s" % (m, a.reference, ", ".join(said)))
        if seeded:
            print("%s: Seed %d and Seed %d chose the same move at %s" % (m, seeds[0], seeds[1], ", ".join(seeded)))


if __name__ == "__main__":
    main()
