"""Plays MarshalAgent against a random-move agent in TextArena's real Stratego environment,
checking the adapter's board against the environment's after every turn (tests, bench)."""

import random
import re
from dataclasses import dataclass, field
from typing import List, Optional

from .agent import MarshalAgent
from .board import LAKES, ta_name

_AVAILABLE = re.compile(r"Available Moves:(.*)")
_ITEM = re.compile(r"\[?\s*([A-J][0-9])\s+([A-J][0-9])\s*\]?")


class RandomAgent:
    """Answers with a move drawn from the last `Available Moves:` list, in the list's own
    format (`[D4 E4]` in v0)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def __call__(self, observation) -> str:
        if not isinstance(observation, str):  # a `-raw` environment's list of messages
            observation = "\n".join(str(item[1]) for item in observation)
        found = _AVAILABLE.findall(observation)
        items = [i.strip() for i in found[-1].split(",") if i.strip()] if found else []
        if not items:
            # No legal move: TextArena still wants an answer; this one is invalid.
            return "[A0 A0]"
        return self.rng.choice(items)


@dataclass
class GameResult:
    """How one game ended, from Marshal's side."""

    env_id: str
    seed: int
    marshal_player: int
    outcome: str  # "win", "loss", "draw" or "unfinished"
    turns: int
    reason: str
    marshal_invalid: int = 0
    random_invalid: int = 0
    board_checks: int = 0
    mismatches: List[str] = field(default_factory=list)
    moves: List[str] = field(default_factory=list)  # every action sent, both players', in turn


def _raw_env(env):
    """The environment under TextArena's wrappers (it holds `board` and `state`)."""
    while not hasattr(env, "board") and hasattr(env, "env"):
        env = env.env
    return env


def repair_piece_lists(env) -> None:
    """Rebuilds the environment's per-player piece lists from its board.

    TextArena 0.7.4's Stratego-v0 keeps a list of each player's squares beside the board
    and forgets to remove a Bomb that a Miner defused from its owner's list; when that
    Miner moves on, the environment's own end-of-game check reads the empty square and
    raises TypeError. Calling this after every `env.step` keeps the lists right (it
    changes nothing else)."""
    raw = _raw_env(env)
    lists = {0: [], 1: []}
    for row in range(10):
        for col in range(10):
            cell = raw.board[row][col]
            if isinstance(cell, dict):
                lists[cell["player"]].append((row, col))
    for player in (0, 1):
        raw.player_pieces[player][:] = lists[player]


def _compare(agent: MarshalAgent, raw, revealed: set, me: int) -> List[str]:
    """Differences between the adapter's board and the environment's full board: every
    piece's square and owner, own ranks, and enemy ranks exactly where the game showed
    them (battles, a Scout's long move)."""
    known = agent.known_board()
    out = []
    for row in range(10):
        for col in range(10):
            sq = (row, col)
            cell = raw.board[row][col]
            if sq in LAKES:
                continue
            if cell is None:
                if sq in known:
                    out.append(f"{ta_name(sq)}: empty, the adapter has {known[sq]}")
                continue
            want = (cell["player"], cell["rank"] if cell["player"] == me or id(cell) in revealed else None)
            if known.get(sq) != want:
                out.append(f"{ta_name(sq)}: environment {want}, adapter {known.get(sq)}")
    return out


