"""The checker: ordered passes over a Program, each returning diagnostics.

All passes run, so every error of a file is reported at once. Each pass is a
function `(Program) -> list[Diagnostic]` in a module of its own; the codes
they report are catalogued in docs/errors.md.

    declarations  players, flow, game; boards (topology, edges); zone indexes
    names         parameters named twice; names that hide a built-in
    bodies        names, types, arity and assignments everywhere (analysis.py walks)
    constants     what is computed before the game starts; constant cycles
    recursion     definitions that call themselves
    ties          tie-break chains
    flow          unreachable phases; waiting in the setup; nested simultaneous steps
    secrecy       views and labels read only what every seat sees
    usage         unused declarations and imports
"""
from __future__ import annotations

from ..diagnostics import Diagnostic, suggestion_budget
from ..program import Program
from ..source import NO_SPAN
from .analysis import analyse, forget
from .bodies import check_bodies
from .constants import check_constants
from .declarations import check_declarations
from .flow import check_flow
from .names import check_names
from .recursion import check_recursion
from .secrecy import check_secrecy
from .ties import check_ties
from .usage import check_usage

PASSES: tuple = (
    check_declarations,
    check_names,
    check_bodies,
    check_constants,
    check_recursion,
    check_ties,
    check_flow,
    check_secrecy,
    check_usage,
)


def check_expression(program: Program, node) -> list[Diagnostic]:
    """The diagnostics of one expression evaluated against a whole ruleset (no locals)."""
    from .exprs import ExprChecker, Scope
    from .report import Report
    from .symbols import Symbols

    facts = analyse(program)
    symbols = Symbols(program)
    symbols.zone_pieces, symbols.expects = facts.zone_pieces, facts.expects
    report = Report()
    ExprChecker(symbols, report).infer(node, Scope())
    return report.diagnostics


def check_program(program: Program) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    forget()
    with suggestion_budget():
        for check in PASSES:
            try:
                out.extend(check(program))
            except Exception as err:  # a checker bug must not become a traceback for the user
                out.append(Diagnostic("E997", "error", f"internal error in the checker ({check.__name__}): "
                                      f"{type(err).__name__}: {err}", NO_SPAN,
                                      "please report this with the ruleset that caused it"))
    return out
