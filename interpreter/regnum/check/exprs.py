"""Expressions: resolve every name, infer a static type, report what is certainly wrong.

Names resolve in the compiler's order (compiler/expressions.py `_Name`):
locals, constants, enum members and board nodes, `players`, then the other
declarations. Calls resolve as in `_Call`, see calls.py.
"""
from __future__ import annotations

from .. import ast
from ..diagnostics import did_you_mean, quietly, suggesting
from . import types as T
from .calls import CallChecker
from .report import QuietReport, Report
from .symbols import KIND_USES, KIND_WORDS, Symbols


class Scope:
    """Local names and their types; a block sees its parents' names."""

    __slots__ = ("names", "parent")

    def __init__(self, names: dict | None = None, parent: "Scope | None" = None):
        self.names = dict(names or {})
        self.parent = parent

    def get(self, name: str) -> T.Ty | None:
        scope = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def child(self, names: dict | None = None) -> "Scope":
        return Scope(names, self)

    def define(self, name: str, ty: T.Ty) -> None:
        self.names[name] = ty

    def all(self) -> set[str]:
        out: set[str] = set()
        scope = self
        while scope is not None:
            out.update(scope.names)
            scope = scope.parent
        return out


class ExprChecker(CallChecker):
    # node type -> the method that infers it: found by name once per class, not per node
    _methods: dict = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._methods = {}

    def __init__(self, symbols: Symbols, report: Report, quiet: "ExprChecker | None" = None):
        self.s = symbols
        self.r = report
        if quiet is None and not report.quiet:
            quiet = ExprChecker(symbols, QuietReport())
        self.quiet = quiet or self
        self._const_types: dict = {}
        self._def_types: dict = {}
        self.invariant = False     # checking an invariant: previous(…) is allowed (calls.py)
        self.in_previous = False   # inside previous(…), which does not nest

    def infer(self, node, scope: Scope) -> T.Ty:
        method = self._methods.get(type(node))
        if method is None:
            method = self._methods[type(node)] = getattr(self, "_" + type(node).__name__).__func__
        return method(self, node, scope)

    # ── checks with a message ──
    def expect(self, t: T.Ty, want: T.Ty) -> None:
        """`t` is needed as `want`: when it is a parameter, its callers must pass one."""
        if t.kind == "unknown" and t.name is not None:
            self.r.expect(t.name, want)

    def check_args(self, key: str, params, nodes, types, what: str) -> None:
        """Arguments of a call to a def, rule or scoring against what its body needs of them."""
        needs = self.s.expects.get(key, {})
        for param, node, t in zip(params, nodes, types):
            want = needs.get(param)
            if want is None:
                continue
            if T.accepts(want, t, optional=True):
                self.expect(t, want)
            else:
                self.r.error("E206", f"{what} needs {T.describe(want)} as '{param}', not {T.describe(t)}",
                             node.span)

    def condition(self, node, scope: Scope, what: str) -> T.Ty:
        t = self.infer(node, scope)
        self.expect(t, T.BOOL)
        if T.not_bool(t):
            self.r.error("E203", f"{what} must be true or false, but this is {T.describe(t)}", node.span,
                         _bool_hint(t))
        return t

    def number(self, node, scope: Scope, what: str) -> T.Ty:
        t = self.infer(node, scope)
        self.expect(t, T.INT)
        if T.not_number(t):
            self.r.error("E211", f"{what} must be a number, but this is {T.describe(t)}", node.span)
        return t

    def ordered(self, node, scope: Scope, what: str) -> T.Ty:
        """A value players are ranked by: a number, or a list of numbers compared item by item
        (the first difference decides: points won on the last object, then on the one before…)."""
        t = self.infer(node, scope)
        if T.not_number(t) and not T.not_list(t):
            if T.not_number(T.item_of(t)):
                self.r.error("E211", f"{what} must be a number or a list of numbers, but this is "
                             f"{T.describe(t)}", node.span)
            return t
        self.expect(t, T.INT)
        if T.not_number(t):
            self.r.error("E211", f"{what} must be a number or a list of numbers, but this is {T.describe(t)}",
                         node.span)
        return t

    def iterate(self, node, scope: Scope, what: str) -> T.Ty:
        """Check that `node` is a list (or a zone) and return the type of its items."""
        t = self.infer(node, scope)
        self.expect_list(t, node.span, what)
        return T.item_of(t)

    def expect_list(self, t: T.Ty, span, what: str) -> None:
        self.expect(t, T.list_of(T.UNKNOWN))
        if T.not_list(t):
            self.r.error("E210", f"{what} must be a list, but this is {T.describe(t)}", span)

    # ── literals ──
    def _IntLit(self, node, scope):
        return T.INT

    def _StrLit(self, node, scope):
        return T.STR

    def _BoolLit(self, node, scope):
        return T.BOOL

    def _NoneLit(self, node, scope):
        return T.NONE

    def _ListLit(self, node, scope):
        item, first = T.NONE, None
        for x in node.items:
            t = self.infer(x, scope)
            joined = T.join(item, t)
            if joined.kind == "unknown" and T.known(item) and T.known(t):
                self.r.error("E207", f"a list holds values of one type, but this is {T.describe(t)} "
                             f"after {T.describe(first)}", x.span)
            elif first is None and t.kind != "none":
                first = t
            item = joined
        return T.list_of(T.UNKNOWN if item.kind == "none" and node.items == () else item)

    def _MapLit(self, node, scope):
        value = T.NONE
        seen: dict = {}
        for key, span, x in node.entries:
            value = T.join(value, self.infer(x, scope))
            if key in seen:
                self.r.error("E102", f"the key {key!r} is given twice in this map", span,
                             f"the first is at {seen[key]}")
            seen.setdefault(key, span)
        return T.map_of([k for k, _, _ in node.entries], value)

    def _DataFile(self, node, scope):
        """The type of a data file's value, found once per node: a file may hold thousands of
        values, and the same node is walked by every round and every load of its ruleset."""
        kept = _DATA_TYPES.get(id(node))
        if kept is None or kept[0] is not node:
            if len(_DATA_TYPES) >= 256:
                _DATA_TYPES.clear()
            kept = _DATA_TYPES[id(node)] = (node, T.of_value(node.value))  # the node held: its id stays
        return kept[1]

    def _RandomExpr(self, node, scope):
        item = self.iterate(node.source, scope, "what 'random' draws from")
        if node.count is None:
            return item
        self.number(node.count, scope, "how many items 'random' draws")
        return T.list_of(item)

    # ── names ──
    def _Name(self, node, scope):
        name = node.name
        local = scope.get(name)
        if local is not None:
            return local
        p = self.s.p
        if self.s.is_const(name):
            self.r.ref(name)
            return self.const_type(name)
        if name in p.enum_members:
            self.r.ref(p.enum_members[name])
            return T.member_of(p.enum_members[name])
        if name in p.board_nodes:
            self.r.ref(p.board_nodes[name])
            return T.node_of(p.board_nodes[name])
        if name == "players":
            return T.list_of(T.PLAYER)
        decl = p.get(name)
        if decl is not None:
            self.r.ref(name)
            return self._global_value(node, decl)
        if name == "score":
            self.r.error("E201", "'score' is a per-player variable: give it a player", node.span,
                         "write score(p)")
            return T.INT
        if name == "player":
            self.player_outside_action(node.span)
            return T.PLAYER
        self.unknown_name(node, scope)
        return T.UNKNOWN

    def unknown_name(self, node, scope: Scope) -> None:
        hint = None
        if not self.r.quiet and suggesting():   # a quiet walk drops its diagnostics: no hint to find
            hint = self.s.unknown_hint(node.name, scope.all() | self.s.value_names())
        self.r.error("E101", f"unknown name '{node.name}'", node.span, hint)

    def player_outside_action(self, span) -> None:
        self.r.error("E114", "'player' is only defined inside an action", span,
                     "an action's parameters, requires, prefers and body may name the player who acts; "
                     "elsewhere pass the player as a parameter")

    def _global_value(self, node, decl) -> T.Ty:
        name, kind = node.name, decl.kind
        if kind == "var":
            t = self.s.type_ref(decl.type)
            if decl.per_player:
                self.r.error("E201", f"'{name}' is a per-player variable: give it a player", node.span,
                             f"write {name}(p)")
            elif decl.per_index:
                self.r.error("E201", f"'{name}' has one value per {_index_words(self.s, decl.index)}: "
                             "say which", node.span, f"write {name}(…) with a {_index_words(self.s, decl.index)}")
            return t
        if kind == "option":
            return self.s.type_ref(decl.type)
        if kind == "zone":
            if decl.index is not None:
                self.r.error("E201", f"zone '{name}' is indexed per {decl.index}: give it an index",
                             node.span, f"write {name}(…) with a {decl.index}")
            return self.s.zone_type(name)
        if kind == "board":
            return T.list_of(T.node_of(name))  # a board is the list of its nodes
        if kind == "enum":
            return T.list_of(T.member_of(name))
        if kind == "def":
            if decl.params:
                self.r.error("E201", f"'{name}' takes {_count(len(decl.params))}: call it", node.span,
                             f"write {name}({', '.join(decl.params)})")
            return self.def_type(decl)
        use = KIND_USES.get(kind, "")
        self.r.error("E205", f"'{name}' is {KIND_WORDS.get(kind, kind)}, not a value", node.span,
                     use.format(name=name) or None)
        return T.UNKNOWN

    def const_type(self, name: str) -> T.Ty:
        q = self.quiet
        if name not in q._const_types:
            q._const_types[name] = T.UNKNOWN  # a cycle (reported by the constants pass) stays unknown
            with quietly():   # what the quiet walk finds is dropped: no hint is looked for
                q._const_types[name] = q.infer(self.s.decl(name).value, Scope())
        return q._const_types[name]

    def def_type(self, decl) -> T.Ty:
        q = self.quiet
        if decl.name not in q._def_types:
            q._def_types[decl.name] = T.UNKNOWN  # recursion is reported by the recursion pass
            with quietly():
                q._def_types[decl.name] = q.infer(decl.body, Scope({p: T.UNKNOWN for p in decl.params}))
        return q._def_types[decl.name]

    # ── fields and items ──
    def _Attribute(self, node, scope):
        obj = self.infer(node.obj, scope)
        return self.field_of(obj, node)

    def field_of(self, obj: T.Ty, node) -> T.Ty:
        name = node.name
        if obj.kind == "piece":
            found = self.s.field_type(name, obj.pieces)
            if found is None:
                self.r.error("E107", _no_field(obj.pieces, name), node.name_span,
                             did_you_mean(name, self.s.field_names(obj.pieces)))
                return T.UNKNOWN
            return found[0]
        if obj.kind == "map":
            if obj.keys is not None and name not in obj.keys:
                self.r.error("E107", f"the map has no key '{name}'", node.name_span,
                             did_you_mean(name, [str(k) for k in obj.keys]))
            return obj.item or T.UNKNOWN
        if obj.kind == "unknown":
            return T.UNKNOWN
        if obj.kind == "node":
            return self._cell_field(obj, node)
        hint = None
        if obj.kind == "zone":
            hint = "a zone holds pieces: take one first, for example ZONE[0]." + name
        elif obj.kind == "player":
            hint = "a player has no fields; per-player variables are read as VAR(player)"
        self.r.error("E212", f"{T.describe(obj)} has no fields, so no '.{name}'", node.name_span, hint)
        return T.UNKNOWN

    def _cell_field(self, obj: T.Ty, node) -> T.Ty:
        """`h.row`, `h.col`: the coordinates of a cell of a grid."""
        board = self.s.board(obj.name)
        if board is not None and board.topology == "graph":
            self.r.error("E214", f"board '{obj.name}' is a graph: its nodes have no coordinates, so no "
                         f"'.{node.name}'", node.name_span, "only the cells of a hex_grid, pyramid or open_grid "
                         "have a row and a col")
            return T.UNKNOWN
        if node.name not in ("row", "col"):
            self.r.error("E212", f"a cell of board '{obj.name}' has a row and a col, not '.{node.name}'",
                         node.name_span, did_you_mean(node.name, ["row", "col"])
                         or "a value per cell is a variable: var NAME per BOARD, read as NAME(cell)")
            return T.UNKNOWN
        return T.INT

    def _Index(self, node, scope):
        obj = self.infer(node.obj, scope)
        index = self.infer(node.index, scope)
        if obj.kind in ("list", "zone"):
            self.expect(index, T.INT)
            if T.not_number(index):
                self.r.error("E206", f"a list index must be a number, not {T.describe(index)}", node.index.span)
            return T.item_of(obj)
        if obj.kind == "map":
            self._map_index(node, obj, index, scope)
            return obj.item or T.UNKNOWN
        if obj.kind in ("str", "unknown"):
            return T.STR if obj.kind == "str" else T.UNKNOWN
        self.r.error("E210", f"only lists and maps have items, but this is {T.describe(obj)}", node.obj.span)
        return T.UNKNOWN

    def _map_index(self, node, obj: T.Ty, index: T.Ty, scope: Scope) -> None:
        numbers = obj.keys is not None and any(type(k) is int for k in obj.keys)
        if index.kind not in ("str", "node", "member", "unknown") and not (numbers and T.is_number(index)):
            keys = "names or numbers" if numbers else "names"
            self.r.error("E206", f"a map's keys are {keys}, not {T.describe(index)}", node.index.span)
            return
        if obj.keys is None:
            return
        key = _literal_key(node.index, self.s, scope)
        if key is not None:
            if key not in obj.keys:
                self.r.error("E107", f"the map has no key '{key}'", node.index.span,
                             did_you_mean(str(key), [str(k) for k in obj.keys]))
            return
        domain = self.s.domain_of_keys(obj.keys)
        if domain is not None:
            self.expect(index, domain)
        if index.kind in ("node", "member"):
            values = self.s.values_of(index)
            missing = sorted(values - obj.keys)
            if missing:
                extra = sorted(obj.keys - values, key=str)
                shown = ", ".join(f"'{m}'" for m in missing[:3]) + (", …" if len(missing) > 3 else "")
                hint = _extra_keys_hint(extra, index) if extra else None
                self.r.warning("W408", f"this map has no key for {shown}: indexing it with "
                               f"{T.describe(index)} may fail", node.index.span, hint)

    # ── operators ──
    def _Unary(self, node, scope):
        if node.op == "not":
            self.condition(node.operand, scope, "the operand of 'not'")
            return T.BOOL
        t = self.infer(node.operand, scope)
        self.expect(t, T.INT)
        if T.not_number(t):
            self.r.error("E202", f"'-' needs a number, not {T.describe(t)}", node.operand.span)
        return T.INT

    def _Binary(self, node, scope):
        op = node.op
        if op in ("and", "or"):
            self.condition(node.left, scope, f"each side of '{op}'")
            self.condition(node.right, scope, f"each side of '{op}'")
            return T.BOOL
        left, right = self.infer(node.left, scope), self.infer(node.right, scope)
        self._note_cost(node, left, right)
        if op == "+":
            return self._plus(node, left, right)
        if op in ("-", "*", "//", "%"):
            for side, t in ((node.left, left), (node.right, right)):
                self.expect(t, T.INT)
                if T.not_number(t):
                    self.r.error("E202", f"'{op}' needs numbers, but this is {T.describe(t)}", side.span)
            return T.INT
        if op in ("<", "<=", ">", ">="):
            self._order(node, left, right)
        elif op in ("==", "!="):
            if not T.comparable(left, right):
                outcome = "false" if op == "==" else "true"
                self.r.error("E202", f"comparing {T.describe(left)} with {T.describe(right)} is always {outcome}",
                             node.span)
        else:  # in, not in
            self._membership(node, left, right)
        return T.BOOL

    def _note_cost(self, node, left: T.Ty, right: T.Ty) -> None:
        """Note whether this operator is proven cheap wherever it is checked: `+` and `*` of
        numbers, a comparison with a number, seat, cell, member, piece or literal. The compiler
        leaves those to Python and counts the work of the others (texts and lists joined or
        compared item by item) against the step limit."""
        if node.op in ("+", "*"):
            proven = T.is_number(left) and T.is_number(right)
        elif node.op in ("==", "!=", "<", "<=", ">", ">="):
            proven = any(t.kind in _SMALL_KINDS for t in (left, right)) or any(
                isinstance(side, _LITERALS) for side in (node.left, node.right))
        else:
            return
        seen = self.s.p.cheap_ops.get(id(node))
        self.s.p.cheap_ops[id(node)] = (node, proven and (seen is None or seen[1]))

    def _plus(self, node, left: T.Ty, right: T.Ty) -> T.Ty:
        if T.is_number(left) and T.is_number(right):
            return T.INT
        addable = ("int", "player", "list", "zone", "str", "unknown")
        bad = [(s, t) for s, t in ((node.left, left), (node.right, right)) if t.kind not in addable]
        for side, t in bad:
            self.r.error("E202", f"'+' needs numbers, lists or texts, but this is {T.describe(t)}", side.span)
        if bad:
            return T.UNKNOWN
        if "unknown" in (left.kind, right.kind):
            other = right if left.kind == "unknown" else left
            return T.INT if T.is_number(other) else (T.list_of(T.UNKNOWN) if other.kind in ("list", "zone")
                                                     else T.UNKNOWN)
        families = {"int": "n", "player": "n", "list": "l", "zone": "l", "str": "s"}
        if families[left.kind] != families[right.kind]:
            self.r.error("E202", f"cannot add {T.describe(left)} and {T.describe(right)}", node.span)
            return T.UNKNOWN
        if families[left.kind] == "l":
            a, b = T.item_of(left), T.item_of(right)
            item = T.join(a, b)
            if item.kind == "unknown" and T.known(a) and T.known(b):
                self.r.error("E202", f"cannot add {T.describe(left)} and {T.describe(right)}", node.span)
            return T.list_of(item)
        return T.STR

    def _order(self, node, left: T.Ty, right: T.Ty) -> None:
        orderable = ("int", "player", "str", "node", "member", "unknown")
        for side, t in ((node.left, left), (node.right, right)):
            if t.kind not in orderable:
                self.r.error("E202", f"'{node.op}' compares numbers or texts, but this is {T.describe(t)}",
                             side.span)
                return
        if not T.comparable(left, right):
            self.r.error("E202", f"cannot compare {T.describe(left)} with {T.describe(right)}", node.span)

    def _membership(self, node, left: T.Ty, right: T.Ty) -> None:
        if right.kind in ("map", "str", "unknown"):
            return
        if T.not_list(right):
            self.r.error("E210", f"'{node.op}' needs a list on its right, but this is {T.describe(right)}",
                         node.right.span)
            return
        item = T.item_of(right)
        if not T.comparable(left, item):
            self.r.error("E202", f"{T.describe(left)} is never in {T.describe(right)}", node.span)

    def _IfExpr(self, node, scope):
        self.condition(node.cond, scope, "the condition of 'if … then … else'")
        return T.join(self.infer(node.then, scope), self.infer(node.otherwise, scope))

    # ── comprehensions ──
    def generator(self, node, scope: Scope) -> tuple[T.Ty, T.Ty, Scope]:
        """(item type of the last clause, element type, inner scope) of `E for x in XS where C …`."""
        inner = scope
        item = T.UNKNOWN
        for var, source, cond in [(node.var, node.source, node.cond)] + [(m.var, m.source, m.cond)
                                                                         for m in node.more]:
            item = self.iterate(source, inner, f"what '{var}' ranges over")
            inner = inner.child({var: item})
            if cond is not None:
                self.condition(cond, inner, "a 'where' condition")
        return item, self.infer(node.element, inner), inner

    def _ListComp(self, node, scope):
        _, element, _ = self.generator(node, scope)
        return T.list_of(element)


