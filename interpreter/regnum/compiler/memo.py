"""Derived indexes: the values of pure defs kept per arguments, with the zones they read.

A listing judges the same question for every candidate (is a neighbour of this cell the
player's? does a line of three end here?), and from one move to the next only one or two
zones change. A def whose value the compiler can prove depends on nothing but its
arguments, constants and the contents of zones is therefore computed once per arguments
and kept, on the state (`State.memo`, never part of its data), with the zone keys its
evaluation read and the steps it charged. An effect that changes a zone drops the values
that read it (`Memo.drop`); anything else that writes the state outside the effects (a
move rolled back, a position edited by a test) forgets them all. A value met again
charges its steps again, so the step count, its peak and the step limit are those of
the evaluation.

Proven here, from the syntax of the ruleset (`Analysis`): what a def may read, and whether
keeping it pays. Checked again on the generated source (`forbidden`): that it reads the
state only through the recorded zones. The interpreter knows no game: which defs are kept
follows from their shape alone.
"""
from __future__ import annotations

import re
import typing
from contextlib import contextmanager

from .. import ast
from ..engine.memo import EMPTY, KEYED, KEPT_VALUES, NO_STATE, Memo, read, verify  # noqa: F401  (for codegen)

# Whether the compiler keeps values at all (tests compare games with and without).
ENABLED = True
# Test only: every value met again is computed again and compared (value and steps).
VERIFY = False

@contextmanager
def disabled():
    """Rulesets loaded inside compile no kept values (the reference the tests compare with)."""
    global ENABLED
    before, ENABLED = ENABLED, False
    try:
        yield
    finally:
        ENABLED = before


@contextmanager
def verified():
    """Rulesets loaded inside check every value met again against a new evaluation."""
    global VERIFY
    before, VERIFY = VERIFY, True
    try:
        yield
    finally:
        VERIFY = before


# What the generated source of a kept def must never hold: reads of the state other than
# through the recorder (zones), tables, variables and fields proven never written; calls
# that read more of it (`can`, `previous`, open grids, defs compiled apart), draws, and
# texts (which count against the state's size, not only its steps).
FORBIDDEN = re.compile(r"c\.state\.(zones|grids|revealed|flow|rng|where)|c\.state\b(?!\.)|_deref\(|c\.can\(|"
                       r"c\.previous|c\.random|\b_cell_|\b_og\d|\b_d\d+_|\b_text\(|\b_format\b|\bc\.fit\b")


def forbidden(source: str) -> str | None:
    found = FORBIDDEN.search(source)
    return None if found is None else found.group(0)


