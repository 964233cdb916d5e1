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
    env = dict(os.environ, PYTHONPATH=str(checkout / "interpreter"), REGNUM_CACHE_DIR=str(cache),
               PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, "-c", _TIMER, ruleset, str(games)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", type=Path, help="one or two checkouts of regnum, then the ruleset")
    parser.add_argument("--games", type=int, default=20, help="games per round and side (default 20)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    args = parser.parse_args(argv)
    *checkouts, ruleset = [str(c) for c in args.checkouts]
    if not 1 <= len(checkouts) <= 2:
        parser.error("give one or two checkouts, then a ruleset")
    sides = [Path(c).resolve() for c in checkouts]
    caches = [Path(tempfile.mkdtemp(prefix="regnum-search-")) for _ in sides]
    figures: list[dict] = [{name: [] for name in FIGURES} for _ in sides]
    for r in range(args.rounds):
        digests = set()
        for i in (range(len(sides)) if r % 2 == 0 else reversed(range(len(sides)))):
            found = _round(sides[i], caches[i], ruleset, args.games)
            digests.add(found["digest"])
            for name in FIGURES:
                figures[i][name].append(found[name])
        if len(digests) != 1:
            print(f"round {r + 1}: the checkouts played other games: not compared", file=sys.stderr)
            return 1
    print(f"{ruleset}: medians of {args.rounds} rounds of {args.games} four-player games, "
          f"µs of CPU per position")
    for name in FIGURES:
        values = [statistics.median(f[name]) for f in figures]
        line = f"  {name:9s} " + "  ".join(f"{side.name or side}: {v:8.2f}" for side, v in zip(sides, values))
        if len(values) == 2:
            line += f"   ratio {values[1] / values[0]:.3f}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
