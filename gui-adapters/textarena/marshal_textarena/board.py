"""Reads TextArena's Stratego text and keeps the board one player can know.

TextArena's board has rows A (top, player 0's back row) to J and columns 0 to 9. Our
board (protocol.md 1.1) has files a-j and ranks 1-10 from Red's back row, Red moving
first: so player 0 is Red, row A is rank 1, column 0 is file a, and the square of TextArena
row R, column c is file c, rank R + 1 (D4 is e4, G7 is h7).
"""

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

# TextArena's rank names, its two-letter board codes and our piece characters.
RANKS = ["Flag", "Bomb", "Spy", "Scout", "Miner", "Sergeant", "Lieutenant", "Captain",
         "Major", "Colonel", "General", "Marshal"]
CODE_OF = {"Flag": "FL", "Bomb": "BM", "Spy": "SP", "Scout": "SC", "Miner": "MN",
           "Sergeant": "SG", "Lieutenant": "LT", "Captain": "CP", "Major": "MJ",
           "Colonel": "CL", "General": "GN", "Marshal": "MS"}
RANK_OF_CODE = {code: rank for rank, code in CODE_OF.items()}
CHAR_OF = {"Flag": "F", "Bomb": "B", "Spy": "S", "Scout": "2", "Miner": "3", "Sergeant": "4",
           "Lieutenant": "5", "Captain": "6", "Major": "7", "Colonel": "8", "General": "9",
           "Marshal": "M"}
ARMY = {"Flag": 1, "Bomb": 6, "Spy": 1, "Scout": 8, "Miner": 5, "Sergeant": 4,
        "Lieutenant": 4, "Captain": 4, "Major": 3, "Colonel": 2, "General": 1, "Marshal": 1}
# Strength in a fight; Flag and Bomb are handled apart.
STRENGTH = {"Flag": 0, "Spy": 1, "Scout": 2, "Miner": 3, "Sergeant": 4, "Lieutenant": 5,
            "Captain": 6, "Major": 7, "Colonel": 8, "General": 9, "Marshal": 10, "Bomb": 11}
LAKES = {(4, 2), (4, 3), (5, 2), (5, 3), (4, 6), (4, 7), (5, 6), (5, 7)}
COLOUR_OF_PLAYER = {0: "red", 1: "blue"}

Square = Tuple[int, int]  # (row 0..9 = A..J, column 0..9)


class TextError(ValueError):
    """A piece of TextArena's text that cannot be read; `line` is the offending line."""

    def __init__(self, what: str, line: str):
        super().__init__(what)
        self.what = what
        self.line = line


def parse_ta_square(text: str) -> Square:
    """`D4` -> (3, 4); lower case is accepted as TextArena accepts it."""
    m = re.fullmatch(r"([A-Ja-j])([0-9])", text.strip())
    if not m:
        raise ValueError(f"'{text}' is not a TextArena square (A0..J9)")
    return ord(m.group(1).upper()) - 65, int(m.group(2))


def ta_to_square(text: str) -> str:
    """TextArena's `D4` -> our `e4`."""
    row, col = parse_ta_square(text)
    return f"{chr(97 + col)}{row + 1}"


def square_to_ta(square: str) -> str:
    """Our `e4` -> TextArena's `D4`."""
    m = re.fullmatch(r"([a-j])(10|[1-9])", square)
    if not m:
        raise ValueError(f"'{square}' is not a square of the 10x10 board (a1..j10)")
    return f"{chr(64 + int(m.group(2)))}{ord(m.group(1)) - 97}"


def move_to_ta(move: str) -> Tuple[str, str]:
    """Our `e4e5` -> (`D4`, `E4`)."""
    m = re.fullmatch(r"([a-j](?:10|[1-9]))([a-j](?:10|[1-9]))", move)
    if not m:
        raise ValueError(f"'{move}' is not a move of the 10x10 board")
    return square_to_ta(m.group(1)), square_to_ta(m.group(2))


def our_square(sq: Square) -> str:
    return f"{chr(97 + sq[1])}{sq[0] + 1}"


def ta_name(sq: Square) -> str:
    return f"{chr(65 + sq[0])}{sq[1]}"


