#!/usr/bin/env python3
"""A UCC 2012 protocol bot for tests that goes wrong on purpose. It is started with no
arguments (as the manager does), so the fault comes from the environment variable
UCC_FAULT:
  garbage    answers its first move with text that is no move
  illegal    answers its first move by moving its Flag
  hang       never answers its first move
  badsetup   sends a setup with two Flags in its third line
  crash      exits (with a word on stderr) when asked for its first move
  surrender  answers its first move with SURRENDER
Otherwise it plays like random_bot.py: random legal moves read off the board rows."""
import os
import random
import sys
import time

ARMY = "1" + "2" + "33" + "444" + "5555" + "6666" + "7777" + "88888" + "99999999" + "s" + "BBBBBB" + "F"


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def first_answer(fault, board):
    if fault == "garbage":
        return "hello there"
    if fault == "illegal":
        for y in range(10):
            x = board[y].find("F")
            if x >= 0:
                return "%d %d %s" % (x, y, "UP" if y > 0 else "DOWN")
    if fault == "hang":
        while True:
            time.sleep(1)
    if fault == "crash":
        sys.stderr.write("faulty_bot: giving up on purpose\n")
        sys.stderr.flush()
        sys.exit(3)
    if fault == "surrender":
        return "SURRENDER"
    return None


def main():
    fault = os.environ.get("UCC_FAULT", "")
    rng = random.Random()
    first = sys.stdin.readline()
    if not first or first.startswith("QUIT"):
        return
    pieces = list(ARMY)
    rng.shuffle(pieces)
    # The Flag goes to the back row (Red's first line, Blue's last), where no first move
    # can take it: each fault then ends the game.
    back = 0 if first.startswith("RED") else 3
    f = pieces.index("F")
    b = back * 10 + rng.randrange(10)
    pieces[f], pieces[b] = pieces[b], pieces[f]
    rows = ["".join(pieces[i * 10:(i + 1) * 10]) for i in range(4)]
    if fault == "badsetup":
        # A second Flag in the third line.
        rows[2] = "F" + rows[2][1:]
    for row in rows:
        out(row)
    pending, board, awaiting_echo, answered = 0, [], False, False
    for line in sys.stdin:
        line = line.rstrip("\n")
        if line.startswith("QUIT"):
            return
        if pending:
            board.append(line)
            pending -= 1
            if pending == 0:
                answer = None if answered else first_answer(fault, board)
                answered = True
                out(answer or choose(board, rng))
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
