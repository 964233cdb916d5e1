"""Pass: names, types, arity and assignments in every expression and statement.

The walk itself lives in analysis.py (other passes read its facts); this pass
reports what it found.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic
from ..program import Program
from .analysis import analyse


def check_bodies(program: Program) -> list[Diagnostic]:
    return list(analyse(program).diagnostics)