def play_game(env_id: str, seed: int, marshal_player: int, agent: MarshalAgent,
              max_turns: int = 3000, check: bool = True) -> GameResult:
    """One game of `env_id`; Marshal is `marshal_player` (0 or 1)."""
    import textarena as ta

    env = ta.make(env_id)
    env.reset(num_players=2, seed=seed)
    raw = _raw_env(env)
    opponent = RandomAgent(seed * 7919 + 1)
    result = GameResult(env_id, seed, marshal_player, "unfinished", 0, "turn cap")
    revealed: set = set()
    keep: list = []  # the revealed pieces' dicts, so that their ids stay unique
    done = False
    while not done and result.turns < max_turns:
        pid, obs = env.get_observation()
        if pid == marshal_player:
            action = agent(obs)
            if check:
                result.board_checks += 1
                diff = _compare(agent, raw, revealed, marshal_player)
                if diff:
                    result.mismatches.append(f"turn {result.turns + 1}: " + "; ".join(diff[:5]))
        else:
            action = opponent(obs)
        result.moves.append(action)
        m = _ITEM.search(action.upper())
        before = [[raw.board[r][c] for c in range(10)] for r in range(10)]
        done, _ = env.step(action=action)
        repair_piece_lists(raw)
        if m:
            (sr, sc), (dr, dc) = [(ord(s[0]) - 65, int(s[1])) for s in m.groups()]
            mover, target = before[sr][sc], before[dr][dc]
            if isinstance(mover, dict) and isinstance(target, dict) and target["player"] != mover["player"]:
                revealed.update((id(mover), id(target)))
                keep += [mover, target]
            elif isinstance(mover, dict) and abs(sr - dr) + abs(sc - dc) > 1 and mover["rank"] == "Scout":
                revealed.add(id(mover))
                keep.append(mover)
        if not done and raw.state.current_player_id == pid:
            # The player keeps the turn: TextArena refused the move.
            if pid == marshal_player:
                result.marshal_invalid += 1
            else:
                result.random_invalid += 1
        else:
            result.turns += 1
    if done:
        rewards, info = env.close()
        mine, theirs = rewards[marshal_player], rewards[1 - marshal_player]
        result.outcome = "win" if mine > theirs else "loss" if mine < theirs else "draw"
        result.reason = str(info[marshal_player].get("reason", ""))
        if info[marshal_player].get("invalid_move"):
            result.marshal_invalid += 1
        if info[1 - marshal_player].get("invalid_move"):
            result.random_invalid += 1
    agent.close()
    return result


def _series_game(env_id: str, k: int, movetime_ms: int, path: Optional[str], first_seed: int,
                 check: bool, nodes: Optional[int] = None) -> GameResult:
    """Game `k` of a series: seed `first_seed + k`, Marshal player `k % 2`."""
    version = "v1" if env_id.startswith("Stratego-v1") else "v0"
    seed = first_seed + k
    agent = MarshalAgent(path=path, movetime_ms=movetime_ms, version=version, seed=seed, nodes=nodes)
    return play_game(env_id, seed, k % 2, agent, check=check)


def play_games(games: List[tuple], movetime_ms: int, path: Optional[str] = None,
               first_seed: int = 1, check: bool = True, jobs: int = 1,
               nodes: Optional[int] = None) -> List[GameResult]:
    """The games `(env_id, k)`: seed `first_seed + k`, Marshal player `k % 2`; `nodes`, if
    given, replaces `movetime_ms` (see `MarshalAgent`).

    With `jobs` > 1 the games run in that many worker processes (not threads: the
    environment seeds and draws from Python's global `random` when it places the armies);
    the results come back in the order asked either way."""
    args = [(env_id, k, movetime_ms, path, first_seed, check, nodes) for env_id, k in games]
    if jobs <= 1 or len(args) <= 1:
        return [_series_game(*a) for a in args]
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=min(jobs, len(args))) as pool:
        return list(pool.map(_series_game, *zip(*args)))


def play_series(env_id: str, games: int, movetime_ms: int, path: Optional[str] = None,
                first_seed: int = 1, check: bool = True, jobs: int = 1,
                nodes: Optional[int] = None) -> List[GameResult]:
    """`games` games, Marshal alternately player 0 and player 1, seeds from `first_seed`
    (`jobs` and `nodes` as in `play_games`)."""
    return play_games([(env_id, k) for k in range(games)], movetime_ms, path, first_seed, check, jobs,
                      nodes)
