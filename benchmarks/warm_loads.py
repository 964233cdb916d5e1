"""Two checkouts' warm loads timed against each other: what a change to the checker or the
compiler buys a load, in CPU time.

A warm load (`regnum.load` of a ruleset the process loaded before: the parser built, the
syntax trees and the generated code kept) is what `regnum bench` reports as `warm_ms`, and
what a test, a server or `regnum bench` pays for every load after the first. Each round runs
one subprocess per side, the order of the sides alternating from round to round; a side
loads each ruleset once, then `--loads` more times, and reports the least CPU time of those
(the least, not the median: what the load itself costs, a slow moment of the machine left
out). The figures are the medians of the rounds, and their ratio.

    git worktree add /tmp/before <commit>
    .venv/bin/python benchmarks/warm_loads.py /tmp/before . kings_gate kingdom_builder --rounds 5

Used for the figures of docs/performance-history.md ("At the forty-fourth step").
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
loads = int(sys.argv[1])
for name in sys.argv[2:]:
    regnum.load(name)
    times = []
    for _ in range(loads):
        start = time.process_time()
        regnum.load(name)
        times.append(time.process_time() - start)
    print(name, min(times) * 1e3)
"""


def _round(checkout: Path, cache: Path, rulesets: list[str], loads: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(checkout / "interpreter"), REGNUM_CACHE_DIR=str(cache),
               PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, "-c", _TIMER, str(loads), *rulesets], env=env, capture_output=True,
                         text=True, check=True, cwd=checkout)
    found = {}
    for line in out.stdout.strip().splitlines():
        name, ms = line.rsplit(" ", 1)
        found[name] = float(ms)
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="the checkout timed first in odd rounds")
    parser.add_argument("after", type=Path, help="the checkout it is compared with")
    parser.add_argument("rulesets", nargs="+", help="bundled rulesets' names, or .rules files")
    parser.add_argument("--loads", type=int, default=30, help="warm loads per ruleset, side and round (default 30)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    args = parser.parse_args(argv)
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    for name, checkout in sides.items():
        if not (checkout / "interpreter" / "regnum").is_dir():
            print(f"{name}: {checkout} is not a checkout of regnum (no interpreter/regnum)", file=sys.stderr)
            return 2
    times: dict[str, list[dict]] = {name: [] for name in sides}
    with tempfile.TemporaryDirectory() as folder:
        caches = {name: Path(folder) / name for name in sides}
        for cache in caches.values():
            cache.mkdir(mode=0o700)
        for r in range(args.rounds):
            order = list(sides) if r % 2 == 0 else list(reversed(sides))
            for name in order:
                times[name].append(_round(sides[name], caches[name], args.rulesets, args.loads))
            print(f"round {r + 1}: " + " | ".join(
                f"{ruleset} {times['before'][-1][ruleset]:.2f} → {times['after'][-1][ruleset]:.2f} ms"
                for ruleset in args.rulesets))
    print(f"medians of {args.rounds} rounds of the least of {args.loads} warm loads, CPU ms:")
    for ruleset in args.rulesets:
        before, after = (statistics.median(t[ruleset] for t in times[name]) for name in sides)
        print(f"  {ruleset}: before {before:.2f}, after {after:.2f}, after/before = {after / before:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
