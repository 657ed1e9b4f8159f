"""The agent: TextArena calls it with the observation text, it answers with Marshal's move.

One `marshal` process per game speaks our protocol (protocol.md): the rule options that
match TextArena's rules, `setup <colour> <setup>` with the army TextArena placed, then
each turn `position <colour> moves ...` with every move so far (battles carry both
ranks) and `go movetime <ms>` (with `searchmoves` where TextArena forbids a move our
options cannot forbid). The answer is checked against TextArena's list of available
moves before it is sent, so the environment never sees an invalid move from us.
"""

import os
import queue
import shutil
import subprocess
import threading
from typing import Dict, List, Optional, Tuple

from .board import (COLOUR_OF_PLAYER, RANK_OF_CODE, ARMY, Board, Event, TextError, Square,
                    move_to_ta, parse_available, parse_events, parse_last_board, parse_player,
                    ta_name)

# TextArena's Stratego-v1 forbids moving one piece back and forth between the same two
# squares more than three times in a row. The released package has no v1 to check the
# exact count against, so the adapter keeps one move clear of it: it never makes the
# third shuttle move in a row.
V1_SHUTTLE_MOVES = 2
V1_MAX_TURNS = 1000


class AdapterError(RuntimeError):
    """A fault the adapter cannot play through: the engine died or answered with an
    error, or TextArena's text could not be read. The message names the game, the turn
    and the offending line."""


def find_marshal(path: Optional[str] = None) -> str:
    """The engine to start: `path`, else `MARSHAL_BIN`, else `marshal` on `PATH`."""
    found = path or os.environ.get("MARSHAL_BIN") or shutil.which("marshal")
    if not found:
        raise AdapterError("no marshal engine: pass path=..., set MARSHAL_BIN or put marshal on PATH")
    return found


class Engine:
    """A running `marshal` process; every line it prints goes through a queue so reads
    can time out."""

    def __init__(self, path: str, label: str):
        self.label = label
        self.log: List[str] = []
        try:
            self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, bufsize=1)
        except OSError as e:
            raise AdapterError(f"{label}: cannot start the engine '{path}': {e}") from e
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self.stderr: List[str] = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines), daemon=True).start()
        self.drainer = threading.Thread(target=self._drain, daemon=True)
        self.drainer.start()

    @staticmethod
    def _pump(stream, q):
        for line in stream:
            q.put(line.rstrip("\n"))
        q.put(None)

    def _drain(self):
        for line in self.proc.stderr:
            self.stderr = (self.stderr + [line.rstrip("\n")])[-5:]

    def _dead(self, where: str, line: str) -> AdapterError:
        # A dying process may still be flushing: give it a moment so the message can
        # carry its exit code and its last words on stderr.
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self.drainer.join(timeout=1)
        tail = " | ".join(self.stderr) or "nothing on stderr"
        return AdapterError(f"{where}: the engine {'exited with ' + str(code) if code is not None else 'stopped answering'}"
                            f" after the line '{line}' (stderr: {tail})")

    def send(self, line: str, where: str) -> None:
        self.log.append("> " + line)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._dead(where, line) from None

    def read_until(self, prefix: str, where: str, sent: str, timeout: float) -> str:
        """Reads lines up to the first starting with `prefix`; an `info string error`
        line, the end of output or the timeout raise AdapterError."""
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise self._dead(where, sent) from None
            if line is None:
                raise self._dead(where, sent)
            self.log.append("< " + line)
            if line.startswith("info string error"):
                raise AdapterError(f"{where}: the engine rejected '{sent}': {line}")
            if line.startswith(prefix):
                return line

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