@dataclass
class Piece:
    """A piece on the board: its owner (0 or 1) and its rank name (None: not known)."""

    player: int
    rank: Optional[str]


@dataclass
class Event:
    """One move as TextArena reports it: who moved (0 or 1), from, to, and for a battle
    the attacker's and the defender's rank names."""

    player: int
    src: Square
    dst: Square
    attacker: Optional[str]
    defender: Optional[str]
    line: str


_EVENT = re.compile(
    r"(You have moved your piece|Player ([01]) has moved a piece) from ([A-J][0-9]) to ([A-J][0-9])\."
    r"(?: The attacking piece was (\w+) and the destination piece was (\w+)\.)?")
_PLAYER = re.compile(r"You are Player ([01]) in Stratego")
_MOVES = re.compile(r"Available Moves:(.*)")
_TA_MOVE = re.compile(r"\[?\s*([A-Ja-j][0-9])\s+([A-Ja-j][0-9])\s*\]?")


def line_at(text: str, pos: int) -> str:
    """The whole line of `text` around offset `pos`."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start:] if end < 0 else text[start:end]


def parse_player(obs: str) -> Optional[int]:
    m = _PLAYER.search(obs)
    return int(m.group(1)) if m else None


def parse_events(obs: str, me: int) -> List[Event]:
    """Every move report in the observation, in order."""
    out = []
    for m in _EVENT.finditer(obs):
        player = me if m.group(2) is None else int(m.group(2))
        line = line_at(obs, m.start())
        for name in (m.group(5), m.group(6)):
            if name is not None and name not in STRENGTH:
                raise TextError(f"unknown rank '{name}' in a battle report", line)
        out.append(Event(player, parse_ta_square(m.group(3)), parse_ta_square(m.group(4)),
                         m.group(5), m.group(6), line))
    return out


def parse_last_board(obs: str) -> Tuple[Dict[Square, str], str]:
    """The last board drawn in the observation: square -> cell text (`.`, `~`, `?` or a
    two-letter code), and the text of the board for error messages."""
    at = obs.rfind("Current Board:")
    if at < 0:
        raise TextError("no board ('Current Board:') in the observation", obs.strip()[-200:])
    lines = obs[at:].splitlines()
    cells: Dict[Square, str] = {}
    rows_seen = []
    for line in lines[1:]:
        toks = line.split()
        if len(toks) == 11 and len(toks[0]) == 1 and "A" <= toks[0] <= "J":
            row = ord(toks[0]) - 65
            for col, tok in enumerate(toks[1:]):
                if tok not in (".", "~", "?") and tok.upper() not in RANK_OF_CODE:
                    raise TextError(f"unknown board cell '{tok}' at {ta_name((row, col))}", line)
                cells[(row, col)] = tok
            rows_seen.append(row)
            if len(rows_seen) == 10:
                break
        elif rows_seen:
            raise TextError("board row cut short or malformed", line)
    if rows_seen != list(range(10)):
        raise TextError("the last board does not have the ten rows A-J", "\n".join(lines[:12]))
    return cells, "\n".join(lines[:12])


def parse_available(obs: str) -> Optional[List[str]]:
    """The last `Available Moves:` list as our moves (`e4e5`), or None if there is none.
    Both `[D4 E4]` (v0) and bare `D4 E4` (v1) items are read. Only a list after the last
    board counts: an older one belongs to an earlier turn."""
    found = list(_MOVES.finditer(obs, max(obs.rfind("Current Board:"), 0)))
    if not found:
        return None
    text = found[-1].group(1)
    moves = []
    for item in text.split(","):
        if not item.strip():
            continue
        m = _TA_MOVE.fullmatch(item.strip())
        if not m:
            raise TextError(f"unreadable item '{item.strip()}' in the list of available moves",
                            line_at(obs, found[-1].start()))
        moves.append(ta_to_square(m.group(1)) + ta_to_square(m.group(2)))
    return moves


def fight(attacker: str, defender: str) -> str:
    """The result of a battle under TextArena's rules (the classic ones): `a` the attacker
    wins, `d` the defender wins, `b` both die."""
    if defender == "Flag":
        return "a"
    if defender == "Bomb":
        return "a" if attacker == "Miner" else "d"
    if attacker == "Spy" and defender == "Marshal":
        return "a"
    if STRENGTH[attacker] == STRENGTH[defender]:
        return "b"
    return "a" if STRENGTH[attacker] > STRENGTH[defender] else "d"


class Board:
    """What player `me` knows: its own pieces with their ranks, the enemy's pieces with the
    ranks it has seen (battles, a Scout's long move)."""

    def __init__(self, me: int, own: Dict[Square, str]):
        self.me = me
        self.cells: Dict[Square, Piece] = {sq: Piece(me, r) for sq, r in own.items()}
        enemy_rows = range(6, 10) if me == 0 else range(0, 4)
        for row in enemy_rows:
            for col in range(10):
                self.cells[(row, col)] = Piece(1 - me, None)

    def setup(self) -> str:
        """Our own army in our setup notation (protocol.md 1.4): from the owner's back row
        to its front row, each row from the owner's left. Player 0 (Red) sits on rows A-D
        and looks towards J, so its left is column 0; player 1 (Blue) sits on rows J-G and
        its left is column 9."""
        rows = range(0, 4) if self.me == 0 else range(9, 5, -1)
        cols = list(range(10)) if self.me == 0 else list(range(9, -1, -1))
        return "/".join("".join(CHAR_OF[self.cells[(r, c)].rank] for c in cols) for r in rows)

    def apply(self, ev: Event) -> str:
        """Plays one reported move and returns it in our `position` notation (`e4e5`, or
        `e4e5:<a>x<d>` for a battle). Raises TextError when the report does not fit."""
        mover = self.cells.get(ev.src)
        if mover is None or mover.player != ev.player:
            raise TextError(f"player {ev.player} moves from {ta_name(ev.src)}, where it has no piece",
                            ev.line)
        target = self.cells.get(ev.dst)
        text = our_square(ev.src) + our_square(ev.dst)
        if target is None:
            if ev.attacker is not None:
                raise TextError(f"a battle on {ta_name(ev.dst)}, which is empty", ev.line)
            distance = abs(ev.src[0] - ev.dst[0]) + abs(ev.src[1] - ev.dst[1])
            if distance > 1:
                # Only a Scout moves more than one square: the move shows its rank.
                if mover.rank not in (None, "Scout"):
                    raise TextError(f"a {mover.rank} moves {distance} squares", ev.line)
                mover.rank = "Scout"
            del self.cells[ev.src]
            self.cells[ev.dst] = mover
            return text
        if target.player == ev.player:
            raise TextError(f"player {ev.player} moves onto its own piece on {ta_name(ev.dst)}", ev.line)
        if ev.attacker is None or ev.defender is None:
            raise TextError(f"a move onto the enemy piece on {ta_name(ev.dst)} without a battle report",
                            ev.line)
        for piece, name, role in ((mover, ev.attacker, "attacker"), (target, ev.defender, "defender")):
            if piece.rank is not None and piece.rank != name:
                raise TextError(f"the {role} on {ta_name(ev.src if role == 'attacker' else ev.dst)} "
                                f"is a {piece.rank}, the report says {name}", ev.line)
            piece.rank = name
        result = fight(ev.attacker, ev.defender)
        del self.cells[ev.src]
        if result == "a":
            self.cells[ev.dst] = mover
        elif result == "b":
            del self.cells[ev.dst]
        return f"{text}:{CHAR_OF[ev.attacker]}x{CHAR_OF[ev.defender]}"

    def check_drawn(self, cells: Dict[Square, str], text: str) -> None:
        """Checks a board TextArena drew for us against what we know: our codes on our
        squares, `?` on the enemy's, `.` elsewhere."""
        for row in range(10):
            for col in range(10):
                sq = (row, col)
                piece = self.cells.get(sq)
                if sq in LAKES:
                    want = "~"
                elif piece is None:
                    want = "."
                elif piece.player == self.me:
                    want = CODE_OF[piece.rank]
                else:
                    want = "?"
                got = cells[sq].upper()
                if got != want:
                    raise TextError(f"the board shows '{cells[sq]}' on {ta_name(sq)}, "
                                    f"the adapter expects '{want}'", text)
