"""Pass: what the flow can reach, and where the flow may wait for players.

Phases that nothing runs are dead text (a warning). The setup runs before
anyone can decide, so neither it nor what it runs may ask or start a
simultaneous step; and a simultaneous step cannot start inside another.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic
from ..program import Program
from .analysis import analyse
from .symbols import token_span


def check_flow(program: Program) -> list[Diagnostic]:
    facts = analyse(program).facts
    runs: dict[str, list] = {}
    for origin, target, span, inside in facts.runs:
        decl = program.get(target)
        if decl is not None:
            runs.setdefault(origin, []).append((f"{decl.kind}:{target}", span, inside))
    for origin, span, inside, actions in facts.asks:
        for name in actions:
            if program.get(name, "action") is not None:
                runs.setdefault(origin, []).append((f"action:{name}", span, inside))
    out = _unreachable(program, runs)
    out += _setup_waits(program, runs, facts)
    out += _nested(runs, facts)
    return out


def _reach(starts, runs: dict, only_runs: bool = False) -> set:
    seen = set(starts)
    todo = list(starts)
    while todo:
        for target, _, _ in runs.get(todo.pop(), ()):
            if only_runs and target.startswith("action:"):
                continue
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def _unreachable(program: Program, runs: dict) -> list[Diagnostic]:
    roots = ["flow", "setup"] + [f"trigger:{d.name}" for d in program.of_kind("trigger")]
    reached = _reach(roots, runs)
    out = []
    for decl in program.of_kind("phase"):
        if f"phase:{decl.name}" not in reached:
            out.append(Diagnostic("W402", "warning", f"phase '{decl.name}' is never run",
                                  token_span(decl.span, decl.name, before="phase"),
                                  "run it from the flow, or from a phase or rule the flow runs"))
    return out


def _setup_waits(program: Program, runs: dict, facts) -> list[Diagnostic]:
    if "setup" not in program.singletons:
        return []
    reached = _reach(["setup"], runs, only_runs=True)
    out = []
    waits = [(o, s, "ask players") for o, s, _, _ in facts.asks] + \
        [(o, s, "start a simultaneous step") for o, s, _ in facts.spawns]
    for origin, span, what in waits:
        if origin in reached:
            kind, _, name = origin.partition(":")
            where = "" if origin == "setup" else f" (the setup runs {kind} '{name}')"
            out.append(Diagnostic("E310", "error", f"the setup cannot {what}{where}", span,
                                  "the setup runs before anyone can decide: ask in the flow"))
    return out


def _nested(runs: dict, facts) -> list[Diagnostic]:
    spawns: dict[str, list] = {}
    for origin, span, inside in facts.spawns:
        spawns.setdefault(origin, []).append(span)
    out = []
    for origin, span, inside in facts.spawns:
        if inside:
            out.append(Diagnostic("E311", "error", "a simultaneous step cannot start inside another", span,
                                  "end the first 'simultaneously' block before the next"))
    for origin, targets in runs.items():
        for target, span, inside in targets:
            if not inside or target.startswith("action:"):
                continue
            for reached in sorted(_reach([target], runs, only_runs=True)):
                if reached in spawns:
                    kind, name = reached.split(":", 1)
                    out.append(Diagnostic("E311", "error", f"this runs {kind} '{name}', which starts a "
                                          "simultaneous step, inside another one", span,
                                          f"its 'simultaneously' is at {spawns[reached][0]}"))
                    break
    return out
