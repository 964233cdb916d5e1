"""Game options: the check that a value given for an option fits the option's declared type.

Options come from the person starting a game (`new_game(options=…)`, `--option`), so their
values are untrusted JSON: each is checked against the declaration before the game starts.
"""
from __future__ import annotations

from .. import ast


# type name -> (does a value fit, given the player count; what is expected, in words)
_SCALARS = {
    "int": (lambda v, n: type(v) is int, "a whole number"),
    "bool": (lambda v, n: type(v) is bool, "true or false"),
    "str": (lambda v, n: type(v) is str, "a text"),
    "player": (lambda v, n: type(v) is int and 0 <= v < n, "a seat of this game"),
}


def _member_of(values: set):
    return lambda v, n: type(v) is str and v in values


def type_check(ref: ast.TypeRef, program, boards: dict):
    """A function `(value, players) -> None | why the value does not fit` for a declared type."""
    if ref.item is not None:
        item = type_check(ref.item, program, boards)

        def check_list(value, players):
            if type(value) is not list:
                return f"a list is expected, not {value!r}"
            for i, x in enumerate(value):
                why = item(x, players)
                if why is not None:
                    return f"item {i}: {why}"
            return None
        return check_list
    name, optional = ref.name, ref.optional
    if name in _SCALARS:
        fits, what = _SCALARS[name]
    elif name in boards and boards[name].is_open:   # any cell; the game's reach bounds its use
        fits, what = (lambda v, players: _cell(v)), f"a cell (row,col) of open grid '{name}'"
    elif name in boards:
        fits, what = _member_of(set(boards[name].cells)), f"a cell of board '{name}'"
    else:
        decl = program.get(name, "enum")
        members = {m for m, _ in decl.members} if decl is not None else set()
        fits = _member_of(members)
        what = f"one of {', '.join(sorted(members))}" if members else f"a {name}"

    def check(value, players):
        if value is None and optional:
            return None
        return None if fits(value, players) else f"{what} is expected, not {value!r}"
    return check


def _cell(value) -> bool:
    from ..boards import coordinates
    return type(value) is str and coordinates(value) is not None
