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
  handed out (`legal_moves(seat)` of the original), as a search expands a node.

One subprocess per side and round, the order of the sides alternating from round to round,
each after a warm-up; the figures are the medians of the rounds. Each side imports its own
`interpreter/` and keeps its own cache of generated code. Both sides must reach the same
positions and play the same moves (a digest of the final states is compared).

    .venv/bin/python benchmarks/search_costs.py . kings_road
    git worktree add /tmp/before <commit>
    .venv/bin/python benchmarks/search_costs.py /tmp/before . kings_gate --games 4 --rounds 5

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
import hashlib, json, random, sys, time
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
for seed in range(games):
    game_through_the_api(seed, positions)
handed = [(game, seat, game.legal_moves(seat)) for game, seat in positions]
start = time.process_time()
for game, _, _ in handed:
    game.copy()
copy = (time.process_time() - start) / len(handed) * 1e6
start = time.process_time()
for game, seat, offered in handed:
    game.copy().play(offered[len(offered) // 2])
child = (time.process_time() - start) / len(handed) * 1e6
print(json.dumps({"api move": api, "copy": copy, "child": child, "positions": len(handed),
                  "digest": digest.hexdigest()}))
"""

FIGURES = ("api move", "copy", "child")


def _round(checkout: Path, cache: Path, ruleset: str, games: int) -> dict:
    """One side's figures for one round, measured in a process of its own."""
    env = dict(os.environ, PYTHONPATH=str(checkout / "interpreter"), REGNUM_CACHE_DIR=str(cache),
               PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, "-c", _TIMER, ruleset, str(games)], env=env,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit((out.stderr.strip().splitlines() or ["the side failed"])[-1])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", type=Path,
                        help="a checkout of regnum, or two (before, after), then the ruleset")
    parser.add_argument("--games", type=int, default=20, help="games per round and side (default 20)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
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
    figures = {name: {figure: [] for figure in FIGURES} for name in sides}
    try:
        with tempfile.TemporaryDirectory() as folder:
            caches = {name: Path(folder) / name for name in sides}
            for cache in caches.values():
                cache.mkdir(mode=0o700)
            for r in range(args.rounds):
                digests = {}
                for name in (names if r % 2 == 0 else list(reversed(names))):
                    found = _round(sides[name], caches[name], str(ruleset), args.games)
                    digests[name] = found["digest"]
                    for figure in FIGURES:
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
    for figure in FIGURES:
        values = {name: statistics.median(figures[name][figure]) for name in sides}
        line = f"  {figure:<9} " + ", ".join(f"{name} {value:.2f}" for name, value in values.items())
        if len(values) == 2:
            line += f": after/before = {values['after'] / values['before']:.3f}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
