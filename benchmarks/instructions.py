"""Two checkouts of regnum against each other in instructions executed: what a change buys,
counted where CPU time is too noisy to tell.

On a shared machine the CPU time of the same games moves by a few percent from one minute to
the next (benchmarks/head_to_head.py needs many rounds to see a change of 2 %). The
instructions a game executes, counted by valgrind's callgrind, do not depend on what else the
machine runs: the same code plays the same games. Each side plays the same four-player random games,
coverage off (on with `--coverage`), in a process of its own under callgrind, after a game of
another seed that loads what the games need; the cyclic collector is switched off after that
game (its collections fall at other moments in two trees). A game's count is the difference
between a process that plays N games and one that plays none, over N, so the load and the
start-up cancel out. Before any count, each side runs once unmeasured: a tree's first run
also writes its modules' `.pyc` files.

What is left is where the objects fall in memory: the same code, the same games, counted
King's Road from 24.30 M to 24.71 M instructions a game (ten games) as a process made a few
hundred objects more or fewer before it imported regnum, or ran from another tree. So each
side is counted under several such layouts (`--layouts`, the process making 101 × i small
lists first) and the medians are compared; the spread is printed with them.

With `--loads N`, what is counted is a warm load instead of a game: N loads of the ruleset
less none, over N, each process having loaded it once first (the imports, the parser's
tables, the disk cache of each side filled by its unmeasured run: what `regnum bench` calls
a warm load).

    git worktree add /tmp/before <commit>
    .venv/bin/python benchmarks/instructions.py /tmp/before . kings_road --games 10
    .venv/bin/python benchmarks/instructions.py /tmp/before . kings_gate --games 3 --coverage
    .venv/bin/python benchmarks/instructions.py /tmp/before . kingdom_builder --loads 4 --layouts 1

Needs valgrind (`apt install valgrind`); about a minute a King's Gate game under it.
Used for the figures of docs/performance-history.md ("At the thirty-third step", "At the
thirty-fourth step").
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

_GAMES = """
import gc, os, sys
_layout = [[None] * (i % 7) for i in range(int(os.environ.get("REGNUM_LAYOUT", "0")) * 101)]
import regnum
from regnum.agents import play_random_game
rules = regnum.load(sys.argv[1])
games, players, coverage = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:] == ["coverage"]
play_random_game(rules, players, 1, coverage=coverage)   # loads what the games need
gc.disable()
for seed in range(2, 2 + games):
    play_random_game(rules, players, seed, coverage=coverage)
"""

_LOADS = """
import gc, os, sys
_layout = [[None] * (i % 7) for i in range(int(os.environ.get("REGNUM_LAYOUT", "0")) * 101)]
import regnum
regnum.load(sys.argv[1])   # the first load: the imports, the parser
gc.disable()
for _ in range(int(sys.argv[2])):
    regnum.load(sys.argv[1])
"""

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def _count(checkout: Path, ruleset: str, games: int, players: int, coverage: bool, layout: int = 0,
           loads: bool = False, cache: str = "off") -> int:
    """The instructions one process of `games` games executes, start-up and load included;
    `layout`: how many objects it makes before it imports regnum (see main). `loads`: the
    process makes `games` warm loads instead, with the disk cache in the folder `cache`."""
    # The tree's modules by a relative path, from the tree (site makes it absolute: the two
    # trees' paths are best of the same length).
    env = dict(os.environ, PYTHONPATH="interpreter", REGNUM_CACHE_DIR=cache, PYTHONHASHSEED="0",
               REGNUM_LAYOUT=str(layout))
    if loads:
        program = [_LOADS, ruleset, str(games)]
    else:
        program = [_GAMES, ruleset, str(games), str(players)] + (["coverage"] if coverage else [])
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c"] + program
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=checkout)
    found = _COLLECTED.findall(out.stderr)
    if not found:
        raise RuntimeError(f"callgrind reported no count: {out.stderr.strip()[-300:]}")
    return int(found[-1])


def per_game(checkout: Path, ruleset: str, games: int, players: int, coverage: bool, layout: int = 0,
             **loads) -> float:
    """Instructions a game (or, with `loads`, a warm load): N less none, over N."""
    played = _count(checkout, ruleset, games, players, coverage, layout, **loads)
    return (played - _count(checkout, ruleset, 0, players, coverage, layout, **loads)) / games


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="the checkout before the change")
    parser.add_argument("after", type=Path, help="the checkout it is compared with")
    parser.add_argument("ruleset", help="a bundled ruleset's name, or a .rules file")
    parser.add_argument("--games", type=int, default=3, help="games counted on each side (default 3)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--layouts", type=int, default=3,
                        help="heap layouts counted on each side, the median kept (default 3)")
    parser.add_argument("--coverage", action="store_true", help="count coverage, as `regnum fuzz` does")
    parser.add_argument("--loads", type=int, default=None, metavar="N",
                        help="count N warm loads of the ruleset instead of games")
    args = parser.parse_args(argv)
    if args.games < 1 or args.layouts < 1:
        print("--games and --layouts: at least 1", file=sys.stderr)
        return 2
    if args.loads is not None and args.loads < 1:
        print("--loads: at least 1", file=sys.stderr)
        return 2
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    for name, checkout in sides.items():
        if not (checkout / "interpreter" / "regnum").is_dir():
            print(f"{name}: {checkout} is not a checkout of regnum (no interpreter/regnum)", file=sys.stderr)
            return 2
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: instructions are counted by its callgrind (apt install valgrind)",
              file=sys.stderr)
        return 2
    ruleset = str(Path(args.ruleset).resolve()) if args.ruleset.endswith(".rules") else args.ruleset
    rest = (args.players, args.coverage)
    with tempfile.TemporaryDirectory(prefix="regnum-instructions-") as folder:
        # Loads: each side's disk cache, filled by its unmeasured run (a warm load reads it).
        how = {name: {"loads": True, "cache": str(Path(folder) / name)} if args.loads else {} for name in sides}
        each = args.loads or args.games
        # The two sides at once (instructions do not depend on what else runs), the unmeasured
        # run first: it writes the tree's .pyc files.
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(lambda name: _count(sides[name], ruleset, 0, *rest, 0, **how[name]), sides))
            counts = {name: [] for name in sides}
            for layout in range(args.layouts):
                made = {name: pool.submit(per_game, checkout, ruleset, each, *rest, layout, **how[name])
                        for name, checkout in sides.items()}
                for name, future in made.items():
                    counts[name].append(future.result())
                print(f"layout {layout}: " + ", ".join(f"{name} {counts[name][-1] / 1e6:.4f} M" for name in sides))
    unit = "a warm load" if args.loads else "a game"
    medians = {name: statistics.median(found) for name, found in counts.items()}
    for name, found in counts.items():
        print(f"{name}: {medians[name] / 1e6:.4f} M instructions {unit} "
              f"({min(found) / 1e6:.4f}–{max(found) / 1e6:.4f})")
    change = medians["after"] / medians["before"]
    counted = f"{args.loads} warm loads" if args.loads else \
        f"{args.games} games of {args.players} players{', coverage counted' if args.coverage else ''}"
    print(f"medians of {args.layouts} layouts, {counted}: after/before = {change:.4f} "
          f"({(change - 1) * 100:+.2f} %)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
