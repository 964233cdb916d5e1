"""One walk over every declaration of a Program, shared by the passes that need it.

The walk resolves names, infers types and records facts (references, runs,
asks). Which piece types each zone may hold is found first, by repeating the
walk until the moves and creates it sees stop adding types (a fixpoint,
fixpoint.py): a zone's pieces are then known exactly, and `x.field` is
checked against them.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import ast, scoring
from ..diagnostics import Diagnostic, did_you_mean
from ..program import Program
from . import types as T
from .exprs import ExprChecker, Scope
from .fixpoint import fixpoint_and_last
from .symbols import KIND_WORDS
from .report import Facts, Report
from .stmts import StmtChecker
from .symbols import KIND_WORDS, Symbols, token_span


@dataclass
class Analysis:
    diagnostics: list[Diagnostic]
    facts: Facts
    zone_pieces: dict
    expects: dict


_last: list = []  # [(program, analysis)]: the passes of one check share one walk

# True: the reporting walk runs even when the fixpoint knows what it would find, and the two
# are compared (tests).
VERIFY = False


def forget() -> None:
    """Drop the shared walk, so that the next check walks again."""
    _last.clear()


def analyse(program: Program) -> Analysis:
    """The walk's findings, after the fixpoint. The walk that reports runs only when the
    fixpoint's last walks found something to report, or cannot stand for it (fixpoint.py):
    a ruleset without mistakes is walked once less."""
    if _last and _last[0][0] is program:
        return _last[0][1]
    zone_pieces, expects, known = fixpoint_and_last(program, _Walker)
    if known is None or VERIFY:
        report = Report()
        _Walker(program, zone_pieces, expects, report).run()
        result = Analysis(report.diagnostics, report.facts, zone_pieces, expects)
        if known is not None and (result.diagnostics or result.facts != known):
            raise AssertionError(f"the reporting walk differs from the fixpoint's last walks: "
                                 f"{result.diagnostics[:3]}, {result.facts} against {known}")
    else:
        result = Analysis([], known, zone_pieces, expects)
    _last[:] = [(program, result)]
    return result


class _Walker:
    def __init__(self, program: Program, zone_pieces: dict, expects: dict, report: Report,
                 exprs=ExprChecker):
        self.p = program
        self.s = Symbols(program)
        self.s.zone_pieces = zone_pieces
        self.s.expects = expects
        self.r = report
        self.x = exprs(self.s, report)
        self.st = StmtChecker(self.x, report)

    def units(self):
        """(origin, walk, declaration) of each declaration, in the order they are walked: the
        fixpoint (fixpoint.py) walks them one by one."""
        for decl in list(self.p.decls.values()):
            yield f"{decl.kind}:{decl.name}", getattr(self, "_" + decl.kind), decl
        for kind in ("setup", "flow", "winner", "ends"):
            decl = self.p.singletons.get(kind)
            if decl is not None:
                yield kind, getattr(self, "_" + kind), decl

    def run(self) -> None:
        for origin, walk, decl in self.units():
            self.r.origin = origin
            walk(decl)

    # ── data ──
    def _const(self, d):
        self.x.infer(d.value, Scope())

    def _enum(self, d):
        pass

    def _board(self, d):
        for _, _, value in d.settings:
            self.x.infer(value, Scope())

    def _piece(self, d):
        for f in d.fields:
            want = self.type_ref(f.type)
            if f.default is not None:
                got = self.x.infer(f.default, Scope())
                if not T.accepts(want, got, f.type.optional):
                    self.r.error("E207", f"field '{f.name}' holds {T.describe(want)}, not {T.describe(got)}",
                                 f.default.span, "declare it optional, as TYPE?, to allow none"
                                 if got.kind == "none" else None)

    def _zone(self, d):
        if d.index is not None and d.index != "player":
            self.r.ref(d.index)

    def _option(self, d):
        want = self.type_ref(d.type)
        got = self.x.infer(d.default, Scope())
        if not T.accepts(want, got, d.type.optional):
            self.r.error("E207", f"option '{d.name}' is declared as {T.describe(want)}, "
                         f"but its default is {T.describe(got)}", d.default.span)
        for clause in d.requires:
            self.x.condition(clause.cond, Scope(), f"require '{clause.name}'")

    def _view(self, d):
        board = self.p.get(d.board, "board")
        piece = self.p.get(d.board, "piece")
        enum = self.p.get(d.board, "enum")
        what = T.node_of(d.board) if board is not None else T.piece_of({d.board}) if piece is not None \
            else T.member_of(d.board) if enum is not None else T.UNKNOWN
        scope = Scope({d.var: what})
        if board is not None or piece is not None or enum is not None:
            self.r.ref(d.board)
        text = self.x.infer(d.text, scope)
        if T.known(text) and not T.is_textual(text) and not T.is_number(text):
            self.r.error("E206", f"a view shows a text, not {T.describe(text)}", d.text.span,
                         "turn a value into text with text(…)")
        if d.colour is not None:
            colour = self.x.infer(d.colour, scope)
            if T.known(colour) and not T.is_textual(colour) and colour.kind != "none":
                self.r.error("E206", f"a view's colour is a colour name (a text), not {T.describe(colour)}",
                             d.colour.span)

    def _var(self, d):
        if d.per_index:
            self.r.ref(d.index)
        want = self.type_ref(d.type)
        got = self.x.infer(d.init, Scope({"player": T.PLAYER} if d.per_player else {}))
        if not T.accepts(want, got, d.type.optional):
            self.r.error("E207", f"'{d.name}' is declared as {T.describe(want)}, "
                         f"but starts as {T.describe(got)}", d.init.span,
                         "declare it optional, as TYPE?, to allow none" if got.kind == "none" else None)

    def type_ref(self, ref: ast.TypeRef) -> T.Ty:
        if ref.item is not None:
            self.type_ref(ref.item)
        elif ref.name not in T.SCALARS:
            decl = self.p.get(ref.name)
            if decl is not None and decl.kind in ("piece", "enum", "board"):
                self.r.ref(ref.name)
            elif decl is not None:
                self.r.ref(ref.name)
                self.r.error("E108", f"'{ref.name}' is {KIND_WORDS.get(decl.kind, decl.kind)}, not a type",
                             token_span(ref.span, ref.name), did_you_mean(ref.name, self.s.type_names()))
            else:
                self.r.error("E108", f"unknown type '{ref.name}'", token_span(ref.span, ref.name),
                             did_you_mean(ref.name, self.s.type_names())
                             or "types: " + ", ".join(self.s.type_names()))
        return self.s.type_ref(ref)

    def _def(self, d):
        self.x.infer(d.body, Scope({p: T.param(p) for p in d.params}))

    # ── behaviour ──
    def _phase(self, d):
        self.st.body(d.body, Scope(), "phase")

    def _rule(self, d):
        self.st.body(d.body, Scope({p: T.param(p) for p in d.params}), "rule")

    def _setup(self, d):
        self.st.body(d.body, Scope(), "setup")

    def _flow(self, d):
        self.st.body(d.body, Scope(), "flow")

    def _action(self, d):
        scope = Scope({"player": T.PLAYER})
        for param in d.params:
            item = self.x.iterate(param.domain, scope, f"the choices of '{param.name}'")
            scope.define(param.name, item)
        for clause in d.requires:
            self.x.condition(clause.cond, scope, f"require '{clause.name}'")
        params = [p.name for p in d.params]
        for clause in d.prefers:
            self.x.condition(clause.cond, scope, f"prefer '{clause.name}'")
            for name, span in clause.per:
                if name not in params:
                    self.r.error("E122", f"prefer '{clause.name}' is grouped per '{name}', which is not a "
                                 f"parameter of action '{d.name}'", span,
                                 did_you_mean(name, params) or (f"parameters: {', '.join(params)}" if params
                                                                else "this action has no parameters"))
        if d.label is not None:
            for part in d.label.parts:
                if not isinstance(part, str):
                    self.x.infer(part, scope)
        if d.offered_with is not None:
            name, span = d.offered_with
            other = self.p.get(name)
            if other is None:
                self.r.error("E110", f"unknown action '{name}'", span,
                             self.s.unknown_hint(name, self.s.names_of_kind("action")))
            elif other.kind != "action":
                self.r.error("E205", f"'{name}' is {KIND_WORDS.get(other.kind, other.kind)}, not an action", span,
                             f"'offered with' names the action whose asks offer '{d.name}' too")
        self.st.body(d.body, scope.child(), "action")

    def _trigger(self, d):
        zone = self.p.get(d.zone)
        scope = Scope({d.piece_var: T.ANY_PIECE})
        if zone is None or zone.kind != "zone":
            if zone is not None:
                self.r.ref(d.zone)
                self.r.error("E204", f"a trigger watches a zone, but '{d.zone}' is "
                             f"{KIND_WORDS.get(zone.kind, zone.kind)}", d.zone_span)
            else:
                self.r.error("E113", f"unknown zone '{d.zone}'", d.zone_span,
                             did_you_mean(d.zone, self.s.names_of_kind("zone")))
        else:
            self.r.ref(d.zone)
            scope.define(d.piece_var, T.item_of(self.s.zone_type(d.zone)))
            if d.index_var is not None:
                if zone.index is None:
                    self.r.error("E201", f"zone '{d.zone}' is a single zone: it has no index to name",
                                 token_span(d.span, d.index_var, before="("),
                                 f"write: when {d.piece_var} enters {d.zone}")
                scope.define(d.index_var, self.s.index_type(zone) if zone.index else T.UNKNOWN)
        if d.index_var is not None and scope.get(d.index_var) is None:
            scope.define(d.index_var, T.UNKNOWN)
        if d.cond is not None:
            self.x.condition(d.cond, scope, "the 'where' condition of a trigger")
        self.st.body(d.body, scope.child(), "trigger")

    def _invariant(self, d):
        self.x.invariant = True   # an invariant alone may compare with the state before the last move
        try:
            self.x.condition(d.cond, Scope(), f"invariant '{d.name}'")
        finally:
            self.x.invariant = False

    def _statistic(self, d):
        self.x.number(d.value, Scope(), f"statistic '{d.name}'")

    def _ends(self, d):
        """`ends within N moves`: N a number known before play (constants.py), at least 1 — a
        literal is judged here, a computed one when it is compiled (same code, E315)."""
        self.x.number(d.limit, Scope(), "the move bound of 'ends within'")
        node, sign = d.limit, 1
        if isinstance(node, ast.Unary) and node.op == "-":
            node, sign = node.operand, -1
        if isinstance(node, ast.IntLit) and sign * node.value < 1:
            self.r.error("E315", f"a game cannot promise to end within {sign * node.value} moves", d.limit.span,
                         "the bound is a whole number of moves, at least 1")

    def _winner(self, d):
        scope = Scope({d.var: T.PLAYER})
        for key in d.keys:
            if key.key is not None:
                self.x.ordered(key.key, scope, "a winner key")

    # ── scoring ──
    def _scoring(self, d):
        scope = Scope({p: T.param(p) for p in d.params})
        item = self.x.iterate(d.source, scope, "the players a majority ranks")
        if not T.accepts(T.PLAYER, item):
            self.r.error("E206", f"a majority ranks players, but '{d.var}' is {T.describe(item)}", d.source.span)
        inner = scope.child({d.var: T.PLAYER if item.kind == "unknown" else item})
        self.x.number(d.measure, inner, "the measure of a majority")
        if d.pays is not None:
            pays = self.x.infer(d.pays, scope)
            self.x.expect_list(pays, d.pays.span, "'pays'")
            if pays.kind == "list" and T.not_number(T.item_of(pays)):
                self.r.error("E211", f"'pays' must list numbers, not {T.describe(T.item_of(pays))}",
                             d.pays.span)
        if d.places is not None:
            self.x.number(d.places, scope, "'places'")
        if d.needs is not None:
            self.x.number(d.needs, scope, "'needs'")
        if d.into is not None:
            self._into(d)
        self._chain(d.ties, inner, set())

    def _into(self, d):
        target = self.s.per_player_var(d.into)
        span = token_span(d.span, d.into, before="into")
        if target is not None:
            self.r.ref(d.into)
            if T.not_number(self.s.type_ref(target.type)):
                self.r.error("E209", f"'into' adds points, but '{d.into}' holds "
                             f"{T.describe(self.s.type_ref(target.type))}", span)
            return
        if d.into == "score":
            return
        decl = self.p.get(d.into)
        candidates = [n for n, x in self.p.decls.items() if x.kind == "var" and x.per_player] + ["score"]
        if decl is not None:
            self.r.ref(d.into)
            self.r.error("E205", f"'into' names a per-player variable, but '{d.into}' is "
                         f"{KIND_WORDS.get(decl.kind, decl.kind)}", span, did_you_mean(d.into, candidates))
        else:
            self.r.error("E101", f"unknown per-player variable '{d.into}'", span,
                         self.s.unknown_hint(d.into, candidates))

    def _chain(self, chain, scope: Scope, seen: set) -> None:
        """Tie-break keys are checked in the scope of the scoring that uses them."""
        for policy in chain:
            if isinstance(policy, ast.PolicyKey):
                if policy.seats is not None:
                    self.x.number(policy.key, scope, "the seat a seat-order tie-break counts from")
                else:
                    self.x.ordered(policy.key, scope, "a tie-break key")
                continue
            if policy.name in scoring.BLOCK_POLICIES:
                continue
            named = self.p.get(policy.name, "tiebreak")
            if named is not None and policy.name not in seen:
                self.r.ref(policy.name)
                self._chain(named.chain, scope, seen | {policy.name})

    def _tiebreak(self, d):
        for policy in d.chain:
            if isinstance(policy, ast.PolicyName) and self.p.get(policy.name, "tiebreak") is not None:
                self.r.ref(policy.name)
