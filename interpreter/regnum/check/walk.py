"""A generic walk over expressions: the free names they use, for the graph passes.

The type walk (exprs.py) resolves names fully; the passes that only need
"which names does this expression depend on" (constants, recursion, secrecy,
and the compiler) use this. They ask about the same bodies again and again
(a def once per caller and per stage), and a syntax tree is kept between
loads: the answer for a node is kept with the node, which is never changed.
"""
from __future__ import annotations

import dataclasses

from .. import ast
from ..source import Span

_KEPT: dict = {}       # (id(node), bound) -> (node, answer): the node is held, so its id stays its own
_KEPT_MOST = 20_000    # emptied past this: a process that loads many rulesets does not keep them all


def free_names(node, bound: frozenset = frozenset()) -> tuple[tuple[str, Span, bool], ...]:
    """(name, span, is_call) for every name an expression uses that `bound` does not bind, in order."""
    if type(bound) is not frozenset:
        bound = frozenset(bound)
    key = (id(node), bound)
    kept = _KEPT.get(key)
    if kept is not None and kept[0] is node:
        return kept[1]
    out: list = []
    _free(node, bound, out)
    if len(_KEPT) >= _KEPT_MOST:
        _KEPT.clear()
    answer = _KEPT[key] = (node, tuple(out))
    return answer[1]


def _free(node, bound: frozenset, out: list) -> None:
    if isinstance(node, ast.Name):
        if node.name not in bound:
            out.append((node.name, node.span, False))
        return
    if isinstance(node, ast.Call):
        if node.func not in bound:
            out.append((node.func, node.func_span, True))
        for arg in node.args:
            _free(arg, bound, out)
        return
    if isinstance(node, (ast.ListComp, ast.Aggregate)):
        inner = bound
        for var, source, cond in [(node.var, node.source, node.cond)] + [(m.var, m.source, m.cond)
                                                                         for m in node.more]:
            _free(source, inner, out)
            inner = inner | {var}
            if cond is not None:
                _free(cond, inner, out)
        _free(node.element, inner, out)
        return
    if isinstance(node, ast.DataFile):
        return
    if isinstance(node, tuple):
        for item in node:
            _free(item, bound, out)
        return
    if dataclasses.is_dataclass(node) and not isinstance(node, Span):
        for f in dataclasses.fields(node):
            _free(getattr(node, f.name), bound, out)
