"""Two checkouts of regnum timed against each other: what a change buys, in CPU time.

`regnum bench` runs every ruleset one after the other, and on a noisy machine a gain of
a tenth can drown between two of its runs. Here two checkouts (a worktree of an earlier
commit and this one, say) play the same four-player random games, coverage off (on with
`--coverage`, as `regnum fuzz` plays; or checked at every step as `regnum fuzz` checks them,
with `--fuzz`), one
subprocess per side and round, the order of the sides alternating from round to round, each
after a warm-up game; the figures are the medians of the rounds, in CPU seconds, and their
ratio. Each side imports its own `interpreter/` and keeps its own cache of generated code.

With `--loads N`, no game: each side loads the ruleset once, then N more times, and the
figure of a round is the least CPU time of those warm loads (the parser built, the trees and
the code kept: what `regnum bench` reports as `warm_ms`, and what a test or a server pays for
every load after the first), in milliseconds; the least rather than the median, so that a
slow moment of the machine is left out.

    git worktree add /tmp/before <commit>
    .venv/bin/python benchmarks/head_to_head.py /tmp/before . kingdom_builder --games 30 --rounds 5
    .venv/bin/python benchmarks/head_to_head.py /tmp/before . kingdom_builder --coverage
    .venv/bin/python benchmarks/head_to_head.py /tmp/before . kings_gate --fuzz --games 4
    .venv/bin/python benchmarks/head_to_head.py /tmp/before . kings_gate --loads 30   # warm loads

Used for the figures of docs/performance.md ("At the fourteenth step") and, with `--loads`,
of docs/performance-history.md ("At the forty-fourth step").
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_TIMER = """
import sys, time
import regnum
from regnum.agents import play_random_game
rules = regnum.load(sys.argv[1])
coverage = sys.argv[3:] == ["coverage"]
if sys.argv[3:] == ["fuzz"]:   # each game as `regnum fuzz` plays and checks its random games
    from regnum.fuzz import DEFAULT_BOUND
    from regnum.fuzz.playout import Settings, fuzz_game
    settings = Settings(bound=getattr(rules, "move_bound", None) or DEFAULT_BOUND)
    def play(seed):
        assert fuzz_game(rules, 4, seed, "random", settings).failure is None
else:
    def play(seed):
        play_random_game(rules, 4, seed, coverage=coverage)
play(10_000)   # warm-up
start = time.process_time()
for seed in range(int(sys.argv[2])):
    play(seed)
print(time.process_time() - start)
"""

_LOADS = """
import sys, time
import regnum
regnum.load(sys.argv[1])
times = []
for _ in range(int(sys.argv[2])):
    start = time.process_time()
    regnum.load(sys.argv[1])
    times.append(time.process_time() - start)
print(min(times) * 1e3)
"""


def _round(checkout: Path, cache: Path, ruleset: str, games: int, coverage: bool = False, fuzz: bool = False,
           loads: int = 0) -> float:
    """CPU seconds of `games` games; with `loads`, the least CPU milliseconds of that many warm
    loads instead."""
    env = dict(os.environ, PYTHONPATH=str(checkout / "interpreter"), REGNUM_CACHE_DIR=str(cache),
               PYTHONHASHSEED="0")
    if loads:
        command = [sys.executable, "-c", _LOADS, ruleset, str(loads)]
    else:
        command = [sys.executable, "-c", _TIMER, ruleset, str(games)] + \
            (["coverage"] if coverage else ["fuzz"] if fuzz else [])
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="the checkout timed first in odd rounds")
    parser.add_argument("after", type=Path, help="the checkout it is compared with")
    parser.add_argument("ruleset", help="a bundled ruleset's name, or a .rules file")
    parser.add_argument("--games", type=int, default=30, help="games per round and side (default 30)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--coverage", action="store_true", help="count coverage, as `regnum fuzz` does")
    parser.add_argument("--fuzz", action="store_true", help="check every step, as `regnum fuzz` does")
    parser.add_argument("--loads", type=int, default=0,
                        help="no game: the least CPU time of this many warm loads of the ruleset, in ms")
    args = parser.parse_args(argv)
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    for name, checkout in sides.items():
        if not (checkout / "interpreter" / "regnum").is_dir():
            print(f"{name}: {checkout} is not a checkout of regnum (no interpreter/regnum)", file=sys.stderr)
            return 2
    times: dict[str, list[float]] = {name: [] for name in sides}
    with tempfile.TemporaryDirectory() as folder:
        caches = {name: Path(folder) / name for name in sides}
        for cache in caches.values():
            cache.mkdir(mode=0o700)
        for r in range(args.rounds):
            order = list(sides) if r % 2 == 0 else list(reversed(sides))
            for name in order:
                counted = {"coverage": True} if args.coverage else {"fuzz": True} if args.fuzz else \
                    {"loads": args.loads} if args.loads else {}
                times[name].append(_round(sides[name], caches[name], args.ruleset, args.games, **counted))
            unit = "ms" if args.loads else "s"
            print(f"round {r + 1}: " + ", ".join(f"{name} {times[name][-1]:.3f} {unit}" for name in sides))
    before, after = (statistics.median(times[name]) for name in sides)
    if args.loads:
        print(f"medians of {args.rounds} rounds of the least of {args.loads} warm loads: before {before:.2f} ms, "
              f"after {after:.2f} ms: after/before = {after / before:.3f}")
        return 0
    print(f"medians of {args.rounds} rounds, {args.games} games each"
          f"{', coverage counted' if args.coverage else ', every step checked' if args.fuzz else ''}: before {before:.3f} s "
          f"({args.games / before:.1f} games/s), after {after:.3f} s ({args.games / after:.1f} games/s): "
          f"after/before = {after / before:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
