"""The ``regnum`` command line: check, list, play, simulate, compare, fuzz, replay, bench and diff rulesets; redact logs;
build the optional compiled backend.

Exit codes: 0 ok; 1 a ruleset or game failure (an illegal move, a limit hit, a stuck game); 2 a
usage error (click's own), or a log or saved game that cannot be loaded or whose rules are
refused. Whatever the user types, the answer is a message, never a traceback: errors the user
can cause are printed cleanly on stderr; anything else is reported as an internal error (set
``REGNUM_DEBUG=1`` to see its traceback). With ``--json`` a command prints exactly one JSON
object on stdout and nothing else there.

This package's ``__init__`` holds only the click group, which names the commands of the
modules beside it, and ``main``, the entry point of the ``regnum`` console script
(``regnum.cli:main``). Each command lives in its own module: ``check_list`` (check, list),
``play``, ``simulate_cmd`` (simulate), ``compare_cmd`` (compare), ``fuzz_cmd`` (fuzz), ``replay`` (replay,
log), ``bench``, ``diff_cmd`` (diff) and ``compiled_cmd`` (compiled); ``errors`` and ``common`` hold what they share.
A command's module is imported when the command runs (``lazy``): a process imports the one it runs.
"""
from __future__ import annotations

import click

from .errors import RegnumGroup, describe_error
from .lazy import LazyCommands

__all__ = ["cli", "main", "describe_error"]

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(cls=RegnumGroup, context_settings=CONTEXT)
@click.version_option(package_name="regnum", prog_name="regnum")
def cli() -> None:
    """regnum: a rules language for board games and an interpreter that plays them.

    Every command takes a RULESET: a path to a .rules file (a game or a variant) or the name
    of a bundled ruleset (see `regnum list`). Exit codes: 0 ok, 1 a ruleset, log or game
    failure, 2 a usage error or a log that cannot be loaded.

    \b
    Example:
      regnum check kings_road
      regnum play kings_road --players 4 --bots 1,2,3
    """


cli.commands = LazyCommands(__name__, {
    "check": ("check_list", "check"),
    "list": ("check_list", "list_rulesets"),
    "play": ("play", "play"),
    "simulate": ("simulate_cmd", "simulate_command"),
    "compare": ("compare_cmd", "compare_command"),
    "fuzz": ("fuzz_cmd", "fuzz_command"),
    "replay": ("replay", "replay"),
    "log": ("replay", "log_group"),
    "bench": ("bench", "bench"),
    "diff": ("diff_cmd", "diff_command"),
    "compiled": ("compiled_cmd", "compiled_group"),
})


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``regnum`` console script."""
    cli.main(args=argv, prog_name="regnum")
