"""``regnum replay``: check a saved game log move by move and print its outcome.

A log comes from outside (a file the user hands over), so besides replaying it this module
turns every way a log can be malformed into a one-line message naming the culprit.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import NoReturn

import click
from pydantic import ValidationError

import regnum

from ..simulate import ruleset_label
from .. import confine
from .common import chosen_limits, limit_flag, load_ruleset, rules_path, rules_path_flag, standings
from .errors import api_error, fail, validation_message


def _read_log(log_file: Path) -> tuple[dict, object]:
    text = log_file.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        fail(f"{log_file}:{err.lineno}:{err.colno}: invalid JSON: {err.msg}")
    if not isinstance(data, dict):
        fail(f"{log_file}: invalid log: the log must be a JSON object, not {type(data).__name__}")
    try:
        return data, regnum.Log.from_json(data)
    except (api_error("LogError"), ValidationError, ValueError, TypeError) as err:
        detail = validation_message(err) if isinstance(err, ValidationError) else str(err)
        fail(f"{log_file}: invalid log: {detail}")


def _json_failure(kind: str, message: str, **details) -> None:
    """With --json a failure is still one JSON object on stdout (and exit code 1)."""
    click.echo(json.dumps({"ok": False, "error": {"kind": kind, "message": message, **details}}))
    raise SystemExit(1)


def _refuse(as_json: bool, kind: str, message: str, hint: str | None) -> NoReturn:
    if as_json:
        _json_failure(kind, message, **({"hint": hint} if hint else {}))
    fail(message + (f"\nhint: {hint}" if hint else ""))


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
    then among the bundled rulesets; the first whose hash is the log's is replayed. Exits 1
    with "move #N: reason" at the first illegal move, with the offending field when the log
    is malformed, and when the rules it names are not found or not the ones it was made with
    (--any-version replays it anyway).

    \b
    Example:
      regnum replay game.json
      regnum replay game.json --ruleset rulesets/variants/permanent_nobles.rules
    """
    data, log = _read_log(log_file)
    if ruleset is None:
        path, rules = _logged_rules(log_file, data, any_version, as_json)
    else:
        try:
            path, rules = load_ruleset(ruleset)
        except FileNotFoundError as err:
            fail(f"error: {err}")
    try:
        game = regnum.replay(rules, data, check_hash=not any_version)
    except api_error("IllegalMove") as err:
        index = getattr(err, "index", "?")
        message = str(err).replace(f"move #{index}: ", "")
        if as_json:
            _json_failure("illegal_move", message, index=index, rule=err.rule, location=err.location)
        fail(f"move #{index}: {message}")
    except api_error("LogError") as err:
        if as_json:
            _json_failure("invalid_log", str(err))
        fail(f"{log_file}: invalid log: {err}")
    if as_json:
        outcome = {"ok": True, "ruleset": ruleset_label(rules, path), "players": len(game.scores),
                   "seed": getattr(log, "seed", None), "moves": game.move_count,
                   "is_over": game.is_over, "scores": list(game.scores),
                   "winners": list(game.winners) if game.is_over else []}
        click.echo(json.dumps(outcome))
        return
    click.echo(f"{log_file}: {game.move_count} legal moves of {ruleset_label(rules, path)}")
    if not game.is_over:
        click.echo("the log ends before the game is over")
    standings(game, "Final standings" if game.is_over else "Standings")
