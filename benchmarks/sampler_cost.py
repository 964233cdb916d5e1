"""What `regnum bench --profile`'s sampling costs the games it watches: the same random games
played with the sampler on and off, in CPU time, the two alternating, medians of rounds.

    .venv/bin/python benchmarks/sampler_cost.py kings_road --games 300
    .venv/bin/python benchmarks/sampler_cost.py kings_gate --games 60 --rounds 7

Used for the figure of docs/performance.md ("Where a ruleset's own time goes").
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interpreter"))

import regnum  # noqa: E402
from regnum import profiler  # noqa: E402
from regnum.agents import play_random_game  # noqa: E402


def _games(rules, players: int, games: int) -> float:
    start = time.process_time()
    for seed in range(games):
        play_random_game(rules, players, seed, coverage=False)
    return time.process_time() - start


def _sampled(rules, players: int, games: int, rate: int) -> tuple[float, int]:
    with profiler._Sampler(profiler._Attribution(rules.model, rules.program), rate) as sampler:
        seconds = _games(rules, players, games)
    return seconds, sum(sampler.counts.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", help="a bundled ruleset's name, or a .rules file")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100, help="games a round and side (default 100)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--rate", type=int, default=1000, help="samples asked a second of CPU (default 1000)")
    args = parser.parse_args()
    rules = regnum.load(args.ruleset)
    _games(rules, args.players, 1)   # what is compiled at first use, compiled
    plain, sampled, samples = [], [], []
    for round_ in range(args.rounds):
        for side in ((0, 1) if round_ % 2 == 0 else (1, 0)):
            if side == 0:
                plain.append(_games(rules, args.players, args.games))
            else:
                seconds, taken = _sampled(rules, args.players, args.games, args.rate)
                sampled.append(seconds)
                samples.append(taken)
    off, on = statistics.median(plain), statistics.median(sampled)
    print(f"{args.ruleset}, {args.players} players, {args.games} games a round, medians of {args.rounds} rounds: "
          f"{off:.3f} s of CPU without the sampler, {on:.3f} s with it (×{on / off:.3f}), "
          f"{statistics.median(samples):.0f} samples")


if __name__ == "__main__":
    main()
