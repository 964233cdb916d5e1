"""What one ruleset changes in another, declaration by declaration (`regnum diff`).

A variant states only what differs from its base, but what it changes is known only once
its chain of bases is resolved: a declaration may replace one of the base, add a new one or
remove one, and a variant of a variant inherits what its own base changed. A text diff of
the two files says none of this (the files hardly share a line), so the comparison is made
between the two resolved programs (program.py), by kind and name, the way the language
itself matches a variant's declarations to its base's.

A declaration of both programs that comes from the same place of the same file was
inherited: it is unchanged and only counted. One declared in another place was replaced;
whether the replacement differs from the base is told by comparing the two syntax trees
without their source spans (so a declaration restated word for word, or laid out on other
lines, is a replacement that changes nothing). This module knows programs and syntax trees
only; the command line (cli/diff_cmd.py) prints the result.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from . import ast
from .program import Program
from .source import Span

CHANGES = ("replaced", "removed", "added")   # the order in which a diff lists its changes


@dataclass(frozen=True)
class Change:
    """One declaration that differs. `base` is where the base declares it (None when added);
    `variant` where the variant states the change: its declaration, or for a removal the
    `remove KIND NAME` that deletes it (None when no variant of the chain removed it, as when
    two unrelated rulesets are compared). `identical`: a replacement whose syntax tree is the
    base's (it changes nothing)."""

    kind: str
    name: str
    change: str          # "replaced" | "removed" | "added"
    base: Span | None
    variant: Span | None
    identical: bool = False


@dataclass(frozen=True)
class Diff:
    changes: tuple[Change, ...]
    unchanged: int       # declarations the variant inherited as they are


def declarations(program: Program) -> dict[tuple[str, str], object]:
    """Every declaration of a program by (kind, name); a singleton (game, players, setup,
    flow, winner, ends) is named by its kind, as `remove winner winner` names it."""
    found: dict[tuple[str, str], object] = {(kind, kind): decl for kind, decl in program.singletons.items()}
    for name, decl in program.decls.items():
        found[(decl.kind, name)] = decl
    return found


def display_name(kind: str, name: str) -> str:
    """The name a reader knows a declaration by: a view by its board or piece type."""
    return name.removeprefix("view ") if kind == "view" else name


def diff_programs(base: Program, variant: Program) -> Diff:
    """The changes that turn `base` into `variant`, replaced then removed then added, each
    group in source order: where the variant states the change, its chain's files from the
    first base to the variant itself, else (a removal no variant states) where the base has it."""
    old, new = declarations(base), declarations(variant)
    removed_by = variant.removed
    changes, unchanged = [], 0
    for key, decl in old.items():
        if key not in new:
            remove = removed_by.get(key)
            changes.append(Change(*_named(key), "removed", decl.span, remove.span if remove else None))
            continue
        other = new[key]
        equal = same_tree(decl, other)
        if equal and _same_place(decl.span, other.span):
            unchanged += 1
        else:
            changes.append(Change(*_named(key), "replaced", decl.span, other.span, identical=equal))
    for key, decl in new.items():
        if key not in old:
            changes.append(Change(*_named(key), "added", None, decl.span))
    files = {f: i for i, f in enumerate(variant.files + base.files)}
    changes.sort(key=lambda change: _order(change, files))
    return Diff(tuple(changes), unchanged)


def _named(key: tuple[str, str]) -> tuple[str, str]:
    kind, name = key
    return kind, display_name(kind, name)


def _order(change: Change, files: dict[str, int]):
    where = change.variant or change.base
    return (CHANGES.index(change.change), change.variant is None, files.get(where.file, len(files)),
            where.file, where.line, where.column, change.kind, change.name)


def _same_place(a: Span, b: Span) -> bool:
    """The same line and column of the same file, however each program names the file (a
    bundled ruleset by its name, or through a variant's `of "../base.rules"`)."""
    if (a.line, a.column) != (b.line, b.column):
        return False
    if a.file == b.file:
        return True
    try:
        return Path(a.file).resolve() == Path(b.file).resolve()
    except (OSError, RuntimeError):
        return False


def same_tree(a, b) -> bool:
    """Whether two syntax trees say the same, ignoring where they are written (every Span).
    A data file's value is compared by its digest, not by the path that names it. Walks with
    a stack, not recursion: a tree may be as deep as the limits let a ruleset nest."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if isinstance(x, Span) and isinstance(y, Span):
            continue
        if type(x) is not type(y):
            return False
        if isinstance(x, ast.DataFile) and x.digest and y.digest:
            if x.digest != y.digest:
                return False
        elif dataclasses.is_dataclass(x):
            stack.extend((getattr(x, f.name), getattr(y, f.name)) for f in dataclasses.fields(x))
        elif isinstance(x, (tuple, list)):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif isinstance(x, dict):
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif x != y:
            return False
    return True
