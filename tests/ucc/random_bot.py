#!/usr/bin/env python3
"""A UCC 2012 protocol bot for tests: a random setup, then random legal moves read off the
board rows the manager sends (own pieces by character, enemy '#', lakes '+', empty '.')."""
import random
import sys

ARMY = "1" + "2" + "33" + "444" + "5555" + "6666" + "7777" + "88888" + "99999999" + "s" + "BBBBBB" + "F"


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    rng = random.Random()
    first = sys.stdin.readline()
    if not first or first.startswith("QUIT"):
        return
    pieces = list(ARMY)
    rng.shuffle(pieces)
    for i in range(4):
        out("".join(pieces[i * 10:(i + 1) * 10]))
    pending = 0
    board = []
    awaiting_echo = False
    for line in sys.stdin:
        line = line.rstrip("\n")
        if line.startswith("QUIT"):
            return
        if pending:
            board.append(line)
            pending -= 1
            if pending == 0:
                out(choose(board, rng))
                awaiting_echo = True
            continue
        if line == "START":
            pending, board = 10, []
        elif line.strip():
            if awaiting_echo:
                awaiting_echo = False
            else:
                pending, board = 10, []


def choose(board, rng):
    moves = []
    for y in range(10):
        for x in range(10):
            c = board[y][x]
            if c not in "123456789s":
                continue
            for name, dx, dy in (("UP", 0, -1), ("DOWN", 0, 1), ("LEFT", -1, 0), ("RIGHT", 1, 0)):
                n = 1
                while True:
                    tx, ty = x + dx * n, y + dy * n
                    if not (0 <= tx < 10 and 0 <= ty < 10):
                        break
                    t = board[ty][tx]
                    if t in ".#":
                        moves.append("%d %d %s" % (x, y, name) + (" %d" % n if n > 1 else ""))
                    if t != "." or c != "9":
                        break
                    n += 1
    if not moves:
        return "SURRENDER"
    return rng.choice(moves)


if __name__ == "__main__":
    main()
