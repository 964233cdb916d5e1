"""The small functions the generated code calls while a game is played.

Why a module of their own: they are play-time code, called from every generated lister,
def and native procedure, while the rest of codegen runs once, when a ruleset is compiled,
and walks its syntax tree recursively. The optional compiled backend (regnum.compiled) keeps
both in Python: the walk because a compiled recursion has no recursion limit, these because,
called once per item from generated Python, compiled functions measured slower.
"""
from __future__ import annotations

import operator

from .. import boards
from ..builtins import EvalError
from ..engine.state import ZoneRef
from .text import format_value, text_of


def _deref(c, v):
    """A local may hold a zone reference (a rule parameter); in a value it means the contents."""
    return c.state.zones.get(v, []) if type(v) is ZoneRef else v


def _cell_value(c, name, board, cell):
    """A variable per cell of an open grid: its value, or its start at a cell not in use."""
    values = c.state.tables[name]
    if cell in values:
        return values[cell]
    return _cell_start(c, name, board, cell)


def _cell_start(c, name, board, cell):
    """The start of a variable per cell of an open grid, at a cell not in use (checked: a
    text met before as a cell is not parsed again)."""
    if cell not in _CELLS and boards.coordinates(cell) is None:
        raise EvalError(f"{name}({cell!r}): {cell!r} is not a cell (row,col)")
    return c.state.grids[board]["start"][name]


_CELLS = boards.PARSED   # the texts already parsed as cells: a text found there is a cell


def _attr(c, v, name):
    if type(v) is int:
        return c.state.pieces[v][name]
    if isinstance(v, dict):
        try:
            return v[name]
        except KeyError:
            raise EvalError(f"the map has no key {name!r}") from None
    if v is None:
        raise EvalError(f"'.{name}' of none")
    if type(v) is str and name in ("row", "col"):
        return boards.coordinate(v, name)
    raise EvalError(f"a {type(v).__name__} has no attribute '{name}'")


def _row(c, v):
    """`v.row`: a cell met before is one lookup; anything else (a piece, a map, a text never
    met) goes through _attr."""
    try:
        return _CELLS[v][0]
    except (KeyError, TypeError):
        return _attr(c, v, "row")


def _col(c, v):
    try:
        return _CELLS[v][1]
    except (KeyError, TypeError):
        return _attr(c, v, "col")


def _seat(c, p):
    """A seat number, checked: a per-player value of a seat that does not exist is an error."""
    if type(p) is int and 0 <= p < c.n:
        return p
    raise EvalError(f"{p!r} is not a seat of this game (seats are 0–{c.n - 1})")


def _index(o, i):
    try:
        return o[i]
    except (IndexError, KeyError, TypeError):
        text = repr(o)
        raise EvalError(f"no item {i!r} in {text if len(text) < 40 else text[:37] + '…'}") from None


def _div(a, b):
    if b == 0:
        raise EvalError("division by zero")
    return a // b


def _mod(a, b):
    if b == 0:
        raise EvalError("modulo by zero")
    return a % b


def _in(c, a, b):
    if type(b) is list or type(b) is str:
        # A search is work, counted; each comparison of a list, map or text with an item goes
        # through it.
        c.steps += len(b) * (1 + len(a)) if type(a) in (list, dict, str) and type(b) is list else len(b)
        if c.steps > c.max_steps:
            c.runaway()
    try:
        return a in b
    except TypeError:
        raise EvalError(f"'in' needs a list or map on its right, not {type(b).__name__}") from None


def _in_fixed(c, a, items, n):
    """`_in(c, a, b)` for a list `b` known at load that holds only texts, whole numbers, truth
    values and none (codegen: a constant): `items` is its set, `n` its length. The same
    steps and the same answer (no such item equals a list or a map), found by one lookup."""
    kind = type(a)
    steps = c.steps = c.steps + (n * (1 + len(a)) if kind is str or kind is list or kind is dict else n)
    if steps > c.max_steps:
        c.runaway()
    return kind is not list and kind is not dict and a in items


def _walk(c, items):
    """Count what a generator or a builtin goes through against the step limit."""
    steps = c.steps = c.steps + len(items)
    if steps > c.max_steps:
        c.runaway()
    return items


def _cells_where(c, cells, table: str, value, same: tuple):
    """The cells of `cells` (a fixed board's, charged already) where `table` has `value`,
    read from the table's index (State.cells_with) of `same`, the board's cells as every
    narrowing reads them (CodeGen.fixed_tuple), for a comprehension whose test refuses the
    others at its first part (codegen._table_narrowed); all of them without a state."""
    state = c.state
    if state is None:
        return cells
    found = state.cells_with(table, same, value)
    return cells if found is same else found


def _walk_items(c, items):
    """What a builtin that compares or copies items goes through: each item, and each item's
    own items when they are lists, maps or texts (sorting lists compares them item by item)."""
    n = len(items)
    if n and type(items) is list and type(items[0]) in _SIZED:
        if set(map(type, items)) <= _SIZED:   # the common case, counted without a Python loop
            n += sum(map(len, items))
        else:
            n += sum(len(x) if type(x) in _SIZED else 1 for x in items)
    return _walk(c, items) if n == len(items) else _charged(c, n, items)


_SIZED = frozenset((list, dict, str))   # the values whose items a comparison or a copy goes through


def _charged(c, n, value):
    c.charge(n)
    return value


