"""How the ``regnum`` command line turns errors into messages and exit codes.

Whatever the user types, the answer is a message, never a traceback. This module is the one
place that decides which errors the user can cause (and how to word them) and which are
internal bugs. It also holds the click group class that applies this policy to every command.
"""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, NoReturn

import click

import regnum

from ..agents import StuckGame
from ..terminal import safe

if TYPE_CHECKING:
    from pydantic import ValidationError


def api_error(name: str) -> type[BaseException] | tuple:
    """An exception class of the public API, or () (matches nothing) while it is missing."""
    cls = getattr(regnum, name, None)
    return cls if isinstance(cls, type) else ()


def loaded(module: str, name: str) -> type[BaseException] | tuple:
    """An exception class of a module that is imported only when needed (pydantic, the
    workers, the simulations), or () when it was never imported: then no such error can have
    been raised, and a command that never needed the module did not pay for importing it."""
    cls = getattr(sys.modules.get(module), name, None)
    return cls if isinstance(cls, type) else ()


def describe_error(err: BaseException) -> str | None:
    """The message for an error the user can cause, or None for an internal error."""
    if isinstance(err, api_error("RulesetError")):
        return str(err)
    if isinstance(err, api_error("IllegalMove")):
        return f"error: {err}"
    if isinstance(err, api_error("StateError")):
        return f"error: invalid saved game: {err}"
    if isinstance(err, api_error("LogError")):
        return f"error: invalid log: {err}"
    if isinstance(err, api_error("OptionError")):
        return f"error: {err}"
    if isinstance(err, OSError):
        if isinstance(err, FileNotFoundError) and not err.filename:
            return f"error: {err}"
        if err.filename:
            return f"error: {err.strerror or err}: {err.filename}"
        return f"error: {err}"
    if isinstance(err, UnicodeDecodeError):
        return f"error: the file is not UTF-8 text ({err.reason} at byte {err.start})"
    if isinstance(err, (StuckGame, loaded("regnum.simulate", "SimulationError"),
                        loaded("regnum.backends", "BackendError"))):
        return f"error: {err}"
    if isinstance(err, loaded("pydantic", "ValidationError")):
        return f"error: {validation_message(err)}"
    return None


def validation_message(err: ValidationError) -> str:
    """The first few field errors of a pydantic ValidationError, on one line."""
    parts = []
    for item in err.errors()[:5]:
        field = ".".join(str(part) for part in item.get("loc", ())) or "(top level)"
        parts.append(f"field '{field}': {item.get('msg', 'invalid')}")
    return "; ".join(parts)


def fail(message: str) -> NoReturn:
    """Print message on stderr and exit 1."""
    click.echo(safe(message), err=True)
    raise click.exceptions.Exit(1)


INPUT_EXIT = 2


def fail_input(message: str) -> NoReturn:
    """Print message on stderr and exit 2: a log or saved game that cannot be loaded (malformed,
    over a limit, of other rules) is bad input, told apart from a game that went wrong (1)."""
    click.echo(safe(message), err=True)
    raise click.exceptions.Exit(INPUT_EXIT)


def exit_code(err: BaseException) -> int:
    """2 for a log or saved game that cannot be loaded and for a backend that cannot run (Ray
    not installed, no cluster at --address), 1 for any other failure."""
    return INPUT_EXIT if isinstance(err, (api_error("LogError"), loaded("regnum.backends", "BackendUnavailable"))) else 1


class RegnumGroup(click.Group):
    """Turns every error a user can cause into a message on stderr and exit code 1 (2 for a
    log or saved game that cannot be loaded)."""

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
            click.echo(safe(message), err=True)
            raise click.exceptions.Exit(exit_code(err)) from None
