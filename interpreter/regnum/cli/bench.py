"""``regnum bench``: random playouts per second of rulesets, against hand-written baselines.

Only the command line side lives here (options, warnings, the results table); the timing
itself is ``regnum.simulate.bench_ruleset``'s job.
"""
from __future__ import annotations

import json
from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from .. import resources
from ..simulate import BenchResult, SimulationError, bench_ruleset, load_baseline
from ..terminal import safe
from .common import echo, make_console, rules_path, rules_path_flag
from .errors import api_error, describe_error, fail


def _baseline(name: str, path: Path | None):
    try:
        return load_baseline(name, path)
    except Exception as err:  # a broken baseline must not stop the benchmark
        echo(f"warning: baseline not available: {type(err).__name__}: {err}", err=True)
        return None


def _bench_table(rows: list[BenchResult], seconds: float) -> None:
    table = Table(title=f"Random playouts, about {seconds:g} s each",
                  caption="ratio = regnum games/s ÷ hand-written Python games/s (benchmarks/)")
    table.add_column("ruleset", no_wrap=True)
    for name in ("players", "games/s", "moves/s", "baseline games/s", "ratio"):
        table.add_column(name, justify="right")
    for row in rows:
        base = "—" if row.baseline_games_per_second is None else f"{row.baseline_games_per_second:.1f}"
        ratio = "—" if row.ratio is None else f"{row.ratio:.3f}"
        cells = (row.ruleset, str(row.players), f"{row.games_per_second:.1f}",
                 f"{row.moves_per_second:.0f}", base, ratio)
        table.add_row(*(Text(safe(cell)) for cell in cells))
    make_console().print(table)


@click.command()
@click.argument("rulesets", nargs=-1, metavar="[RULESET]...")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=2.0, show_default=True,
              help="Time spent on each ruleset (and on the baseline).")
@click.option("--players", "-p", type=click.IntRange(min=1), default=4, show_default=True,
              help="Players per game (clamped to what each ruleset allows).")
@click.option("--max-moves", type=click.IntRange(min=1), default=10_000, show_default=True, help="Move bound per game.")
@click.option("--baseline", "baseline_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Hand-written implementation to compare with, for a single ruleset "
                   "(default: benchmarks/<ruleset>_baseline.py of the checkout).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@rules_path_flag
def bench(rulesets, seconds, players, max_moves, baseline_path, as_json) -> None:
    """Measure random playouts per second of every bundled ruleset.

    Plays random games of each bundled ruleset (or of the RULESETs given) for about
    --seconds each, in one process, and prints games and
    moves per second. Where a ruleset has one, it also runs the hand-written plain-Python
    implementation of benchmarks/ for the same time and prints the ratio (regnum's speed
    divided by the hand-written one's). With --json prints {"results": [{"ruleset",
    "players", "games_per_second", "moves_per_second", "baseline_games_per_second",
    "ratio"}]} (baseline fields null where there is none).

    \b
    Example:
      regnum bench
      regnum bench kings_road --seconds 5 --json
    """
    if rulesets:
        paths = [resources.find_ruleset(argument, rules_path()) for argument in rulesets]
        targets = [(resources.ruleset_name(p), p) for p in paths]
    else:
        targets = list(resources.bundled_names().items())
    if not targets:
        fail(f"error: no bundled rulesets in {resources.data_dir('rulesets')}")
    rows, failed = [], False

    def warn(message: str) -> None:
        echo(f"warning: {message}", err=True)

    for name, path in targets:
        if not as_json:
            echo(f"benchmarking {name}…", err=True)
        try:
            baseline = _baseline(name, baseline_path if len(targets) == 1 else None)
            rows.append(bench_ruleset(name, path, players, seconds, max_moves, baseline, warn, rules_path()))
        except (api_error("RulesetError"), SimulationError) as err:
            echo(describe_error(err), err=True)
            failed = True
    if as_json:
        click.echo(json.dumps({"results": [row.model_dump() for row in rows]}))
    else:
        _bench_table(rows, seconds)
    if failed:
        raise click.exceptions.Exit(1)
