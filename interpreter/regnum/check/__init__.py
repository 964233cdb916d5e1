"""The checker: ordered passes over a Program, each returning diagnostics.

All passes run, so every error of a file is reported at once.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic
from ..program import Program

PASSES: tuple = ()


def check_program(program: Program) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for check in PASSES:
        out.extend(check(program))
    return out
