"""Helpers that several ``regnum`` commands share: loading a ruleset, consoles, standings.

They live here so that each command module depends only on this one and on ``errors``,
never on another command.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

import regnum

from .. import confine, resources
from ..resources import ruleset_label
from ..terminal import safe

if TYPE_CHECKING:
    from rich.console import Console


def echo(message: str = "", err: bool = False) -> None:
    """click.echo for text that may quote a ruleset, a log or a path: nothing in it can drive
    the terminal (see regnum.terminal). JSON output goes through json.dumps instead."""
    click.echo(safe(str(message)), err=err)


def make_console(stderr: bool = False) -> Console:
    """A rich console for tables and progress bars, without highlighting or wrapping. Rich is
    imported here, by the commands that print through it: `regnum check` never does."""
    from rich.console import Console
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


_WIDEST = 1_000   # columns a table is measured within (its own width is far less)


def wide_enough(console: Console, table) -> None:
    """Output that is no terminal (a file, a pipe, a CI log) has no width to keep to: the
    console takes the width `table` needs. At rich's 80 columns for such output, `regnum
    bench` of eight rulesets lost its `same` column and words of its notes, and `regnum
    fuzz` the line numbers of the rules it never reached."""
    if not console.is_terminal:
        from rich.measure import Measurement
        needed = Measurement.get(console, console.options.update_width(_WIDEST), table).maximum
        console.width = max(console.width, needed)


def load_ruleset(argument: str | Path):
    """(path, Ruleset) for a path or a bundled name (or a name on the rules path), within the
    limits `--limit` set."""
    search = rules_path()
    path = resources.find_ruleset(argument, search)
    return path, regnum.load(str(path), limits=chosen_limits(), rules_path=search)


def limit_flag(function):
    """`--limit NAME=VALUE`, repeatable, on every command that loads a ruleset: the limits
    (docs/limits.md) of loading it and of its games. Kept in the click context, so that
    `load_ruleset` applies them without each command passing them along."""
    def remember(ctx: click.Context, param, values: tuple[str, ...]):
        if values:
            try:
                ctx.meta["regnum.limits"] = regnum.Limits().with_overrides(values)
            except ValueError as err:
                raise click.BadParameter(str(err), ctx=ctx, param=param) from None
        return values
    return click.option("--limit", "limits", multiple=True, metavar="NAME=VALUE", expose_value=False,
                        callback=remember, help="Raise or lower a limit, e.g. steps=5000000 (repeatable; "
                        "see docs/limits.md).")(function)


def chosen_limits():
    """The limits `--limit` set for this command, or None for the defaults."""
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get("regnum.limits") if ctx is not None else None


_RULES_PATH = "regnum.rules_path"


def rules_path() -> tuple[Path, ...]:
    """The folders of --rules-path and of REGNUM_RULES_PATH, resolved (confine.rules_path)."""
    ctx = click.get_current_context(silent=True)
    return confine.rules_path(ctx.meta.get(_RULES_PATH, ()) if ctx is not None else ())


def rules_path_flag(function):
    """`--rules-path DIR`, repeatable, on every command that loads a ruleset. It is kept in the
    click context rather than passed as a parameter, so that `load_ruleset` finds it without
    every command handing it on."""
    def remember(ctx: click.Context, _param, value):
        ctx.meta[_RULES_PATH] = tuple(value or ())
    return click.option("--rules-path", multiple=True, metavar="DIR", expose_value=False, callback=remember,
                        type=click.Path(exists=True, file_okay=False, path_type=Path),
                        help="A folder where variant bases, data files and the rules a log names may "
                             "also be found (repeatable; REGNUM_RULES_PATH too).")(function)


def player_count(rules, path: Path, players: int | None) -> int:
    """The --players value checked against the ruleset (default: the fewest allowed)."""
    low, high = rules.min_players, rules.max_players
    if players is None:
        return low
    if not low <= players <= high:
        raise click.BadParameter(
            f"{ruleset_label(rules, path)} is played by {low} to {high} players, not {players}",
            param_hint="'--players'",
        )
    return players


def option_values(pairs: tuple[str, ...]) -> dict:
    """Game options from repeated `--option NAME=VALUE`: VALUE is JSON (true, 3, ["a", "b"]),
    a comma-separated list (a,b,c), or else a plain text."""
    out: dict = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"'{pair}' is not NAME=VALUE", param_hint="'--option'")
        out[name.strip()] = _option_value(raw.strip())
    return out


def _option_value(raw: str):
    try:
        return json.loads(raw)
    except ValueError:
        pass
    if "," in raw:
        return [_option_value(part.strip()) for part in raw.split(",") if part.strip()]
    return raw


def option_flag(function):
    """The `--option NAME=VALUE` flag, repeatable, shared by the commands that start games."""
    return click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
                        help="A game option of the ruleset (repeatable); `regnum check` lists them.")(function)


def standings(game, title: str, kinds: dict[int, str] | None = None) -> None:
    """Print the scores of every seat and its winners as a table."""
    standings_table(game.scores, game.winners if game.is_over else [], title, kinds)


def standings_table(scores: list[int], winners: list[int], title: str, kinds: dict[int, str] | None = None) -> None:
    """The same table from scores and winners alone (as a seat saw them, in a log for one seat)."""
    from rich.table import Table
    from rich.text import Text
    winners = set(winners)
    table = Table(title=safe(title))
    table.add_column("seat", justify="right")
    if kinds:
        table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("winner", justify="center")
    for seat, score in enumerate(scores):
        row = [Text(str(seat))]
        if kinds:
            row.append(Text(kinds.get(seat, "")))
        row += [Text(str(score)), Text("★ winner" if seat in winners else "")]
        table.add_row(*row)
    make_console().print(table)


def backend_flags(function):
    """`--backend local|ray` and `--address`, for the commands that spread games over workers
    (regnum.backends); `checked_backend` refuses an address without the Ray backend."""
    from ..backends import BACKENDS
    function = click.option("--address", metavar="ADDRESS",
                            help="With --backend ray: the Ray cluster to use (e.g. ray://head:10001 or "
                                 "auto); default: start a local Ray instance.")(function)
    return click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
                        help="Where the workers run: processes of this machine, or Ray (needs "
                             "`pip install 'regnum[ray]'`).")(function)


def checked_backend(backend: str, address: str | None) -> None:
    if address is not None and backend != "ray":
        raise click.BadParameter("only the Ray backend connects to a cluster: add --backend ray",
                                 param_hint="'--address'")


@contextmanager
def progress_bar(label: str, total: int, enabled: bool) -> Iterator:
    """A progress bar on stderr, `update(done, total)` to move it; nothing when not enabled
    (not a terminal, or --json)."""
    if not enabled:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=make_console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done, _total: bar.update(task, completed=done)