_DATA_TYPES: dict = {}   # id(DataFile node) -> (node, its type)
_SMALL_KINDS = ("int", "bool", "none", "player", "node", "member", "piece")
_LITERALS = (ast.IntLit, ast.StrLit, ast.BoolLit, ast.NoneLit)


def _index_words(s: Symbols, index: str) -> str:
    if s.board(index) is not None:
        return f"cell of board '{index}'"
    return f"value of enum '{index}'"


def _count(n: int) -> str:
    return f"{n} argument" + ("" if n == 1 else "s")


def _no_field(pieces, name: str) -> str:
    if not pieces:
        return f"no piece type has a field '{name}'"
    if len(pieces) == 1:
        return f"piece type '{next(iter(pieces))}' has no field '{name}'"
    listed = ", ".join(f"'{p}'" for p in sorted(pieces))
    return f"none of the piece types {listed} has a field '{name}'"


def _extra_keys_hint(extra: list, index: T.Ty) -> str:
    what = f"node of board '{index.name}'" if index.kind == "node" else f"value of enum '{index.name}'"
    if len(extra) == 1:
        return f"its key '{extra[0]}' is no {what}"
    return f"its keys {', '.join(repr(k) for k in extra[:3])} are no {what}"


def _bool_hint(t: T.Ty) -> str | None:
    if t.kind in ("list", "zone"):
        return "test a list with count(…) > 0, any(…) or all(…)"
    if T.is_number(t):
        return "compare it: … > 0"
    if t.kind in ("piece", "str", "node", "member", "player"):
        return "compare it: … != none, or … == VALUE"
    return None


def _literal_key(node, s: Symbols, scope: Scope) -> str | None:
    """The key an index expression certainly names (a text, an enum member or a board node)."""
    if isinstance(node, (ast.StrLit, ast.IntLit)):
        return node.value
    if isinstance(node, ast.Name) and (node.name in s.p.enum_members or node.name in s.p.board_nodes) \
            and not s.is_const(node.name) and scope.get(node.name) is None:
        return node.name
    return None
