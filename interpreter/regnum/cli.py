"""The ``regnum`` command line: check, list, play, simulate, replay and bench rulesets.

Exit codes: 0 ok; 1 a ruleset, log or game failure (an illegal move, a stuck game); 2 a usage
error (click's own). Whatever the user types, the answer is a message, never a traceback:
errors the user can cause are printed cleanly on stderr; anything else is reported as an
internal error (set ``REGNUM_DEBUG=1`` to see its traceback). With ``--json`` a command prints
exactly one JSON object on stdout and nothing else there.
"""
from __future__ import annotations

import json
import os
import secrets
from contextlib import contextmanager
from pathlib import Path
from collections.abc import Iterator
from typing import NoReturn

import click
from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

import regnum

from . import resources
from .agents import RandomAgent, StuckGame, moves_of, seat_seed
from .simulate import (BenchResult, SimulationError, SimulationResult, bench_ruleset, load_baseline,
                       ruleset_label, simulate)

__all__ = ["cli", "main", "describe_error"]

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


# --- errors ---------------------------------------------------------------------------------


def _api_error(name: str) -> type[BaseException] | tuple:
    """An exception class of the public API, or () (matches nothing) while it is missing."""
    cls = getattr(regnum, name, None)
    return cls if isinstance(cls, type) else ()


def describe_error(err: BaseException) -> str | None:
    """The message for an error the user can cause, or None for an internal error."""
    if isinstance(err, _api_error("RulesetError")):
        return str(err)
    if isinstance(err, _api_error("IllegalMove")):
        return f"error: {err}"
    if isinstance(err, _api_error("LogError")):
        return f"error: invalid log: {err}"
    if isinstance(err, OSError):
        if isinstance(err, FileNotFoundError) and not err.filename:
            return f"error: {err}"
        if err.filename:
            return f"error: {err.strerror or err}: {err.filename}"
        return f"error: {err}"
    if isinstance(err, UnicodeDecodeError):
        return f"error: the file is not UTF-8 text ({err.reason} at byte {err.start})"
    if isinstance(err, (StuckGame, SimulationError)):
        return f"error: {err}"
    if isinstance(err, ValidationError):
        return f"error: {_validation_message(err)}"
    return None


def _validation_message(err: ValidationError) -> str:
    parts = []
    for item in err.errors()[:5]:
        field = ".".join(str(part) for part in item.get("loc", ())) or "(top level)"
        parts.append(f"field '{field}': {item.get('msg', 'invalid')}")
    return "; ".join(parts)


def _fail(message: str) -> NoReturn:
    click.echo(message, err=True)
    raise click.exceptions.Exit(1)


