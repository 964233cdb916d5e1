"""``regnum check`` and ``regnum list``: the commands that only load rulesets, never play them.

Both report on rulesets as files (their diagnostics, their player counts), so they share
the way a load failure is turned into a report instead of stopping the command.
"""
from __future__ import annotations

import json
import os
import time

import click

import regnum

from .. import resources
from ..terminal import safe
from .common import chosen_limits, echo, limit_flag, make_console, rules_path, rules_path_flag, wide_enough
from .errors import api_error, describe_error


def _count_rules(rules) -> int | str:
    program = getattr(rules, "program", None)
    candidates = [getattr(rules, attr, None) for attr in ("rule_count", "rules", "declarations")]
    for value in candidates + [getattr(program, "decls", None)]:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if value is not None and hasattr(value, "__len__"):
            return len(value)
    return "?"


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
        path = resources.find_ruleset(argument, rules_path())
        rules = regnum.load(str(path), limits=chosen_limits(), rules_path=rules_path())
    except api_error("RulesetError") as err:
        if not quiet:
            echo(str(err), err=True)
        diagnostics = [_diagnostic_dict(d) for d in getattr(err, "diagnostics", [])]
        return {"path": str(path), "ok": False, "diagnostics": diagnostics}
    except (OSError, UnicodeDecodeError) as err:
        message = describe_error(err) or str(err)
        if not quiet:
            echo(message, err=True)
        code = "not-found" if isinstance(err, FileNotFoundError) else "io"
        return _plain_failure(argument, code, message.removeprefix("error: "))
    warnings = list(getattr(rules, "warnings", []) or [])
    if not quiet:
        if warnings:
            echo(rules.render_diagnostics(warnings), err=True)
        echo(f"ok: {path} ({_count_rules(rules)} rules, {len(warnings)} warnings)")
        for name, (kind, where) in getattr(rules, "options", {}).items():
            echo(f"  option {name}: {kind}  ({where})")
    report = {"path": str(path), "ok": True, "diagnostics": [_diagnostic_dict(d) for d in warnings]}
    report["options"] = [{"name": n, "type": t, "location": w} for n, (t, w) in getattr(rules, "options", {}).items()]
    return report


@click.command()
@click.argument("rulesets", nargs=-1, required=True, metavar="RULESET...")
@limit_flag
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with every diagnostic.")
@rules_path_flag
@click.option("--watch", "watching", is_flag=True,
              help="Check again each time a file the rulesets read changes (a base, an import, a "
                   "data file too), until Ctrl-C.")
@click.option("--interval", type=click.FloatRange(0.01, 60), default=None, metavar="SECONDS",
              help="With --watch: the time between two looks at the files (default 0.05).")
def check(rulesets: tuple[str, ...], as_json: bool, watching: bool, interval: float | None) -> None:
    """Check rulesets and print their errors and warnings.

    Loads each RULESET (path or bundled name) through the parser and every checker pass, and
    reports all its diagnostics at once like a compiler: file:line:col, the source line with
    a caret, and a hint. Prints "ok: PATH (N rules, M warnings)" for each good ruleset, then
    the game options it takes (given to play and simulate with --option NAME=VALUE), and
    exits 1 if any has an error. With --json prints {"rulesets": [{"path", "ok",
    "diagnostics": [{"code", "severity", "message", "file", "line", "column"}], "options":
    [{"name", "type", "location"}]}]} (options only for a ruleset that loads).

    With --watch, checks again each time a file the rulesets read changes (looked at every
    --interval seconds), in the same process, which builds the edited text from what it kept
    of the last one: an edit is checked in a fraction of a new command's time. Each check
    after the first is headed on stderr by the files that changed, and followed by the time it
    took and the files watched. With --json, one object a check, one a line, with "changed"
    (the files that changed, none at first), "seconds" and "watching" (the files watched)
    added. A ruleset gone for a while (renamed, or saved by deleting it first) is checked again
    when it is back. Ctrl-C stops; the exit code is then the last check's.

    \b
    Example:
      regnum check kings_road rulesets/variants/permanent_nobles.rules
      regnum check --watch my_variant.rules
    """
    if interval is not None and not watching:
        raise click.BadParameter("only a check that watches looks at the files again: add --watch",
                                 param_hint="'--interval'")
    if watching:
        from ..watch import DEFAULT_INTERVAL
        _check_while_watching(rulesets, as_json, DEFAULT_INTERVAL if interval is None else interval)
        return
    reports = [_check_one(argument, quiet=as_json) for argument in rulesets]
    if as_json:
        click.echo(json.dumps({"rulesets": reports}))
    if not all(report["ok"] for report in reports):
        raise click.exceptions.Exit(1)


def _check_while_watching(rulesets: tuple[str, ...], as_json: bool, interval: float) -> None:
    """`regnum check --watch`: each check as the command makes it, then the files it read
    watched (watch.py)."""
    from .. import confine, loading, watch
    from ..compiler import codecache

    last_ok = True
    last_read: dict = {}

    def check_again(changed: list) -> dict:
        nonlocal last_ok, last_read
        if changed and not as_json:
            echo(f"── {time.strftime('%H:%M:%S')} {', '.join(confine.display(p) for p in changed)} "
                 "changed", err=True)
        started = time.perf_counter()
        # The cache written once the verdict is shown: it is for the processes that come after.
        with loading.noting_reads() as read, codecache.written_after():
            reports = [_check_one(argument, quiet=as_json) for argument in rulesets]
            seconds = time.perf_counter() - started
            last_ok = all(report["ok"] for report in reports)
            if as_json:
                click.echo(json.dumps({"rulesets": reports, "changed": [str(p) for p in changed],
                                       "seconds": round(seconds, 4), "watching": [str(p) for p in read]}))
            elif read:
                files = "1 file" if len(read) == 1 else f"{len(read)} files"
                echo(f"checked in {seconds * 1000:.0f} ms; watching {files} (Ctrl-C stops)", err=True)
        if not read:
            if not last_read:
                echo("error: nothing to watch: no ruleset file was found", err=True)
                raise click.exceptions.Exit(1)
            # The ruleset itself is gone (renamed, or saved by deleting it first): the files
            # read last are watched, so that it is checked again when it is back.
            return {path: watch.signature(path) for path in last_read}
        last_read = read
        return read

    try:
        watch.watch(check_again, interval)
    except KeyboardInterrupt:
        pass
    if not last_ok:
        raise click.exceptions.Exit(1)


@click.command("list")
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
            echo(name)
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
        echo(f"no bundled rulesets in {resources.data_dir('rulesets')}")
        return
    from rich.table import Table
    from rich.text import Text
    table = Table(title="Bundled rulesets")
    table.add_column("name", no_wrap=True)
    table.add_column("players", justify="center")
    table.add_column("path", overflow="fold")
    for row in rows:
        players = "error" if row["min_players"] is None else f"{row['min_players']}–{row['max_players']}"
        table.add_row(Text(safe(row["name"])), Text(players), Text(safe(row["path"])))
    console = make_console()
    wide_enough(console, table)   # to a file, each path whole on its line
    console.print(table)
