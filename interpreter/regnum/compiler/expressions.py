"""Expressions to functions `f(ctx, env)`: names are resolved here, once, not at play time.

`ctx` is the running game (state, model, seats); `env` holds the locals of the
procedure being run. A kind hint ("player", "piece", "pieces", "zone", …) is
tracked per local so that texts and move arguments can show players and
pieces by name.
"""
from __future__ import annotations

from .. import ast
from ..builtins import EvalError
from ..engine.state import ZoneRef
from .codegen import CodeGen

class CompileError(Exception):
    """A construct the compiler cannot build: E005 when it is too deep, E999 (a bug) otherwise."""

    def __init__(self, message: str, span, code: str = "E999"):
        super().__init__(message)
        self.span = span
        self.code = code


class ExprCompiler:
    def __init__(self, program, consts: dict, zones: dict, boards: dict):
        self.program = program
        self.consts = consts
        self.zones = zones          # family -> ZoneFamily
        self.boards = boards        # name -> Board
        self.codegen = CodeGen(self)

    # ── kind hints ──
    def kind(self, node, scope: dict) -> str | None:
        if isinstance(node, ast.Name):
            if node.name in scope:
                return scope[node.name]
            if node.name == "players":
                return "players"
            fam = self.zones.get(node.name)
            if fam is not None and fam.index is None:
                return "pieces"
            decl = self.program.get(node.name)
            if decl is not None and decl.kind == "def" and not decl.params:
                return self.kind(decl.body, {})
            if decl is not None and decl.kind in ("var", "option") and getattr(decl, "index", None) is None:
                return self._declared(decl.type)
            return None
        if isinstance(node, ast.Binary) and node.op == "%" and self._from_seat(node.left, scope) \
                and isinstance(node.right, ast.Call) and node.right.func == "count" and len(node.right.args) == 1 \
                and isinstance(node.right.args[0], ast.Name) and node.right.args[0].name == "players":
            return "player"   # counting on round the table from a seat gives a seat: (p + n) % count(players)
        if isinstance(node, ast.Binary) and node.op == "+":
            # Lists joined keep their kind of items; a seat plus a number is just a number.
            kinds = {self.kind(node.left, scope), self.kind(node.right, scope)}
            return next((k for k in ("pieces", "players") if k in kinds), None)
        if isinstance(node, ast.Call):
            if node.func == "previous" and node.func not in scope and len(node.args) == 1 \
                    and self.program.get(node.func) is None:
                return self.kind(node.args[0], scope)
            fam = self.zones.get(node.func)
            if fam is not None:
                return "pieces"
            var = self.program.get(node.func, "var")
            if var is not None and var.index is not None:
                return self._declared(var.type)
            if node.func in ("first", "last") and node.args:
                return _item(self.kind(node.args[0], scope))
            if node.func in ("reversed", "sorted", "unique") and node.args:
                return self.kind(node.args[0], scope)
            decl = self.program.get(node.func, "def")
            if decl is not None:
                inner = {p: self.kind(a, scope) for p, a in zip(decl.params, node.args)}
                return self.kind(decl.body, inner)
            return None
        if isinstance(node, ast.Attribute):
            if node.name == "owner":
                return "player"
            kinds = self._field_kinds().get(node.name, set())
            if node.name == "player" and not kinds:
                return "player"   # the seat of an entry of a ranking (`score … as R`)
            return next(iter(kinds)) if len(kinds) == 1 else None
        if isinstance(node, ast.Index):
            return _item(self.kind(node.obj, scope))
        if isinstance(node, ast.ListComp):
            element = self.kind(node.element, self._inner(node, scope))
            return {"player": "players", "piece": "pieces"}.get(element)
        if isinstance(node, ast.Aggregate):
            inner = self._inner(node, scope)
            if node.func in ("argmax", "argmin"):
                last = node.more[-1].var if node.more else node.var
                return {"player": "players", "piece": "pieces"}.get(inner.get(last))
            if node.func in ("first", "last"):
                return self.kind(node.element, inner)
        if isinstance(node, ast.RandomExpr):
            kind = self.kind(node.source, scope)
            return _item(kind) if node.count is None else kind
        if isinstance(node, ast.ListLit) and node.items:
            return {"player": "players", "piece": "pieces"}.get(self.kind(node.items[0], scope))
        if isinstance(node, ast.IfExpr):
            return self.kind(node.then, scope) or self.kind(node.otherwise, scope)
        return None

    def _field_kinds(self) -> dict:
        """field -> the kind hints of that field over every piece type (built once: asked per
        attribute, a scan of the piece types each time is quadratic in the ruleset)."""
        table = self.__dict__.get("_fields")
        if table is None:
            table = self.__dict__["_fields"] = {}
            for decl in self.program.of_kind("piece"):
                for f in decl.fields:
                    table.setdefault(f.name, set()).add(self._declared(f.type))
        return table

    def _from_seat(self, node, scope: dict) -> bool:
        """A seat, or a seat plus or minus numbers."""
        if isinstance(node, ast.Binary) and node.op in ("+", "-"):
            return self._from_seat(node.left, scope) or (node.op == "+" and self._from_seat(node.right, scope))
        return self.kind(node, scope) == "player"

    def _declared(self, ref) -> str | None:
        """The kind hint of a value of a declared type: a seat, a piece, or lists of them."""
        if ref.item is not None:
            return {"player": "players", "piece": "pieces"}.get(self._declared(ref.item))
        if ref.name == "player":
            return "player"
        if ref.name == "piece" or self.program.get(ref.name, "piece") is not None:
            return "piece"
        return None

    def _inner(self, node, scope: dict) -> dict:
        """The kinds of the variables a comprehension's `for` clauses bind."""
        inner = dict(scope)
        for var, source in [(node.var, node.source)] + [(m.var, m.source) for m in node.more]:
            inner[var] = _item(self.kind(source, inner))
        return inner

    # ── compilation ──
    def expr(self, node, scope: dict):
        """A function `f(ctx, env)` computing `node`, compiled to Python (see codegen.py)."""
        return self.codegen.function(node, scope)

    def fixed_list(self, node, scope: dict) -> list | None:
        """The value of `node` when it names a list that no game can change — a constant, the
        cells of a board that never grows, the members of an enum, a list written of
        literals — else None."""
        if isinstance(node, ast.ListLit) and all(isinstance(item, _LITERALS) for item in node.items):
            return [None if isinstance(item, ast.NoneLit) else item.value for item in node.items]
        if not isinstance(node, ast.Name) or node.name in scope:
            return None
        name = node.name
        if name in self.consts:
            value = self.consts[name]
            return value if type(value) is list else None
        decl = self.program.get(name)
        if decl is None:
            return None
        if decl.kind == "board" and not self.boards[name].is_open:
            return list(self.boards[name].nodes)
        if decl.kind == "enum":
            return [member for member, _ in decl.members]
        return None

    # ── zones as places (move targets, rule arguments) ──
    def zone_key(self, node, scope):
        """A closure giving the key of the zone `node` names (a zone call or a zone local)."""
        if isinstance(node, ast.Name):
            if node.name in scope:
                name = node.name

                def local_key(c, e):
                    v = e[name]
                    if type(v) is not ZoneRef:
                        raise EvalError(f"'{name}' is not a zone")
                    return v
                return local_key
            fam = self.zones.get(node.name)
            if fam is not None and fam.index is None:
                key = fam.keys[""]
                return lambda c, e: key
        if isinstance(node, ast.Call) and node.func in self.zones and node.func not in scope:
            fam = self.zones[node.func]
            keys = fam.keys
            (index,) = [self.expr(a, scope) for a in node.args]

            def key_of(c, e):
                i = index(c, e)
                try:
                    return keys[i]
                except (KeyError, TypeError):
                    raise EvalError(f"{fam.name}({i!r}) is not a zone") from None
            return key_of
        raise CompileError("a zone is expected here", node.span)

    def is_zone(self, node, scope) -> bool:
        if isinstance(node, ast.Name):
            if node.name in scope:
                return scope[node.name] == "zone"
            fam = self.zones.get(node.name)
            return fam is not None and fam.index is None
        return isinstance(node, ast.Call) and node.func in self.zones and node.func not in scope


_LITERALS = (ast.IntLit, ast.StrLit, ast.BoolLit, ast.NoneLit)


def _item(kind):
    return {"players": "player", "pieces": "piece", "zone": "piece"}.get(kind)


def _short(v) -> str:
    text = repr(v)
    return text if len(text) < 40 else text[:37] + "…"
