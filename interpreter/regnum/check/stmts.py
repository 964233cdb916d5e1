"""Statements: scopes, assignments, zones as places, and what each statement needs.

A `let` is visible after it in its block and in nested blocks (as in the
compiler, compiler/statements.py); loop variables only inside their loop.
"""
from __future__ import annotations

from .. import ast
from ..diagnostics import did_you_mean
from . import types as T
from .exprs import ExprChecker, Scope
from .report import Report
from .symbols import KIND_USES, KIND_WORDS, token_span

ASSIGNABLE = "only variables, per-player variables VAR(p), locals and piece fields X.FIELD can be set"

# The entries of a ranking bound by `score … as R`, as Ctx.ranking() builds them.
RANKING_FIELDS = ("player", "place", "points")


class StmtChecker:
    _methods: dict = {}   # statement type -> the method that checks it, found by name once

    def __init__(self, exprs: ExprChecker, report: Report):
        self.x = exprs
        self.s = exprs.s
        self.r = report
        self.context = ""            # flow, setup, phase, rule, action, trigger
        self.in_simultaneous = False

    def body(self, stmts, scope: Scope, context: str) -> None:
        self.context, self.in_simultaneous = context, False
        self.block(stmts, scope)

    def block(self, stmts, scope: Scope) -> None:
        methods = self._methods
        for stmt in stmts:
            method = methods.get(type(stmt))
            if method is None:
                method = methods[type(stmt)] = getattr(self, "_" + type(stmt).__name__).__func__
            method(self, stmt, scope)

    # ── locals and assignments ──
    def _LetStmt(self, s, scope):
        t = self.x.infer(s.value, scope)
        scope.define(s.name, T.UNKNOWN if t.kind == "none" else t)

    def _SetStmt(self, s, scope):
        value = self.x.infer(s.value, scope)
        found = self.target(s.target, scope)
        if found is None:
            return
        want, optional, local = found
        if not local and not T.accepts(want, value, optional):
            self.r.error("E207", f"{_target_words(s.target)} holds {T.describe(want)}, not {T.describe(value)}",
                         s.value.span)

    def _AddStmt(self, s, scope):
        verb = "subtract" if s.negate else "add"
        amount = self.x.infer(s.amount, scope)
        if T.not_number(amount):
            self.r.error("E209", f"'{verb}' needs a number, but this is {T.describe(amount)}", s.amount.span)
        found = self.target(s.target, scope)
        if found is not None and T.not_number(found[0]):
            self.r.error("E209", f"'{verb}' changes a number, but {_target_words(s.target)} holds "
                         f"{T.describe(found[0])}", s.target.span,
                         "add to lists with: set XS = XS + [X]" if found[0].kind == "list" else None)

    def target(self, node, scope: Scope):
        """(type, optional, is_local) of an assignable place, or None after reporting why it is not one."""
        if isinstance(node, ast.Name):
            return self._name_target(node, scope)
        if isinstance(node, ast.Call):
            return self._call_target(node, scope)
        if isinstance(node, ast.Attribute):
            return self._field_target(node, scope)
        self.x.infer(node, scope)
        hint = "lists cannot be changed in place: build a new one, set XS = …" \
            if isinstance(node, ast.Index) else ASSIGNABLE
        self.r.error("E208", "this cannot be set", node.span, hint)
        return None

    def _name_target(self, node, scope):
        name = node.name
        local = scope.get(name)
        if local is not None:
            return local, True, True
        decl = self.s.decl(name)
        if decl is not None and decl.kind == "var":
            self.r.ref(name)
            if decl.per_player:
                self.r.error("E201", f"'{name}' is a per-player variable: give it a player", node.span,
                             f"write {name}(p)")
            return self.s.type_ref(decl.type), decl.type.optional, False
        if name == "score" and decl is None:
            self.r.error("E201", "'score' is a per-player variable: give it a player", node.span,
                         "write score(p)")
            return None
        if decl is not None and decl.kind == "option":
            self.r.ref(name)
            self.r.error("E208", f"cannot set '{name}': it is a game option, fixed when the game is created",
                         node.span, "keep what changes in a variable: var NAME: TYPE = " + name)
            return None
        p = self.s.p
        what = None
        if decl is not None:
            what = KIND_WORDS.get(decl.kind, decl.kind)
        elif name in p.enum_members:
            what = f"a value of enum '{p.enum_members[name]}'"
        elif name in p.board_nodes:
            what = f"a node of board '{p.board_nodes[name]}'"
        elif name == "players":
            what = "the list of players"
        if what is None:
            self.x.infer(node, scope)  # reports the unknown name
            return None
        self.r.ref(name if decl is not None else p.enum_members.get(name) or p.board_nodes.get(name))
        self.r.error("E208", f"cannot set '{name}': it is {what}", node.span,
                     "a constant never changes: declare it with 'var' to change it"
                     if decl is not None and decl.kind == "const" else ASSIGNABLE)
        return None

    def _call_target(self, node, scope):
        name = node.func
        decl = self.s.decl(name) if scope.get(name) is None else None
        if self.s.per_player_var(name) or self.s.table_var(name) or \
                (name == "score" and decl is None and scope.get(name) is None):
            t = self.x.infer(node, scope)
            optional = decl.type.optional if decl is not None else False
            return t, optional, False
        for arg in node.args:
            self.x.infer(arg, scope)
        if decl is None and scope.get(name) is None:
            candidates = {n for n, d in self.s.p.decls.items() if d.kind == "var" and d.per_player} | {"score"}
            self.r.error("E101", f"unknown per-player variable '{name}'", node.func_span,
                         self.s.unknown_hint(name, candidates))
            return None
        if decl is not None:
            self.r.ref(name)
        what = "a local variable" if decl is None else KIND_WORDS.get(decl.kind, decl.kind)
        hint = "move pieces into a zone with 'move … to …'" if decl is not None and decl.kind == "zone" \
            else ASSIGNABLE
        self.r.error("E208", f"cannot set '{name}(…)': '{name}' is {what}", node.func_span, hint)
        return None

    def _field_target(self, node, scope):
        obj = self.x.infer(node.obj, scope)
        if obj.kind == "piece" and node.name in ("type", "label"):
            self.r.error("E208", f"the {node.name} of a piece cannot be changed", node.name_span)
            return None
        if obj.kind == "map":
            self.r.error("E208", "a map cannot be changed", node.name_span)
            return None
        t = self.x.field_of(obj, node)  # reports a missing field
        if obj.kind == "unknown":
            return T.UNKNOWN, True, False
        found = self.s.field_type(node.name, obj.pieces) if obj.kind == "piece" else None
        return None if found is None else (t, found[1], False)

    # ── pieces and zones ──
    def pieces(self, node, scope: Scope, what: str):
        """The piece types `node` may hold (None: any), after checking that it is pieces."""
        t = self.x.infer(node, scope)
        item = T.item_of(t) if t.kind in ("list", "zone") else t
        if item.kind == "piece":
            return item.pieces
        if item.kind not in ("unknown", "none"):
            self.r.error("E206", f"{what} must be a piece or pieces, not {T.describe(t)}", node.span)
        return None

    def zone(self, node, scope: Scope, what: str):
        """The zone family `node` names (None when unknown), after checking that it is a zone."""
        t = self.x.infer(node, scope)
        if isinstance(node, ast.Name):
            local = scope.get(node.name)
            if local is not None:
                self.x.expect(local, T.ANY_ZONE)
                if local.kind == "zone":
                    return local.name
                if local.kind == "unknown":
                    return None
            elif t.kind == "zone":
                return t.name
            elif self.x.unresolved(node.name, scope):
                return None
        elif isinstance(node, ast.Call) and scope.get(node.func) is None and self.s.zone(node.func):
            return node.func
        hint = None
        if t.kind == "piece":
            hint = "a piece is not a place; name the zone it should go to"
        self.r.error("E204", f"{what} must be a zone, but this is {T.describe(t)}", node.span, hint)
        return None

    def _MoveStmt(self, s, scope):
        pieces = self.pieces(s.pieces, scope, "what 'move' moves")
        self.r.move(self.zone(s.dest, scope, "the destination of 'move'"), pieces)

    def _MoveCountStmt(self, s, scope):
        self.x.number(s.count, scope, "the number of pieces to move")
        source = self.zone(s.source, scope, "the zone to move from")
        dest = self.zone(s.dest, scope, "the destination of 'move'")
        self.r.move(dest, None if source is None else self.s.zone_pieces.get(source))

    def _CreateStmt(self, s, scope):
        self.x.number(s.count, scope, "the number of pieces to create")
        fields = self._piece_fields(s)
        for name, span, value_node in s.fields:
            value = self.x.infer(value_node, scope)
            if fields is None:
                continue
            if name not in fields:
                self.r.error("E107", f"piece type '{s.piece_type}' has no field '{name}'", span,
                             did_you_mean(name, fields))
                continue
            want = self.s.type_ref(fields[name].type)
            if not T.accepts(want, value, fields[name].type.optional):
                self.r.error("E207", f"field '{name}' of '{s.piece_type}' holds {T.describe(want)}, "
                             f"not {T.describe(value)}", value_node.span)
        if fields is not None:
            given = {name for name, _, _ in s.fields}
            missing = [f for f in fields.values() if f.name not in given and f.default is None
                       and not f.type.optional]
            if missing:
                names = ", ".join(f"'{f.name}'" for f in missing)
                self.r.error("E213", f"create {s.piece_type} without a value for {names}", s.type_span,
                             f"give it ({missing[0].name}: …) or declare a default in piece {s.piece_type}")
        if s.label is not None:
            self.x.infer(s.label, scope)
        dest = self.zone(s.dest, scope, "where 'create' puts the pieces")
        self.r.move(dest, None if fields is None else frozenset({s.piece_type}))

    def _piece_fields(self, s):
        decl = self.s.decl(s.piece_type)
        if decl is not None and decl.kind == "piece":
            self.r.ref(s.piece_type)
            return {f.name: f for f in decl.fields}
        if decl is not None:
            self.r.error("E106", f"'{s.piece_type}' is {KIND_WORDS.get(decl.kind, decl.kind)}, not a piece type",
                         s.type_span, did_you_mean(s.piece_type, self.s.names_of_kind("piece")))
        else:
            self.r.error("E106", f"unknown piece type '{s.piece_type}'", s.type_span,
                         self.s.unknown_hint(s.piece_type, self.s.names_of_kind("piece")))
        return None

    def _ShuffleStmt(self, s, scope):
        self.zone(s.zone, scope, "what 'shuffle' shuffles")

    def _RevealStmt(self, s, scope):
        self.pieces(s.pieces, scope, "what 'reveal' shows")

    # ── the flow ──
    def _AskStmt(self, s, scope):
        who = self.x.infer(s.player, scope)
        self.x.expect(who, T.PLAYER)
        if not T.accepts(T.PLAYER, who):
            self.r.error("E206", f"'ask' needs a player, not {T.describe(who)}", s.player.span)
        if self.context == "action":
            self.r.error("E304", "an action cannot ask for another decision", s.span,
                         "put the follow-up choice in a rule and 'run' it from the action, or ask from the flow")
        program = self.s.p
        written = tuple(n for n, _ in s.actions)
        offered = program.offered(written)
        self.r.ask(s.span, self.in_simultaneous, offered)
        for name in offered:
            if name not in written:   # an action `offered with` one the ask names
                self.r.ref(name)
        if not offered and written:
            removal = program.removed[("action", written[0])]
            self.r.error("E508", f"the variant removes every action the ask at {s.span} offers: "
                         f"{', '.join(written)}", token_span(removal.span, written[0], before="action"),
                         "offer another action there: write the ask again, or declare one "
                         f"'offered with' an action the ask still offers")
        for name, span in s.actions:
            if ("action", name) in program.removed and self.s.decl(name) is None:
                continue   # a variant took it away: the ask offers the others
            decl = self.s.decl(name)
            if decl is not None and decl.kind == "action":
                self.r.ref(name)
            elif decl is not None:
                self.r.ref(name)
                self.r.error("E205", f"'{name}' is {KIND_WORDS.get(decl.kind, decl.kind)}, not an action", span,
                             KIND_USES.get(decl.kind, "").format(name=name) or None)
            else:
                self.r.error("E110", f"unknown action '{name}'", span,
                             self.s.unknown_hint(name, self.s.names_of_kind("action")))

    def _RunStmt(self, s, scope):
        args = [self.x.infer(arg, scope) for arg in s.args]
        decl = self.s.decl(s.name)
        if decl is None:
            self.r.error("E109", f"unknown rule or phase '{s.name}'", s.name_span,
                         self.s.unknown_hint(s.name, self.s.names_of_kind("rule", "phase")))
            return
        self.r.ref(s.name)
        if decl.kind not in ("rule", "phase"):
            self.r.error("E205", f"'{s.name}' is {KIND_WORDS.get(decl.kind, decl.kind)}, not a rule or phase",
                         s.name_span, KIND_USES.get(decl.kind, "").format(name=s.name) or None)
            return
        self.r.run(s.name, s.span, self.in_simultaneous)
        n = len(decl.params)
        if self.x.arity(f"{decl.kind} '{s.name}'", n, n, len(s.args), s.name_span):
            self.x.check_args(f"{decl.kind}:{s.name}", decl.params, s.args, args, f"{decl.kind} '{s.name}'")

    def _ScoreStmt(self, s, scope):
        args = [self.x.infer(arg, scope) for arg in s.args]
        decl = self.s.decl(s.name)
        if decl is None:
            self.r.error("E111", f"unknown scoring '{s.name}'", s.name_span,
                         self.s.unknown_hint(s.name, self.s.names_of_kind("scoring")))
            return
        self.r.ref(s.name)
        if decl.kind != "scoring":
            self.r.error("E205", f"'{s.name}' is {KIND_WORDS.get(decl.kind, decl.kind)}, not a scoring",
                         s.name_span, KIND_USES.get(decl.kind, "").format(name=s.name) or None)
            return
        n = len(decl.params)
        if self.x.arity(f"scoring '{s.name}'", n, n, len(s.args), s.name_span):
            self.x.check_args(f"scoring:{s.name}", decl.params, s.args, args, f"scoring '{s.name}'")
        if s.result is not None:
            scope.define(s.result, T.list_of(T.map_of(RANKING_FIELDS, T.INT)))

    def _AnnounceStmt(self, s, scope):
        for part in s.text.parts:
            if not isinstance(part, str):
                self.x.infer(part, scope)

    def _EndStmt(self, s, scope):
        pass

    def _PassStmt(self, s, scope):
        pass

    def _NewTurnStmt(self, s, scope):
        pass

    # ── control ──
    def _IfStmt(self, s, scope):
        for cond, body in s.branches:
            self.x.condition(cond, scope, "the condition of 'if'")
            self.block(body, scope.child())
        if s.otherwise:
            self.block(s.otherwise, scope.child())

    def _ForStmt(self, s, scope):
        item = self.x.iterate(s.source, scope, f"what '{s.var}' ranges over")
        inner = scope.child({s.var: item})
        if s.cond is not None:
            self.x.condition(s.cond, inner, "a 'where' condition")
        self.block(s.body, inner)

    def _RepeatStmt(self, s, scope):
        self.x.number(s.count, scope, "the number of times to repeat")
        self.block(s.body, scope.child())

    def _UntilStmt(self, s, scope):
        self.block(s.body, scope.child())
        self.x.condition(s.cond, scope, "the condition of 'repeat until'")

    def _WhileStmt(self, s, scope):
        self.x.condition(s.cond, scope, "the condition of 'while'")
        self.block(s.body, scope.child())

    def _SimultaneousStmt(self, s, scope):
        self.r.spawn(token_span(s.span, "simultaneously"), self.in_simultaneous)
        item = self.x.iterate(s.source, scope, f"what '{s.var}' ranges over")
        if not T.accepts(T.PLAYER, item):
            self.r.error("E206", f"'simultaneously' runs once per player, but '{s.var}' is {T.describe(item)}",
                         s.source.span)
        inner = scope.child({s.var: T.PLAYER if item.kind == "unknown" else item})
        if s.cond is not None:
            self.x.condition(s.cond, inner, "a 'where' condition")
        outer, self.in_simultaneous = self.in_simultaneous, True
        self.block(s.body, inner.child())
        self.in_simultaneous = outer


def _target_words(node) -> str:
    if isinstance(node, ast.Name):
        return f"'{node.name}'"
    if isinstance(node, ast.Call):
        return f"'{node.func}(…)'"
    if isinstance(node, ast.Attribute):
        return f"field '{node.name}'"
    return "this"
