"""The functions every ruleset may call: pure, total where they can be, and game-free.

The checker reads ARITY to report wrong calls; the compiler binds IMPLEMENTATIONS.
Functions that need the board topology take the board by name as first argument.
"""
from __future__ import annotations

from .diagnostics import Diagnostic

MAX_RANGE = 1_000_000


class EvalError(Exception):
    """A runtime error inside an expression; the VM turns it into a RulesetError."""


def _count(x):
    return len(x)


def _sum(xs):
    return sum(xs)


def _max(*xs):
    if len(xs) == 1 and isinstance(xs[0], list):
        xs = xs[0]
    return max(xs) if xs else None


def _min(*xs):
    if len(xs) == 1 and isinstance(xs[0], list):
        xs = xs[0]
    return min(xs) if xs else None


def _first(xs):
    return xs[0] if xs else None


def _last(xs):
    return xs[-1] if xs else None


def _next(xs, x, n=1):
    try:
        return xs[(xs.index(x) + n) % len(xs)]
    except ValueError:
        raise EvalError(f"next(): {x!r} is not in the list") from None


def _index(xs, x):
    try:
        return xs.index(x)
    except ValueError:
        raise EvalError(f"index(): {x!r} is not in the list") from None


def _range(a, b=None):
    lo, hi = (0, a) if b is None else (a, b)
    if hi - lo > MAX_RANGE:
        raise EvalError(f"range() of {hi - lo} numbers exceeds the limit of {MAX_RANGE}")
    return list(range(lo, hi))


def _reversed(xs):
    return xs[::-1]


def _sorted(xs):
    return sorted(xs)


def _unique(xs):
    """The first of each value, in order; two values are the same when they show the same
    (`1` and `true` are two). Of texts only (cells, names) or whole numbers only, that is
    when they are equal: a dict keeps them, without a repr per item."""
    kinds = set(map(type, xs))
    if kinds == _TEXTS or kinds == _NUMBERS:
        return list(dict.fromkeys(xs))
    seen, out = set(), []
    for x in xs:
        key = repr(x)
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


_TEXTS, _NUMBERS = {str}, {int}


def _abs(x):
    return abs(x)


def _text(x):
    """`text(x)` is compiled with the kind of x known (a seat shows as P0); this is its fallback."""
    return str(x)


# name -> (min args, max args, implementation)
FUNCTIONS = {
    "count": (1, 1, _count),
    "sum": (1, 1, _sum),
    "max": (1, 8, _max),
    "min": (1, 8, _min),
    "any": (1, 1, any),
    "all": (1, 1, all),
    "first": (1, 1, _first),
    "last": (1, 1, _last),
    "next": (2, 3, _next),
    "index": (2, 2, _index),
    "range": (1, 2, _range),
    "reversed": (1, 1, _reversed),
    "sorted": (1, 1, _sorted),
    "unique": (1, 1, _unique),
    "abs": (1, 1, _abs),
    "text": (1, 1, _text),
}


# Aggregates take a generator: f(expr for x in xs where cond).
AGGREGATES = ("count", "sum", "max", "min", "any", "all", "argmax", "argmin", "first", "last")

# Built-in names usable as values.
CONSTANT_NAMES = ("players",)

# `can(player, action, …)`: whether the player has a legal move of one of the actions now.
SPECIAL_CALLS = ("can",)

# Functions over a board's topology (boards.py); the first argument names the board.
from .boards import FUNCTIONS as _BOARD_IMPLEMENTATIONS  # noqa: E402 (boards needs EvalError above)

BOARD_FUNCTIONS = {name: (lo, hi) for name, (lo, hi, _) in _BOARD_IMPLEMENTATIONS.items()}

ALL_CALLABLE = set(FUNCTIONS) | set(BOARD_FUNCTIONS) | {"argmax", "argmin"} | set(SPECIAL_CALLS)

__all__ = ["FUNCTIONS", "BOARD_FUNCTIONS", "AGGREGATES", "EvalError", "Diagnostic"]
