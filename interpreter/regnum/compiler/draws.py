"""Which of a setup's statements may draw from the seeded generator.

What a setup does before its first draw is the same for every seed: a game that starts
runs it once for each kind of start and copies what it made (engine/game.py, `Game.start`),
where most setups first create their pieces, then shuffle and deal them. Only statements
draw — `let`/`set` of a `random` and `shuffle` (the grammar allows `random` nowhere else) —
so a statement may draw when it holds one, runs a rule or phase that may, or moves or
creates a piece while some trigger (fired by pieces entering or leaving a zone) may.

The answer errs towards "may": a start checks that the statements it copies drew nothing
(the generator unchanged) before it keeps them.
"""
from __future__ import annotations

from .. import ast
from .native import _walk

# The name of the code of a setup's statements before its first that may draw: the setup's
# own instructions up to there (compiler/__init__.py), which a start runs apart to keep them.
BEFORE_DRAWS = "setup/before-draws"

_MOVES = (ast.MoveStmt, ast.MoveCountStmt, ast.CreateStmt)


def first_drawing(program, body: tuple) -> int | None:
    """The index in `body` (a setup's statements) of the first statement that may draw; None
    when none may."""
    drawing, triggers_draw = _drawing_procedures(program)
    for i, stmt in enumerate(body):
        if _may_draw((stmt,), drawing, triggers_draw):
            return i
    return None


def _draws_itself(stmt) -> bool:
    return isinstance(stmt, ast.ShuffleStmt) or isinstance(getattr(stmt, "value", None), ast.RandomExpr)


def _may_draw(body, drawing: set, triggers_draw: bool) -> bool:
    for stmt in _walk(body):
        if _draws_itself(stmt):
            return True
        if isinstance(stmt, ast.RunStmt) and stmt.name in drawing:
            return True
        if triggers_draw and isinstance(stmt, _MOVES):
            return True
    return False


def _drawing_procedures(program) -> tuple[set, bool]:
    """(the names of the rules, phases and triggers that may draw, whether a trigger may):
    those that draw themselves, then those that run one that may, and — once a trigger may —
    those that move or create a piece; each body walked once, each name added once (a chain
    of thousands of rules is as long to answer as to read)."""
    drawing: set = set()
    callers: dict = {}   # name -> the names of the procedures that run it
    moving: set = set()
    for kind in ("rule", "phase", "trigger"):
        for decl in program.of_kind(kind):
            for stmt in _walk(decl.body):
                if _draws_itself(stmt):
                    drawing.add(decl.name)
                elif isinstance(stmt, ast.RunStmt):
                    callers.setdefault(stmt.name, set()).add(decl.name)
                elif isinstance(stmt, _MOVES):
                    moving.add(decl.name)
    triggers = {decl.name for decl in program.of_kind("trigger")}
    triggers_draw = False
    todo = list(drawing)
    while todo:
        name = todo.pop()
        reached = callers.get(name, set())
        if name in triggers and not triggers_draw:
            triggers_draw = True
            reached = reached | moving
        for caller in reached - drawing:
            drawing.add(caller)
            todo.append(caller)
    return drawing, triggers_draw
