"""What a bot or a search pays through the public API, in CPU time: checkouts against each other.

`regnum bench` times random playouts, which list and play through the game's own shortcut
(`Game._play_nth`). A bot embedding regnum goes through the public contract of DESIGN §4
instead, and a search (Monte Carlo tree search, expectimax) copies a game for every move it
tries. Three costs, in microseconds of CPU per position, over the positions of the same
four-player games (random moves, chosen through the public API):

- ``api move``: `legal_moves(seat)` then `play(move)` of one of them, position after position
  through each game, as a bot playing a game does;
- ``copy``: `Game.copy()` of a position whose moves were listed;
- ``child``: `copy()` of a position, then `play(move)` on the copy of a move the position
  handed out (`legal_moves(seat)` of the original), as a search expands a node;
- ``rollout`` (with ``--rollout``): `regnum.agents.random_rollout` of the position halfway
  through each game, to its end, as a Monte Carlo search plays a position out: per move it
  plays (a checkout older than the thirty-second step has none, and the figure is left out).

One subprocess per side and round, the order of the sides alternating from round to round,
each after a warm-up; the figures are the medians of the rounds. Each side imports its own
`interpreter/` and keeps its own cache of generated code. Both sides must reach the same
positions and play the same moves (a digest of the final states is compared).

    .venv/bin/python benchmarks/search_costs.py . kings_road
    git worktree add /tmp/before <commit>
    .venv/bin/python benchmarks/search_costs.py /tmp/before . kings_gate --games 4 --rounds 5
    .venv/bin/python benchmarks/search_costs.py . kingdom_builder --games 6 --rollout

Used for the figures of docs/performance.md ("At the thirty-first step").
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_TIMER = """
import gc, hashlib, json, random, sys, time
import regnum
rules = regnum.load(sys.argv[1])
games = int(sys.argv[2])

def game_through_the_api(seed, positions=None):
    game = rules.new_game(players=4, seed=seed, narrate=False, coverage=False)
    pick = random.Random(seed)
    while not game.is_over:
        seat = game.to_move[0]
        moves = game.legal_moves(seat)
        if positions is not None:
            positions.append((game.copy(), seat))
        game.play(moves[pick.randrange(len(moves))])
    return game

game_through_the_api(10_000)   # warm-up
positions, digest, played = [], hashlib.sha256(), []
start = time.process_time()
for seed in range(games):
    played.append(game_through_the_api(seed))
api = (time.process_time() - start) / sum(game.move_count for game in played) * 1e6
for game in played:
    digest.update(game.to_json().encode())
middles = []
for seed in range(games):
    first = len(positions)
    game_through_the_api(seed, positions)
    middles.append(positions[(first + len(positions)) // 2][0])
handed = [(game, seat, game.legal_moves(seat)) for game, seat in positions]
# The positions held are frozen out of the cyclic collector's walks, as a run of games freezes
# what it holds (regnum.heap): else a full collection that lands in one side's loop walks the
# thousands of games held, and decides that side's figure (×3 or ×4 of a copy, seen).
gc.collect()
gc.freeze()
start = time.process_time()
for game, _, _ in handed:
    game.copy()
copy = (time.process_time() - start) / len(handed) * 1e6
start = time.process_time()
for game, seat, offered in handed:
    game.copy().play(offered[len(offered) // 2])
child = (time.process_time() - start) / len(handed) * 1e6
found = {"api move": api, "copy": copy, "child": child, "positions": len(handed), "digest": digest.hexdigest()}
try:
    from regnum.agents import random_rollout
except ImportError:
    random_rollout = None
if random_rollout is not None and sys.argv[3:] == ["rollout"]:
    start, moves = time.process_time(), 0
    for i, game in enumerate(middles):
        moves += random_rollout(game, 100 + i).move_count - game.move_count
    found["rollout"] = (time.process_time() - start) / max(1, moves) * 1e6
print(json.dumps(found))
"""

FIGURES = ("api move", "copy", "child")
OPTIONAL = ("rollout",)   # measured by the checkouts that have it


def _round(checkout: Path, cache: Path, ruleset: str, games: int, rollout: bool = False) -> dict:
    """One side's figures for one round, measured in a process of its own."""
    env = dict(os.environ, PYTHONPATH=str(checkout / "interpreter"), REGNUM_CACHE_DIR=str(cache),
               PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, "-c", _TIMER, ruleset, str(games)] + (["rollout"] if rollout else []),
                         env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit((out.stderr.strip().splitlines() or ["the side failed"])[-1])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", type=Path,
                        help="a checkout of regnum, or two (before, after), then the ruleset")
    parser.add_argument("--games", type=int, default=20, help="games per round and side (default 20)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--rollout", action="store_true",
                        help="also time random_rollout from the middle of each game (per move played)")
    args = parser.parse_args(argv)
    *checkouts, ruleset = args.checkouts
    if len(checkouts) not in (1, 2):
        parser.error("give one checkout or two, then a ruleset")
    names = ["before", "after"] if len(checkouts) == 2 else ["this"]
    sides = {name: checkout.resolve() for name, checkout in zip(names, checkouts)}
    for name, checkout in sides.items():
        if not (checkout / "interpreter" / "regnum").is_dir():
            print(f"{name}: {checkout} is not a checkout of regnum (no interpreter/regnum)", file=sys.stderr)
            return 2
    figures = {name: {figure: [] for figure in FIGURES + OPTIONAL} for name in sides}
    try:
        with tempfile.TemporaryDirectory() as folder:
            caches = {name: Path(folder) / name for name in sides}
            for cache in caches.values():
                cache.mkdir(mode=0o700)
            for r in range(args.rounds):
                digests = {}
                for name in (names if r % 2 == 0 else list(reversed(names))):
                    asked = {"rollout": True} if args.rollout else {}
                    found = _round(sides[name], caches[name], str(ruleset), args.games, **asked)
                    digests[name] = found["digest"]
                    for figure in FIGURES + OPTIONAL:
                        if figure in found:
                            figures[name][figure].append(found[figure])
                if len(set(digests.values())) > 1:
                    print(f"round {r + 1}: the two sides played other games (final states differ): "
                          "not compared", file=sys.stderr)
                    return 1
    except SystemExit as stop:
        print(stop.code, file=sys.stderr)
        return 1
    print(f"{ruleset}: medians of {args.rounds} rounds of {args.games} four-player games, "
          "µs of CPU per position")
    for figure in FIGURES + OPTIONAL:
        if not all(len(figures[name][figure]) == args.rounds for name in sides):
            continue   # an optional figure a side does not measure
        values = {name: statistics.median(figures[name][figure]) for name in sides}
        line = f"  {figure:<9} " + ", ".join(f"{name} {value:.2f}" for name, value in values.items())
        if len(values) == 2:
            line += f": after/before = {values['after'] / values['before']:.3f}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
