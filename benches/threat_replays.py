#!/usr/bin/env python3
"""Replays the moments a seen enemy piece stepped next to a piece of ours it beats, and asks
engines whether they would move the threatened piece away.

    python3 benches/threat_replays.py [--ranks 123] [--nodes N] --marshal PATH [--marshal PATH ...] OUTDIR ...
    python3 benches/threat_replays.py --self-test

From every finished game of the ladder folders (benches/ucc-ladder.sh; Marshal is the
player whose path ends in /marshal, as in ucc_losses.py): an enemy move without a fight,
by a piece seen before it (in a fight, or a Scout by a long move) whose rank is one of
`--ranks` (the manager's characters; default 123: Marshal, General, Colonel), that ends
next to a movable piece of ours it had not stood next to, had not seen, that had moved,
and that it beats. Our reply in the game left that piece where it stood (another piece
moved), and the enemy's next move either took it ("taken") or not ("spared").

For each such moment every engine given is told the game up to our reply (`marshal
convert --to commands --side C --ply N log`) and searches it with `go nodes N` (default
150,000, about 300 ms; deterministic; the input ends there, as `quit` would stop the
search at once); the tool counts the moments in which its best move
is a move of the threatened piece. A search that leaves a piece beside a seen taker which
then takes it more often than not (Demon of Ignorance took 144 of 247 such pieces of
`4e4eacc`'s, seeds 31-33) may be too sure that staying costs nothing; one that moves the
spared ones too may only be timid, so both counts are printed.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doi_losses  # noqa: E402
import ucc_losses  # noqa: E402

def square(x, y):
    """The manager's (x, y) as our square name (the manager's x runs from our j file)."""
    return "abcdefghij"[9 - x] + str(y + 1)


def moments(lines, ranks):
    """(ply to tell, our colour, threatened square, 'taken' or 'spared') for one log's lines."""
    me, ps = doi_losses.plies(lines)
    if me is None:
        return
    them = "B" if me == "R" else "R"
    for k, p in enumerate(ps[:-2]):
        att = p["att"]
        if p["side"] != them or p["how"] != "OK" or att["p"] not in ranks:
            continue
        if not (p["att_seen"] or p["long"]):
            continue
        for sq, x in doi_losses.newly_next_to(p):
            moved, seen = p["flags"][id(x)]
            if seen or not moved or not doi_losses.beats(att["p"], x["p"]):
                continue
            moved_away, attacked, standing, taken = doi_losses.reply_to(ps, k, x)
            if moved_away or attacked or not standing:
                continue
            yield k + 1, "red" if me == "R" else "blue", square(*sq), "taken" if taken else "spared"


def best_move(marshal, log, ply, side, nodes, seed=None):
    """The engine's move in Marshal's view before `ply` of the game in `log`, at `nodes`
    (and with option `Seed` at `seed` if given)."""
    cmds = subprocess.run([marshal, "convert", "--to", "commands", "--side", side, "--ply",
                           str(ply), log], capture_output=True, text=True, check=True).stdout
    if seed is not None:
        cmds = "setoption name Seed value %d\n" % seed + cmds
    out = subprocess.run([marshal], input=cmds + "\ngo nodes %d\n" % nodes, capture_output=True,
                         text=True, check=True).stdout
    said = [l.split()[1] for l in out.splitlines() if l.startswith("bestmove ")]
    errors = [l for l in out.splitlines() if l.startswith("info string error")]
    if errors or not said:
        raise RuntimeError("%s ply %d: %s" % (log, ply, errors[0] if errors else "no bestmove"))
    return said[-1]


def replay_parser(doc, nodes=True):
    """The options of a replay tool: engines, nodes (one budget, unless `nodes` is false),
    the self-test and ladder folders."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--marshal", action="append", help="an engine (repeatable)")
    if nodes:
        ap.add_argument("--nodes", type=int, default=150_000)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("dirs", nargs="*")
    return ap


def require_engines(ap, a):
    """An error unless an engine and a ladder folder were given."""
    if not a.dirs or not a.marshal:
        ap.error("give an engine (--marshal) and a ladder folder")


def replay_cases(ap, a, read):
    """(log,) + moment for every moment `read(lines)` yields in the finished games of the
    folders asked for (an error when no engine or folder was given)."""
    require_engines(ap, a)
    return [(log,) + m for _, _, _, log in ucc_losses.finished_games(a.dirs)
            for m in read(open(log).read().splitlines())]


def count_hits(engines, cases, nodes, hit):
    """Per engine, how many `cases` (log, ply, side, ...) its best move satisfies
    `hit(move, case)` in."""
    return [sum(bool(hit(best_move(m, c[0], c[1], c[2], nodes), c)) for c in cases)
            for m in engines]


def by_engine(engines, counts):
    return ", ".join("%s %d" % (m, n) for m, n in zip(engines, counts))


# A hand-made game, Marshal playing Red: our Miner walks up to its General, which takes it
# (and is seen); our Lieutenant steps out (moved, unseen); the seen General steps next to it
# from a square that was not; we move our Sergeant instead, and the General takes it. One
# moment: before our reply (ply 8), the Lieutenant on f5 (the manager's (4, 4)), taken.
SELF_TEST_LOG = """\
marshal RED SETUP
F........7
..........
..........
....68....
doi BLUE SETUP
.....2....
..........
..........
F........9
1 RED: 5 3 DOWN OK
1 BLU: 9 9 UP OK
2 RED: 5 4 DOWN OK
2 BLU: 5 6 UP KILLS 2 8
3 RED: 4 3 DOWN OK
3 BLU: 9 8 DOWN OK
4 RED: 9 0 DOWN OK
4 BLU: 5 5 UP OK
5 RED: 9 1 UP OK
5 BLU: 5 4 LEFT KILLS 2 6
"""


def self_test():
    got = list(moments(SELF_TEST_LOG.splitlines(), "123"))
    want = [(8, "red", "f5", "taken")]
    if got != want:
        sys.exit("self-test: got %s, want %s" % (got, want))
    if list(moments(SELF_TEST_LOG.splitlines(), "3")):
        sys.exit("self-test: a General counted among Colonels")
    print("self-test: one moment as expected")


def main():
    ap = replay_parser(__doc__)
    ap.add_argument("--ranks", default="123")
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return
    cases = replay_cases(ap, a, lambda lines: moments(lines, a.ranks))
    for kind in ("taken", "spared"):
        some = [c for c in cases if c[4] == kind]
        moved = count_hits(a.marshal, some, a.nodes,
                           lambda mv, c: mv.startswith(c[3]) and not mv[len(c[3])].isdigit())
        print("%s: %d moments; the threatened piece moved by %s" % (
            kind, len(some), by_engine(a.marshal, moved)))


if __name__ == "__main__":
    main()
