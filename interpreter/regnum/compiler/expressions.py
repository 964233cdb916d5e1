"""Expressions to closures `f(ctx, env)`: names are resolved here, once, not at play time.

`ctx` is the running game (state, model, seats); `env` holds the locals of the
procedure being run. A kind hint ("player", "piece", "pieces", "zone", …) is
tracked per local so that texts and move arguments can show players and
pieces by name.
"""
from __future__ import annotations

import operator

from .. import ast
from ..builtins import BOARD_FUNCTIONS, FUNCTIONS, EvalError
from ..engine.state import ZoneRef

_BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}


def _floordiv(a, b):
    if b == 0:
        raise EvalError("division by zero")
    return a // b


def _mod(a, b):
    if b == 0:
        raise EvalError("modulo by zero")
    return a % b


def _contains(a, b):
    try:
        return a in b
    except TypeError:
        raise EvalError(f"'in' needs a list or map on its right, not {type(b).__name__}") from None


_BINARY.update({"//": _floordiv, "%": _mod, "in": _contains,
                "not in": lambda a, b: not _contains(a, b)})


class CompileError(Exception):
    """A construct the checker let through but the compiler cannot build (a bug)."""

    def __init__(self, message: str, span):
        super().__init__(message)
        self.span = span


class ExprCompiler:
    def __init__(self, program, consts: dict, zones: dict, boards: dict):
        self.program = program
        self.consts = consts
        self.zones = zones          # family -> ZoneFamily
        self.boards = boards        # name -> Board
        self._defs: dict = {}

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
            decl = self.program.get(node.name, "def")
            if decl is not None and not decl.params:
                return self.kind(decl.body, {})
            return None
        if isinstance(node, ast.Binary) and node.op == "+":
            return self.kind(node.left, scope) or self.kind(node.right, scope)
        if isinstance(node, ast.Call):
            fam = self.zones.get(node.func)
            if fam is not None:
                return "pieces"
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
            return "player" if node.name == "owner" else None
        if isinstance(node, ast.Index):
            return _item(self.kind(node.obj, scope))
        if isinstance(node, ast.ListComp):
            inner = dict(scope)
            inner[node.var] = _item(self.kind(node.source, scope))
            element = self.kind(node.element, inner)
            return {"player": "players", "piece": "pieces"}.get(element)
        if isinstance(node, ast.Aggregate):
            if node.func in ("argmax", "argmin"):
                return {"player": "players", "piece": "pieces"}.get(_item(self.kind(node.source, scope)))
            if node.func in ("first", "last"):
                return _item(self.kind(node.source, scope))
        if isinstance(node, ast.ListLit) and node.items:
            return {"player": "players", "piece": "pieces"}.get(self.kind(node.items[0], scope))
        if isinstance(node, ast.IfExpr):
            return self.kind(node.then, scope) or self.kind(node.otherwise, scope)
        return None

    # ── compilation ──
    def expr(self, node, scope: dict):
        method = getattr(self, "_" + type(node).__name__)
        return method(node, scope)

    def _IntLit(self, node, scope):
        v = node.value
        return lambda c, e: v

    _StrLit = _IntLit

    def _BoolLit(self, node, scope):
        v = node.value
        return lambda c, e: v

    def _NoneLit(self, node, scope):
        return lambda c, e: None

    def _Name(self, node, scope):
        name = node.name
        if name in scope:
            def local(c, e):
                v = e[name]
                if type(v) is ZoneRef:
                    return c.state.zones[v]
                return v
            return local
        if name in self.consts:
            v = self.consts[name]
            return lambda c, e: v
        if name in self.program.enum_members or name in self.program.board_nodes:
            return lambda c, e: name
        if name == "players":
            return lambda c, e: c.seats
        decl = self.program.get(name)
        if decl is not None:
            if decl.kind == "var" and not decl.per_player:
                return lambda c, e: c.state.vars[name]
            if decl.kind == "zone" and decl.index is None:
                key = self.zones[name].keys[""]
                return lambda c, e: c.state.zones[key]
            if decl.kind == "board":
                nodes = list(self.boards[name].nodes)
                return lambda c, e: nodes
            if decl.kind == "enum":
                members = [m for m, _ in decl.members]
                return lambda c, e: members
            if decl.kind == "def" and not decl.params:
                return self._call_def(decl, (), scope, node.span)
        raise CompileError(f"unknown name '{name}'", node.span)

    def _ListLit(self, node, scope):
        items = [self.expr(i, scope) for i in node.items]
        return lambda c, e: [f(c, e) for f in items]

    def _MapLit(self, node, scope):
        entries = [(k, self.expr(v, scope)) for k, _, v in node.entries]
        return lambda c, e: {k: f(c, e) for k, f in entries}

    def _generator(self, node, scope):
        """(source, var, cond, element-compiler scope) shared by comprehensions and aggregates."""
        source = self.expr(node.source, scope)
        inner = dict(scope)
        inner[node.var] = _item(self.kind(node.source, scope))
        cond = self.expr(node.cond, inner) if node.cond is not None else None
        return source, node.var, cond, inner

    def _ListComp(self, node, scope):
        source, var, cond, inner = self._generator(node, scope)
        element = self.expr(node.element, inner)

        def comp(c, e):
            env = dict(e)
            out = []
            for x in source(c, e):
                env[var] = x
                if cond is None or cond(c, env):
                    out.append(element(c, env))
            return out
        return comp

    def _Aggregate(self, node, scope):
        source, var, cond, inner = self._generator(node, scope)
        element = self.expr(node.element, inner)
        func = node.func

        def items(c, e):
            env = dict(e)
            for x in source(c, e):
                env[var] = x
                if cond is None or cond(c, env):
                    yield x, element(c, env)

        if func == "count":
            return lambda c, e: sum(1 for _ in items(c, e))
        if func == "sum":
            return lambda c, e: sum(v for _, v in items(c, e))
        if func == "any":
            return lambda c, e: any(v for _, v in items(c, e))
        if func == "all":
            return lambda c, e: all(v for _, v in items(c, e))
        if func in ("max", "min"):
            pick = max if func == "max" else min
            return lambda c, e: pick((v for _, v in items(c, e)), default=None)
        if func in ("first", "last"):
            def first_or_last(c, e):
                found = None
                for _, v in items(c, e):
                    found = v
                    if func == "first":
                        break
                return found
            return first_or_last
        if func in ("argmax", "argmin"):
            better = operator.gt if func == "argmax" else operator.lt

            def arg_best(c, e):
                best, out = None, []
                for x, v in items(c, e):
                    if best is None or better(v, best):
                        best, out = v, [x]
                    elif v == best:
                        out.append(x)
                return out
            return arg_best
        raise CompileError(f"'{func}' does not take a generator", node.span)

    def _Call(self, node, scope):
        name = node.func
        args = [self.expr(a, scope) for a in node.args]
        if name not in scope:
            fam = self.zones.get(name)
            if fam is not None:
                key_of = self.zone_key(node, scope)
                return lambda c, e: c.state.zones[key_of(c, e)]
            decl = self.program.get(name)
            if decl is not None and decl.kind == "var" and decl.per_player:
                (p,) = args
                return lambda c, e: c.state.pvars[p(c, e)][name]
            if name == "score" and decl is None:
                (p,) = args
                return lambda c, e: c.state.pvars[p(c, e)]["score"]
            if decl is not None and decl.kind == "def":
                return self._call_def(decl, node.args, scope, node.span)
        if name in BOARD_FUNCTIONS:
            return self._board_call(name, args, node)
        if name in FUNCTIONS:
            fn = FUNCTIONS[name][2]
            if len(args) == 1:
                (a,) = args
                return lambda c, e: fn(a(c, e))
            if len(args) == 2:
                a, b = args
                return lambda c, e: fn(a(c, e), b(c, e))
            return lambda c, e: fn(*[f(c, e) for f in args])
        raise CompileError(f"'{name}' cannot be called", node.span)

    def _call_def(self, decl, arg_nodes, scope, span):
        params = decl.params
        body = self._defs.get(decl.name)
        if body is None:
            self._defs[decl.name] = lambda c, e: body_ref[0](c, e)  # for recursion, which the checker forbids
            body_ref = [None]
            inner = {p: self.kind(a, scope) for p, a in zip(params, arg_nodes)}
            body_ref[0] = self.expr(decl.body, inner)
            body = body_ref[0]
            self._defs[decl.name] = body
        args = [self.expr(a, scope) for a in arg_nodes]
        if len(params) == 1:
            (p0,), (a0,) = params, args
            return lambda c, e: body(c, {p0: a0(c, e)})
        if len(params) == 2:
            (p0, p1), (a0, a1) = params, args
            return lambda c, e: body(c, {p0: a0(c, e), p1: a1(c, e)})
        pairs = list(zip(params, args))
        return lambda c, e: body(c, {p: a(c, e) for p, a in pairs})

    def _board_call(self, name, args, node):
        board_node = node.args[0]
        if not isinstance(board_node, ast.Name) or board_node.name not in self.boards:
            raise CompileError(f"{name}() needs a board name as its first argument", node.span)
        adjacency = self.boards[board_node.name].adjacency
        if name == "neighbours":
            at = args[1]
            return lambda c, e: list(adjacency.get(at(c, e), ()))
        if name == "adjacent":
            a, b = args[1], args[2]
            return lambda c, e: b(c, e) in adjacency.get(a(c, e), ())
        start, allowed = args[1], args[2]

        def connected(c, e):
            s, ok = start(c, e), set(allowed(c, e))
            if s not in ok:
                return []
            seen, todo, out = {s}, [s], [s]
            while todo:
                for n in adjacency.get(todo.pop(), ()):
                    if n in ok and n not in seen:
                        seen.add(n)
                        todo.append(n)
                        out.append(n)
            return out
        return connected

    def _Attribute(self, node, scope):
        obj = self.expr(node.obj, scope)
        name = node.name

        def attribute(c, e):
            v = obj(c, e)
            if type(v) is int:
                return c.state.pieces[v][name]
            if isinstance(v, dict):
                return v[name]
            if v is None:
                raise EvalError(f"'.{name}' of none")
            raise EvalError(f"a {type(v).__name__} has no attribute '{name}'")
        return attribute

    def _Index(self, node, scope):
        obj, index = self.expr(node.obj, scope), self.expr(node.index, scope)

        def item(c, e):
            o, i = obj(c, e), index(c, e)
            try:
                return o[i]
            except (IndexError, KeyError, TypeError):
                raise EvalError(f"no item {i!r} in {_short(o)}") from None
        return item

    def _Unary(self, node, scope):
        v = self.expr(node.operand, scope)
        if node.op == "not":
            return lambda c, e: not v(c, e)
        return lambda c, e: -v(c, e)

    def _Binary(self, node, scope):
        a, b = self.expr(node.left, scope), self.expr(node.right, scope)
        if node.op == "and":
            return lambda c, e: a(c, e) and b(c, e)
        if node.op == "or":
            return lambda c, e: a(c, e) or b(c, e)
        fn = _BINARY[node.op]
        if node.op in ("+", "-", "*", "<", "<=", ">", ">="):
            def arith(c, e):
                x, y = a(c, e), b(c, e)
                try:
                    return fn(x, y)
                except TypeError:
                    raise EvalError(f"cannot apply '{node.op}' to {_short(x)} and {_short(y)}") from None
            return arith
        return lambda c, e: fn(a(c, e), b(c, e))

    def _IfExpr(self, node, scope):
        cond, then, other = (self.expr(x, scope) for x in (node.cond, node.then, node.otherwise))
        return lambda c, e: then(c, e) if cond(c, e) else other(c, e)

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


def _item(kind):
    return {"players": "player", "pieces": "piece", "zone": "piece"}.get(kind)


def _short(v) -> str:
    text = repr(v)
    return text if len(text) < 40 else text[:37] + "…"
