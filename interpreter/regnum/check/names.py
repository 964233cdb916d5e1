"""Pass: names that are taken twice or that hide a built-in.

A parameter list naming the same parameter twice makes one of them unreachable,
and a declaration or local called `count`, `players` or `score` would silently
change what those words mean in every rule below it.
"""
from __future__ import annotations

from .. import ast, builtins
from ..diagnostics import Diagnostic
from ..program import Program
from .symbols import token_span

# The grid functions (`cell`, `line`, `step`, …) came after rulesets had names of their own
# such as a zone `cell`: they do not reserve their names. Using one such name for a zone or
# a def only means the function cannot be called there (and a call is checked, not silent).
_UNRESERVED = {"groups", "step", "line", "distance", "on_edge", "cell", "directions"}
BUILTIN_NAMES = ((set(builtins.FUNCTIONS) | set(builtins.BOARD_FUNCTIONS) | set(builtins.AGGREGATES)
                  | {"argmax", "argmin", "players", "score", "player", "can", "previous"}) - _UNRESERVED)


# Declarations whose names stand for values in expressions (and so could hide a built-in).
VALUE_KINDS = ("const", "var", "def", "zone", "board", "enum")


def _params(decl) -> list[tuple[str, object]]:
    if isinstance(decl, ast.ActionDecl):
        return [(p.name, p.span) for p in decl.params]
    return [(p, token_span(decl.span, p, "(")) if i == 0 else (p, token_span(decl.span, p, ","))
            for i, p in enumerate(getattr(decl, "params", ()) or ())]


def _locals(body):
    """(name, span) of every local a block binds: let, for, simultaneously, generators."""
    for stmt in body:
        if isinstance(stmt, ast.LetStmt):
            yield stmt.name, token_span(stmt.span, stmt.name, "let")
        elif isinstance(stmt, (ast.ForStmt, ast.SimultaneousStmt)):
            yield stmt.var, token_span(stmt.span, stmt.var, "for")
        if isinstance(stmt, ast.IfStmt):
            for _, inner in stmt.branches:
                yield from _locals(inner)
            if stmt.otherwise:
                yield from _locals(stmt.otherwise)
        elif isinstance(getattr(stmt, "body", None), tuple):
            yield from _locals(stmt.body)


def _bodies(program: Program):
    for decl in program.decls.values():
        if decl.name in program.imported:
            continue
        if isinstance(decl, (ast.PhaseDecl, ast.RuleDecl, ast.ActionDecl, ast.TriggerDecl)):
            yield decl.body
    for kind in ("setup", "flow"):
        decl = program.singletons.get(kind)
        if decl is not None:
            yield decl.body


def check_names(program: Program) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for decl in program.decls.values():
        if decl.name in program.imported:
            continue
        if decl.name in BUILTIN_NAMES and decl.kind in VALUE_KINDS:
            out.append(Diagnostic("E118", "error", f"'{decl.name}' is a built-in name and cannot name "
                                  f"a {decl.kind}", token_span(decl.span, decl.name),
                                  "choose another name"))
        seen: set = set()
        for name, span in _params(decl):
            if name in seen:
                out.append(Diagnostic("E117", "error", f"parameter '{name}' of '{decl.name}' is named "
                                      "twice", span, "give each parameter its own name"))
            seen.add(name)
            if name in BUILTIN_NAMES and not (name == "player" and not isinstance(decl, ast.ActionDecl)):
                out.append(Diagnostic("E118", "error", f"'{name}' is a built-in name and cannot be a "
                                      "parameter", span, "choose another name"))
    for body in _bodies(program):
        for name, span in _locals(body):
            if name in BUILTIN_NAMES:
                out.append(Diagnostic("E118", "error", f"'{name}' is a built-in name and cannot be a "
                                      "local", span, "choose another name"))
    return out
