"""Pass: definitions must not call themselves, directly or through others.

A `def` is an expression and must always give a value; the compiler binds
def bodies once, and a recursive one would loop until the depth limit.
"""
from __future__ import annotations

from .. import ast
from ..diagnostics import Diagnostic
from ..graphs import loops
from ..program import Program
from .walk import free_names


def check_recursion(program: Program) -> list[Diagnostic]:
    return _defs(program) + _can_cycles(program)


def _can_calls(node, program: Program, seen: set):
    """(action, span) of every `can(p, action…)` an expression makes, through defs too."""
    if isinstance(node, ast.Call) and node.func == "can" and program.get("can") is None:
        for arg in node.args[1:]:
            if isinstance(arg, ast.Name) and program.get(arg.name, "action") is not None:
                yield arg.name, arg.span
    if isinstance(node, ast.Call) and node.func not in seen and program.get(node.func, "def") is not None:
        seen.add(node.func)
        for action, _ in _can_calls(program.get(node.func, "def").body, program, seen):
            yield action, node.span
    if isinstance(node, tuple):
        for item in node:
            yield from _can_calls(item, program, seen)
    elif hasattr(node, "__dataclass_fields__") and not isinstance(node, ast.Template):
        for name in node.__dataclass_fields__:
            if name != "span":
                yield from _can_calls(getattr(node, name), program, seen)


def _can_cycles(program: Program) -> list[Diagnostic]:
    """An action whose choices or requires ask can() about itself (directly or through other
    actions) would list its moves forever."""
    calls = {}
    for decl in program.of_kind("action"):
        parts = tuple(p.domain for p in decl.params) + tuple(c.cond for c in decl.requires)
        calls[decl.name] = list(_can_calls(parts, program, set()))
    return [Diagnostic("E313", "error", f"action '{start}' asks can() about "
                       + ("itself" if len(path) == 2 else " → ".join(path)) + " to list its own moves",
                       span, "can() may be asked in the flow, in rules and in other actions' clauses; "
                       "an action's own choices cannot depend on themselves")
            for start, path, span in _cycles(calls)]


def _defs(program: Program) -> list[Diagnostic]:
    calls: dict[str, list] = {}
    for decl in program.of_kind("def"):
        calls[decl.name] = [(name, span) for name, span, _ in free_names(decl.body, frozenset(decl.params))
                            if program.get(name, "def") is not None]
    out: list[Diagnostic] = []
    for start, path, span in _cycles(calls):
        how = "calls itself" if len(path) == 2 else "calls itself through " + \
            ", ".join(f"'{n}'" for n in path[1:-1])
        out.append(Diagnostic("E305", "error", f"definition '{start}' {how}: {' → '.join(path)}", span,
                              "a def must always give a value: use an aggregate over a list "
                              "(for example connected(…) or count(…)), or a rule"))
    return out


def _cycles(calls: dict):
    """(start, path, span of the first call on it) of each cycle in a call graph, once each.

    Only names on some cycle are searched from, and each search stays inside the strongly
    connected component of its start (nothing outside it leads back): a long chain of defs
    that calls no one back costs one visit, not one search per def."""
    reported: set = set()
    component = loops(calls, lambda call: call[0])
    for start in calls:
        if start in reported or start not in component:
            continue
        path = _cycle(start, calls, component[start])
        if path is None:
            continue
        reported.update(path)
        yield start, path, next(s for name, s in calls[start] if name == path[1])


def _cycle(start: str, calls: dict, within: frozenset):
    """The first cycle through `start` in depth-first order of the calls, with a stack of our
    own (a chain of thousands of defs is no reason to run out of Python's)."""
    path, on_path, seen = [start], {start}, set()
    stack = [iter(calls.get(start, ()))]
    while stack:
        for target, _ in stack[-1]:
            if target == start:
                return path + [target]
            if target in on_path or target in seen or target not in within:
                continue
            seen.add(target)
            path.append(target)
            on_path.add(target)
            stack.append(iter(calls.get(target, ())))
            break
        else:
            stack.pop()
            on_path.discard(path.pop())
    return None
