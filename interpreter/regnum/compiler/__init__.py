"""Program to Model: every declaration compiled once, before any game is played.

The engine never sees the syntax tree: it runs the closures and flat code
built here.
"""
from __future__ import annotations

from .. import ast, boards, loading, scoring
from ..builtins import EvalError
from ..check.walk import free_names
from ..diagnostics import Diagnostic, LimitExceeded, RulesetError
from ..engine.state import undo_pvar
from ..limits import DEFAULT as DEFAULT_LIMITS, Limits
from ..program import Program
from ..source import NO_SPAN
from .expressions import CompileError, ExprCompiler
from .model import (Action, Clause, Code, Invariant, Model, OptionSpec, Param, PieceType, Scoring, Statistic,
                    TableVar, Trigger, View, ZoneFamily)
from .options import type_check
from . import codecache, draws, listers, native, ties
from .prefers import prefer_narrower
from .statements import StmtCompiler

__all__ = ["compile_program"]


def compile_program(program: Program, limits: Limits = DEFAULT_LIMITS) -> Model:
    try:
        return _Compiler(program, limits).run()
    except CompileError as err:
        message = str(err) if err.code != "E999" else f"cannot compile: {err}"
        raise RulesetError([Diagnostic(err.code, "error", message, err.span)]) from None
    except EvalError as err:
        anchor = program.singletons.get("game") or program.singletons.get("players")
        raise RulesetError([Diagnostic("E998", "error", f"a constant cannot be computed: {err}",
                                       anchor.span if anchor else NO_SPAN)]) from None


class _BoardSettings(CompileError):
    """A board whose settings cannot generate it: reported at once, never retried."""


def _uses(node) -> set:
    return {name for name, _, _ in free_names(node)}


def _touches_secret(body, program, seen: set) -> bool:
    """Whether these statements (and the rules they run) change something not every seat
    sees — a variable shown to its owner only or to nobody, a zone that is not public — so
    that naming the move would tell others what they may not know."""
    for stmt in native._walk(body):
        target = None
        if isinstance(stmt, (ast.SetStmt, ast.AddStmt)):
            node = stmt.target
            name = node.name if isinstance(node, ast.Name) else node.func if isinstance(node, ast.Call) else None
            decl = program.get(name, "var") if name else None
            if decl is not None and decl.visibility != "public":
                return True
        elif isinstance(stmt, (ast.MoveStmt, ast.MoveCountStmt, ast.CreateStmt)):
            target = stmt.dest
        if target is not None:
            name = target.func if isinstance(target, ast.Call) else getattr(target, "name", None)
            zone = program.get(name, "zone") if name else None
            if zone is not None and zone.visibility != "public":
                return True
        if isinstance(stmt, ast.RunStmt) and stmt.name not in seen:
            seen.add(stmt.name)
            rule = program.get(stmt.name)
            if rule is not None and rule.kind in ("rule", "phase") and _touches_secret(rule.body, program, seen):
                return True
    return False


