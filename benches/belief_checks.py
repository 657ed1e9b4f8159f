#!/usr/bin/env python3
"""How well the engine's beliefs predict two dangers, in UCC ladder folders
(benches/ucc-ladder.sh).

    python3 benches/belief_checks.py --marshal target/release/marshal OUTDIR [OUTDIR ...]
    python3 benches/belief_checks.py --self-test

For every finished game's manager log (<opponent>/<i>.log, Marshal the player whose path
ends in /marshal) it finds two kinds of moments and asks the engine what it believed there
(`marshal convert --to commands --side S --ply P <log>`, then `beliefs`):

- approaches: an enemy piece Marshal has not seen steps next to a seen piece of Marshal's
  that it did not stand next to before. Predicted: the belief's chance, on Marshal's next
  turn, that the piece beats Marshal's strongest such piece when it attacks it; true:
  whether it does.
- standing beside unmoved pieces: once every 10 plies (Marshal's first move in each ten),
  each seen piece of Marshal's (Sergeant and up, not the Spy, Bombs or the Flag) next to
  an enemy piece that has neither moved nor been seen. Predicted: the belief's chance that the enemy piece
  would take or trade with it if it attacked; true: whether it would.

Both are printed by the rank of Marshal's piece, with the counts summed over the moments
(a calibrated belief has predicted close to true). Last, at the same moments as the
second, every unmoved unseen enemy piece: the belief's chance that it is a Colonel or
better, binned by that chance, against how many were. The two tables are what the tracker's
APPROACH and STAY tables were checked against (src/belief/tracker.rs).
"""
import argparse
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doi_losses  # noqa: E402  (Beliefs: the engine asked at a ply of a log; beats)
import ucc_losses  # noqa: E402  (finished_games, setups, moves: the manager log's replay)
from ucc_bomb_calibration import square  # noqa: E402  (manager square -> engine square)

STRENGTH = ucc_losses.STRENGTH
# Manager rank characters -> the engine's (`beliefs` prints the engine's).
ENGINE = {"1": "M", "2": "9", "3": "8", "4": "7", "5": "6", "6": "5", "7": "4", "8": "3",
          "9": "2", "s": "S", "B": "B", "F": "F"}
NAME = {v: k for k, v in ENGINE.items()}
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
# A Colonel or better (manager ranks), and the bins of the unmoved pieces' chance of one.
TOP = ("1", "2", "3")
BINS = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4, 1.01)


def beats(a, d):
    """Whether manager rank `a` wins attacking `d` (the default rules; Bombs and Flags
    never attack)."""
    return a not in "BF" and doi_losses.beats(a, d)


def takes_or_trades(a, d):
    """Whether `a` attacking `d` leaves `d` dead."""
    return beats(a, d) or (a not in "BF" and a == d)


def moments(lines):
    """The moments of one game: (kind, ply, square, our rank, enemy rank) with kind
    'approach' (ply: the position after the enemy's step) or 'beside' (ply: Marshal to
    move), and Marshal's colour."""
    board, me = ucc_losses.setups(lines)
    out = []
    if me is None:
        return out, None
    ply = 0
    sampled = -1

    def ours_seen(x, y, skip=()):
        for dx, dy in STEPS:
            q = board.get((x + dx, y + dy))
            if q and q["c"] == me and q["seen"] and q["p"] not in "BF" and (x + dx, y + dy) not in skip:
                yield (x + dx, y + dy), q["p"]

    for _m, frm, to, att, dfd, _how in ucc_losses.moves(lines, board):
        mover_is_me = att["c"] == me
        if abs(to[0] - frm[0]) + abs(to[1] - frm[1]) > 1:
            att["seen"] = True  # only a Scout moves that far
        if mover_is_me and ply // 10 > sampled:
            sampled = ply // 10
            for (x, y), e in list(board.items()):
                if e["c"] != me and not e["moved"] and not e["seen"]:
                    out.append(("unmoved", ply, square(x, y), None, e["p"]))
            for (x, y), q in list(board.items()):
                if q["c"] != me or not q["seen"] or q["p"] in "BFs89":
                    continue
                for dx, dy in STEPS:
                    e = board.get((x + dx, y + dy))
                    if e and e["c"] != me and not e["moved"] and not e["seen"]:
                        out.append(("beside", ply, square(x + dx, y + dy), q["p"], e["p"]))
        if not mover_is_me and dfd is None and not att["seen"] \
                and abs(to[0] - frm[0]) + abs(to[1] - frm[1]) == 1:
            before = {s for s, _ in ours_seen(*frm)}
            new = [(s, p) for s, p in ours_seen(*to) if s not in before and s != frm]
            if new:
                k = max(new, key=lambda t: STRENGTH[t[1]])[1]
                out.append(("approach", ply + 1, square(*to), k, att["p"]))
        ply += 1
    return out, me


def tally(events, beliefs_at):
    """Sums per (kind, our rank): [moments, predicted, true]. `events` are the moments of
    `moments`; `beliefs_at(ply)` the beliefs at a ply."""
    t = defaultdict(lambda: [0, 0.0, 0])
    for kind, ply, sq, ours, theirs in events:
        bel = beliefs_at(ply).get(sq)
        if bel is None:
            continue
        if kind == "unmoved":
            p = sum(c for r, c in bel.items() if r in NAME and NAME[r] in TOP)
            b = next(i for i in range(len(BINS) - 1) if p < BINS[i + 1])
            t[(kind, b)][0] += 1
            t[(kind, b)][1] += p
            t[(kind, b)][2] += int(theirs in TOP)
            continue
        test = beats if kind == "approach" else takes_or_trades
        p = sum(c for r, c in bel.items() if r in NAME and test(NAME[r], ours))
        for key in ((kind, ours), (kind, "all")):
            t[key][0] += 1
            t[key][1] += p
            t[key][2] += int(test(theirs, ours))
    return t


