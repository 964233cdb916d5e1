"""A generic walk over expressions: the free names they use, for the graph passes.

The type walk (exprs.py) resolves names fully; the passes that only need
"which names does this expression depend on" (constants, recursion) use this.
"""
from __future__ import annotations

import dataclasses
from typing import Iterator

from .. import ast
from ..source import Span


def free_names(node, bound: frozenset = frozenset()) -> Iterator[tuple[str, Span, bool]]:
    """(name, span, is_call) for every name an expression uses that `bound` does not bind."""
    if isinstance(node, ast.Name):
        if node.name not in bound:
            yield node.name, node.span, False
        return
    if isinstance(node, ast.Call):
        if node.func not in bound:
            yield node.func, node.func_span, True
        for arg in node.args:
            yield from free_names(arg, bound)
        return
    if isinstance(node, (ast.ListComp, ast.Aggregate)):
        inner = bound
        for var, source, cond in [(node.var, node.source, node.cond)] + [(m.var, m.source, m.cond)
                                                                         for m in node.more]:
            yield from free_names(source, inner)
            inner = inner | {var}
            if cond is not None:
                yield from free_names(cond, inner)
        yield from free_names(node.element, inner)
        return
    if isinstance(node, ast.DataFile):
        return
    if isinstance(node, tuple):
        for item in node:
            yield from free_names(item, bound)
        return
    if dataclasses.is_dataclass(node) and not isinstance(node, Span):
        for f in dataclasses.fields(node):
            yield from free_names(getattr(node, f.name), bound)