class _Compiler:
    def __init__(self, program: Program, limits: Limits):
        self.p = program
        self.limits = limits
        # Every constant, board setting and field default is computed at load within one
        # budget of steps (a ruleset's constants cannot hang or exhaust `regnum check`).
        from ..engine.runtime import Ctx
        self.budget = Ctx(None, None, 0, {}, [], False, limits)
        self.consts: dict = {}
        self.boards: dict = {}
        self.zones: dict = {}
        self.codes: dict = {}
        self.scorings: dict = {}

    def run(self) -> Model:
        p = self.p
        self.exprs = ExprCompiler(p, self.consts, self.zones, self.boards)
        cache = loading.cache() or codecache.for_ruleset(p.text_hash, self.limits)
        self.exprs.codegen.code_cache = cache
        try:
            model = self._model()
        finally:
            self.exprs.codegen.code_cache = None   # what compiles later, lazily, is not kept
        cache.keep()
        return model

    def _model(self) -> Model:
        p = self.p
        self._consts_and_boards()
        for decl in p.of_kind("zone"):
            self._zone(decl)
        actions = {d.name for d in p.of_kind("action")}
        stmts = StmtCompiler(self.exprs, self.codes, self.scorings, actions)
        self.natives: dict = {}
        allowed = native.eligible(p)
        stmts.native = native.NativeCompiler(self.exprs, p, self.scorings, self.natives, allowed,
                                             stmts.branches)
        for decl in p.of_kind("scoring"):
            self.scorings[decl.name] = self._scoring(decl, stmts.native)
        rules: list = []
        compiled_actions = {}
        for decl in p.of_kind("action"):
            compiled_actions[decl.name] = self._action(decl, stmts)
            rules.append(("action", decl.name, decl.span))
            for clause in decl.requires:
                rules.append(("require", f"{decl.name}.{clause.name}", clause.span))
            for clause in decl.prefers:
                rules.append(("prefer", f"{decl.name}.{clause.name}", clause.span))
        triggers: dict = {}
        leave_triggers: dict = {}
        for decl in p.of_kind("trigger"):
            trig = self._trigger(decl, stmts)
            (leave_triggers if trig.event == "leaves" else triggers).setdefault(trig.zone, []).append(trig)
            rules.append(("trigger", decl.name, decl.span))
        trigger_of = {t.body: t for ts in list(triggers.values()) + list(leave_triggers.values()) for t in ts}
        # Triggers run natively when all of them can; one that waits for the end of the move is
        # a frame the VM slips under the move's action.
        natives_fire = bool(trigger_of) and all(name in self.natives and not trigger_of[name].after_move
                                                 for name in trigger_of)
        for decl in p.of_kind("scoring"):
            rules.append(("scoring", decl.name, decl.span))
        rules.extend(ties.rules(p))
        setup = p.singletons.get("setup")
        starts: list = []
        code = stmts.procedure("setup", "setup", setup.span if setup else None, setup.body if setup else (), {},
                               starts=starts)
        self._before_draws(code, starts, setup.body if setup else ())
        flow = p.singletons["flow"]
        stmts.procedure("flow", "flow", flow.span, flow.body, {})
        # What no run reached is still compiled (a saved game's frame may name it), and only a
        # saved game can run it: everything a game runs is compiled by now.
        stmts.natives_lazily = True
        for kind in ("phase", "rule"):
            for decl in p.of_kind(kind):
                if f"{kind}:{decl.name}" not in self.codes:
                    stmts.procedure(f"{kind}:{decl.name}", kind, decl.span, decl.body,
                                    {param: None for param in decl.params})
                rules.append((kind, decl.name, decl.span))
        stmts.natives_lazily = False
        # One entry per `if`/`elif`, however many specialised copies of its rule were compiled.
        rules.extend(("branch", name, span) for name, span in dict(stmts.branches).items())
        # Every way a game ends: each `end game` (named like a branch: `end:CODE@LINE`), and the
        # flow running to its last statement (`end:flow`, counted by the VM as the flow returns).
        rules.extend(("end", name.partition(":")[2], span) for name, span in dict(stmts.ends).items())
        rules.append(("end", "flow", flow.span))
        players = p.players
        winner = p.singletons.get("winner")
        tables = self._tables()
        return Model(
            name=p.name, title=p.title, path=p.path, hash=p.text_hash, variant=p.variant,
            min_players=players.minimum, max_players=players.maximum,
            consts=self.consts, boards=self.boards, pieces=self._pieces(),
            zones=self.zones, globals=self._vars(per_player=False), player_vars=self._vars(per_player=True),
            codes=self.codes, actions=compiled_actions, scorings=self.scorings, triggers=triggers,
            invariants=[self._invariant(d) for d in p.of_kind("invariant")],
            winner_keys=self._winner(winner), winner_var=winner.var if winner else "p",
            winner_span=winner.span if winner else flow.span,
            rules=rules, natives=self.natives,
            secret_vars={d.name: d.visibility for d in p.of_kind("var") if d.visibility != "public"},
            each_turn_globals=tuple(d.name for d in p.of_kind("var") if d.each_turn and d.index is None),
            each_turn_player_vars=tuple(d.name for d in p.of_kind("var") if d.each_turn and d.per_player),
            native_spans=stmts.native.spans,
            natives_fire=natives_fire, trigger_of=trigger_of, leave_triggers=leave_triggers,
            tables=tables, grids=self._grids(tables), options=self._options(), views=self._views(), expressions=self.exprs,
            move_bound=self._move_bound(),
            statistics=[Statistic(d.name, self.exprs.expr(d.value, {}), d.span) for d in p.of_kind("statistic")],
        )

    # ── data ──
    def _board(self, decl: ast.BoardDecl) -> None:
        settings = {name: self._const_value(value, decl) for name, _, value in decl.settings}
        if decl.topology == "graph":
            edges = [(a, b) for (a, _), (b, _) in decl.edges]
            board = boards.graph(decl.name, [n for n, _ in decl.nodes], edges, settings, decl.span)
        else:
            try:
                board = boards.GENERATORS[decl.topology](decl.name, settings, decl.span)
            except boards.BoardError as err:
                where = next((span for name, span, _ in decl.settings if name == err.setting), decl.span)
                raise _BoardSettings(f"board '{decl.name}': {err}", where, "E312") from None
        self.boards[decl.name] = board

    def _zone(self, decl: ast.ZoneDecl) -> None:
        if decl.index is None:
            keys = {"": decl.name}
        elif decl.index == "player":
            keys = {i: f"{decl.name}#{i}" for i in range(self.p.players.maximum)}
        elif decl.index in self.boards and self.boards[decl.index].is_open:
            self.zones[decl.name] = ZoneFamily(decl.name, decl.index, decl.visibility, {}, decl.span, open=True)
            return
        elif decl.index in self.boards:
            keys = {n: f"{decl.name}#{n}" for n in self.boards[decl.index].nodes}
        else:
            enum = self.p.get(decl.index, "enum")
            keys = {m: f"{decl.name}#{m}" for m, _ in enum.members}
        self.zones[decl.name] = ZoneFamily(decl.name, decl.index, decl.visibility, keys, decl.span)

    def _const_value(self, node, decl=None):
        """A value computed at load, within the load's step budget."""
        from ..engine.runtime import _Overflow as Overflow
        fn = self.exprs.expr(node, {})
        try:
            return fn(self.budget, {})
        except Overflow as err:
            message = str(err) if "constants" in str(err) else f"{err} (while computing the constants at load)"
            raise LimitExceeded(message,
                                (decl or node).span, err.hint) from None
        except RecursionError:
            raise CompileError("this value nests too deeply to compute", node.span, "E005") from None
        except (EvalError, KeyError, IndexError, TypeError, AttributeError, ValueError,
                ArithmeticError) as err:
            detail = str(err) if isinstance(err, EvalError) else f"{type(err).__name__}: {err}"
            raise CompileError(f"'{getattr(decl, 'name', 'this value')}' cannot be computed: {detail}",
                               node.span, "E998") from None

    def _consts_and_boards(self) -> None:
        """Constants and boards, each computed once, after those it refers to (directly or
        through a def): any order of declaration works, in time linear in their number."""
        values = {d.name: d for d in list(self.p.of_kind("const")) + list(self.p.of_kind("board"))}
        done: set = set()
        for decl in values.values():
            if decl.name in done:
                continue
            # Depth-first without recursion (chains of constants may be long).
            stack = [(decl, iter(self._refers_to(decl, values)))]
            entered = {decl.name}
            while stack:
                current, deps = stack[-1]
                nxt = next((values[n] for n in deps if n not in done and n not in entered), None)
                if nxt is not None:
                    entered.add(nxt.name)
                    stack.append((nxt, iter(self._refers_to(nxt, values))))
                    continue
                stack.pop()
                if current.kind == "board":
                    self._board(current)
                else:
                    self.consts[current.name] = self._const_value(current.value, current)
                done.add(current.name)

    def _refers_to(self, decl, values: dict) -> list:
        """The constants and boards a constant or a board's settings refer to, through defs too."""
        nodes = [decl.value] if decl.kind == "const" else [v for _, _, v in decl.settings]
        out, seen_defs = [], set()
        while nodes:
            for name, _, _ in free_names(nodes.pop()):
                if name in values:
                    out.append(name)
                elif name not in seen_defs:
                    d = self.p.get(name, "def")
                    if d is not None:
                        seen_defs.add(name)
                        nodes.append(d.body)
        return out

    def _pieces(self) -> dict:
        out = {}
        for decl in self.p.of_kind("piece"):
            fields = []
            for f in decl.fields:
                default = self._const_value(f.default) if f.default is not None else None
                fields.append((f.name, str(f.type), default))
            out[decl.name] = PieceType(decl.name, fields, decl.span)
        return out

    def _vars(self, per_player: bool) -> dict:
        out = {}
        if per_player:
            out["score"] = lambda c, e: 0
        for decl in self.p.of_kind("var"):
            if decl.per_player if per_player else decl.index is None:
                out[decl.name] = self.exprs.expr(decl.init, {"player": "player"} if per_player else {})
        return out

    def _index_values(self, index: str) -> list:
        if index in self.boards:
            return list(self.boards[index].cells)
        return [m for m, _ in self.p.get(index, "enum").members]

    def _tables(self) -> dict:
        return {d.name: TableVar(d.name, d.index, self._index_values(d.index), self.exprs.expr(d.init, {}),
                                 d.visibility, d.span, open=d.index in self.boards and self.boards[d.index].is_open)
                for d in self.p.of_kind("var") if d.per_index}

    def _grids(self, tables: dict) -> dict:
        """Each open grid's zone families and variables per cell (what a cell in use gets)."""
        return {name: ([f.name for f in self.zones.values() if f.index == name],
                       [t.name for t in tables.values() if t.index == name])
                for name, board in self.boards.items() if board.is_open}

    def _options(self) -> dict:
        out = {}
        for d in self.p.of_kind("option"):
            requires = [Clause(c.name, self.exprs.expr(c.cond, {}), c.message or f"rule '{c.name}' is not met",
                               c.span, f"require:{d.name}.{c.name}") for c in d.requires]
            out[d.name] = OptionSpec(d.name, str(d.type), type_check(d.type, self.p, self.boards),
                                     self.exprs.expr(d.default, {}), requires, d.span)
        return out

    def _views(self) -> dict:
        out = {}
        for d in self.p.of_kind("view"):
            scope = {d.var: "piece" if self.p.get(d.board, "piece") is not None else None}
            colour = self.exprs.expr(d.colour, scope) if d.colour is not None else None
            out[d.board] = View(d.board, d.var, self.exprs.expr(d.text, scope), colour, d.span, d.over_pieces)
        return out

    def _fixed_choices(self, domain, scope: dict, is_pieces: bool) -> tuple | None:
        """The distinct choices of a domain no game can change, as listing finds them."""
        value = None if is_pieces else self.exprs.fixed_list(domain, scope)
        if value is None:
            return None
        from ..engine.decisions import _unique
        return self.exprs.codegen.fixed_tuple(_unique(value))

    # ── behaviour ──
    def _action(self, decl: ast.ActionDecl, stmts: StmtCompiler) -> Action:
        scope = {"player": "player"}
        params = []
        names = [prm.name for prm in decl.params]
        domains = []   # each parameter's domain and the scope it is computed in, for the lister
        for i, param in enumerate(decl.params):
            domains.append((param.domain, dict(scope)))
            kind = self.exprs.kind(param.domain, scope)
            is_pieces = kind == "pieces" or self.exprs.is_zone(param.domain, scope)
            depends = tuple(n for n in names[:i] if n in _uses(param.domain))
            params.append(Param(param.name, self.exprs.codegen.domain_function(param.domain, scope), is_pieces, param.span, depends,
                                self._fixed_choices(param.domain, scope, is_pieces)))
            # "value": a choice is an item of its domain, never a zone passed by reference
            scope[param.name] = "piece" if is_pieces else {"players": "player"}.get(kind, "value")
        # A require is checked as soon as the parameters it reads are chosen (a require that
        # reads none is checked once, before any choice is listed).
        requires = [Clause(c.name, self.exprs.expr(c.cond, scope), c.message or f"rule '{c.name}' is not met",
                           c.span, f"require:{decl.name}.{c.name}",
                           level=max([names.index(n) for n in _uses(c.cond) if n in names], default=-1))
                    for c in decl.requires]
        prefers = [Clause(c.name, self.exprs.expr(c.cond, scope),
                          c.message or f"rule '{c.name}' prefers another choice", c.span,
                          f"prefer:{decl.name}.{c.name}", per=tuple(n for n, _ in c.per),
                          many=self.exprs.codegen.test_many(c.cond, scope),
                          narrow=prefer_narrower(self.exprs.codegen, decl.name, params, c, scope))
                   for c in decl.prefers]
        body = f"action:{decl.name}"
        # The VM's form of an action that runs natively is never run by a move (Game._apply).
        stmts.natives_lazily = body in stmts.native.allowed
        try:
            stmts.procedure(body, "action", decl.span, decl.body, scope)
        finally:
            stmts.natives_lazily = False
        fn = None
        if body in stmts.native.allowed:
            stmts.native.compile(body, decl, ["player"] + [prm.name for prm in decl.params], scope)
            fn = self.natives[body]
        label = stmts.template(decl.label, scope) if decl.label is not None else None
        secret = _touches_secret(decl.body, self.p, set())
        codegen = self.exprs.codegen

        def make_filters() -> list:
            return [codegen.filter_function(
                param.name, [(c.cond, f"require:{decl.name}.{c.name}") for c, r in zip(decl.requires, requires)
                             if r.level == i], scope) for i, param in enumerate(decl.params)]
        lister = listers.move_lister(codegen, decl.name, params,
                                     [(c.cond, r.hit, r.level) for c, r in zip(decl.requires, requires)], scope,
                                     domains)
        make_preferring = None
        if lister is not None and len(prefers) == 1 and prefers[0].narrow is not None \
                and listers.groups_by_last_loop(params, decl.prefers[0]):
            def make_preferring(plain=lister, narrow=prefers[0].narrow):   # those it stands for
                made = listers.preferring_lister(
                    codegen, decl.name, params, [(c.cond, r.hit, r.level) for c, r in zip(decl.requires, requires)],
                    scope, domains, decl.prefers[0])
                if made is not None:
                    made.plain, made.narrow = plain, narrow
                return made
        # With a lister, the generic walk's filters are built only if it is ever taken (tests
        # compare the two): compiling them at every load would cost what the lister saves.
        filters = make_filters() if lister is None else None
        return Action(decl.name, params, requires, prefers, body, decl.span, fn, label, filters, secret=secret,
                      lister=lister, make_filters=make_filters, make_preferring=make_preferring)

    def _before_draws(self, setup: Code, starts: list, body: tuple) -> None:
        """The setup's instructions before its first statement that may draw, as a code of
        their own (draws.BEFORE_DRAWS), when there are some: what a start runs once for each
        kind of start and copies (Game.start)."""
        first = draws.first_drawing(self.p, body)
        end = len(setup.ops) if first is None else starts[first]
        if end:
            self.codes[draws.BEFORE_DRAWS] = Code(draws.BEFORE_DRAWS, "setup", setup.span, setup.ops[:end],
                                                  setup.spans[:end], cover=setup.cover)

    def _trigger(self, decl: ast.TriggerDecl, stmts: StmtCompiler) -> Trigger:
        scope = {decl.piece_var: "piece"}
        if decl.index_var:
            scope[decl.index_var] = "player" if self.zones[decl.zone].index == "player" else None
        cond = self.exprs.expr(decl.cond, scope) if decl.cond is not None else None
        body = f"trigger:{decl.name}"
        stmts.procedure(body, "trigger", decl.span, decl.body, scope)
        if body in stmts.native.allowed:
            stmts.native.compile(body, decl, [decl.piece_var] + ([decl.index_var] if decl.index_var else []),
                                 scope)
        known = {} if decl.cond is not None and self._of_the_zone_alone(decl.cond, decl) else None
        return Trigger(decl.name, decl.zone, decl.piece_var, decl.index_var, cond, body, decl.span, decl.event,
                       decl.once, decl.after_move, known)

    def _of_the_zone_alone(self, node, decl: ast.TriggerDecl) -> bool:
        """Whether a trigger's condition reads nothing but its zone's index and constants
        (`where s.row == top_row`): it then holds or not for a zone whatever the piece and the
        state, and the engine judges it once a zone (Trigger.known). Literals, the index, its
        row and column, constants and enum members, joined by operators; anything else (the
        piece, a variable, a call) may read the state."""
        if isinstance(node, (ast.IntLit, ast.StrLit, ast.BoolLit, ast.NoneLit)):
            return True
        if isinstance(node, ast.Name):
            if node.name == decl.piece_var:
                return False
            return node.name == decl.index_var or self.p.get(node.name, "const") is not None \
                or (node.name in self.p.enum_members and self.p.get(node.name) is None)
        if isinstance(node, ast.Attribute):
            return isinstance(node.obj, ast.Name) and node.obj.name == decl.index_var \
                and decl.index_var != decl.piece_var and node.name in ("row", "col")
        if isinstance(node, ast.Unary):
            return self._of_the_zone_alone(node.operand, decl)
        if isinstance(node, ast.Binary):
            return self._of_the_zone_alone(node.left, decl) and self._of_the_zone_alone(node.right, decl)
        if isinstance(node, ast.IfExpr):
            return all(self._of_the_zone_alone(n, decl) for n in (node.cond, node.then, node.otherwise))
        if isinstance(node, ast.ListLit):
            return all(self._of_the_zone_alone(n, decl) for n in node.items)
        return False

    def _policies(self, chain, scope, owner: str, var: str, seen: frozenset = frozenset()) -> tuple[list, tuple]:
        """Keys [(order, fn, hit)] and the block policy (name, hit) of a chain; each hit is the
        coverage key of the policy (ties.py names them after the scoring or tiebreak stating them)."""
        keys, block = [], ("take_lowest", None)
        for policy in chain:
            hit = f"tiebreak:{owner}.{ties.label(policy)}"
            if isinstance(policy, ast.PolicyKey) and policy.seats is not None:
                keys.append((policy.order, _seat_order(self.exprs.expr(policy.key, scope), var, policy.seats), hit))
            elif isinstance(policy, ast.PolicyKey):
                keys.append((policy.order, self.exprs.expr(policy.key, scope), hit))
            elif policy.name in scoring.BLOCK_POLICIES:
                block = (policy.name, hit)
            else:
                named = self.p.get(policy.name, "tiebreak")
                if named is None or policy.name in seen:
                    raise CompileError(f"unknown tie-break policy '{policy.name}'", policy.span)
                more_keys, inner = self._policies(named.chain, scope, named.name, var, seen | {policy.name})
                keys.extend(more_keys)
                block = inner   # as before: the named chain's block policy (take_lowest if none)
        return keys, block

    def _scoring(self, decl: ast.ScoringDecl, natives=None) -> Scoring:
        x = self.exprs
        scope = {p: None for p in decl.params}
        source = x.expr(decl.source, scope)
        inner = dict(scope)
        inner[decl.var] = {"players": "player"}.get(x.kind(decl.source, scope))
        measure = x.expr(decl.measure, inner)
        pays = x.expr(decl.pays, scope) if decl.pays is not None else (lambda c, e: [1])
        places = x.expr(decl.places, scope) if decl.places is not None else (lambda c, e: None)
        needs = x.expr(decl.needs, scope) if decl.needs is not None else (lambda c, e: None)
        keys, (block, block_hit) = self._policies(decl.ties, inner, decl.name, decl.var)
        var, target, name, params = decl.var, decl.into or "score", decl.name, tuple(decl.params)
        gather = natives.scoring_entries(decl) if natives is not None else None
        hit = "scoring:" + name
        majority_of = scoring.majority_of

        def per_contender(c, fn, env):
            """`fn` (a closure of the scoring's expressions) as a function of one contender: the
            environment with the scoring's variable bound to it."""
            def at(p):
                local = dict(env)
                local[var] = p
                return fn(c, local)
            return at

        def score(c, *args):
            """`score NAME(args)`: counted, ranked, paid into each contender's `target`, the
            ranking kept for `as R`, narrated. Called by the statement with the arguments
            (no env is made unless a tie-break key or the closures read one)."""
            hits = c.hits
            if hits is not None:   # None: the game counts no coverage
                hits[hit] = hits.get(hit, 0) + 1
            env = None
            if gather is not None:   # the same values, in the same order, computed in one call
                _, need, paid, placed, entries = gather(c, *args)
            else:
                env = dict(zip(params, args))
                contenders = list(source(c, env))
                need, paid, placed = needs(c, env), list(pays(c, env)), places(c, env)
                measure_of = per_contender(c, measure, env)
                entries = [(p, measure_of(p)) for p in contenders]
            if keys and env is None:
                env = dict(zip(params, args))
            ranked_by = [(o, per_contender(c, k, env), h) for o, k, h in keys] if keys else ()
            result = majority_of(entries, need, paid, placed, ranked_by, block, c.hit, block_hit)
            pvars, undo = c.state.pvars, c.undo
            for player, _, points in result:
                if points:   # c.set_pvar, written out
                    row = pvars[player]
                    old = row[target]
                    new = old + points
                    undo.append((undo_pvar, player, target, old))
                    row[target] = new
            c.last_ranking = result
            if c.narrate:
                paid_out = ", ".join(f"P{p} +{pts}" for p, _, pts in result if pts)
                c.events.append(f"  {name} pays {paid_out or 'nothing'}")
        return Scoring(name, params, score, decl.span)

    def _invariant(self, decl: ast.InvariantDecl) -> Invariant:
        return Invariant(decl.name, self.exprs.expr(decl.cond, {}), decl.message or f"invariant '{decl.name}'",
                         decl.span)

    def _move_bound(self) -> int | None:
        """`ends within N moves`, computed once: a promise about play that only the fuzzer checks."""
        decl = self.p.singletons.get("ends")
        if decl is None:
            return None
        value = self._const_value(decl.limit, decl)
        if type(value) is not int or value < 1:
            raise CompileError(f"a game cannot promise to end within {value!r} moves: the bound is a whole "
                               "number of moves, at least 1", decl.limit.span, "E315")
        return value

    def _winner(self, decl) -> list:
        if decl is None:
            return [("highest", lambda c, e: c.state.pvars[e["p"]]["score"])]
        scope = {decl.var: "player"}
        return [(k.order, self.exprs.expr(k.key, scope)) for k in decl.keys if k.order != "shared"]


def _seat_order(seat, var: str, way: str):
    """The key of `by nearest clockwise after SEAT`: how many seats after SEAT a player sits
    (0 for the next one), SEAT itself last; counterclockwise counts the other way round."""
    sign = 1 if way == "clockwise" else -1

    def key(c, env):
        return (sign * (env[var] - seat(c, env)) - 1) % c.n
    return key
