"""``regnum simulate``: many random games of one ruleset, summarised as a table or JSON.

Only the command line side lives here (options, progress bar, the results table); playing
the games, spread over worker processes, is ``regnum.simulate``'s job.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.table import Table
from rich.text import Text

from ..resources import ruleset_label
from ..terminal import safe
from ..limits import Limits
from .common import backend_flags, progress_bar, checked_backend, chosen_limits, limit_flag, load_ruleset, make_console, option_flag, option_values, player_count, rules_path_flag

if TYPE_CHECKING:
    from ..simulate import SimulationResult


@contextlib.contextmanager
def late_progress_bar(label: str, total: int, enabled: bool) -> Iterator:
    """The progress bar of common.progress_bar, shown from the first result on: its drawing
    thread starts only then, after the local backend has forked its workers (it forks only a
    process that runs no other thread, and spawns them, slower, beside one)."""
    if not enabled:
        yield None
        return
    with contextlib.ExitStack() as stack:
        update = None

        def late(done: int, all_: int) -> None:
            nonlocal update
            if update is None:
                update = stack.enter_context(progress_bar(label, total, enabled=True))
            update(done, all_)

        yield late


def _simulation_table(result: SimulationResult, seed: int, ruleset: str) -> None:
    games = len(result.games)
    last = seed + games - 1
    table = Table(title=safe(f"{result.ruleset}: {games} games, {result.players} players, seeds {seed}–{last}"))
    for name in ("seat", "wins", "win %", "mean score", "min", "max"):
        table.add_column(name, justify="right")
    for seat, (wins, (mean, low, high)) in enumerate(zip(result.wins(), result.score_stats(), strict=True)):
        share = 100 * wins / games if games else 0.0
        cells = (str(seat), str(wins), f"{share:.1f}", f"{mean:.2f}", str(low), str(high))
        table.add_row(*map(Text, cells))
    console = make_console()
    console.print(table)
    console.print(Text(f"mean moves per game: {result.mean_moves:.1f}"))
    for name, mean in result.statistic_means().items():
        console.print(Text(safe(f"mean {name}: {mean:.2f}")))
    console.print(Text(f"games per second: {result.games_per_second:.1f}"))
    if result.truncated:
        console.print(Text(f"cut by --max-moves (no winner): {result.truncated} games"))
    failed = result.failed
    if failed:
        # Unwrapped: a path or a location cut in two cannot be copied.
        console.print(Text(f"failed (no winner): {len(failed)} games"))
        for game in failed[:10]:
            console.print(Text(safe(f"  seed {game.seed}, after {game.moves} moves: {game.error}")), soft_wrap=True)
            if game.log is not None:
                console.print(Text(safe(f"    log: {game.log}")), soft_wrap=True)
        if len(failed) > 10:
            console.print(Text(f"  … and {len(failed) - 10} more (--json lists them all)"))
        saved = [game.log for game in failed if game.log is not None]
        if saved:
            # A ruleset given by its path is not found by the name the log holds, and a limit
            # hit is hit again only within the same limits.
            given = f" --ruleset {ruleset}" if ruleset.endswith(".rules") else ""
            given += "".join(f" --limit {name}={value}" for name, value in _changed_limits())
            console.print(Text(safe(f"logs of the failed games saved in {Path(saved[0]).parent}: "
                                    f"`regnum replay LOG{given}` reproduces each failure")), soft_wrap=True)


def _changed_limits() -> list[tuple[str, int]]:
    chosen, default = chosen_limits(), Limits()
    if chosen is None:
        return []
    return [(field.name, getattr(chosen, field.name)) for field in dataclasses.fields(chosen)
            if getattr(chosen, field.name) != getattr(default, field.name)]


@click.command("simulate")
@click.argument("ruleset")
@limit_flag
@click.option("--players", "-p", type=click.IntRange(min=1), help="Number of players (default: the fewest allowed).")
@click.option("--games", "-g", type=click.IntRange(min=1), default=100, show_default=True, help="Number of games.")
@click.option("--seed", "-s", type=int, default=0, show_default=True,
              help="Seed of the first game; game i uses seed+i.")
@click.option("--workers", "--jobs", "-j", "workers", type=click.IntRange(min=1),
              help="Worker processes (default: every CPU of this machine, or of the Ray cluster).")
@backend_flags
@click.option("--max-moves", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Move bound per game.")
@click.option("--check-invariants", is_flag=True,
              help="Check the ruleset's invariants after every move; a broken one fails the game.")
@click.option("--failures-dir", type=click.Path(file_okay=False, path_type=Path), default=Path("regnum-failures"),
              show_default=True, help="Where the log of each failed game is saved (created when a game fails).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with every game.")
@option_flag
@rules_path_flag
def simulate_command(ruleset, players, games, seed, workers, backend, address, max_moves, check_invariants,
                     failures_dir, as_json, options) -> None:
    """Play many games with random bots and summarise the results.

    Game i uses seed SEED+i for the game and its bots, so each game can be rerun alone;
    games are spread over --workers processes (--jobs is the same option) and reported in
    seed order. With --backend ray the workers are Ray actors, on the cluster at --address or
    on a local Ray instance; the same seeds give the same results. Prints wins per seat
    (a shared victory counts for each winner), mean/min/max score per seat, mean moves per
    game, the mean of each `statistic` the ruleset declares and games per second. A game cut by --max-moves has no winner and is flagged. A game
    that fails (a limit hit, a fault of the rules, a seat with no legal move and, with
    --check-invariants, an invariant broken after a move) is listed with its seed and error,
    the others are played, and the exit code is 1. The log of each failed game, up to and
    including its failing move, is saved in --failures-dir as RULESET-seedSEED.json;
    `regnum replay` of it reproduces the failure. With --json prints {"ruleset", "players",
    "games": [{"seed", "scores", "winners", "moves", "truncated", "error", "log", "statistics"}],
    "games_per_second"} and nothing else on stdout.

    \b
    Example:
      regnum simulate kings_road --players 4 --games 1000 --seed 1
      regnum simulate kingdom_builder -p 3 -g 100 --option first_game_setup=true
      regnum simulate my_game.rules -g 500 --check-invariants --failures-dir failed/
      regnum simulate kings_road -p 4 -g 10000 --backend ray --address auto
    """
    from ..simulate import simulate   # with its models and workers: imported when a simulation runs
    checked_backend(backend, address)
    path, rules = load_ruleset(ruleset)
    options = option_values(options)
    players = player_count(rules, path, players)
    show_progress = make_console(stderr=True).is_terminal
    with late_progress_bar(safe(ruleset_label(rules, path)), games, enabled=show_progress) as update:
        result = simulate(path, players, games, seed, jobs=workers, max_moves=max_moves, progress=update, rules=rules,
                          options=options, check_invariants=check_invariants, failures_dir=failures_dir,
                          backend=backend, address=address)
    if as_json:
        # json.dumps escapes every control and non-ASCII character, as a terminal needs.
        click.echo(json.dumps(result.model_dump(mode="json"), separators=(",", ":")))
    else:
        _simulation_table(result, seed, str(ruleset))
    if result.failed:
        raise SystemExit(1)