def _add(c, a, b):
    """`+` where the checker could not prove both sides numbers: joined texts and lists are
    work and values like any other, so their size is counted and bounded before it is built."""
    if type(a) is int and type(b) is int:
        return a + b
    try:
        size = len(a) + len(b)
    except TypeError:
        return a + b   # numbers (or a mismatch Python reports as it would)
    if size > c.limits.value_size:
        c.too_big(a, size)
    c.charge(size)
    return a + b


def _mul(c, a, b):
    """`*` where the checker could not prove both sides numbers: a text or list repeated
    would be built at any size, so it is refused unless both are numbers."""
    if type(a) is int and type(b) is int:
        return a * b
    raise EvalError(f"'*' needs numbers, not {type(a).__name__} and {type(b).__name__}")


def _compare(c, a, b, op):
    """A comparison the checker could not prove cheap: lists, maps and texts compare item by
    item, and that work is counted."""
    if type(a) is list or type(a) is str or type(a) is dict:
        if type(b) is type(a):
            c.steps += min(len(a), len(b))
            if c.steps > c.max_steps:
                c.runaway()
    return _OPERATORS[op](a, b)


_OPERATORS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
              ">": operator.gt, ">=": operator.ge}


def _range(c, a, b=None):
    lo, hi = (0, a) if b is None else (a, b)
    if type(lo) is not int or type(hi) is not int:
        raise EvalError(f"range() needs whole numbers, not {lo!r} and {hi!r}")
    if hi > lo:   # counted before it is built: a range past a limit is never built
        if hi - lo > c.limits.value_size:
            c.too_big([], hi - lo, f"range({lo}, {hi})")
        c.charge(hi - lo)
    return list(range(lo, hi))


def _range_known(c, items, lo: int, hi: int):
    """`_range(c, lo, hi)` for bounds known at load, `items` the list made of them then
    (codegen._known_range): the same limit and steps; the list itself, for a caller that
    only goes through it."""
    n = hi - lo
    if n > c.limits.value_size:
        c.too_big([], n, f"range({lo}, {hi})")
    c.steps += n   # c.charge(n)
    return items


_UNSET = object()   # no value of a game: a value not computed yet


def _cells_unequal(memo: dict, table: dict, items, value, start=_UNSET):
    """For a move lister's `all(T(x) == v for x in S)`, S the cells around some cells of T's
    board (conditions._cells_unequal): the cells of `table` where its value is not `value`
    (not `==`), made once per listing (`memo`, the listing's own), once the loop would have
    judged as many items as half the table has cells, and None before (the loop judges
    them: a listing with few candidates does not pay for the set). Every item is a cell of
    the board, so the test holds exactly when none is among those: the cells of a fixed
    board are all in its tables, and those of an open grid not in use hold its `start`
    (given for an open grid), which must then be `value` (else _NEVER: the loop judges). A
    listing writes nothing, so the set stays true of the table while it lists."""
    judged = memo.get(_JUDGED, 0) + len(items)
    if judged < len(table) >> 1:
        memo[_JUDGED] = judged
        return None
    if start is not _UNSET and not start == value:
        found = memo[_UNEQUAL] = _NEVER
    else:
        found = memo[_UNEQUAL] = {cell for cell, there in table.items() if not there == value}
    return found


class _Never:
    """The cells of _cells_unequal where no set can stand for them: no item is judged apart."""

    __slots__ = ()

    def isdisjoint(self, items) -> bool:
        return False


_NEVER = _Never()
_UNEQUAL, _JUDGED = 0, 1   # what _cells_unequal keeps in a listing's memo


class _Once:
    """The value of a search that reads nothing a comprehension's items change, computed at
    its first use in one evaluation of the comprehension and only read at the later ones
    (codegen `_lazy_sources`). Each later use charges the steps the first one took, so that
    the steps counted, and the step limit, are those of computing it every time."""

    __slots__ = ("c", "f", "v", "d")

    def __init__(self, c, f):
        self.c, self.f, self.v, self.d = c, f, _UNSET, 0

    def __call__(self):
        c = self.c
        if self.v is _UNSET:
            before = c.steps
            self.v = self.f()
            self.d = c.steps - before
        else:
            steps = c.steps = c.steps + self.d
            if steps > c.max_steps:
                c.runaway()
        return self.v



def _put(memo: dict, key, value):
    if key is not _UNSET:
        memo[key] = value
    return value


def _last(items):
    return items[-1] if items else None


def _argbest(pairs, highest):
    best, out = None, []
    for x, v in pairs:
        if best is None or (v > best if highest else v < best):
            best, out = v, [x]
        elif v == best:
            out.append(x)
    return out


RUNTIME = {"_seat": _seat, "_deref": _deref, "_cell_value": _cell_value, "_cell_start": _cell_start, "_cells": _CELLS, "_attr": _attr, "_row": _row, "_col": _col, "_index": _index, "_div": _div, "_mod": _mod, "_in": _in, "_in_fixed": _in_fixed, "_cells_where": _cells_where,
           "_last": _last, "_walk": _walk, "_charged": _charged, "_add": _add, "_mul": _mul, "_compare": _compare, "_walk_items": _walk_items, "_range": _range, "_range_known": _range_known, "_text": text_of, "_argbest": _argbest, "_format": format_value,
           "EvalError": EvalError, "_UNSET": _UNSET, "_m_once": _Once, "_m_put": _put, "_m_cells_unequal": _cells_unequal}
