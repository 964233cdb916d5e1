"""What the engine costs around a move that does almost nothing: the floor under any ruleset.

    PYTHONPATH=interpreter .venv/bin/python benchmarks/engine_floor.py
    PYTHONPATH=interpreter .venv/bin/python benchmarks/engine_floor.py --rounds 9 --games 40

A trivial ruleset (four seats asked in turn, one choice among three numbers, one variable
set) is played by the random playout `regnum bench` and `regnum simulate` use. What one of its
moves costs is what the engine costs around any rule: the listing (a generated lister), the
move played, its undo journal and context, the flow's few VM instructions between two asks,
the position's caches. Timed in the same run, interleaved, in CPU time, the median of the
rounds: a move of King's Road in regnum, and in its hand-written baseline.

The baseline's whole move against the trivial move is the best ratio regnum's engine could
reach if the rules cost nothing: a target above it needs a cheaper engine, not faster rules.
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

import regnum
from regnum.agents import play_random_game

TRIVIAL = """\
game trivial "Trivial"
players 2..4
var turns: int = 0
flow:
    repeat until turns >= 1000:
        for p in players:
            ask p to tick
action tick(n in [1, 2, 3]):
    set turns = turns + 1
"""


def _baseline():
    path = Path(__file__).with_name("kings_road_baseline.py")
    spec = importlib.util.spec_from_file_location("kings_road_baseline", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _regnum_round(rules, games: int) -> tuple[int, float]:
    start = time.process_time()
    moves = sum(play_random_game(rules, 4, seed, coverage=False).move_count for seed in range(games))
    return moves, time.process_time() - start


def _baseline_round(baseline, games: int) -> tuple[int, float]:
    start = time.process_time()
    moves = sum(baseline.bench_game(4, seed, 10_000)[0] for seed in range(games))
    return moves, time.process_time() - start


def measure(rounds: int, games: int) -> dict[str, float]:
    """Median µs of CPU per move: the trivial ruleset, King's Road, its baseline."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "trivial.rules"
        path.write_text(TRIVIAL, encoding="utf-8")
        trivial = regnum.load(str(path))
    kings_road, baseline = regnum.load("kings_road"), _baseline()
    sides = {
        "trivial move (regnum)": lambda: _regnum_round(trivial, 2),   # 2,000 moves a round
        "King's Road move (regnum)": lambda: _regnum_round(kings_road, games),
        "King's Road move (baseline)": lambda: _baseline_round(baseline, games),
    }
    for play in sides.values():   # warm-up
        play()
    per_move: dict[str, list[float]] = {name: [] for name in sides}
    order = list(sides)
    for r in range(rounds):
        for name in order if r % 2 == 0 else reversed(order):
            moves, seconds = sides[name]()
            per_move[name].append(seconds / moves * 1e6)
    return {name: statistics.median(values) for name, values in per_move.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=20, help="King's Road games a round and side")
    args = parser.parse_args(argv)
    figures = measure(args.rounds, args.games)
    for name, micros in figures.items():
        print(f"{name:<30} {micros:7.2f} µs")
    best = figures["King's Road move (baseline)"] / figures["trivial move (regnum)"]
    print(f"{'baseline move / trivial move':<30} {best:7.3f}"
          "      (the best ratio regnum's engine allows King's Road, its rules costing nothing)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
