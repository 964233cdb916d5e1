"""Pass: what is drawn for every seat reads only what every seat may see.

A `view` (the text of a cell or a piece) and an action's `label` (how a move reads) are shown
to all the players at the table, so they may not read a variable shown to its owner only or
to nobody, nor a zone that is not public — directly or through the definitions they call.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic
from ..program import Program
from .walk import free_names


def check_secrecy(program: Program) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for view in program.of_kind("view"):
        parts = (view.text, view.colour)
        out += _report(program, parts, frozenset({view.var}), f"the view of '{view.board}'", view.span)
    for action in program.of_kind("action"):
        if action.label is not None:
            holes = tuple(p for p in action.label.parts if not isinstance(p, str))
            bound = frozenset(["player"] + [p.name for p in action.params])
            out += _report(program, holes, bound, f"the label of action '{action.name}'", action.label.span)
    return out


def _report(program: Program, node, bound: frozenset, what: str, span) -> list[Diagnostic]:
    secret = _secret_read(program, node, bound, set())
    if secret is None:
        return []
    name, kind, where = secret
    return [Diagnostic("E123", "error", f"{what} is shown to every seat, but it reads the {kind} '{name}'",
                       where, "views and labels may read only what every seat sees (public variables and zones)")]


def _secret_read(program: Program, node, bound: frozenset, seen: set):
    for name, span, _ in free_names(node, bound):
        decl = program.get(name)
        if decl is None:
            continue
        if decl.kind == "var" and decl.visibility != "public":
            return name, f"{decl.visibility} variable", span
        if decl.kind == "zone" and decl.visibility != "public":
            return name, f"{decl.visibility} zone", span
        if decl.kind == "def" and name not in seen:
            seen.add(name)
            found = _secret_read(program, decl.body, frozenset(decl.params), seen)
            if found is not None:
                return found[0], found[1], span
    return None
