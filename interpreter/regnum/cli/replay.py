"""``regnum replay``: check a saved game log move by move and print its outcome.

A log comes from outside (a file the user hands over), so besides replaying it this module
turns every way a log can be malformed into a one-line message naming the culprit.
"""
from __future__ import annotations

import json
from pathlib import Path

import click
from pydantic import ValidationError

import regnum

from ..simulate import ruleset_label
from .common import load_ruleset, standings
from ..engine.saved import STATE_FORMAT
from ..log import read_json
from .errors import INPUT_EXIT, api_error, fail, fail_input, validation_message


def _read_log(log_file: Path) -> tuple[dict, object]:
    limits = regnum.Limits()
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
    try:
        return data, regnum.Log.from_json(data)
    except (api_error("LogError"), ValidationError, ValueError, TypeError) as err:
        detail = validation_message(err) if isinstance(err, ValidationError) else str(err)
        fail_input(f"{log_file}: invalid log: {detail}")


def _json_failure(kind: str, message: str, **details) -> None:
    """With --json a failure is still one JSON object on stdout (exit code 2 for a log that
    cannot be loaded, 1 for an illegal move)."""
    click.echo(json.dumps({"ok": False, "error": {"kind": kind, "message": message, **details}}))
    raise SystemExit(INPUT_EXIT if kind in ("invalid_log", "invalid_saved_game") else 1)


@click.command()
@click.argument("log_file", metavar="LOG_JSON", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--ruleset", "-r", help="Ruleset path or name (default: the one the log names).")
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as one JSON object.")
@click.option("--any-version", is_flag=True,
              help="Replay even if the log was made with another version of the ruleset's text.")
def replay(log_file: Path, ruleset: str | None, as_json: bool, any_version: bool) -> None:
    """Check a game log move by move and print the outcome.

    Replays every move of LOG_JSON (written by `regnum play --log`, a fuzz failure or the
    Python API) against the ruleset the log names (its variant, if any), or --ruleset. A saved
    game (`Game.to_json()`) is accepted too: it is checked field by field and against its
    moves. Exits 1 with "move #N: reason" at the first illegal move, and 2 with the offending
    field when the log or saved game cannot be loaded (malformed, over a limit, other rules).

    \b
    Example:
      regnum replay game.json
      regnum replay game.json --ruleset rulesets/variants/permanent_nobles.rules
    """
    data, log = _read_log(log_file)
    # A variant's log names its base game in "ruleset" and the variant in "variant".
    names = (data.get("variant"), data.get("ruleset")) if log is None else (log.variant, log.ruleset)
    name = ruleset or next((n for n in names if isinstance(n, str) and n), None)
    if not name:
        fail(f"{log_file}: the log names no ruleset; pass one with --ruleset")
    try:
        path, rules = load_ruleset(name)
    except FileNotFoundError as err:
        fail(f"error: {err}\nhint: pass the ruleset file with --ruleset")
    if log is None:
        game = _load_saved_game(log_file, rules, data, as_json)
    else:
        game = _replay(log_file, rules, data, any_version, as_json)
    if as_json:
        outcome = {"ok": True, "ruleset": ruleset_label(rules, path), "players": len(game.scores),
                   "seed": game.seed, "moves": game.move_count,
                   "is_over": game.is_over, "scores": list(game.scores),
                   "winners": list(game.winners) if game.is_over else []}
        click.echo(json.dumps(outcome))
        return
    click.echo(f"{log_file}: {game.move_count} legal moves of {ruleset_label(rules, path)}")
    if not game.is_over:
        click.echo("the log ends before the game is over")
    standings(game, "Final standings" if game.is_over else "Standings")


def _load_saved_game(log_file: Path, rules, data: dict, as_json: bool):
    """A saved game (`Game.to_json()`): checked field by field, then against its own moves."""
    try:
        return rules.game_from_json(data)
    except api_error("LogError") as err:   # StateError
        if as_json:
            _json_failure("invalid_saved_game", str(err))
        fail_input(f"{log_file}: invalid saved game: {err}")


def _replay(log_file: Path, rules, data: dict, any_version: bool, as_json: bool):
    try:
        return regnum.replay(rules, data, check_hash=not any_version)
    except api_error("IllegalMove") as err:
        index = getattr(err, "index", "?")
        message = str(err).replace(f"move #{index}: ", "")
        if as_json:
            _json_failure("illegal_move", message, index=index, rule=err.rule, location=err.location)
        fail(f"move #{index}: {message}")
    except api_error("LogError") as err:
        if as_json:
            _json_failure("invalid_log", str(err))
        fail_input(f"{log_file}: invalid log: {err}")
