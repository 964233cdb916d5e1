"""``regnum replay`` and ``regnum log``: check a saved game log, or cut it down to one seat.

A log comes from outside (a file the user hands over), so besides replaying it this module
turns every way a log can be malformed into a one-line message naming the culprit. ``regnum
log redact`` lives here too: it replays the full log the same way before writing what one
seat saw (``Game.log_for``).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import NoReturn

import click
import regnum

from ..render import view_text
from ..resources import ruleset_label
from .. import confine
from .common import (chosen_limits, echo, limit_flag, load_ruleset, make_console, rules_path,
                     rules_path_flag, standings, standings_table)
from ..failures import reproduce
from ..documents import STATE_FORMAT, read_json
from .errors import INPUT_EXIT, api_error, fail, fail_input, validation_message


def read_log_file(log_file: Path) -> tuple[dict, object]:
    """(the JSON object, the Log) of a log file, or (the object, None) for a saved game, which
    game_from_json checks whole. A log is a stranger's file: its size is checked before it is
    read, its depth before it is parsed."""
    limits = chosen_limits() or regnum.Limits()
    size = log_file.stat().st_size
    if size > limits.json_bytes:   # before reading it into memory
        fail_input(f"{log_file}: invalid log: the log is {size:_} bytes; {limits.hint('json_bytes')}")
    text = log_file.read_bytes()
    try:
        data = read_json(text, "log", limits=limits)
    except api_error("LogError") as err:
        where = getattr(err, "json_error", None)
        if where is not None:
            fail_input(f"{log_file}:{where.lineno}:{where.colno}: invalid JSON: {where.msg}")
        fail_input(f"{log_file}: invalid log: {err}")
    if not isinstance(data, dict):
        fail_input(f"{log_file}: invalid log: the log must be a JSON object, not {type(data).__name__}")
    if data.get("format") == STATE_FORMAT:   # a saved game: checked whole by game_from_json
        return data, None
    from pydantic import ValidationError   # with the log's models, read here
    try:
        return data, regnum.Log.from_json(data, limits)
    except (api_error("LogError"), ValidationError, ValueError, TypeError) as err:
        detail = validation_message(err) if isinstance(err, ValidationError) else str(err)
        fail_input(f"{log_file}: invalid log: {detail}")


def _rules_of(log_file: Path, data: dict, ruleset: str | None, any_version: bool, as_json: bool):
    """(path, Ruleset): the one given with --ruleset, else the rules the log names, found
    within the allowed folders (see _logged_rules)."""
    if ruleset is None:
        return _logged_rules(log_file, data, any_version, as_json)
    try:
        return load_ruleset(ruleset)
    except FileNotFoundError as err:
        fail(f"error: {err}")


_GAME_FAILURES = ("illegal_move", "fault", "invariant", "stuck", "not_reproduced")


def _json_failure(kind: str, message: str, **details) -> None:
    """With --json a failure is still one JSON object on stdout (exit code 1 for an illegal
    move or a failure of the game, reproduced or not, 2 for a log or saved game that cannot be
    loaded or whose rules are refused)."""
    click.echo(json.dumps({"ok": False, "error": {"kind": kind, "message": message, **details}}))
    raise SystemExit(1 if kind in _GAME_FAILURES else INPUT_EXIT)


def _refuse(as_json: bool, kind: str, message: str, hint: str | None) -> NoReturn:
    if as_json:
        _json_failure(kind, message, **({"hint": hint} if hint else {}))
    fail_input(message + (f"\nhint: {hint}" if hint else ""))


def _logged_rules(log_file: Path, data: dict, any_version: bool, as_json: bool):
    """(path, Ruleset) of the rules a log names: the first file its `variant` (else its
    `ruleset`) may mean (confine.find_logged) whose hash is the log's. The log is a stranger's
    file: its names lead only to .rules files in allowed folders, and a file that is not the
    one the game was played with is refused (unless --any-version) rather than replayed.
    Reads the plain JSON object, so that anything naming its rules the same way (a saved game
    has the same three fields) is found the same way."""
    field = "variant" if data.get("variant") is not None else "ruleset"
    value, wanted = data.get(field), data.get("ruleset_hash")
    if not isinstance(value, str):
        _refuse(as_json, "ruleset_refused", f"{log_file}: log field '{field}': a ruleset name or a .rules "
                "path is a text", "pass the ruleset with --ruleset")
    search = rules_path()
    try:
        candidates = confine.find_logged(field, value, log_file.parent, search)
    except confine.Refused as refused:
        kind = "ruleset_not_found" if refused.code == "not-found" else "ruleset_refused"
        _refuse(as_json, kind, f"{log_file}: {refused.message}", refused.hint)
    loaded = []
    for candidate in candidates:
        rules = regnum.load(str(candidate), limits=chosen_limits(), rules_path=search)
        if rules.hash == wanted or any_version:
            return candidate, rules
        loaded.append((candidate, rules))
    found = "; ".join(f"{confine.display(path)} has hash {rules.hash}" for path, rules in loaded)
    _refuse(as_json, "ruleset_hash", f"{log_file}: log field 'ruleset_hash': the log was made with rules of "
            f"hash {wanted}; {found}",
            "replay it anyway with --any-version, or pass the right rules with --ruleset")


def _invalid_log(log_file: Path, err: Exception, as_json: bool) -> NoReturn:
    """A log that does not fit the rules it is replayed with: one line (or object), exit 2."""
    if as_json:
        _json_failure("invalid_log", str(err))
    fail_input(f"{log_file}: invalid log: {err}")


def _replayed(log_file: Path, data: dict, rules, any_version: bool, as_json: bool = False):
    """The game a full log records, replayed move by move; a failure ends the command."""
    try:
        return regnum.replay(rules, data, check_hash=not any_version)
    except api_error("IllegalMove") as err:
        _replayed_illegal(err, as_json)
    except api_error("LogError") as err:
        _invalid_log(log_file, err, as_json)


def _reproduced(log_file: Path, data: dict, log, rules, any_version: bool, as_json: bool) -> NoReturn:
    """A log that records a failure: replayed to see the failure again. Exit 1 either way: a
    failure met again is the ruleset's, one that does not happen again is the log's."""
    try:
        again = reproduce(rules, data, check_hash=not any_version)
    except api_error("IllegalMove") as err:
        _replayed_illegal(err, as_json)
    except api_error("LogError") as err:
        _invalid_log(log_file, err, as_json)
    expected, observed, moves = again.expected, again.observed, len(log.moves)
    if again.reproduced:
        if as_json:
            _json_failure(observed.kind, observed.message, check=observed.check, index=observed.move,
                          location=again.location, reproduced=True)
        detail = str(again.error) if observed.kind == "fault" else observed.message
        fail(f"{log_file}: the failure the log records happens again: {_phrase(observed, moves)}\n{detail}")
    seen = (f"{_phrase(observed, moves)}: {observed.message}" if observed is not None
            else f"all {moves} moves are accepted and the game goes on")
    message = (f"the failure the log records does not happen again: it records {_phrase(expected, moves)}"
               f" ({expected.message}); replaying it, {seen}")
    if as_json:
        _json_failure("not_reproduced", message, expected=expected.model_dump(),
                      observed=None if observed is None else observed.model_dump(), reproduced=False)
    fail(f"{log_file}: {message}")


def _phrase(failure, moves: int) -> str:
    """A failure in words: what went wrong and after which move."""
    after = ("in the setup" if moves == 0 else f"after move #{moves - 1}") if failure.move is None \
        else f"at move #{failure.move}"
    if failure.kind == "fault":
        return f"a fault ({failure.check}) {after}"
    if failure.kind == "invariant":
        broken = "by the setup" if failure.move is None and moves == 0 else f"after move #{failure.move}"
        return f"invariant '{failure.check}' broken {broken}"
    return f"a stuck game {after}"


def _replayed_illegal(err, as_json: bool) -> NoReturn:
    index = getattr(err, "index", "?")
    message = str(err).replace(f"move #{index}: ", "")
    if as_json:
        _json_failure("illegal_move", message, index=index, rule=err.rule, location=err.location)
    fail(f"move #{index}: {message}")


def _load_saved_game(log_file: Path, rules, data: dict, as_json: bool):
    """A saved game (`Game.to_json()`): checked field by field, then against its own moves."""
    try:
        return rules.game_from_json(data)
    except api_error("LogError") as err:   # StateError
        if as_json:
            _json_failure("invalid_saved_game", str(err))
        fail_input(f"{log_file}: invalid saved game: {err}")


@click.command()
@click.argument("log_file", metavar="LOG_JSON", type=click.Path(dir_okay=False, path_type=Path))
@limit_flag
@click.option("--ruleset", "-r", help="Ruleset path or name (default: the one the log names).")
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as one JSON object.")
@click.option("--any-version", is_flag=True,
              help="Replay even if the log was made with another version of the ruleset's text.")
@rules_path_flag
def replay(log_file: Path, ruleset: str | None, as_json: bool, any_version: bool) -> None:
    """Check a game log move by move and print the outcome.

    Replays every move of LOG_JSON (written by `regnum play --log`, a fuzz failure or the
    Python API) against the ruleset the log names (its variant, if any), or --ruleset. A name
    in the log is looked for as NAME.rules beside the log, then in each --rules-path folder,
    then among the bundled rulesets; the first whose hash is the log's is replayed. A saved
    game (`Game.to_json()`) is accepted too: it is checked field by field and against its
    moves. Exits 1 with "move #N: reason" at the first illegal move, and 2 with the offending
    field when the log or saved game cannot be loaded (malformed, over a limit) or when the
    rules it names are refused, not found or not the ones it was made with (--any-version
    replays it anyway).

    The log of a failed game (saved by `regnum simulate` or `regnum play --log`) ends with
    its failing move: replay meets the failure again and prints it (the located fault, or the
    broken invariant), or says that it does not happen again; it exits 1 either way.

    A log written for one seat (`regnum play --log-for`, `regnum log redact`) holds neither
    the seed nor the moves hidden from that seat, so it cannot be re-verified: replay checks
    that it fits the ruleset and shows the game as that seat saw it at the end of the log.

    \b
    Example:
      regnum replay game.json
      regnum replay game.json --ruleset rulesets/variants/permanent_nobles.rules
    """
    data, log = read_log_file(log_file)
    path, rules = _rules_of(log_file, data, ruleset, any_version, as_json)
    if log is None:
        game = _load_saved_game(log_file, rules, data, as_json)
    elif log.seat is not None:
        _seat_view(log_file, log, rules, path, as_json, any_version)
        return
    elif log.failure is not None:
        _reproduced(log_file, data, log, rules, any_version, as_json)
    else:
        game = _replayed(log_file, data, rules, any_version, as_json)
    if as_json:
        outcome = {"ok": True, "ruleset": ruleset_label(rules, path), "players": len(game.scores),
                   "seed": game.seed, "moves": game.move_count,
                   "is_over": game.is_over, "scores": list(game.scores),
                   "winners": list(game.winners) if game.is_over else []}
        click.echo(json.dumps(outcome))
        return
    echo(f"{log_file}: {game.move_count} legal moves of {ruleset_label(rules, path)}")
    if not game.is_over:
        echo("the log ends before the game is over")
    standings(game, "Final standings" if game.is_over else "Standings")


def _seat_view(log_file: Path, log, rules, path: Path, as_json: bool, any_version: bool) -> None:
    """A log written for one seat: what that seat saw, for it cannot be replayed."""
    try:
        regnum._check_fits(rules, log, check_hash=not any_version)
    except api_error("LogError") as err:
        _invalid_log(log_file, err, as_json)
    seat, view = log.seat, log.view
    hidden = sum(1 for move in log.moves if move.hidden)
    if as_json:
        click.echo(json.dumps({
            "ok": True, "ruleset": ruleset_label(rules, path), "players": log.players, "seat": seat,
            "seed": None, "moves": len(log.moves), "hidden_moves": hidden, "verified": False,
            "is_over": view.is_over, "scores": view.scores, "winners": view.winners,
            "view": view.model_dump(mode="json")}))
        return
    echo(f"{log_file}: a log for seat {seat} of {ruleset_label(rules, path)}: {len(log.moves)} moves, "
         f"{hidden} of them hidden from seat {seat}")
    echo(f"its moves cannot be re-verified: a log for one seat holds neither the seed nor the moves "
         f"hidden from that seat; this is the game as seat {seat} saw it at the end of the log")
    console = make_console()
    console.print(view_text(rules.model, view.model_dump(mode="json")))
    if not view.is_over:
        echo("the log ends before the game is over")
    standings_table(view.scores, view.winners if view.is_over else [],
                    f"{'Final standings' if view.is_over else 'Standings'} as seat {seat} saw them")


@click.group("log")
def log_group() -> None:
    """Work on game logs (docs/log-format.md).

    `redact` cuts a full log down to what one seat saw, to hand to that player.

    \b
    Example:
      regnum log redact game.json --seat 1 -o game.seat1.json
    """


@log_group.command("redact")
@click.argument("log_file", metavar="LOG_JSON", type=click.Path(dir_okay=False, path_type=Path))
@limit_flag
@click.option("--seat", "-s", type=click.IntRange(min=0), required=True,
              help="The seat whose view the log keeps.")
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the log for the seat here (default: standard output).")
@click.option("--ruleset", "-r", help="Ruleset path or name (default: the one the log names).")
@click.option("--any-version", is_flag=True,
              help="Redact even if the log was made with another version of the ruleset's text.")
def redact(log_file: Path, seat: int, output: Path | None, ruleset: str | None, any_version: bool) -> None:
    """Cut a full game log down to what one seat saw.

    Replays LOG_JSON (as `regnum replay` does) and writes the log of the same game for
    --seat: without the seed (it would let that seat recompute every hidden shuffle and
    draw), with each move that was secret from the seat when it was made reduced to its
    player (`{"player": 2, "hidden": true}`), and with what the seat saw at the end as
    "view". Hand it to that seat: `regnum replay` shows it as the seat saw the game.
    Needs the ruleset, which says what is secret.

    \b
    Example:
      regnum log redact game.json --seat 1 -o game.seat1.json
    """
    data, log = read_log_file(log_file)
    if log is None:
        fail_input(f"{log_file}: this is a saved game, not a log: redact the game's log (`regnum play --log`)")
    if seat >= log.players:
        raise click.BadParameter(f"the log's game has seats 0–{log.players - 1}, not {seat}",
                                 param_hint="'--seat'")
    if log.seat is not None and log.seat != seat:
        fail(f"{log_file}: this log was written for seat {log.seat}: it holds nothing to redact for "
             f"seat {seat} (redact the full log)")
    if log.seat is not None:
        seat_log = log
    else:
        _, rules = _rules_of(log_file, data, ruleset, any_version, False)
        seat_log = _replayed(log_file, data, rules, any_version).log_for(seat)
    if output is None:
        click.echo(seat_log.to_json())  # ASCII: nothing in it can drive a terminal
        return
    output.write_text(seat_log.to_json(), encoding="utf-8")
    echo(f"log for seat {seat} written to {output}")