def report(t, games):
    out = ["%d games" % games]
    titles = {"approach": "an unseen piece steps next to our seen piece: does it beat it?",
              "beside": "our seen piece beside an unmoved unseen one: would it take it?"}
    for kind in ("approach", "beside"):
        out.append(titles[kind])
        out.append("  %-9s %6s %16s %16s" % ("ours", "n", "predicted", "true"))
        ranks = sorted({r for k, r in t if k == kind and r != "all"},
                       key=lambda r: -STRENGTH[r]) + ["all"]
        for r in ranks:
            n, p, tr = t[(kind, r)]
            if n:
                out.append("  %-9s %6d %9.1f (%.2f) %9d (%.2f)" % (
                    "all" if r == "all" else ENGINE[r], n, p, p / n, tr, tr / n))
    out.append("an unmoved unseen piece at those moments: is it a Colonel or better?")
    out.append("  %-11s %7s %16s %16s" % ("chance", "n", "predicted", "true"))
    for b in range(len(BINS) - 1):
        n, p, tr = t[("unmoved", b)]
        if n:
            out.append("  %.2f-%.2f %8d %9.1f (%.3f) %8d (%.3f)" % (
                BINS[b], min(BINS[b + 1], 1.0), n, p, p / n, tr, tr / n))
    return "\n".join(out)


def self_test():
    # A hand-made game: Marshal (Red) has a Major ('4') on manager (4, 3) and a Scout on
    # (0, 0); Blue a Scout ('9') on (4, 6), a Colonel ('3') on (5, 6), a Captain ('5') on
    # (3, 6) and a Scout on (9, 8). The Major steps out, takes the Scout that came to meet
    # it (and is seen), the Colonel steps next to it (an approach), the Major steps on to
    # (4, 6) beside the unmoved Captain, and the Scouts shuffle until ply 10 (beside).
    lines = ["x/marshal RED SETUP", "9.........", "..........", "..........", "....4.....",
             "y/other BLUE SETUP", "...593....", "..........", ".........9", ".........F",
             "1 RED: 4 3 DOWN OK", "1 BLU: 4 6 UP OK", "2 RED: 4 4 DOWN KILLS",
             "2 BLU: 5 6 UP OK", "3 RED: 4 5 DOWN OK", "3 BLU: 9 8 UP OK",
             "4 RED: 0 0 DOWN OK", "4 BLU: 9 7 DOWN OK", "5 RED: 0 1 UP OK",
             "5 BLU: 9 8 UP OK", "6 RED: 0 0 DOWN OK"]
    ev, me = moments(lines)
    assert me == "R", me
    unmoved = [e for e in ev if e[0] == "unmoved"]
    assert [e for e in ev if e[0] != "unmoved"] == [
        ("approach", 4, "e6", "4", "3"), ("beside", 10, "g7", "4", "5")], ev
    # At ply 0 all five Blue pieces stand unmoved; at ply 10 the Captain and the Flag.
    assert sorted((e[1], e[4]) for e in unmoved) == [
        (0, "3"), (0, "5"), (0, "9"), (0, "9"), (0, "F"), (10, "5"), (10, "F")], unmoved
    assert square(9, 0) == "a1" and square(0, 9) == "j10"
    assert beats("s", "1") and not beats("1", "B") and beats("8", "B") and not beats("5", "4")
    assert takes_or_trades("4", "4") and not takes_or_trades("5", "4")
    t = tally([("approach", 4, "e6", "4", "3"), ("approach", 4, "f5", "4", "5"),
               ("beside", 8, "e6", "4", "2")],
              lambda ply: {"e6": {"8": 0.5, "2": 0.5}, "f5": {"6": 1.0}})
    assert t[("approach", "4")] == [2, 0.5, 1], t[("approach", "4")]
    assert t[("beside", "4")] == [1, 0.5, 1], t[("beside", "4")]
    assert t[("approach", "all")] == [2, 0.5, 1]
    t = tally([("unmoved", 0, "e6", None, "3"), ("unmoved", 0, "f5", None, "5")],
              lambda ply: {"e6": {"8": 0.5, "2": 0.5}, "f5": {"9": 0.015, "6": 0.985}})
    assert t[("unmoved", 6)] == [1, 0.5, 1] and t[("unmoved", 1)] == [1, 0.015, 0], dict(t)
    print("self-test passed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--marshal", help="the engine binary whose beliefs are checked")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("dirs", nargs="*")
    a = ap.parse_args()
    if a.self_test:
        self_test()
        return
    if not a.marshal or not a.dirs:
        ap.error("give --marshal and at least one ladder folder")
    engine = doi_losses.Beliefs(a.marshal)
    total = defaultdict(lambda: [0, 0.0, 0])
    games = 0
    for _opp, _n, _res, log in ucc_losses.finished_games(a.dirs):
        with open(log) as f:
            lines = f.read().splitlines()
        ev, me = moments(lines)
        if me is None:
            continue
        games += 1
        cache = {}

        def beliefs_at(ply):
            if ply not in cache:
                cache[ply] = engine.at(log, me, ply)
            return cache[ply]
        t = tally(ev, beliefs_at)
        for k, v in t.items():
            for i in range(3):
                total[k][i] += v[i]
    print(report(total, games))


if __name__ == "__main__":
    main()
