"""Benchmark: Marshal against a random-move agent in TextArena's Stratego environments.

    python gui-adapters/textarena/bench.py [--games 40] [--v1-games 20] [--movetime 50] [--nodes N]

plays `--games` games of Stratego-v0 (and `--v1-games` of Stratego-v1 when the installed
textarena has it), Marshal alternately player 0 and player 1, the adapter's board checked
against the environment's every turn, and prints the table of the README. The engine is
MARSHAL_BIN, else the repository's target/release/marshal.
"""

import argparse
import os
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from marshal_textarena.arena import play_series  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--v1-games", type=int, default=20)
    ap.add_argument("--movetime", type=int, default=50)
    ap.add_argument("--nodes", type=int, default=None,
                    help="search this many nodes a move instead of --movetime (games then repeat)")
    ap.add_argument("--first-seed", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=1, help="games played at once (worker processes)")
    args = ap.parse_args()
    import textarena as ta
    from textarena.envs.registration import ENV_REGISTRY

    repo = pathlib.Path(__file__).resolve().parents[2]
    path = os.environ.get("MARSHAL_BIN") or str(
        pathlib.Path(os.environ.get("CARGO_TARGET_DIR", repo / "target")) / "release" / "marshal")
    plan = [("Stratego-v0", args.games)]
    if "Stratego-v1" in ENV_REGISTRY:
        plan.append(("Stratego-v1", args.v1_games))
    else:
        print(f"textarena {ta.__version__ if hasattr(ta, '__version__') else '?'}: no Stratego-v1 "
              "registered, v1 games skipped", file=sys.stderr)
    print("| environment | games | Marshal wins | draws | losses | unfinished | invalid moves by Marshal "
          "| board mismatches | mean turns | seconds |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    failed = False
    for env_id, games in plan:
        t0 = time.time()
        results = play_series(env_id, games, args.movetime, path=path, first_seed=args.first_seed,
                              jobs=args.jobs, nodes=args.nodes)
        for r in results:
            print(f"{env_id} seed {r.seed} player {r.marshal_player}: {r.outcome} after {r.turns} "
                  f"turns ({r.reason})", file=sys.stderr)
        count = lambda o: sum(r.outcome == o for r in results)  # noqa: E731
        invalid = sum(r.marshal_invalid for r in results)
        mism = sum(len(r.mismatches) for r in results)
        mean = sum(r.turns for r in results) / max(len(results), 1)
        print(f"| {env_id} | {len(results)} | {count('win')} ({100 * count('win') / len(results):.0f}%) "
              f"| {count('draw')} | {count('loss')} | {count('unfinished')} | {invalid} | {mism} "
              f"| {mean:.0f} | {time.time() - t0:.0f} |")
        failed |= count("win") < 0.95 * len(results) or invalid > 0 or mism > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
