#!/usr/bin/env python3
"""Where Marshal's material goes in a UCC ladder folder (benches/ucc-ladder.sh).

    python3 benches/ucc_losses.py OUTDIR [OUTDIR ...]

Replays every finished game's manager log (<opponent>/<i>.log, with Marshal the player
whose path ends in /marshal) and sums, per game won and per game lost, the value of
Marshal's pieces lost by cause, in the engine's piece values (Marshal 400, General 300,
Colonel 200, Major 150, Captain 100, Lieutenant 60, Sergeant 40, Miner 60, Scout 30, Spy
100). A cause names who attacked, what stood on the other side (a Bomb, a piece already
seen, a piece that had moved, one that had not) and whether Marshal's piece had been seen;
a trade is a fight in which both pieces died. It then lists the attacks of Marshal's top
pieces (Marshal, General, Colonel) on Bombs by whether a stronger enemy piece, already
seen, stood next to the attacker (a piece trapped with nowhere else to go) and how many
empty squares it had around it. Then, for the attacks of Marshal's Major, Colonels, General
and Marshal on enemy pieces they had not seen, how they ended (a Bomb, the Flag, a win, a
trade, a loss) by whether the enemy piece had moved and whether a stronger seen enemy
piece stood within two steps of the attacker (chased); last, the games in which the enemy
Spy took Marshal's Marshal, by whether the Spy had moved and the Marshal had been seen.
"""
import os
import re
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ucc_ladder_stats  # noqa: E402  (the ladder's own reading of a game's result)

VALUE = {"1": 400, "2": 300, "3": 200, "4": 150, "5": 100, "6": 60, "7": 40, "8": 60, "9": 30,
         "s": 100, "B": 20, "F": 0}
STRENGTH = {"1": 10, "2": 9, "3": 8, "4": 7, "5": 6, "6": 5, "7": 4, "8": 3, "9": 2, "s": 1}
LAKES = {(x, y) for x in (2, 3, 6, 7) for y in (4, 5)}
STEP = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}
MOVE = re.compile(r"^(\d+) (RED|BLU): (\d+) (\d+) (UP|DOWN|LEFT|RIGHT)(?: (\d+))? "
                  r"(OK|KILLS|DIES|BOTHDIE|VICTORY_FLAG)")


def result(out_path, log_path):
    """'W' or 'L' from Marshal's side (as the ladder's table scores it), None for a draw,
    an error or an unfinished game."""
    if not os.path.exists(out_path):
        return None
    res = ucc_ladder_stats.game(out_path, log_path)[0]
    return res if res in ("W", "L") else None


def finished_games(roots):
    """Every finished game of the ladder folders `roots` (<opponent>/<i>.log), in the order
    of the opponents' names and then of the game numbers: (opponent, game number as text,
    'W' or 'L', log path)."""
    for root in roots:
        for opp in sorted(os.listdir(root)):
            d = os.path.join(root, opp)
            if not os.path.isdir(d):
                continue
            logs = [f for f in os.listdir(d) if f.endswith(".log")]
            for f in sorted(logs, key=lambda f: (len(f), f)):
                log = os.path.join(d, f)
                res = result(log[:-4] + ".out", log)
                if res is not None:
                    yield opp, f[:-4], res, log


def outranked(board, me, piece, x, y, reach):
    """Whether a seen enemy piece (of `me`'s opponent) that outranks `piece` stands within
    `reach` steps of (x, y)."""
    return any(q["c"] != me and q["seen"] and STRENGTH.get(q["p"], 0) > STRENGTH[piece["p"]]
               and abs(qx - x) + abs(qy - y) <= reach for (qx, qy), q in board.items())


def setups(lines):
    """The board after both SETUP blocks of a manager log ({(x, y): piece}, each piece a dict
    of colour, rank character, moved, seen) and Marshal's colour ('R', 'B' or None)."""
    board, me = {}, None
    for i, l in enumerate(lines):
        w = l.split()
        if len(w) >= 3 and w[2] == "SETUP":
            colour = "R" if w[1] == "RED" else "B"
            if os.path.basename(w[0]) == "marshal":
                me = colour
            for r in range(4):
                y = r if colour == "R" else 6 + r
                for x, c in enumerate(lines[i + 1 + r].strip()):
                    if c != ".":
                        board[(x, y)] = {"c": colour, "p": c, "moved": False, "seen": False}
    return board, me


