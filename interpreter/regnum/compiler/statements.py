"""Statements to flat code: each procedure becomes a list of instructions with jumps.

An instruction is a closure `op(ctx, frame)`; frame is [code name, pc, locals].
It advances frame[1] itself and returns None to go on, ASK to wait for a
decision, SPAWN to start simultaneous threads, or END to end the game. Loops
keep their position in hidden locals ("$…"), so a suspended loop is data.
"""
from __future__ import annotations

from .. import ast
from ..builtins import EvalError
from ..engine.state import ZoneRef
from .helpers import _seat
from .expressions import CompileError, ExprCompiler
from .model import Code
from .native import fitted
from .text import format_value, said

ASK, SPAWN, END = "ask", "spawn", "end"


# Whether instructions are written as Python (below); tests set it off to compare with the
# closures, which stay the fallback.
WRITE_OPS = True


class _NotWritten(Exception):
    """An instruction that cannot be written as Python (its closure is built instead)."""


class StmtCompiler:
    def __init__(self, exprs: ExprCompiler, codes: dict, model_scorings: dict, actions: set):
        self.x = exprs
        self.codes = codes
        self.scorings = model_scorings
        self.actions = actions
        self.branches: list = []   # (coverage name, span) of every if/elif branch
        self.ends: list = []       # (coverage name, span) of every `end game`
        self.native = None         # a NativeCompiler, when procedures may be compiled to Python
        self.signatures: dict = {} # procedure -> {argument kinds: code name}
        # Whether the code being compiled runs only from a saved game, never from a game's own
        # play: the VM's form of a procedure that runs natively, or that no `run` reaches. A
        # native procedure it runs with arguments of other kinds than the game's own calls is
        # then written at its first call (NativeCompiler.compile), not at load.
        self.natives_lazily = False
        self._label = 0

    def procedure(self, name: str, kind: str, span, body, scope: dict, cover: str = "",
                  starts: list | None = None) -> Code:
        """The code of a procedure, compiled and named. `starts`, when given, gets the index
        of the first instruction of each of `body`'s statements, in order."""
        code = Code(name, kind, span, cover=cover)
        self.codes[name] = code
        scope = dict(scope)
        for stmt in body:
            if starts is not None:
                starts.append(len(code.ops))
            self._block(code, (stmt,), scope)
        return code

    def _fresh(self, what: str) -> str:
        self._label += 1
        return f"${what}{self._label}"

    def _emit(self, code: Code, op, span) -> int:
        code.ops.append(op)
        code.spans.append(span)
        return len(code.ops) - 1

    def _block(self, code: Code, body, scope: dict) -> None:
        for stmt in body:
            getattr(self, "_" + type(stmt).__name__)(code, stmt, scope)

    # ── instructions written as Python ──
    # The usual instructions are generated functions with their expressions written inline
    # (as native.py writes procedures): the closures below each call one closure per
    # expression. Each computes what its closure computes, in the same order, and fails
    # alike; where Python cannot compile one (an expression nested too deeply), the closure
    # is built instead, and reports it.
    def _py(self, node, scope: dict) -> str:
        """The source of an expression, as the closure of `self.x.expr` computes it."""
        try:
            return self.x.codegen.src(node, scope, {})
        except (SyntaxError, RecursionError, MemoryError):
            raise _NotWritten from None

    def _written(self, what: str, lines: list[str]):
        """The instruction `op(ctx, frame)` running `lines` (with `e`, the frame's locals), or
        None when Python cannot compile it."""
        g = self.x.codegen
        g.ns.setdefault("ZoneRef", ZoneRef)
        self._label += 1
        name = f"_{what}{self._label}"
        source = f"def {name}(c, f):\n    e = f[2]\n" + "".join(f"    {line}\n" for line in lines)
        try:
            exec(g.compiled(source, f"<regnum {what}>"), g.ns)
        except (SyntaxError, RecursionError, MemoryError):
            return None
        return g.ns[name]

    def _emit_written(self, code: Code, what: str, build, span) -> bool:
        """Emit the instruction `build()` writes (its lines), if it can be written."""
        if not WRITE_OPS:
            return False
        try:
            op = self._written(what, build())
        except _NotWritten:
            return False
        if op is None:
            return False
        self._emit(code, op, span)
        return True

    def _unknown(self) -> str | None:
        """The kind of a local of no known kind: "value", read as it is, when no local can hold
        a zone reference its kind does not say (NativeCompiler.refs_confined); else None, read
        through _deref."""
        return "value" if self.native is not None and self.native.refs_confined() else None

    def _bound(self, value, stem: str) -> str:
        return self.x.codegen.bind(value, stem)

    # ── simple statements ──
    def _LetStmt(self, code, s, scope):
        if self.x.is_zone(s.value, scope):
            key, name = self.x.zone_key(s.value, scope), s.name

            def let_zone(c, f):
                f[2][name] = ZoneRef(key(c, f[2]))
                f[1] += 1
            scope[s.name] = "zone"
            self._emit(code, let_zone, s.span)
            return
        name = s.name
        if self._emit_written(code, "let", lambda: [f"e[{name!r}] = {fitted(s.value, self._py(s.value, scope))}",
                                                    "f[1] += 1"], s.span):
            scope[s.name] = self.x.kind(s.value, scope) or self._unknown()
            return
        value = self.x.expr(s.value, scope)
        scope[s.name] = self.x.kind(s.value, scope) or self._unknown()

        def let(c, f):
            f[2][name] = c.fit(value(c, f[2]))
            f[1] += 1
        self._emit(code, let, s.span)

    def _SetStmt(self, code, s, scope):
        if self._emit_written(code, "set", lambda: self._assigned(s.target, s.value, scope, add=False), s.span):
            return
        self._emit(code, self._assign(s.target, s.value, scope, s.span, add=False), s.span)

    def _AddStmt(self, code, s, scope):
        amount = s.amount
        if s.negate:
            amount = ast.Unary(s.amount.span, "-", s.amount)
        if self._emit_written(code, "add", lambda: self._assigned(s.target, amount, scope, add=True), s.span):
            return
        self._emit(code, self._assign(s.target, amount, scope, s.span, add=True), s.span)

    def _assigned(self, target, value_node, scope, add: bool) -> list[str]:
        """The lines of _assign's instructions (raises _NotWritten where it builds none)."""
        value = self._py(value_node, scope)
        stored = "c.fit({} + _op_v)" if add else fitted(value_node, "_op_v")
        if isinstance(target, ast.Name):
            if target.name in scope:
                slot = f"e[{target.name!r}]"
                return [f"_op_v = {value}", f"{slot} = {stored.format(slot)}", "f[1] += 1"]
            slot = f"c.state.vars[{target.name!r}]"
            return [f"_op_v = {value}", f"c.set_var({target.name!r}, {stored.format(slot)})", "f[1] += 1"]
        if isinstance(target, ast.Call) and len(target.args) == 1:
            name = target.func
            index = self._py(target.args[0], scope)
            decl = self.x.program.get(name, "var")
            if decl is not None and decl.per_index:
                return [f"c.set_table({name!r}, {index}, {value}, {add})", "f[1] += 1"]
            slot = f"c.state.pvars[_op_s][{name!r}]"
            return [f"_op_v = {value}", f"_op_s = _seat(c, {index})",
                    f"c.set_pvar(_op_s, {name!r}, {stored.format(slot)})", "f[1] += 1"]
        if isinstance(target, ast.Attribute):
            return [f"c.set_field({self._py(target.obj, scope)}, {target.name!r}, {value}, {add})", "f[1] += 1"]
        raise _NotWritten

    def _assign(self, target, value_node, scope, span, add: bool):
        value = self.x.expr(value_node, scope)
        if isinstance(target, ast.Name):
            name = target.name
            if name in scope:
                def set_local(c, f):
                    v = value(c, f[2])
                    f[2][name] = c.fit(f[2][name] + v if add else v)
                    f[1] += 1
                return set_local

            def set_global(c, f):
                v = value(c, f[2])
                c.set_var(name, c.fit(c.state.vars[name] + v if add else v))
                f[1] += 1
            return set_global
        if isinstance(target, ast.Call):
            name = target.func
            (player,) = [self.x.expr(a, scope) for a in target.args]
            decl = self.x.program.get(name, "var")
            if decl is not None and decl.per_index:
                index = player

                def set_table(c, f):
                    c.set_table(name, index(c, f[2]), value(c, f[2]), add)
                    f[1] += 1
                return set_table

            def set_player_var(c, f):
                v, p = value(c, f[2]), player(c, f[2])
                seat = _seat(c, p)
                c.set_pvar(seat, name, c.fit(c.state.pvars[seat][name] + v if add else v))
                f[1] += 1
            return set_player_var
        if isinstance(target, ast.Attribute):
            obj, field = self.x.expr(target.obj, scope), target.name

            def set_field(c, f):
                c.set_field(obj(c, f[2]), field, value(c, f[2]), add)
                f[1] += 1
            return set_field
        raise CompileError("cannot assign to this", span)

    def _MoveStmt(self, code, s, scope):
        def lines():
            what = self._py(s.pieces, scope)
            # One piece, most often: moved without the call that tells it from a list.
            return [f"_op_w = {what}", f"_op_k = {self._bound(self.x.zone_key(s.dest, scope), 'zkey')}(c, e)",
                    "f[1] += 1", "(c.move_piece if type(_op_w) is int else c.move_any)(_op_w, _op_k)"]
        if self._emit_written(code, "move", lines, s.span):
            return
        pieces, dest = self.x.expr(s.pieces, scope), self.x.zone_key(s.dest, scope)

        def move(c, f):
            what, key = pieces(c, f[2]), dest(c, f[2])
            f[1] += 1
            c.move_any(what, key)
        self._emit(code, move, s.span)

    def _MoveCountStmt(self, code, s, scope):
        def lines():
            out = [f"_op_n = {self._py(s.count, scope)}",
                   f"_op_s = {self._bound(self.x.zone_key(s.source, scope), 'zkey')}(c, e)",
                   f"_op_d = {self._bound(self.x.zone_key(s.dest, scope), 'zkey')}(c, e)", "f[1] += 1"]
            if isinstance(s.count, ast.IntLit) and s.count.value == 1:   # the top piece, as move_top moves it
                return out[1:] + ["_op_h = c.state.zones.get(_op_s, ())",
                                  "if not _op_h: raise EvalError('move 1 from a zone holding 0')",
                                  "c.move_piece(_op_h[-1], _op_d)"]
            return out + ["c.move_top(_op_n, _op_s, _op_d)"]
        if self._emit_written(code, "move_count", lines, s.span):
            return
        count = self.x.expr(s.count, scope)
        source, dest = self.x.zone_key(s.source, scope), self.x.zone_key(s.dest, scope)

        def move_count(c, f):
            n, src, dst = count(c, f[2]), source(c, f[2]), dest(c, f[2])
            f[1] += 1
            c.move_top(n, src, dst)
        self._emit(code, move_count, s.span)

    def _CreateStmt(self, code, s, scope):
        op = self._create_op(s, scope)
        if op is not None:
            self._emit(code, op, s.span)
            return
        count = self.x.expr(s.count, scope)
        fields = [(n, self.x.expr(v, scope)) for n, _, v in s.fields]
        dest = self.x.zone_key(s.dest, scope)
        label = self.x.expr(s.label, scope) if s.label is not None else None
        piece_type = s.piece_type

        def create(c, f):
            env = f[2]
            values = {n: v(c, env) for n, v in fields}
            text = piece_type if label is None else str(label(c, env))
            key = dest(c, env)
            f[1] += 1
            c.create_many(count(c, env), piece_type, values, text, key)
        self._emit(code, create, s.span)

    def _create_op(self, s, scope):
        """A `create` as one generated function: its fields, label and count written inline
        (a setup runs hundreds of them), computed in the order of the closures above —
        fields, label, zone, count — and one piece with a label fixed at load made without
        create_many's checks, which it passes. None where Python cannot compile it (the
        closures then report what is too deep)."""
        g = self.x.codegen
        if not WRITE_OPS:
            return None
        try:
            fields = ", ".join(f"{n!r}: {g.src(v, scope, {})}" for n, _, v in s.fields)
            label = repr(s.piece_type) if s.label is None else f"str({g.src(s.label, scope, {})})"
            count = g.src(s.count, scope, {})
        except (SyntaxError, RecursionError, MemoryError):
            return None
        many = f"c.create_many({count}, {s.piece_type!r}, _cr_values, _cr_text, _cr_key)"
        make = many
        if isinstance(s.count, ast.IntLit) and s.count.value == 1:
            make = f"c.create_piece({s.piece_type!r}, _cr_values, _cr_text, _cr_key)"
            fixed = s.piece_type if s.label is None else s.label.value if isinstance(s.label, ast.StrLit) else None
            if fixed is None:   # a label known as the game runs: create_many refuses a '#'
                make = f"{many} if '#' in _cr_text else {make}"
            elif "#" in fixed:
                make = many
        self._label += 1
        name = f"_create{self._label}"
        source = (f"def {name}(c, f):\n    e = f[2]\n    _cr_values = {{{fields}}}\n    _cr_text = {label}\n"
                  f"    _cr_key = {g.bind(self.x.zone_key(s.dest, scope), 'zkey')}(c, e)\n"
                  f"    f[1] += 1\n    {make}\n")
        try:
            exec(g.compiled(source, "<regnum create>"), g.ns)
        except (SyntaxError, RecursionError, MemoryError):
            return None
        return g.ns[name]

    def _ShuffleStmt(self, code, s, scope):
        zone = self.x.zone_key(s.zone, scope)

        def shuffle(c, f):
            c.shuffle_zone(zone(c, f[2]))
            f[1] += 1
        self._emit(code, shuffle, s.span)

    def _RevealStmt(self, code, s, scope):
        pieces = self.x.expr(s.pieces, scope)

        def reveal(c, f):
            c.reveal(pieces(c, f[2]))
            f[1] += 1
        self._emit(code, reveal, s.span)

    def _AskStmt(self, code, s, scope):
        names = self.x.program.offered(tuple(n for n, _ in s.actions))
        if self._emit_written(code, "ask", lambda: [
                f"_op_p = {self._py(s.player, scope)}",
                "if type(_op_p) is not int or not 0 <= _op_p < c.n:",
                "    raise EvalError(f'ask: {_op_p!r} is not a seat of this game (0–{c.n - 1})')",
                "e['$asked'] = _op_p", f"e['$actions'] = list({self._bound(names, 'offered')})",
                f"return {ASK!r}"], s.span):
            return
        player = self.x.expr(s.player, scope)

        def ask(c, f):
            seat = player(c, f[2])
            if type(seat) is not int or not 0 <= seat < c.n:
                raise EvalError(f"ask: {seat!r} is not a seat of this game (0–{c.n - 1})")
            f[2]["$asked"] = seat
            f[2]["$actions"] = list(names)
            return ASK
        self._emit(code, ask, s.span)

    def _RunStmt(self, code, s, scope):
        target = self.x.program.get(s.name)
        if target is None or target.kind not in ("rule", "phase"):
            raise CompileError(f"unknown rule '{s.name}'", s.name_span)
        callee = f"{target.kind}:{s.name}"
        params = tuple(target.params)
        args = [self._arg(a, scope) for a in s.args]
        kinds = {p: ("zone" if self.x.is_zone(a, scope) else self.x.kind(a, scope))
                 for p, a in zip(params, s.args)}
        if self.native is not None and callee in self.native.allowed:
            # Never waits: a plain Python function, called directly (native.py).
            fname = self.native.compile(callee, target, params, kinds, lazily=self.natives_lazily)
            if self._emit_written(code, "run_native", lambda: [
                    "f[1] += 1", f"{fname}(c{''.join(', ' + self._arg_py(a, scope) for a in s.args)})"], s.span):
                return
            fn = self.native.function(fname)

            def run_native(c, f):
                f[1] += 1
                fn(c, *[a(c, f[2]) for a in args])
            self._emit(code, run_native, s.span)
            return
        callee = self._specialised(callee, target, kinds)
        if self._emit_written(code, "run", lambda: [
                "_op_env = {" + ", ".join(f"{p!r}: {self._arg_py(a, scope)}" for p, a in zip(params, s.args)) + "}",
                "f[1] += 1", f"c.push({callee!r}, _op_env)"], s.span):
            return

        def run(c, f):
            env = {p: a(c, f[2]) for p, a in zip(params, args)}
            f[1] += 1
            c.push(callee, env)
        self._emit(code, run, s.span)

    def _specialised(self, callee: str, target, kinds: dict) -> str:
        """The code of `callee` compiled for these argument kinds (one per distinct signature)."""
        signature = tuple(sorted((k, str(v)) for k, v in kinds.items()))
        known = self.signatures.setdefault(callee, {})
        if signature not in known:
            name = callee if not known and callee not in self.codes else f"{callee}~{len(known) + 1}"
            known[signature] = name
            self.procedure(name, target.kind, target.span, target.body,
                           {k: v or self._unknown() for k, v in kinds.items()}, cover=callee)
        return known[signature]

    def _arg_py(self, node, scope) -> str:
        """The source of an argument of a run, as _arg's closure computes it."""
        if self.x.is_zone(node, scope):
            return f"ZoneRef({self._bound(self.x.zone_key(node, scope), 'zkey')}(c, e))"
        return self._py(node, scope)

    def _arg(self, node, scope):
        if self.x.is_zone(node, scope):
            key = self.x.zone_key(node, scope)
            return lambda c, e: ZoneRef(key(c, e))
        return self.x.expr(node, scope)

    def _ScoreStmt(self, code, s, scope):
        name, result = s.name, s.result
        args = [self.x.expr(a, scope) for a in s.args]
        if result is not None:
            scope[result] = self._unknown()

        scoring = self.scorings.get(name)
        run = scoring.run if scoring is not None else (lambda c, *values: c.score(name, values))

        def score(c, f):
            run(c, *[a(c, f[2]) for a in args])
            if result is not None:
                f[2][result] = c.ranking()
            f[1] += 1
        self._emit(code, score, s.span)

    def template(self, text: ast.Template, scope: dict) -> list:
        """The parts of a text with `{…}` holes: (literal, None, None) or (None, closure, kind)."""
        parts = []
        for part in text.parts:
            if isinstance(part, str):
                parts.append((part, None, None))
            else:
                parts.append((None, self.x.expr(part, scope), self.x.kind(part, scope)))
        return parts

    def _AnnounceStmt(self, code, s, scope):
        parts = self.template(s.text, scope)

        def announce(c, f):
            if c.narrate:
                text = "".join(p if p is not None else format_value(v(c, f[2]), k, c) for p, v, k in parts)
                c.events.append(said(c, text))
            f[1] += 1
        self._emit(code, announce, s.span)

    def _EndStmt(self, code, s, scope):
        # Named like a branch, after the procedure it is written in (a specialised copy of a
        # rule counts as that rule); never native: a procedure that ends the game stays here.
        name = f"end:{code.cover}@{s.span.line}"
        self.ends.append((name, s.span))

        def end(c, f):
            f[1] += 1
            hits = c.hits
            if hits is not None:
                hits[name] = hits.get(name, 0) + 1
            return END
        self._emit(code, end, s.span)

    def _PassStmt(self, code, s, scope):
        def nothing(c, f):
            f[1] += 1
        self._emit(code, nothing, s.span)

    def _NewTurnStmt(self, code, s, scope):
        def new_turn(c, f):
            c.new_turn()
            f[1] += 1
        self._emit(code, new_turn, s.span)

    # ── control flow ──
    def _jump(self, target_box):
        def jump(c, f):
            f[1] = target_box[0]
        return jump

    def _loop_back(self, code, head: int, span) -> None:
        """The jump that ends a loop's body, back to the loop's step at `head`, fused with
        that step: one instruction for run_stack instead of two. The step's own count and
        limit check are made here as run_stack makes them (a runaway is located at the same
        statement: both instructions carry the loop's span), then the step runs; a jump and
        a step fire no trigger and give no signal, so nothing run_stack does between them is
        skipped."""
        step = code.ops[head]

        def loop_back(c, f):
            f[1] = head
            steps = c.steps = c.steps + 1
            if steps > c.max_steps:
                c.runaway()
            return step(c, f)
        self._emit(code, loop_back, span)

    def _IfStmt(self, code, s, scope):
        ends = []
        for cond_node, body in s.branches:
            skip = [0]

            branch = f"branch:{code.cover}@{cond_node.span.line}"
            self.branches.append((branch, cond_node.span))
            if not self._emit_written(code, "test", lambda: [
                    f"if {self._py(cond_node, scope)}:",
                    "    hits = c.hits",
                    f"    if hits is not None: hits[{branch!r}] = hits.get({branch!r}, 0) + 1",
                    "    f[1] += 1",
                    "else:",
                    f"    f[1] = {self._bound(skip, 'skip')}[0]"], cond_node.span):
                cond = self.x.expr(cond_node, scope)

                def test(c, f, cond=cond, skip=skip, branch=branch):
                    if cond(c, f[2]):
                        hits = c.hits
                        if hits is not None:
                            hits[branch] = hits.get(branch, 0) + 1
                        f[1] += 1
                    else:
                        f[1] = skip[0]
                self._emit(code, test, cond_node.span)
            self._block(code, body, dict(scope))
            end = [0]
            ends.append(end)
            self._emit(code, self._jump(end), s.span)
            skip[0] = len(code.ops)
        if s.otherwise:
            first = s.otherwise[0].span
            branch = f"branch:{code.cover}@{first.line}"   # named by its first line, as if/elif by theirs
            self.branches.append((branch, first))

            def count(c, f, branch=branch):
                hits = c.hits
                if hits is not None:
                    hits[branch] = hits.get(branch, 0) + 1
                f[1] += 1
            self._emit(code, count, first)
            self._block(code, s.otherwise, dict(scope))
        for end in ends:
            end[0] = len(code.ops)

    def _loop_over(self, code, span, var, source_node, cond_node, body, scope):
        items, index = self._fresh("items"), self._fresh("i")
        inner = dict(scope)
        inner[var] = {"players": "player", "pieces": "piece", "zone": "piece"}.get(
            self.x.kind(source_node, scope)) or self._unknown()
        if self._emit_written(code, "start", lambda: [f"e[{items!r}] = list({self._py(source_node, scope)})",
                                                      f"e[{index!r}] = 0", "f[1] += 1"], span):
            done = [0]
            head = len(code.ops)
            test = "True" if cond_node is None else None
            if self._emit_written(code, "step", lambda: [
                    f"_op_seq, _op_i = e[{items!r}], e[{index!r}]",
                    "while _op_i < len(_op_seq):",
                    f"    e[{var!r}] = _op_seq[_op_i]",
                    "    _op_i += 1",
                    f"    if {test or self._py(cond_node, inner)}:",
                    f"        e[{index!r}] = _op_i",
                    "        f[1] += 1",
                    "        return None",
                    f"e[{index!r}] = _op_i",
                    f"del e[{items!r}]",
                    f"f[1] = {self._bound(done, 'done')}[0]",
                    "return None"], span):
                self._block(code, body, inner)
                self._loop_back(code, head, span)
                done[0] = len(code.ops)
                return
            code.ops.pop()   # the step cannot be written: both as closures
            code.spans.pop()
        source = self.x.expr(source_node, scope)
        cond = self.x.expr(cond_node, inner) if cond_node is not None else None

        def start(c, f):
            f[2][items] = list(source(c, f[2]))
            f[2][index] = 0
            f[1] += 1
        self._emit(code, start, span)
        done = [0]
        head = len(code.ops)

        def step(c, f):
            env = f[2]
            seq, i = env[items], env[index]
            while i < len(seq):
                env[var] = seq[i]
                i += 1
                if cond is None or cond(c, env):
                    env[index] = i
                    f[1] += 1
                    return None
            env[index] = i
            del env[items]
            f[1] = done[0]
            return None
        self._emit(code, step, span)
        self._block(code, body, inner)
        self._loop_back(code, head, span)
        done[0] = len(code.ops)

    def _ForStmt(self, code, s, scope):
        self._loop_over(code, s.span, s.var, s.source, s.cond, s.body, scope)

    def _RepeatStmt(self, code, s, scope):
        left = self._fresh("left")
        if not self._emit_written(code, "start", lambda: [
                f"_op_n = {self._py(s.count, scope)}",
                "if type(_op_n) is not int or _op_n < 0:",
                "    raise EvalError(f'repeat needs a number of times (0 or more), not {_op_n!r}')",
                f"e[{left!r}] = _op_n", "f[1] += 1"], s.span):
            count = self.x.expr(s.count, scope)

            def start(c, f):
                n = count(c, f[2])
                if type(n) is not int or n < 0:
                    raise EvalError(f"repeat needs a number of times (0 or more), not {n!r}")
                f[2][left] = n
                f[1] += 1
            self._emit(code, start, s.span)
        done = [0]
        head = len(code.ops)

        def step(c, f):
            env = f[2]
            if env[left] <= 0:
                del env[left]
                f[1] = done[0]
            else:
                env[left] -= 1
                f[1] += 1
        self._emit(code, step, s.span)
        self._block(code, s.body, dict(scope))
        self._loop_back(code, head, s.span)
        done[0] = len(code.ops)

    def _UntilStmt(self, code, s, scope):
        head = len(code.ops)
        self._block(code, s.body, dict(scope))
        if self._emit_written(code, "check", lambda: [f"f[1] = f[1] + 1 if {self._py(s.cond, scope)} else {head}"],
                              s.cond.span):
            return
        cond = self.x.expr(s.cond, scope)

        def check(c, f):
            f[1] = f[1] + 1 if cond(c, f[2]) else head
        self._emit(code, check, s.cond.span)

    def _WhileStmt(self, code, s, scope):
        done = [0]
        head = len(code.ops)
        if not self._emit_written(code, "check", lambda: [
                f"f[1] = f[1] + 1 if {self._py(s.cond, scope)} else {self._bound(done, 'done')}[0]"], s.cond.span):
            cond = self.x.expr(s.cond, scope)

            def check(c, f):
                f[1] = f[1] + 1 if cond(c, f[2]) else done[0]
            self._emit(code, check, s.cond.span)
        self._block(code, s.body, dict(scope))
        self._emit(code, self._jump([head]), s.span)
        done[0] = len(code.ops)

    def _SimultaneousStmt(self, code, s, scope):
        source = self.x.expr(s.source, scope)
        inner = dict(scope)
        inner[s.var] = "player"
        cond = self.x.expr(s.cond, inner) if s.cond is not None else None
        block = f"{code.name}/together@{s.span.line}"
        self.procedure(block, "block", s.span, s.body, inner)
        var = s.var

        def spawn(c, f):
            threads = []
            for p in source(c, f[2]):
                env = dict(f[2])
                env[var] = p
                if cond is None or cond(c, env):
                    threads.append((p, env))
            f[1] += 1
            c.spawn(block, threads)
            return SPAWN
        self._emit(code, spawn, s.span)

