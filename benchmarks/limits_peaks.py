"""How close the bundled games come to regnum's limits (docs/limits.md, "How far the bundled
games are from them"): the most steps one move, listing or setup took, and the largest state,
piece count and saved game, over random games.

    python benchmarks/limits_peaks.py [--games 20]
"""
from __future__ import annotations

import argparse

import regnum
from regnum.agents import play_random_game
from regnum.engine.state import state_size

RULESETS = ("kings_road", "kingdom_builder", "permanent_nobles")


def peaks(name: str, players: int, games: int) -> tuple[int, int, int, int]:
    rules = regnum.load(name)
    steps = size = pieces = saved = 0
    for seed in range(games):
        game = play_random_game(rules, players, seed)
        steps = max(steps, game.peak_steps)
        size = max(size, state_size(game.state))
        pieces = max(pieces, len(game.state.pieces))
        saved = max(saved, len(game.to_json()))
    return steps, size, pieces, saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    print("| ruleset | players | peak steps | state size | pieces | saved game |")
    print("|---|---|---|---|---|---|")
    for name in RULESETS:
        rules = regnum.load(name)
        for players in sorted({rules.min_players, rules.max_players}):
            steps, size, pieces, saved = peaks(name, players, args.games)
            title = f"{rules.title}, variant {rules.variant}" if rules.variant else rules.title
            print(f"| {title} | {players} | {steps:,} | {size:,} | {pieces} | {saved / 1000:.1f} kB |")


if __name__ == "__main__":
    main()