def moves(lines, board):
    """Replays the log's moves on `board`, yielding each as (match, (x, y), to, attacker,
    defender or None, result) with the attacker lifted off its square and nothing else
    changed yet; the move is played out when the caller asks for the next one."""
    for l in lines:
        m = MOVE.match(l)
        if not m:
            continue
        x, y = int(m.group(3)), int(m.group(4))
        dx, dy = STEP[m.group(5)]
        n = int(m.group(6) or 1)
        to = (x + dx * n, y + dy * n)
        att = board.pop((x, y))
        dfd = board.get(to)
        how = m.group(7)
        yield m, (x, y), to, att, dfd, how
        if dfd:
            att["seen"] = dfd["seen"] = True
            if how in ("KILLS", "VICTORY_FLAG"):
                board[to] = att
            elif how == "BOTHDIE":
                del board[to]
        else:
            board[to] = att
        att["moved"] = True


def replay(log_path, lost, traps, attacks, spies):
    lines = open(log_path).read().splitlines()
    board, me = setups(lines)
    if me is None:
        return
    for _, (x, y), to, att, dfd, how in moves(lines, board):
        if dfd:
            if att["c"] == me and att["p"] in "1234" and not dfd["seen"]:
                chased = outranked(board, me, att, x, y, 2)
                end = {"KILLS": "won", "BOTHDIE": "trade", "VICTORY_FLAG": "Flag"}.get(
                    how, "Bomb" if dfd["p"] == "B" else "lost")
                attacks[("Marshal" if att["p"] == "1" else "General" if att["p"] == "2"
                         else "Colonel or Major", "moved" if dfd["moved"] else "unmoved",
                         "chased" if chased else "free")][end] += 1
            if att["c"] != me and att["p"] == "s" and dfd["p"] == "1" and how == "KILLS":
                spies[("the Spy had moved" if att["moved"] else "the Spy had not moved",
                       "our Marshal seen" if dfd["seen"] else "our Marshal unseen")] += 1
            if att["c"] == me and att["p"] in "123" and dfd["p"] == "B":
                stronger = outranked(board, me, att, x, y, 1)
                free = sum(1 for a, b in STEP.values()
                           if 0 <= x + a < 10 and 0 <= y + b < 10 and (x + a, y + b) not in board
                           and (x + a, y + b) not in LAKES)
                traps[("a stronger seen piece beside it" if stronger else "free to go", free)] += 1

            def cause(mine, other, attacking):
                what = ("a Bomb" if other["p"] == "B" else "a seen piece" if other["seen"]
                        else "a moved piece" if other["moved"] else "an unmoved piece")
                return "%s %s, ours %s" % ("attacking" if attacking else "attacked by", what,
                                          "seen" if mine["seen"] else "unseen")
            if how == "DIES" and att["c"] == me:
                lost[cause(att, dfd, True)] += VALUE[att["p"]]
            elif how == "KILLS" and dfd["c"] == me:
                lost[cause(dfd, att, False)] += VALUE[dfd["p"]]
            elif how == "BOTHDIE":
                lost["trade"] += VALUE[(att if att["c"] == me else dfd)["p"]]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    lost = {"W": Counter(), "L": Counter()}
    games = Counter()
    traps = Counter()
    attacks = defaultdict(Counter)
    spies = Counter()
    for root in sys.argv[1:]:
        for opp in sorted(os.listdir(root)):
            d = os.path.join(root, opp)
            if not os.path.isdir(d):
                continue
            for f in sorted(os.listdir(d)):
                if not f.endswith(".log"):
                    continue
                res = result(os.path.join(d, f[:-4] + ".out"), os.path.join(d, f))
                if res is None:
                    continue
                games[res] += 1
                replay(os.path.join(d, f), lost[res], traps, attacks, spies)
    for res, name in (("W", "won"), ("L", "lost")):
        if games[res] == 0:
            continue
        print("%d games %s; value lost per game by cause:" % (games[res], name))
        for k, v in lost[res].most_common():
            print("  %-48s %5.0f" % (k, v / games[res]))
    print("attacks of Marshal's Marshal, General and Colonels on Bombs:")
    for (k, free), v in sorted(traps.items(), key=lambda kv: -kv[1]):
        print("  %4d  %s, %d empty square%s beside it" % (v, k, free, "" if free == 1 else "s"))
    print("attacks of Marshal's Major and up on pieces it had not seen (how they ended):")
    ends = ("Bomb", "Flag", "won", "trade", "lost")
    for k, c in sorted(attacks.items()):
        n = sum(c.values())
        print("  %-44s %4d: %s" % (", ".join(k), n, ", ".join(
            "%s %.0f%%" % (e, 100.0 * c[e] / n) for e in ends if c[e])))
    print("the enemy Spy took Marshal's Marshal: %d times in %d games" % (
        sum(spies.values()), games["W"] + games["L"]))
    for k, v in spies.most_common():
        print("  %4d  %s" % (v, ", ".join(k)))


if __name__ == "__main__":
    main()