class Analysis:
    """Which defs of a program are kept, and why the others are not (`refusal`)."""

    def __init__(self, program, zones: dict, boards: dict):
        self.program = program
        self.zones = zones
        self.boards = boards
        self.written_names, self.written_fields = written(program)
        self._pure: dict = {}      # def name -> None (pure) or why not
        self._refusals: dict = {}  # def name -> None (kept) or why not

    # ── verdicts ──
    def kept(self, name: str) -> bool:
        return self.refusal(name) is None

    def refusal(self, name: str) -> str | None:
        """None when the def's values are kept; else why not, in words."""
        if name not in self._refusals:
            self._refusals[name] = self._refuse(name)
        return self._refusals[name]

    def refuse(self, name: str, why: str) -> None:
        """The compiler found what the syntax did not show (see `forbidden`)."""
        self._refusals[name] = why

    def _refuse(self, name: str) -> str | None:
        decl = self.program.get(name, "def")
        if decl is None:
            return "not a def"
        if not decl.params:
            return "it has no parameter (a listing computes it once already)"
        why = self.impure(name)
        if why is not None:
            return why
        if not self._searches(decl.body, set()):
            return "it searches nothing (computing it costs less than keeping it)"
        if not self._plain(decl.body, set()):
            return "its value may be a list or a map (only truth values, numbers and texts are kept)"
        return self._wide(decl, set())

    def impure(self, name: str, seen: frozenset = frozenset()) -> str | None:
        """None when a def's value depends on its arguments, constants and zones only."""
        if name in self._pure:
            return self._pure[name]
        if name in seen:
            return "it calls itself"
        decl = self.program.get(name, "def")
        why = self._reads(decl.body, set(decl.params), seen | {name})
        self._pure[name] = why
        return why

    def _reads(self, node, local: set, seen: frozenset) -> str | None:
        """Why `node` reads something that changes other than zones, or None."""
        if isinstance(node, tuple):
            for item in node:
                why = self._reads(item, local, seen)
                if why is not None:
                    return why
            return None
        if isinstance(node, ast.RandomExpr):
            return "it draws at random"
        if isinstance(node, ast.Template):
            return "it builds a text"
        if isinstance(node, (ast.ListComp, ast.Aggregate)):
            inner = set(local)
            for var, source, cond in [(node.var, node.source, node.cond)] + [
                    (m.var, m.source, m.cond) for m in node.more]:
                why = self._reads(source, inner, seen)
                if why is not None:
                    return why
                inner = inner | {var}
                if cond is not None:
                    why = self._reads(cond, inner, seen)
                    if why is not None:
                        return why
            return self._reads(node.element, inner, seen)
        if isinstance(node, ast.Name):
            return None if node.name in local else self._name(node.name, seen)
        if isinstance(node, ast.Call):
            if node.func not in local:
                why = self._called(node, seen)
                if why is not None:
                    return why
            return self._reads(node.args, local, seen)
        if isinstance(node, ast.Attribute):
            if node.name in self.written_fields:
                return f"it reads the field {node.name}, which a statement sets"
            return self._reads(node.obj, local, seen)
        if hasattr(node, "__dataclass_fields__"):
            for field in node.__dataclass_fields__:
                if field != "span":
                    why = self._reads(getattr(node, field), local, seen)
                    if why is not None:
                        return why
        return None

    def _name(self, name: str, seen: frozenset) -> str | None:
        program = self.program
        decl = program.get(name)
        if decl is None:
            return None   # a constant, a member, a cell, `players`
        if decl.kind == "board":
            record = self.boards.get(name)
            return f"it reads the cells in use of {name}" if record is None or record.is_open else None
        if decl.kind == "var":
            return self._variable(decl)
        if decl.kind == "def":
            return None if decl.params else self._callee(name, seen)
        return None   # an option, a zone (recorded), an enum, a constant

    def _variable(self, decl) -> str | None:
        if decl.name in self.written_names or decl.name == "score" or decl.each_turn:
            return f"it reads the variable {decl.name}, which a statement sets"
        if decl.per_index and decl.index in self.boards and self.boards[decl.index].is_open:
            return f"it reads {decl.name} of an open grid"
        return None

    def _called(self, node, seen: frozenset) -> str | None:
        decl = self.program.get(node.func)
        if decl is None:
            if node.func in ("can", "previous"):
                return f"it asks {node.func}(…)"
            if node.func == "score":
                return "it reads the score, which a statement sets"
            if node.func == "text":
                return "it builds a text"
            if node.args and isinstance(node.args[0], ast.Name):
                record = self.boards.get(node.args[0].name)
                if record is not None and record.is_open:
                    return f"it asks {node.func}(…) of an open grid"
            return None
        if decl.kind == "zone":
            fam = self.zones.get(decl.name)
            return f"it reads {decl.name}, a zone of an open grid" if fam is None or fam.open else None
        if decl.kind == "var":
            return self._variable(decl)
        if decl.kind == "def":
            return self._callee(decl.name, seen)
        return None

    def _callee(self, name: str, seen: frozenset) -> str | None:
        why = self.impure(name, seen)
        return None if why is None else f"it calls {name}, which is not kept: {why}"

    def _plain(self, node, seen: set) -> bool:
        """Whether the value of `node` is a truth value, a number, a text or none by its shape
        alone (a kept value is handed out again: a list could be changed by its taker)."""
        if isinstance(node, (ast.IntLit, ast.StrLit, ast.BoolLit, ast.NoneLit)):
            return True
        if isinstance(node, ast.Aggregate):
            return node.func in ("any", "all", "count")
        if isinstance(node, ast.Unary):
            return node.op == "not" or self._plain(node.operand, seen)
        if isinstance(node, ast.Binary):
            if node.op in ("==", "!=", "<", "<=", ">", ">=", "in", "not in"):
                return True
            if node.op in ("and", "or", "-", "//", "%"):
                return self._plain(node.left, seen) and self._plain(node.right, seen)
            return False
        if isinstance(node, ast.IfExpr):
            return self._plain(node.then, seen) and self._plain(node.otherwise, seen)
        if isinstance(node, ast.Call):
            decl = self.program.get(node.func, "def")
            if decl is None:
                return node.func == "count" and self.program.get(node.func) is None
            if decl.name in seen:
                return False
            seen.add(decl.name)
            return self._plain(decl.body, seen)
        return False

    # ── what pays ──
    def _wide(self, decl, seen: set) -> str | None:
        """Why the def's work spans a whole board (any change of it would drop the value), or
        None; or an inner call a listing computes once (keeping would charge it each time)."""
        names = _locals(decl)
        for part in _nodes(decl.body):
            if isinstance(part, (ast.ListComp, ast.Aggregate)):
                for source in [part.source] + [m.source for m in part.more]:
                    if isinstance(source, ast.Name) and source.name in self.boards:
                        return f"it goes through every cell of {source.name}"
            if isinstance(part, ast.Call):
                callee = self.program.get(part.func, "def")
                if callee is not None and callee.name not in seen:
                    if not _mentions(part, names):
                        return f"it calls {callee.name} with nothing of its own"
                    seen.add(callee.name)
                    why = self._wide(callee, seen)
                    if why is not None:
                        return f"it calls {callee.name}: {why}"
            if isinstance(part, ast.Name) and part.name not in names:
                callee = self.program.get(part.name, "def")
                if callee is not None and not callee.params:
                    return f"it calls {callee.name} with nothing of its own"
        return None

    def _searches(self, node, seen: set) -> bool:
        for part in _nodes(node):
            if isinstance(part, (ast.ListComp, ast.Aggregate)):
                return True
            if isinstance(part, ast.Call):
                decl = self.program.get(part.func, "def")
                if decl is not None and decl.name not in seen:
                    seen.add(decl.name)
                    if self._searches(decl.body, seen):
                        return True
        return False

    def report(self) -> dict:
        """def name -> None (kept) or why not: every def of the program."""
        return {decl.name: self.refusal(decl.name) for decl in self.program.of_kind("def")}