class _RegnumGroup(click.Group):
    """Turns every error a user can cause into a message on stderr and exit code 1."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            raise click.exceptions.Exit(130) from None
        except Exception as err:
            if os.environ.get("REGNUM_DEBUG"):
                raise
            message = describe_error(err)
            if message is None:
                message = (
                    f"internal error: {type(err).__name__}: {err}\n"
                    "this is a bug in regnum; set REGNUM_DEBUG=1 to see the traceback"
                )
            click.echo(message, err=True)
            raise click.exceptions.Exit(1) from None


# --- helpers --------------------------------------------------------------------------------


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def _load(argument: str | Path):
    """(path, Ruleset) for a path or a bundled name."""
    path = resources.find_ruleset(argument)
    return path, regnum.load(str(path))


def _player_count(rules, path: Path, players: int | None) -> int:
    low, high = rules.min_players, rules.max_players
    if players is None:
        return low
    if not low <= players <= high:
        raise click.BadParameter(
            f"{ruleset_label(rules, path)} is played by {low} to {high} players, not {players}",
            param_hint="'--players'",
        )
    return players


def _count_rules(rules) -> int | str:
    program = getattr(rules, "program", None)
    candidates = [getattr(rules, attr, None) for attr in ("rule_count", "rules", "declarations")]
    for value in candidates + [getattr(program, "decls", None)]:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if value is not None and hasattr(value, "__len__"):
            return len(value)
    return "?"


def _standings(game, title: str, kinds: dict[int, str] | None = None) -> None:
    winners = set(game.winners) if game.is_over else set()
    table = Table(title=title)
    table.add_column("seat", justify="right")
    if kinds:
        table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("winner", justify="center")
    for seat, score in enumerate(game.scores):
        row = [Text(str(seat))]
        if kinds:
            row.append(Text(kinds.get(seat, "")))
        row += [Text(str(score)), Text("★ winner" if seat in winners else "")]
        table.add_row(*row)
    _console().print(table)


# --- the group ------------------------------------------------------------------------------


@click.group(cls=_RegnumGroup, context_settings=CONTEXT)
@click.version_option(package_name="regnum", prog_name="regnum")
def cli() -> None:
    """regnum: a rules language for board games and an interpreter that plays them.

    Every command takes a RULESET: a path to a .rules file (a game or a variant) or the name
    of a bundled ruleset (see `regnum list`). Exit codes: 0 ok, 1 a ruleset, log or game
    failure, 2 a usage error.

    \b
    Example:
      regnum check kings_road
      regnum play kings_road --players 4 --bots 1,2,3
    """


# --- check ----------------------------------------------------------------------------------


def _diagnostic_dict(diagnostic) -> dict:
    span = getattr(diagnostic, "span", None)
    entry = {
        "code": diagnostic.code,
        "severity": diagnostic.severity,
        "message": diagnostic.message,
        "file": str(span.file) if span is not None else None,
        "line": getattr(span, "line", None),
        "column": getattr(span, "column", None),
    }
    hint = getattr(diagnostic, "hint", None)
    if hint:
        entry["hint"] = hint
    return entry


def _plain_failure(argument: str, code: str, message: str) -> dict:
    diagnostic = {"code": code, "severity": "error", "message": message,
                  "file": argument, "line": None, "column": None}
    return {"path": argument, "ok": False, "diagnostics": [diagnostic]}


def _check_one(argument: str, quiet: bool) -> dict:
    path = argument
    try:
        path = resources.find_ruleset(argument)
        rules = regnum.load(str(path))
    except _api_error("RulesetError") as err:
        if not quiet:
            click.echo(str(err), err=True)
        diagnostics = [_diagnostic_dict(d) for d in getattr(err, "diagnostics", [])]
        return {"path": str(path), "ok": False, "diagnostics": diagnostics}
    except (OSError, UnicodeDecodeError) as err:
        message = describe_error(err) or str(err)
        if not quiet:
            click.echo(message, err=True)
        code = "not-found" if isinstance(err, FileNotFoundError) else "io"
        return _plain_failure(argument, code, message.removeprefix("error: "))
    warnings = list(getattr(rules, "warnings", []) or [])
    if not quiet:
        if warnings:
            click.echo(rules.render_diagnostics(warnings), err=True)
        click.echo(f"ok: {path} ({_count_rules(rules)} rules, {len(warnings)} warnings)")
    return {"path": str(path), "ok": True, "diagnostics": [_diagnostic_dict(d) for d in warnings]}


@cli.command()
@click.argument("rulesets", nargs=-1, required=True, metavar="RULESET...")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with every diagnostic.")
def check(rulesets: tuple[str, ...], as_json: bool) -> None:
    """Check rulesets and print their errors and warnings.

    Loads each RULESET (path or bundled name) through the parser and every checker pass, and
    reports all its diagnostics at once like a compiler: file:line:col, the source line with
    a caret, and a hint. Prints "ok: PATH (N rules, M warnings)" for each good ruleset and
    exits 1 if any has an error. With --json prints {"rulesets": [{"path", "ok",
    "diagnostics": [{"code", "severity", "message", "file", "line", "column"}]}]}.

    \b
    Example:
      regnum check kings_road rulesets/variants/permanent_nobles.rules
    """
    reports = [_check_one(argument, quiet=as_json) for argument in rulesets]
    if as_json:
        click.echo(json.dumps({"rulesets": reports}))
    if not all(report["ok"] for report in reports):
        raise click.exceptions.Exit(1)


# --- list -----------------------------------------------------------------------------------


@cli.command("list")
@click.option("--names", is_flag=True, help="Print only the names, one a line (for scripts).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def list_rulesets(names: bool, as_json: bool) -> None:
    """List the bundled rulesets: name, player counts and file.

    Every name is accepted wherever a RULESET is expected. A ruleset that does not load is
    listed with its player range as "error" (run `regnum check NAME` to see why).

    \b
    Example:
      regnum list
      regnum list --names | xargs regnum check
    """
    bundled = resources.bundled_names()
    if names:
        for name in bundled:
            click.echo(name)
        return
    rows = []
    for name, path in bundled.items():
        try:
            rules = regnum.load(str(path))
            low, high = rules.min_players, rules.max_players
        except Exception as err:  # a broken bundled ruleset must not hide the others
            if describe_error(err) is None and os.environ.get("REGNUM_DEBUG"):
                raise
            low = high = None
        rows.append({"name": name, "path": str(path), "min_players": low, "max_players": high})
    if as_json:
        click.echo(json.dumps({"rulesets": rows}))
        return
    if not rows:
        click.echo(f"no bundled rulesets in {resources.data_dir('rulesets')}")
        return
    table = Table(title="Bundled rulesets")
    table.add_column("name", no_wrap=True)
    table.add_column("players", justify="center")
    table.add_column("path", overflow="fold")
    for row in rows:
        players = "error" if row["min_players"] is None else f"{row['min_players']}–{row['max_players']}"
        table.add_row(Text(row["name"]), Text(players), Text(row["path"]))
    _console().print(table)


# --- play -----------------------------------------------------------------------------------


def _parse_bots(spec: str | None, players: int) -> set[int]:
    """Bot seats from --bots: all, none, or a comma list of seats (default: all but seat 0)."""
    if spec is None:
        return set(range(1, players))
    text = spec.strip().lower()
    if text == "all":
        return set(range(players))
    if text in ("none", ""):
        return set()
    seats = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        if not part.isdigit():
            raise click.BadParameter(
                f"'{part}' is not a seat number; use all, none or seats like 1,2,3", param_hint="'--bots'"
            )
        if int(part) >= players:
            raise click.BadParameter(
                f"seat {part} does not exist in a {players}-player game (seats 0–{players - 1})",
                param_hint="'--bots'",
            )
        seats.add(int(part))
    return seats


class _Quit(Exception):
    def __init__(self, input_ended: bool):
        self.input_ended = input_ended


def _ask_human(game, seat: int):
    moves = moves_of(game, seat)
    if not moves:
        raise StuckGame(f"seat {seat} must move but has no legal move (after {game.move_count} moves)")
    click.echo(f"\n── seat {seat} to move ──")
    click.echo(game.render(seat))
    for number, move in enumerate(moves, 1):
        click.echo(f"{number:>4}. {move}")
    while True:
        try:
            answer = click.prompt(
                f"seat {seat}: move 1-{len(moves)} (q quits)", default="", show_default=False
            ).strip()
        except click.Abort:
            raise _Quit(input_ended=True) from None
        if answer.lower() in ("q", "quit", "exit"):
            raise _Quit(input_ended=False)
        if answer.isdigit() and 1 <= int(answer) <= len(moves):
            return moves[int(answer) - 1]
        by_text = [move for move in moves if str(move) == answer]
        if len(by_text) == 1:
            return by_text[0]
        if answer:
            click.echo(f"'{answer}' is not a move: type a number from 1 to {len(moves)}, or q", err=True)


def _play_loop(game, agents: dict, max_moves: int | None, show_board: bool) -> str:
    """Play until the game ends ("over"), the move bound ("limit") or a human quits."""
    seen = len(game.events)
    while not game.is_over:
        waiting = list(game.to_move)
        if not waiting:
            raise StuckGame(f"the game is not over but nobody is to move (after {game.move_count} moves)")
        for seat in waiting:
            if max_moves is not None and game.move_count >= max_moves:
                return "limit"
            if game.is_over or seat not in game.to_move:
                continue
            if seat in agents:
                game.play(agents[seat].choose(game, seat))
            else:
                move = _ask_human(game, seat)
                try:
                    game.play(move)
                except _api_error("IllegalMove") as err:
                    click.echo(f"refused: {err}", err=True)
                    continue
            events = game.events
            for line in events[seen:]:
                click.echo(line)
            seen = len(events)
            if show_board:
                click.echo(game.render(None))
    return "over"


@cli.command()
@click.argument("ruleset")
@click.option("--players", "-p", type=click.IntRange(min=1), help="Number of players (default: the fewest allowed).")
@click.option("--seed", "-s", type=int, help="Game seed (default: a random one, printed).")
@click.option("--bots", "-b", metavar="SPEC", help="Bot seats: all, none, or seats like 1,2,3 (default: all but 0).")
@click.option("--quiet-board", is_flag=True, help="Do not print the board after each move.")
@click.option("--max-moves", type=click.IntRange(min=0), help="Stop after this many moves.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game log (JSON) here.")
def play(ruleset, players, seed, bots, quiet_board, max_moves, log_file) -> None:
    """Play a game in the terminal, any mix of humans and random bots.

    Seats are numbered from 0. A human sees their own view of the game and the numbered
    legal moves of their seat, and types a number (q quits). After each move the new
    narration is printed, and the public board unless --quiet-board; at the end, the final
    standings. --log writes a log that `regnum replay` checks and reruns.

    \b
    Example:
      regnum play kings_road --players 4 --bots 1,2,3
      regnum play kings_road --players 4 --bots all --seed 1 --quiet-board
    """
    path, rules = _load(ruleset)
    players = _player_count(rules, path, players)
    bot_seats = _parse_bots(bots, players)
    seed = secrets.randbelow(2**31) if seed is None else seed
    game = rules.new_game(players=players, seed=seed)
    agents = {seat: RandomAgent(seat_seed(seed, seat)) for seat in bot_seats}
    kinds = {seat: "bot" if seat in bot_seats else "human" for seat in range(players)}
    humans = ", ".join(str(s) for s in range(players) if s not in bot_seats) or "none"
    click.echo(f"{ruleset_label(rules, path)}: {players} players, seed {seed}, human seats: {humans}")
    for line in game.events:
        click.echo(line)
    try:
        outcome = _play_loop(game, agents, max_moves, show_board=not quiet_board)
    except _Quit as quit_:
        outcome = "eof" if quit_.input_ended else "quit"
    notes = {
        "over": f"game over after {game.move_count} moves",
        "limit": f"stopped after {game.move_count} moves (--max-moves); the game is not over",
        "quit": f"game abandoned after {game.move_count} moves",
        "eof": f"input ended: game abandoned after {game.move_count} moves",
    }
    click.echo(notes[outcome])
    _standings(game, "Final standings" if outcome == "over" else "Standings", kinds)
    if log_file is not None:
        log_file.write_text(game.log.to_json(), encoding="utf-8")
        click.echo(f"log written to {log_file}")
    if outcome == "eof":
        raise click.exceptions.Exit(1)


# --- simulate -------------------------------------------------------------------------------


@contextmanager
def _progress(label: str, total: int, enabled: bool) -> Iterator:
    if not enabled:
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=_console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done, _total: bar.update(task, completed=done)


def _simulation_table(result: SimulationResult, seed: int) -> None:
    games = len(result.games)
    last = seed + games - 1
    table = Table(title=f"{result.ruleset}: {games} games, {result.players} players, seeds {seed}–{last}")
    for name in ("seat", "wins", "win %", "mean score", "min", "max"):
        table.add_column(name, justify="right")
    for seat, (wins, (mean, low, high)) in enumerate(zip(result.wins(), result.score_stats(), strict=True)):
        share = 100 * wins / games if games else 0.0
        cells = (str(seat), str(wins), f"{share:.1f}", f"{mean:.2f}", str(low), str(high))
        table.add_row(*map(Text, cells))
    console = _console()
    console.print(table)
    console.print(Text(f"mean moves per game: {result.mean_moves:.1f}"))
    console.print(Text(f"games per second: {result.games_per_second:.1f}"))
    if result.truncated:
        console.print(Text(f"cut by --max-moves (no winner): {result.truncated} games"))


@cli.command("simulate")
@click.argument("ruleset")
@click.option("--players", "-p", type=click.IntRange(min=1), help="Number of players (default: the fewest allowed).")
@click.option("--games", "-g", type=click.IntRange(min=1), default=100, show_default=True, help="Number of games.")
@click.option("--seed", "-s", type=int, default=0, show_default=True,
              help="Seed of the first game; game i uses seed+i.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), help="Worker processes (default: the number of CPUs).")
@click.option("--max-moves", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Move bound per game.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with every game.")
def simulate_command(ruleset, players, games, seed, jobs, max_moves, as_json) -> None:
    """Play many games with random bots and summarise the results.

    Game i uses seed SEED+i for the game and its bots, so each game can be rerun alone;
    games are spread over --jobs processes and reported in seed order. Prints wins per seat
    (a shared victory counts for each winner), mean/min/max score per seat, mean moves per
    game and games per second. A game cut by --max-moves has no winner and is flagged. With
    --json prints {"ruleset", "players", "games": [{"seed", "scores", "winners", "moves",
    "truncated"}], "games_per_second"} and nothing else on stdout.

    \b
    Example:
      regnum simulate kings_road --players 4 --games 1000 --seed 1
    """
    path, rules = _load(ruleset)
    players = _player_count(rules, path, players)
    show_progress = _console(stderr=True).is_terminal
    with _progress(ruleset_label(rules, path), games, enabled=show_progress) as update:
        result = simulate(path, players, games, seed, jobs=jobs, max_moves=max_moves, progress=update, rules=rules)
    if as_json:
        click.echo(result.model_dump_json())
    else:
        _simulation_table(result, seed)


# --- replay ---------------------------------------------------------------------------------


def _read_log(log_file: Path) -> tuple[dict, object]:
    text = log_file.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        _fail(f"{log_file}:{err.lineno}:{err.colno}: invalid JSON: {err.msg}")
    if not isinstance(data, dict):
        _fail(f"{log_file}: invalid log: the log must be a JSON object, not {type(data).__name__}")
    try:
        return data, regnum.Log.from_json(data)
    except (_api_error("LogError"), ValidationError, ValueError, TypeError) as err:
        detail = _validation_message(err) if isinstance(err, ValidationError) else str(err)
        _fail(f"{log_file}: invalid log: {detail}")


@cli.command()
@click.argument("log_file", metavar="LOG_JSON", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--ruleset", "-r", help="Ruleset path or name (default: the one the log names).")
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as one JSON object.")
def replay(log_file: Path, ruleset: str | None, as_json: bool) -> None:
    """Check a game log move by move and print the outcome.

    Replays every move of LOG_JSON (written by `regnum play --log`, a fuzz failure or the
    Python API) against the ruleset the log names (its variant, if any), or --ruleset. Exits 1 with
    "move #N: reason" at the first illegal move, or with the offending field when the log
    is malformed.

    \b
    Example:
      regnum replay game.json
      regnum replay game.json --ruleset rulesets/variants/permanent_nobles.rules
    """
    data, log = _read_log(log_file)
    # A variant's log names its base game in "ruleset" and the variant in "variant".
    name = ruleset or getattr(log, "variant", None) or getattr(log, "ruleset", None)
    if not name:
        _fail(f"{log_file}: the log names no ruleset; pass one with --ruleset")
    try:
        path, rules = _load(name)
    except FileNotFoundError as err:
        _fail(f"error: {err}\nhint: pass the ruleset file with --ruleset")
    try:
        game = regnum.replay(rules, data)
    except _api_error("IllegalMove") as err:
        index = getattr(err, "index", "?")
        _fail(f"move #{index}: {str(err).replace(f'move #{index}: ', '')}")
    except _api_error("LogError") as err:
        _fail(f"{log_file}: invalid log: {err}")
    if as_json:
        outcome = {"ruleset": ruleset_label(rules, path), "players": len(game.scores),
                   "seed": getattr(log, "seed", None), "moves": game.move_count,
                   "is_over": game.is_over, "scores": list(game.scores),
                   "winners": list(game.winners) if game.is_over else []}
        click.echo(json.dumps(outcome))
        return
    click.echo(f"{log_file}: {game.move_count} legal moves of {ruleset_label(rules, path)}")
    if not game.is_over:
        click.echo("the log ends before the game is over")
    _standings(game, "Final standings" if game.is_over else "Standings")


# --- bench ----------------------------------------------------------------------------------


def _baseline(name: str, path: Path | None):
    try:
        return load_baseline(name, path)
    except Exception as err:  # a broken baseline must not stop the benchmark
        click.echo(f"warning: baseline not available: {type(err).__name__}: {err}", err=True)
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
        table.add_row(*map(Text, cells))
    _console().print(table)


@cli.command()
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
        targets = [(resources.ruleset_name(p), p) for p in map(resources.find_ruleset, rulesets)]
    else:
        targets = list(resources.bundled_names().items())
    if not targets:
        _fail(f"error: no bundled rulesets in {resources.data_dir('rulesets')}")
    rows, failed = [], False

    def warn(message: str) -> None:
        click.echo(f"warning: {message}", err=True)

    for name, path in targets:
        if not as_json:
            click.echo(f"benchmarking {name}…", err=True)
        try:
            baseline = _baseline(name, baseline_path if len(targets) == 1 else None)
            rows.append(bench_ruleset(name, path, players, seconds, max_moves, baseline, warn))
        except (_api_error("RulesetError"), SimulationError) as err:
            click.echo(describe_error(err), err=True)
            failed = True
    if as_json:
        click.echo(json.dumps({"results": [row.model_dump() for row in rows]}))
    else:
        _bench_table(rows, seconds)
    if failed:
        raise click.exceptions.Exit(1)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``regnum`` console script."""
    cli.main(args=argv, prog_name="regnum")


if __name__ == "__main__":  # python -m regnum.cli
    main()
