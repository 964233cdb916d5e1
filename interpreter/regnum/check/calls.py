"""Calls and aggregates: arity and argument types of everything that takes arguments.

Resolution follows compiler/expressions.py `_Call`: unless the name is a
local, a zone family, a per-player variable, `score` or a def is called;
then a board function; then a builtin function. Aggregates take a generator.
"""
from __future__ import annotations

from .. import ast, boards, builtins
from ..boards import GRID_ONLY
from ..diagnostics import did_you_mean
from . import types as T
from .symbols import KIND_USES, KIND_WORDS, token_span

_BOARD_RESULTS = {
    "neighbours": T.list_of, "connected": T.list_of, "line": T.list_of, "around": T.list_of,
    "groups": lambda cell: T.list_of(T.list_of(cell)),
    "adjacent": lambda cell: T.BOOL, "on_edge": lambda cell: T.BOOL,
    "step": lambda cell: cell, "cell": lambda cell: cell,
    "distance": lambda cell: T.INT, "directions": lambda cell: T.list_of(T.STR),
}


def _directions_of(board) -> list | None:
    """The directions of a board, when its settings say them plainly (None: not known here)."""
    if board.topology == "pyramid":
        return list(boards.PYRAMID_DIRECTIONS)
    if board.topology == "open_grid":
        return list(boards.OPEN_DIRECTIONS)
    if board.topology != "hex_grid":
        return None
    layout = next((v for n, _, v in board.settings if n == "layout"), None)
    if layout is None:
        name = "odd_r"
    elif isinstance(layout, ast.StrLit):
        name = layout.value
    else:
        return None
    if name not in boards.HEX_LAYOUTS:
        return None
    return list(boards.hex_grid("", {"rows": 1, "cols": 1, "layout": name}, board.span).directions)

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

    def accepts(self, want: T.Ty, got: T.Ty) -> bool:
        """T.accepts, and a text where a cell of a grid is wanted: a grid's cells are texts,
        `(row,col)`, so `height("(3,4)")` is fine (a wrong one is found when it runs)."""
        if want.kind == "node" and got.kind == "str":
            board = self.s.board(want.name)
            if board is not None and board.topology != "graph":
                return True
        if want.kind == "list" and got.kind == "list" and want.item is not None and got.item is not None:
            return self.accepts(want.item, got.item)
        return T.accepts(want, got)

    def arity(self, what: str, lo: int, hi: int, got: int, span) -> bool:
        if lo <= got <= hi:
            return True
        self.r.error("E201", f"{what} takes {arity_text(lo, hi)}, not {got}", span)
        return False

    def _Call(self, node, scope):
        name = node.func
        if name == "can" and scope.get(name) is None and self.s.decl(name) is None:
            return self._can(node, scope)
        if name == "previous" and scope.get(name) is None and self.s.decl(name) is None:
            return self._previous(node, scope)
        args = [self.infer(a, scope) for a in node.args]
        decl = None
        if scope.get(name) is None:
            decl = self.s.decl(name)
            if (decl is not None and decl.kind in ("zone", "def")) or (decl is not None and decl.kind == "var"
                                                                       and decl.index is not None):
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
                         self.s.unknown_hint(name, self.s.callable_names()))

    # ── declared things that take arguments ──
    def _call_zone(self, node, decl, args) -> T.Ty:
        if decl.index is None:
            self.r.error("E201", f"zone '{decl.name}' is a single zone and takes no index", node.func_span,
                         f"write {decl.name}")
        elif self.arity(f"zone '{decl.name}'", 1, 1, len(args), node.func_span):
            self._index(node, decl, args[0], f"zone '{decl.name}' is indexed by {{want}}, not {{got}}")
        return self.s.zone_type(decl.name)

    def _call_var(self, node, decl, args) -> T.Ty:
        if decl.per_index:
            return self._call_table(node, decl, args)
        return self._call_player_var(node, decl.name, self.s.type_ref(decl.type), args)

    def _call_table(self, node, decl, args) -> T.Ty:
        """`colour(h)`: a variable with one value per cell of a board or member of an enum."""
        if self.arity(f"the variable '{decl.name}'", 1, 1, len(args), node.func_span):
            self._index(node, decl, args[0], f"'{decl.name}' has one value per {{want_item}}, not per {{got}}")
        return self.s.type_ref(decl.type)

    def _index(self, node, decl, got: T.Ty, message: str) -> None:
        """The index given to a zone family or a variable per cell or member."""
        want = self.s.index_type(decl)
        self.expect(got, want)
        if not self.accepts(want, got):
            self.r.error("E206", message.format(want=T.describe(want), want_item=T.describe(want)[2:],
                                                got=T.describe(got)), node.args[0].span)

    def _can(self, node, scope) -> T.Ty:
        """`can(p, a, b…)`: whether seat p has a legal move of action a or b now."""
        if not self.arity("can()", 2, 64, len(node.args), node.func_span):
            return T.BOOL
        who = self.infer(node.args[0], scope)
        self.expect(who, T.PLAYER)
        if not T.accepts(T.PLAYER, who):
            self.r.error("E206", f"can() asks about a player, not {T.describe(who)}", node.args[0].span)
        for arg in node.args[1:]:
            decl = self.s.decl(arg.name) if isinstance(arg, ast.Name) else None
            if decl is not None and decl.kind == "action":
                self.r.ref(arg.name)
                continue
            if isinstance(arg, ast.Name) and decl is None:
                self.r.error("E110", f"unknown action '{arg.name}'", arg.span,
                             self.s.unknown_hint(arg.name, self.s.names_of_kind("action")))
            else:
                what = KIND_WORDS.get(decl.kind, decl.kind) if decl is not None else "an expression"
                self.r.error("E205", f"can() names actions after the player, but this is {what}", arg.span,
                             "write can(PLAYER, ACTION, …)")
        return T.BOOL

    def _previous(self, node, scope) -> T.Ty:
        """`previous(e)`: e in the state before the last move, of e's type. Only an invariant
        compares two states; a rule that needs an earlier value keeps it in a variable."""
        if not self.arity("previous()", 1, 1, len(node.args), node.func_span):
            return T.UNKNOWN
        if self.in_previous:
            self.r.error("E314", "previous(…) inside previous(…): there is one earlier state",
                         node.func_span, "previous(EXPR) already reads every name of EXPR in the state "
                         "before the last move; leave out the inner previous")
        elif not self.invariant:
            self.r.error("E314", "previous(…) is allowed only in an invariant", node.func_span,
                         "only an invariant compares the state before the last move with the present "
                         "one; a rule keeps an earlier value in a variable (let before = …)")
        self.in_previous, outer = True, self.in_previous
        try:
            return self.infer(node.args[0], scope)
        finally:
            self.in_previous = outer

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
        decl = self.s.decl(board, "board") if board is not None else None
        if decl is None:
            if not (isinstance(first, ast.Name) and self.unresolved(first.name, scope)):
                boards_ = self.s.names_of_kind("board")
                self.r.error("E206", f"{name}() needs the name of a board as its first argument", first.span,
                             f"boards: {', '.join(boards_)}" if boards_ else "declare a board first")
            return _BOARD_RESULTS[name](T.UNKNOWN)
        self.r.ref(board)
        if decl.topology == "graph" and name in GRID_ONLY:
            self.r.error("E214", f"board '{board}' is a graph: it has no coordinates or directions, so no "
                         f"{name}()", node.func_span, "graphs answer neighbours, adjacent, connected, groups "
                         "and distance")
            return _BOARD_RESULTS[name](T.node_of(board))
        cell = T.node_of(board)
        wanted = {"neighbours": [cell], "adjacent": [cell, cell], "connected": [cell, T.list_of(cell)],
                  "groups": [T.list_of(cell)], "around": [T.list_of(cell)], "step": [cell, T.STR, T.INT], "line": [cell, T.STR, T.INT],
                  "distance": [cell, cell], "on_edge": [cell], "cell": [T.INT, T.INT], "directions": []}[name]
        for arg, got, want in zip(node.args[1:], args[1:], wanted):
            self.expect(got, want)
            if not self.accepts(want, got):
                self.r.error("E206", f"{name}() needs {T.describe(want)} here, not {T.describe(got)}", arg.span)
        if name in ("step", "line"):
            self._direction(decl, node.args[2])
        return _BOARD_RESULTS[name](cell)

    def _direction(self, board, node) -> None:
        """A direction written as a text must be one of the board's."""
        if not isinstance(node, ast.StrLit):
            return
        directions = _directions_of(board)
        if directions is not None and node.value not in directions:
            self.r.error("E120", f"board '{board.name}' has no direction '{node.value}'", node.span,
                         did_you_mean(node.value, directions) or f"directions: {', '.join(directions)}")

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
        if name == "text":
            return T.STR
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
        return element  # first, last: the first (last) value of the element
