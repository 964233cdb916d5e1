"""A file's tree after an edit, made from the tree of its earlier text: only the declarations
the edit touched are parsed again.

An author edits a file and loads it again; parsing the whole file again is most of what that
load costs when the file is a game of its own (Kingdom Builder's: some 45 ms of CPU). The
grammar reads a file as declarations one after the other (`start: (_NL | declaration)*`), each
beginning at the first column and running to the next one's first line (its last `_NL` takes
the blank and comment lines up to there), and what one declaration becomes depends only on
its own text and where it stands. So when the earlier text's tree is at hand, the lines the
two texts share at their start and at their end are found, and parsed again is only the run
of declarations that holds the lines between — widened by one declaration on each side, so
that a line the edit added at a declaration's first line, or a header it took away, is read
with the declaration it may belong to. The declarations before are taken as they are; those
after, with their lines moved by the lines the edit added or took away.

The result is the tree parsing the whole text gives, or nothing (then the whole text is
parsed, as before): the run parsed again must parse alone, and the file must still hold no
more declarations than the limits allow. The lines before and after the run are the ones
both texts share, and each side of the run is where a declaration of the earlier text
began: nothing before it was left open there (a bracket, a block, a backslash's line), or
the earlier text would not have begun one. `VERIFY` parses the whole text too and compares
(the tests turn it on).
"""
from __future__ import annotations

import dataclasses

from . import ast
from .diagnostics import RulesetError
from .source import Span

# Parse the whole text as well and fail if the trees differ (for tests).
VERIFY = False


def rebuilt(text: str, earlier_text: str, earlier: ast.Module, file: str, limits, parse_alone) -> ast.Module | None:
    """The tree of `text`, from `earlier`, the tree of `earlier_text` (the same file, the same
    limits); `parse_alone(text)` parses a text of the file's declarations. None when the
    edit cannot be read so."""
    old, new = earlier_text.split("\n"), text.split("\n")
    decls = earlier.decls
    if not decls or old == new:
        return None
    same = 0
    for a, b in zip(old, new):
        if a != b:
            break
        same += 1
    shared_end = 0
    for a, b in zip(reversed(old[same:]), reversed(new[same:])):
        if a != b:
            break
        shared_end += 1
    moved = len(new) - len(old)
    # The earlier lines the edit replaced, [first, last) counted from 1; the declarations
    # overlapping them (or, for lines only added, holding the place they were added at), and
    # one more on each side.
    first, last = same + 1, len(old) - shared_end + 1
    touched = [i for i, d in enumerate(decls) if d.span.line < max(last, first + 1) and d.span.end_line > first]
    if touched:
        lo, hi = max(touched[0] - 1, 0), min(touched[-1] + 1, len(decls) - 1)
    else:   # lines before the first declaration, or after the last: the one next to them
        lo = hi = 0 if first < decls[0].span.line else len(decls) - 1
    start = 1 if lo == 0 else decls[lo].span.line          # the header comments go with the first
    end = decls[hi].span.end_line if hi < len(decls) - 1 else len(old) + 1
    stop = end + moved                                     # where the run ends in the new text
    run = "\n" * (start - 1) + "\n".join(new[start - 1:stop - 1])
    if stop - 1 < len(new):
        run += "\n"
    try:
        parsed = parse_alone(run).decls
    except RulesetError:   # reported as the whole text reports it
        return None
    before, after = decls[:lo], decls[hi + 1:]
    if len(before) + len(parsed) + len(after) > limits.declarations:
        return None
    try:
        module = ast.Module(file, before + parsed + _moved(after, moved))
    except (TypeError, RecursionError):   # a node made otherwise than by its fields: parse it all
        return None
    if VERIFY:
        whole = parse_alone(text)
        assert module == whole, f"{file}: the tree made from the earlier one differs from the parsed one"
    return module


def _moved(decls: tuple, lines: int) -> tuple:
    """`decls` with every span `lines` lines further (the same objects when nothing moves)."""
    if not lines:
        return decls
    made: dict[int, object] = {}

    def moved(value):
        kind = type(value)
        if kind is Span:
            return Span(value.file, value.line + lines, value.column, value.end_line + lines, value.end_column)
        if kind is tuple:
            return tuple(moved(item) for item in value)
        if kind.__module__ != ast.__name__ or not dataclasses.is_dataclass(value):
            return value
        known = made.get(id(value))
        if known is None:
            known = made[id(value)] = kind(*(moved(getattr(value, f.name)) for f in dataclasses.fields(value)))
        return known
    return tuple(moved(d) for d in decls)
