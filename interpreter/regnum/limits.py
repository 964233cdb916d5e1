"""The limits every untrusted input runs within, stated once (docs/limits.md).

A ruleset, a variant, a data file, a log or a saved state may come from a stranger. Each
limit below bounds the work or memory one such input can cost; when one is hit the result is
a located error naming the limit, its value and how to raise it (`--limit NAME=VALUE` on the
command line, `regnum.Limits(NAME=VALUE)` from Python), never a hang or a raw exception.
The defaults sit far above what the bundled games need (docs/limits.md gives their peaks).
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from .diagnostics import did_you_mean


@dataclass(frozen=True)
class Limits:
    """Bounds on work and size. Every field is a positive integer."""

    # ── running rules ──
    steps: int = 2_000_000
    """Steps between two decisions (a move, the setup, or all constants at load). A statement
    is a step, and so is every item a comprehension or a builtin goes through."""
    value_size: int = 1_000_000
    """Items in one list or map, characters in one text, that a rule builds."""
    state_size: int = 20_000_000
    """Items and characters in the whole state (pieces, zones, every stored value)."""
    pieces: int = 100_000
    """Pieces created in one game."""
    call_depth: int = 200
    """Rules and definitions calling each other, nested."""
    moves: int = 100_000
    """Legal moves one action may offer one player at once."""
    number: int = 2 ** 62
    """The magnitude a number may reach (numbers stay inside 64 bits)."""
    grid_reach: int = 1_000_000
    """How far an open grid reaches: a cell's row and column lie within ±this."""

    # ── reading rulesets ──
    ruleset_bytes: int = 4_000_000
    """Bytes in one ruleset or variant file."""
    nesting: int = 200
    """Nesting depth of blocks and expressions in a ruleset."""
    declarations: int = 100_000
    """Declarations in one ruleset, its imports and its variant bases."""

    # ── reading logs and saved games ──
    json_bytes: int = 100_000_000
    """Bytes in one log or saved game."""
    json_depth: int = 100
    """Nesting depth of arrays and objects in a log or saved game."""

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if type(value) is not int or value < 1:
                raise ValueError(f"limit '{field.name}' must be a positive integer, not {value!r}")

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def describe(cls, name: str) -> str:
        """The one-line meaning of a limit (its docstring above)."""
        return _docs().get(name, "")

    def with_overrides(self, settings: "dict[str, int] | list[str] | tuple[str, ...]") -> "Limits":
        """These limits with some replaced: a dict, or `NAME=VALUE` texts as the CLI takes them.
        Raises ValueError naming an unknown limit (with a "did you mean") or a bad value."""
        if not isinstance(settings, dict):
            parsed = {}
            for text in settings:
                name, sep, value = str(text).partition("=")
                name = name.strip().replace("-", "_")
                if not sep:
                    raise ValueError(f"a limit is set as NAME=VALUE, not {text!r}")
                value = value.strip().replace("_", "")
                if not value.isdigit():
                    raise ValueError(f"limit '{name}' must be a positive integer, not {value!r}")
                parsed[name] = int(value)
            settings = parsed
        known = self.names()
        for name in settings:
            if name not in known:
                hint = did_you_mean(name, known)
                raise ValueError(f"there is no limit '{name}'" + (f"; {hint}" if hint else
                                 f" (limits: {', '.join(known)})"))
        return dataclasses.replace(self, **settings)

    def hint(self, name: str) -> str:
        """How to raise a limit, for the message of an error that hit it."""
        return (f"limit '{name}' is {getattr(self, name):_}; raise it with --limit {name}=N "
                f"or regnum.Limits({name}=N)")


@functools.cache
def _docs() -> dict[str, str]:
    """Each field's docstring, read from this file's source (dataclass fields keep none)."""
    import ast as pyast
    import inspect
    try:
        tree = pyast.parse(inspect.getsource(Limits))
    except (OSError, TypeError):   # no source shipped: the names alone
        return {}
    out, last = {}, None
    for node in tree.body[0].body:
        if isinstance(node, pyast.AnnAssign) and isinstance(node.target, pyast.Name):
            last = node.target.id
        elif last and isinstance(node, pyast.Expr) and isinstance(node.value, pyast.Constant):
            out[last] = " ".join(str(node.value.value).split())
            last = None
    return out


class Overflow(Exception):
    """A limit was reached while a game ran; the runtime adds where (a located E901), and the
    hint (Limits.hint) says how to raise the limit."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


DEFAULT = Limits()
