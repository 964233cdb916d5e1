"""Calls and aggregates: arity and argument types of everything that takes arguments.

Resolution follows compiler/expressions.py `_Call`: unless the name is a
local, a zone family, a per-player variable, `score` or a def is called;
then a board function; then a builtin function. Aggregates take a generator.
"""
from __future__ import annotations

from .. import ast, builtins
from ..diagnostics import did_you_mean
from . import types as T
from .symbols import KIND_USES, KIND_WORDS, token_span

_LIST_FUNCTIONS = ("count", "sum", "any", "all", "first", "last", "reversed", "sorted", "unique", "index",
                   "next")


def arity_text(lo: int, hi: int) -> str:
    if lo == hi:
        return f"{lo} argument" + ("" if lo == 1 else "s")
    return f"{lo} to {hi} arguments"


class CallChecker:
    """Mixed into ExprChecker: `self.s` symbols, `self.r` report, `self.infer`."""

    def unresolved(self, name: str, scope) -> bool:
        """True when `name` means nothing here (an E101 was reported for it)."""
        p = self.s.p
        return (scope.get(name) is None and p.get(name) is None and name not in p.enum_members
                and name not in p.board_nodes and name not in ("players", "score", "player"))

    def arity(self, what: str, lo: int, hi: int, got: int, span) -> bool:
        if lo <= got <= hi:
            return True
        self.r.error("E201", f"{what} takes {arity_text(lo, hi)}, not {got}", span)
        return False

    def _Call(self, node, scope):
        args = [self.infer(a, scope) for a in node.args]
        name = node.func
        decl = None
        if scope.get(name) is None:
            decl = self.s.decl(name)
            if (decl is not None and decl.kind in ("zone", "def")) or self.s.per_player_var(name):
                self.r.ref(name)
                return getattr(self, "_call_" + decl.kind)(node, decl, args)
            if name == "score" and decl is None:
                return self._call_player_var(node, "score", T.INT, args)
        if name in builtins.BOARD_FUNCTIONS:
            return self._board_call(node, args, scope)
        if name in builtins.FUNCTIONS:
            return self._builtin_call(node, args)
        self._not_callable(node, decl, scope)
        return T.UNKNOWN

    def _not_callable(self, node, decl, scope) -> None:
        name = node.func
        if scope.get(name) is not None:
            self.r.error("E205", f"'{name}' is a local variable, not a function", node.func_span)
        elif decl is not None:
            use = KIND_USES.get(decl.kind, "write '{name}' without arguments").format(name=name)
            self.r.error("E205", f"'{name}' is {KIND_WORDS.get(decl.kind, decl.kind)}, not a function",
                         node.func_span, use)
        elif name in ("argmax", "argmin"):
            self.r.error("E205", f"'{name}' takes a generator, not a list", node.func_span,
                         f"write {name}(EXPR for x in LIST)")
        else:
            self.r.error("E103", f"unknown function '{name}'", node.func_span,
                         did_you_mean(name, self.s.callable_names()))

    # ── declared things that take arguments ──
    def _call_zone(self, node, decl, args) -> T.Ty:
        if decl.index is None:
            self.r.error("E201", f"zone '{decl.name}' is a single zone and takes no index", node.func_span,
                         f"write {decl.name}")
        elif self.arity(f"zone '{decl.name}'", 1, 1, len(args), node.func_span):
            want = self.s.index_type(decl)
            self.expect(args[0], want)
            if not T.accepts(want, args[0]):
                self.r.error("E206", f"zone '{decl.name}' is indexed by {T.describe(want)}, "
                             f"not {T.describe(args[0])}", node.args[0].span)
        return self.s.zone_type(decl.name)

    def _call_var(self, node, decl, args) -> T.Ty:
        return self._call_player_var(node, decl.name, self.s.type_ref(decl.type), args)

    def _call_player_var(self, node, name: str, result: T.Ty, args) -> T.Ty:
        if self.arity(f"the per-player variable '{name}'", 1, 1, len(args), node.func_span):
            self.expect(args[0], T.PLAYER)
            if not T.accepts(T.PLAYER, args[0]):
                self.r.error("E206", f"'{name}' needs a player, not {T.describe(args[0])}", node.args[0].span)
        return result

    def _call_def(self, node, decl, args) -> T.Ty:
        n = len(decl.params)
        if self.arity(f"'{decl.name}'", n, n, len(args), node.func_span):
            self.check_args(f"def:{decl.name}", decl.params, node.args, args, f"'{decl.name}'")
        return self.def_type(decl)

    # ── builtins ──
    def _board_call(self, node, args, scope) -> T.Ty:
        name = node.func
        lo, hi = builtins.BOARD_FUNCTIONS[name]
        if not self.arity(f"{name}()", lo, hi, len(args), node.func_span):
            return T.UNKNOWN
        first = node.args[0]
        board = first.name if isinstance(first, ast.Name) else None
        if board is None or self.s.decl(board, "board") is None:
            if not (isinstance(first, ast.Name) and self.unresolved(first.name, scope)):
                boards = self.s.names_of_kind("board")
                self.r.error("E206", f"{name}() needs the name of a board as its first argument", first.span,
                             f"boards: {', '.join(boards)}" if boards else "declare a board first")
            return T.BOOL if name == "adjacent" else T.list_of(T.UNKNOWN)
        node_type = T.node_of(board)
        wanted = {"neighbours": [node_type], "adjacent": [node_type, node_type],
                  "connected": [node_type, T.list_of(node_type)]}[name]
        for arg, got, want in zip(node.args[1:], args[1:], wanted):
            self.expect(got, want)
            if not T.accepts(want, got):
                self.r.error("E206", f"{name}() needs {T.describe(want)} here, not {T.describe(got)}", arg.span)
        return T.BOOL if name == "adjacent" else T.list_of(node_type)

    def _builtin_call(self, node, args) -> T.Ty:
        name = node.func
        lo, hi, _ = builtins.FUNCTIONS[name]
        if not self.arity(f"{name}()", lo, hi, len(args), node.func_span):
            return T.UNKNOWN
        if name in _LIST_FUNCTIONS or (name in ("max", "min") and len(args) == 1):
            if name == "count" and args[0].kind in ("map", "str"):
                return T.INT
            self.expect_list(args[0], node.args[0].span, f"the argument of {name}()")
        item = T.item_of(args[0])
        if name in ("sum", "max", "min", "abs", "range"):
            numbers = [(node.args[0], item)] if name in ("sum", "max", "min") and len(args) == 1 \
                else list(zip(node.args, args))
            for arg, t in numbers:
                if T.not_number(t) and not (name in ("max", "min") and T.is_textual(t)):
                    self.r.error("E206", f"{name}() works on numbers, not {T.describe(t)}", arg.span)
        if name in ("next", "index") and not T.comparable(args[1], item):
            self.r.error("E206", f"{name}() looks for {T.describe(args[1])} in {T.describe(args[0])}: "
                         "it is never there", node.args[1].span)
        if name == "next" and len(args) == 3 and T.not_number(args[2]):
            self.r.error("E206", f"the step of next() must be a number, not {T.describe(args[2])}",
                         node.args[2].span)
        return self._builtin_result(name, args, item)

    @staticmethod
    def _builtin_result(name: str, args, item: T.Ty) -> T.Ty:
        if name in ("count", "sum", "index", "abs"):
            return T.INT
        if name in ("any", "all"):
            return T.BOOL
        if name in ("first", "last", "next"):
            return item
        if name in ("max", "min"):
            if len(args) == 1:
                return item
            out = T.NONE
            for t in args:
                out = T.join(out, t)
            return out
        if name == "range":
            return T.list_of(T.INT)
        # reversed, sorted, unique
        return T.list_of(item) if args[0].kind == "zone" else args[0]

    # ── aggregates: f(E for x in XS where C) ──
    def _Aggregate(self, node, scope):
        item, element, inner = self.generator(node, scope)
        func = node.func
        if func not in builtins.AGGREGATES:
            decl = self.s.decl(func)
            if decl is not None or func in builtins.FUNCTIONS or func in builtins.BOARD_FUNCTIONS:
                self.r.error("E205", f"'{func}' does not take a generator", token_span(node.span, func),
                             f"aggregates: {', '.join(builtins.AGGREGATES)}")
            else:
                self.r.error("E103", f"unknown aggregate '{func}'", token_span(node.span, func),
                             did_you_mean(func, builtins.AGGREGATES)
                             or f"aggregates: {', '.join(builtins.AGGREGATES)}")
            return T.UNKNOWN
        if func in ("any", "all") and T.not_bool(element):
            self.r.error("E203", f"the element of {func}(…) must be true or false, but this is "
                         f"{T.describe(element)}", node.element.span)
        if func in ("sum", "argmax", "argmin") and T.not_number(element):
            self.r.error("E211", f"{func}(…) needs a number for each item, but this is {T.describe(element)}",
                         node.element.span)
        if func == "count":
            return T.INT
        if func == "sum":
            return T.INT
        if func in ("any", "all"):
            return T.BOOL
        if func in ("max", "min"):
            return element
        if func in ("argmax", "argmin"):
            return T.list_of(item)
        return item  # first, last
