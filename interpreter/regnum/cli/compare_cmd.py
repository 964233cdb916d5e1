"""``regnum compare``: a ruleset and its variant played on the same seeds, side by side.

Only the command line side lives here (options, progress bar, the table, the chart file);
playing the pairs of games over worker processes and the statistics are ``regnum.compare``'s.
"""
from __future__ import annotations

import json
from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from ..terminal import safe
from .common import (limit_flag, load_ruleset, make_console, option_flag, option_values, player_count,
                     rules_path, rules_path_flag)
from .simulate_cmd import late_progress_bar


def _number(value: float, sign: str = "") -> str:
    """Two decimals below 10, one above: a mean of moves needs no hundredths."""
    return f"{value:{sign}.2f}" if abs(value) < 10 else f"{value:{sign}.1f}"


def _estimate(e, share: bool, signed: bool = False) -> str:
    """`24.5% (19.1–30.9)` or `55.2 (54.7–55.8)`; a difference signed, `-0.5 pts (-4.0 to +3.0)`."""
    if e is None:
        return "—"
    sign, to = ("+", " to ") if signed else ("", "–")
    if share:
        unit = " pts" if signed else "%"
        return f"{100 * e.mean:{sign}.1f}{unit} ({100 * e.low:{sign}.1f}{to}{100 * e.high:{sign}.1f})"
    return f"{_number(e.mean, sign)} ({_number(e.low, sign)}{to}{_number(e.high, sign)})"


def _table(result) -> None:
    console = make_console()
    if not console.is_terminal:   # a file or a pipe: one line per measure
        console.width = max(console.width, 110)
    last = result.seed + result.games - 1
    table = Table(title=safe(f"{result.variant} against {result.base}: {result.games} games each, "
                             f"{result.players} players, seeds {result.seed}–{last}"))
    table.add_column("measure")
    for name in (result.base, result.variant):
        table.add_column(safe(name), justify="right")
    table.add_column("difference", justify="right")
    for row in result.rows:
        table.add_row(Text(safe(row.measure)), Text(_estimate(row.base, row.share)),
                      Text(_estimate(row.variant, row.share)), Text(_estimate(row.difference, row.share, signed=True)))
    console.print(table)
    console.print(Text("(in brackets: 95% confidence intervals; difference: variant minus base, seed by seed)"))
    console.print(Text(f"seeds whose games differ: {result.diverged} of {result.games}"))
    first = result.first_divergence
    if first is not None:
        step = ("before the first move" if first.base_move is None and first.variant_move is None
                else f"at move {first.move + 1}")
        text = f"first difference: seed {first.seed}, {step}"
        if first.base_move == first.variant_move and first.base_move is not None:
            text += f" ({first.base_move}, in both games)"
        elif first.base_move is not None or first.variant_move is not None:
            text += f" ({result.base}: {first.base_move or 'no move'}; {result.variant}: {first.variant_move or 'no move'})"
        text += f"; what differs: {', '.join(first.differs)}"
        console.print(Text(safe(text)), soft_wrap=True)
        if first.rules:
            console.print(Text(safe("  because of: " + "; ".join(first.rules))), soft_wrap=True)
    if any(result.truncated):
        console.print(Text(safe(f"cut by --max-moves and left out: {result.truncated[0]} games of {result.base}, "
                                f"{result.truncated[1]} of {result.variant}")))
    for failure in result.failed[:10]:
        console.print(Text(safe(f"failed: {failure['ruleset']} seed {failure['seed']}: {failure['error']}")),
                      soft_wrap=True)
    if len(result.failed) > 10:
        console.print(Text(f"… and {len(result.failed) - 10} more failed games (--json lists them all)"))


@click.command("compare")
@click.argument("base")
@click.argument("variant")
@limit_flag
@click.option("--players", "-p", type=click.IntRange(min=1), help="Number of players (default: the fewest allowed).")
@click.option("--games", "-g", type=click.IntRange(min=1), default=200, show_default=True,
              help="Number of seeds; each is played once with each ruleset.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="The first seed; game i uses seed+i.")
@click.option("--workers", "--jobs", "-j", "workers", type=click.IntRange(min=1),
              help="Worker processes (default: every CPU of this machine).")
@click.option("--max-moves", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Move bound per game.")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path),
              help="Write an SVG chart of both rulesets' score distributions to this file (.svg).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with every measure.")
@option_flag
@rules_path_flag
def compare_command(base, variant, players, games, seed, workers, max_moves, plot, as_json, options) -> None:
    """Play BASE and VARIANT on the same seeds with the same random bots, and compare.

    Each seed is played once with each ruleset, every seat's bot drawing from the same
    generator, so the two games of a seed stay the same game until the rules make them
    differ. Prints, side by side with 95% confidence intervals, and the paired difference
    (variant minus base, over the seeds both finished): the win rate of each seat (a shared
    victory counts for each winner), how often a victory is shared, the winning score, the
    game's length in moves (and in rounds, when the ruleset declares `statistic rounds`), and
    the mean of every other `statistic` the rulesets declare. Then the first seed and move where
    the two games differ, what differs, and the changed declarations that made it (those that
    ran in that step, else those what ran reads). A game that fails is listed and left out of
    the measures; the exit code is then 1. With --plot FILE.svg, a histogram of both rulesets'
    final scores. With --json prints {"base", "variant", "players", "games", "seed", "rows":
    [{"measure", "share", "base", "variant", "difference"}], "diverged", "first_divergence",
    "failed", "scores"} (each estimate {"mean", "low", "high", "n"}) and nothing else on stdout.

    \b
    Example:
      regnum compare kings_road permanent_nobles --players 4 --games 500
      regnum compare kings_road my_variant.rules -p 3 -g 200 --plot scores.svg
    """
    from ..compare import compare   # with its models and workers: imported when a comparison runs
    if plot is not None and plot.suffix.lower() != ".svg":
        raise click.BadParameter(f"{plot} does not end in .svg: the chart is written as SVG",
                                 param_hint="'--plot'")
    base_path, base_rules = load_ruleset(base)
    variant_path, variant_rules = load_ruleset(variant)
    players = player_count(variant_rules, variant_path, player_count(base_rules, base_path, players))
    show_progress = make_console(stderr=True).is_terminal
    with late_progress_bar("comparing", games, enabled=show_progress) as update:
        result = compare(base_path, variant_path, players, games, seed, jobs=workers, max_moves=max_moves,
                         progress=update, base=base_rules, variant=variant_rules,
                         options=option_values(options), rules_path=rules_path())
    if plot is not None:
        from ..chart import score_histogram
        svg = score_histogram(f"Final scores: {result.variant} against {result.base}, {players} players",
                              (result.base, result.variant), (result.scores[0], result.scores[1]))
        try:
            plot.write_text(svg, encoding="utf-8")
        except OSError as err:
            raise click.FileError(str(plot), hint=err.strerror or str(err)) from None
    if as_json:
        click.echo(json.dumps(result.model_dump(mode="json"), separators=(",", ":")))
    else:
        _table(result)
        if plot is not None:
            make_console().print(Text(safe(f"chart of the scores written to {plot}")), soft_wrap=True)
    if result.failed:
        raise SystemExit(1)
