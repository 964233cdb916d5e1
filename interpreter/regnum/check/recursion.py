"""Pass: definitions must not call themselves, directly or through others.

A `def` is an expression and must always give a value; the compiler binds
def bodies once, and a recursive one would loop until the depth limit.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic
from ..program import Program
from .walk import free_names


def check_recursion(program: Program) -> list[Diagnostic]:
    calls: dict[str, list] = {}
    for decl in program.of_kind("def"):
        calls[decl.name] = [(name, span) for name, span, _ in free_names(decl.body, frozenset(decl.params))
                            if program.get(name, "def") is not None]
    out: list[Diagnostic] = []
    reported: set = set()
    for start in calls:
        if start in reported:
            continue
        path = _cycle(start, calls, [start], set())
        if path is None:
            continue
        reported.update(path)
        span = next(s for name, s in calls[start] if name == path[1])
        how = "calls itself" if len(path) == 2 else "calls itself through " + \
            ", ".join(f"'{n}'" for n in path[1:-1])
        out.append(Diagnostic("E305", "error", f"definition '{start}' {how}: {' → '.join(path)}", span,
                              "a def must always give a value: use an aggregate over a list "
                              "(for example connected(…) or count(…)), or a rule"))
    return out


def _cycle(name: str, calls: dict, path: list, seen: set):
    for target, _ in calls.get(name, ()):
        if target == path[0]:
            return path + [target]
        if target in path or target in seen:
            continue
        seen.add(target)
        found = _cycle(target, calls, path + [target], seen)
        if found:
            return found
    return None
