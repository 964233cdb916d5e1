"""Where the time of random playouts goes, by stage of the engine (cProfile).

    PYTHONPATH=interpreter .venv/bin/python benchmarks/profile_playouts.py            # every ruleset
    PYTHONPATH=interpreter .venv/bin/python benchmarks/profile_playouts.py kings_gate 6
    PYTHONPATH=interpreter .venv/bin/python benchmarks/profile_playouts.py --uncounted

Plays `regnum.agents.play_random_game` (the policy of `regnum simulate` and `regnum bench`) at
4 players under cProfile and prints, for each ruleset, the share of the time spent in each
stage; counting coverage as `regnum fuzz` does, or, with `--uncounted`, not, as `regnum
simulate` and `regnum bench` play. The shares are cumulative times, so they overlap (running the rules includes the
flow's own listing of moves, `can(...)`, and applying a move includes running its rules).
"""
from __future__ import annotations

import cProfile
import pstats
import sys

import regnum
from regnum.agents import play_random_game

# engine module:function -> the stage it stands for
STAGES = {
    "game.py:_list": "listing legal moves",   # every listing goes through it (the playout's too)
    "game.py:_apply": "applying a move (all of it)",
    "runtime.py:run_stack": "running the rules (flow and action bodies)",
    "runtime.py:advance": "flow bookkeeping (who moves next)",
    "state.py:__init__": "starting a move's undo journal",
    "runtime.py:move_piece": "moving pieces",
}
GAMES = {"kings_road": 60, "permanent_nobles": 60, "kingdom_builder": 3, "kings_kilt": 40, "kings_gate": 6}


def profile(name: str, games: int, coverage: bool = True) -> tuple[float, dict[str, float]]:
    rules = regnum.load(name)
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(games):
        play_random_game(rules, 4, seed, coverage=coverage)
    profiler.disable()
    stats = pstats.Stats(profiler)
    shares: dict[str, float] = {}
    for (file, _, function), (_, _, _, cumulative, _) in stats.stats.items():
        path = file.replace("\\", "/")
        key = f"{path.rpartition('/')[2]}:{function}"
        if key in STAGES and "/engine/" in path:
            stage = STAGES[key]
            shares[stage] = shares.get(stage, 0.0) + cumulative
    return stats.total_tt, {stage: shares.get(stage, 0.0) / stats.total_tt for stage in STAGES.values()}


def main(argv: list[str]) -> None:
    coverage = "--uncounted" not in argv
    argv = [a for a in argv if a != "--uncounted"]
    chosen = {argv[0]: int(argv[1]) if len(argv) > 1 else GAMES.get(argv[0], 10)} if argv else GAMES
    for name, games in chosen.items():
        total, shares = profile(name, games, coverage)
        print(f"{name}: {games} games in {total:.2f} s under cProfile")
        for stage, share in shares.items():
            print(f"  {share:5.0%}  {stage}")


if __name__ == "__main__":
    main(sys.argv[1:])