def _nodes(node):
    """Every syntax node of an expression, this one first."""
    pending = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, tuple):
            pending.extend(reversed(item))
        elif hasattr(item, "__dataclass_fields__") and not isinstance(item, ast.Template):
            yield item
            pending.extend(getattr(item, f) for f in reversed(item.__dataclass_fields__) if f != "span")


def _locals(decl) -> set:
    """The names bound inside a def: its parameters and the items of its comprehensions."""
    names = set(decl.params)
    for part in _nodes(decl.body):
        if isinstance(part, (ast.ListComp, ast.Aggregate)):
            names.add(part.var)
            names.update(m.var for m in part.more)
    return names


def _mentions(call, names: set) -> bool:
    """Whether a call's arguments read one of `names`: one that reads none is the same call
    wherever the def is called, which a listing may compute once for all its candidates."""
    from ..check.walk import free_names
    return any(name in names for a in call.args for name, _, _ in free_names(a))


def written(program) -> tuple[set, set]:
    """(names of variables and tables some statement sets or adds to, names of fields some
    statement sets): what a kept def may not read."""
    names, fields = set(), set()
    for decl in list(program.decls.values()) + list(program.singletons.values()):
        for node in _statements(decl):
            target = node.target
            if isinstance(target, ast.Name):
                names.add(target.name)
            elif isinstance(target, ast.Call):
                names.add(target.func)
            elif isinstance(target, ast.Attribute):
                fields.add(target.name)
            else:
                names.add("?")
    return names, fields


def _statements(node):
    """Every `set` and `add`/`subtract` under a declaration. (Every load walks every
    declaration: the fields of each kind of node are looked up once, not at each node, and an
    expression, which holds no statement, is not gone into.)"""
    pending = [node]
    fields_of = _FIELDS
    expressions = _EXPRESSIONS
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind in expressions:
            continue
        fields = fields_of.get(kind)
        if fields is None:
            fields = fields_of[kind] = tuple(f for f in getattr(kind, "__dataclass_fields__", ()) if f != "span")
        if fields:
            if kind is ast.SetStmt or kind is ast.AddStmt:
                yield item
            pending.extend([getattr(item, f) for f in fields])
        elif isinstance(item, (tuple, list)):
            pending.extend(item)


_FIELDS: dict = {}   # a class -> the fields _statements walks (none: no syntax node)
# The kinds of expression nodes, and the nodes only expressions hold: no statement is under one.
_EXPRESSIONS = frozenset(typing.get_args(ast.Expr)) | {ast.Template, ast.TypeRef, ast.CompFor}