class MarshalAgent:
    """A TextArena agent (callable: observation text -> action text) playing Marshal.

    `path`: the `marshal` binary (else `MARSHAL_BIN`, else `marshal` on `PATH`);
    `movetime_ms`: time per move; `version`: `"v0"` (answers `[D4 E4]`) or `"v1"`
    (answers `D4 E4`, keeps clear of v1's back-and-forth limit, draws at 1000 turns);
    `seed`: the engine's `Seed` (each game adds its number, so games differ but repeat);
    `nodes`: search this many nodes a move (`go nodes`) instead of a time, so that a game
    repeats move for move on any machine (`movetime_ms` is then unused).
    One instance plays any number of games, one after the other: a new game is seen by
    its observation and gets a fresh engine."""

    def __init__(self, path: Optional[str] = None, movetime_ms: int = 50, version: str = "v0",
                 seed: int = 1, name: str = "Marshal", nodes: Optional[int] = None):
        if version not in ("v0", "v1"):
            raise ValueError(f"version must be 'v0' or 'v1', not {version!r}")
        self.path = find_marshal(path)
        self.movetime_ms = movetime_ms
        self.version = version
        self.seed = seed
        if nodes is not None and (not isinstance(nodes, int) or nodes < 1):
            raise ValueError(f"nodes must be a positive whole number, not {nodes!r}")
        self.nodes = nodes
        self.name = name
        self.games = 0
        self.engine: Optional[Engine] = None
        self.board: Optional[Board] = None
        self.me: Optional[int] = None
        self.events: List[Tuple] = []
        self.moves: List[str] = []
        self.own_moves: List[Tuple[Square, Square]] = []
        self._raw = ""

    # -- the TextArena agent interface -------------------------------------------------
    def __call__(self, observation) -> str:
        turn = "?"
        try:
            observation = self._text_of(observation)
            me = parse_player(observation)
            if me is None:
                raise TextError("no 'You are Player N in Stratego' in the observation",
                                observation.strip()[:200])
            events = parse_events(observation, me)
            turn = str(len(events) + 1)
            if self._new_game(me, events):
                self._start(me, events, observation)
            self._catch_up(events)
            cells, text = parse_last_board(observation)
            self.board.check_drawn(cells, text)
            available = parse_available(observation)
            move = self._think(turn, available)
        except TextError as e:
            raise AdapterError(f"{self.name}, game {self.games}, turn {turn}: {e.what} "
                               f"(line: {e.line!r})") from None
        src, dst = move_to_ta(move)
        return f"[{src} {dst}]" if self.version == "v0" else f"{src} {dst}"

    def _text_of(self, observation) -> str:
        """The observation as text. TextArena's wrappers give the whole history as one
        string; its `-raw` environments give a list of (sender, message, type) with only
        what is new, which is kept here and joined (a prompt starts a new game)."""
        if isinstance(observation, str):
            return observation
        try:
            text = "\n".join(str(item[1]) for item in observation)
        except (TypeError, IndexError, KeyError):
            raise TextError("the observation is neither text nor TextArena's list of messages",
                            repr(observation)[:200]) from None
        self._raw = text if parse_player(text) is not None else self._raw + "\n" + text
        return self._raw

    def close(self) -> None:
        """Ends the engine of the current game (also done when the next game starts)."""
        if self.engine is not None:
            self.engine.close()
            self.engine = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - the interpreter may be shutting down
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- game state --------------------------------------------------------------------
    def _new_game(self, me: int, events: List[Event]) -> bool:
        """A new game: the first call, another seat, or a history that does not continue
        the one we have played."""
        if self.board is None or me != self.me or len(events) < len(self.events):
            return True
        return [self._key(e) for e in events[:len(self.events)]] != self.events

    @staticmethod
    def _key(e: Event) -> Tuple:
        return (e.player, e.src, e.dst, e.attacker, e.defender)

    def _start(self, me: int, events: List[Event], observation: str) -> None:
        self.close()
        self.games += 1
        self.me = me
        self.events, self.moves, self.own_moves = [], [], []
        if len(events) > me:
            raise TextError(f"the first turn of player {me} comes after {len(events)} moves",
                            events[-1].line)
        # TextArena places the armies itself; our army is on the board drawn for us, less
        # a piece that player 0's first move may already have taken.
        cells, text = parse_last_board(observation)
        own: Dict[Square, str] = {}
        zone = range(0, 4) if me == 0 else range(6, 10)
        for (row, col), tok in cells.items():
            if tok not in (".", "~", "?"):
                if row not in zone and not events:
                    raise TextError(f"own piece '{tok}' on {ta_name((row, col))}, outside rows "
                                    f"{'A-D' if me == 0 else 'G-J'}", text)
                own[(row, col)] = RANK_OF_CODE[tok.upper()]
        for e in events:
            if e.player != me and e.dst not in own and e.defender is not None:
                own[e.dst] = e.defender
        counts = {r: 0 for r in ARMY}
        for r in own.values():
            counts[r] += 1
        if counts != ARMY:
            raise TextError(f"our army on the first board is not the classic 40 ({counts})", text)
        self.board = Board(me, own)
        label = f"{self.name}, game {self.games}, turn {len(events) + 1}"
        self.engine = Engine(self.path, label)
        rules = [("Variant", "classic"), ("TwoSquares", "0"), ("MoreSquares", "false"),
                 ("MaxPlies", str(V1_MAX_TURNS) if self.version == "v1" else "0"),
                 ("MaxQuietPlies", "0"), ("Seed", str(self.seed + self.games))]
        for name, value in rules:
            self.engine.send(f"setoption name {name} value {value}", label)
        self.engine.send("newgame", label)
        setup = f"setup {COLOUR_OF_PLAYER[me]} {self.board.setup()}"
        self.engine.send(setup, label)
        self.engine.send("isready", label)
        self.engine.read_until("readyok", label, setup, 10)

    def _catch_up(self, events: List[Event]) -> None:
        for i, e in enumerate(events[len(self.events):], start=len(self.events)):
            if e.player != i % 2:
                raise TextError(f"move {i + 1} is reported for player {e.player}, "
                                f"but it is player {i % 2}'s turn", e.line)
            self.moves.append(self.board.apply(e))
            self.events.append(self._key(e))
            if e.player == self.me:
                self.own_moves.append((e.src, e.dst))

    def _forbidden(self) -> List[str]:
        """Moves v1 would refuse: the next shuttle of a piece that has already gone back
        and forth `V1_SHUTTLE_MOVES` times in a row between the same two squares."""
        if self.version != "v1" or len(self.own_moves) < V1_SHUTTLE_MOVES:
            return []
        last = self.own_moves[-V1_SHUTTLE_MOVES:]
        pair = {last[-1][0], last[-1][1]}
        for (a, b), (c, _) in zip(last, last[1:]):
            if {a, b} != pair or c != b:
                return []
        if {last[0][0], last[0][1]} != pair:
            return []
        src, dst = last[-1]
        back = (dst, src)
        return ["".join(f"{chr(97 + s[1])}{s[0] + 1}" for s in back)]

    def _think(self, turn: str, available: Optional[List[str]]) -> str:
        where = f"{self.name}, game {self.games}, turn {turn}"
        colour = COLOUR_OF_PLAYER[self.me]
        position = f"position {colour}" + (" moves " + " ".join(self.moves) if self.moves else "")
        self.engine.send(position, where)
        go = f"go nodes {self.nodes}" if self.nodes else f"go movetime {self.movetime_ms}"
        forbidden = self._forbidden()
        if forbidden:
            if available is None:
                raise TextError("no 'Available Moves:' list to restrict the search with", position)
            allowed = [m for m in available if m not in forbidden]
            if not allowed:
                raise AdapterError(f"{where}: every available move is forbidden by the back-and-forth limit")
            go += " searchmoves " + " ".join(allowed)
        self.engine.send(go, where)
        budget = self.nodes / 100_000 if self.nodes else self.movetime_ms / 1000
        line = self.engine.read_until("bestmove", where, go, budget + 30)
        move = line.split()[1] if len(line.split()) == 2 else ""
        if move in ("none", "0000", ""):
            raise AdapterError(f"{where}: the engine has no move ({line!r}) but TextArena asks for one")
        if available is not None and move not in available or move in forbidden:
            raise AdapterError(f"{where}: the engine's move {move} is not among TextArena's "
                               f"available moves (line: {line!r})")
        return move

    # -- for tests and tools -----------------------------------------------------------
    def known_board(self) -> Dict[Square, Tuple[int, Optional[str]]]:
        """What the adapter knows of the board: square -> (owner, rank name or None)."""
        if self.board is None:
            return {}
        return {sq: (p.player, p.rank) for sq, p in self.board.cells.items()}
