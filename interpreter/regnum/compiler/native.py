"""Procedures that never wait for a player, compiled to plain Python functions.

Most rules of a game only compute and move pieces: they never `ask`, start a
simultaneous step or end the game. Such a procedure cannot be suspended, so it
needs no frame, no program counter and no VM: it becomes one Python function
with ordinary loops and locals, called directly. The VM keeps running what may
suspend (the flow, the phases that ask); everything else runs at the speed of
Python.

As in codegen.py, the ruleset's text is never pasted into the source: names
become generated identifiers or string literals, values are bound in the
namespace. Each generated line remembers the statement it came from, so an
error inside a native procedure still points at the ruleset's line.
"""
from __future__ import annotations

import itertools

from .. import ast
from ..engine.state import ZoneRef
from ..graphs import loops
from .codegen import _PLAIN, state_reads
from .text import format_value, said

# Statements that may suspend a procedure (or end the game): their procedures stay in the VM.
_SUSPENDING = (ast.AskStmt, ast.SimultaneousStmt, ast.EndStmt)
_MOVING = (ast.MoveStmt, ast.MoveCountStmt, ast.CreateStmt)
# Operators whose value is always true or false (Python's comparisons of the values a game
# holds, and the membership tests).
_TRUTHS = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


def _walk(body):
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.IfStmt):
            for _, inner in stmt.branches:
                yield from _walk(inner)
            if stmt.otherwise:
                yield from _walk(stmt.otherwise)
        elif hasattr(stmt, "body") and isinstance(stmt.body, tuple):
            yield from _walk(stmt.body)


def eligible(program) -> set[str]:
    """Names ("rule:x", "phase:y", "action:z", "trigger:t") of procedures that can be native."""
    procs = {}
    for kind in ("rule", "phase", "action", "trigger"):
        for decl in program.of_kind(kind):
            procs[f"{kind}:{decl.name}"] = decl
    triggers = [f"trigger:{d.name}" for d in program.of_kind("trigger")]

    def callee(stmt):
        target = program.get(stmt.name)
        return f"{target.kind}:{stmt.name}" if target is not None else None

    calls = {name: {callee(s) for s in _walk(decl.body) if isinstance(s, ast.RunStmt)} - {None}
             for name, decl in procs.items()}
    recursive = loops(calls)
    # A procedure that may call itself runs on the VM, whose frames count against the
    # `call_depth` limit; a native one would recurse in Python instead.
    ok = {name for name, decl in procs.items()
          if name not in recursive and not any(isinstance(s, _SUSPENDING) for s in _walk(decl.body))}
    changed = True
    while changed:  # drop what runs (or, by moving pieces, may fire) a procedure that is not native
        changed = False
        triggers_ok = all(t in ok for t in triggers)
        for name in sorted(ok):
            stmts = list(_walk(procs[name].body))
            if any(isinstance(s, ast.RunStmt) and callee(s) not in ok for s in stmts) or \
                    (not triggers_ok and any(isinstance(s, _MOVING) for s in stmts)):
                ok.discard(name)
                changed = True
    return ok


def fitted(node, text: str) -> str:
    """The source storing the value of `node` (source `text`) through `c.fit`, unless the
    value is one fit lets pass whatever the limits: a truth value (literal, `not`, a
    comparison), none, or 0."""
    if isinstance(node, (ast.BoolLit, ast.NoneLit)) or (isinstance(node, ast.IntLit) and node.value == 0):
        return text
    if isinstance(node, ast.Unary) and node.op == "not":
        return text
    if isinstance(node, ast.Binary) and node.op in _TRUTHS:
        return text
    return f"c.fit({text})"


def _bindings(body):
    """(name, statement) of every local a body binds (`let`, `for`, `score … as`, `together`)."""
    for stmt in _walk(body):
        if isinstance(stmt, ast.LetStmt):
            yield stmt.name, stmt
        elif isinstance(stmt, (ast.ForStmt, ast.SimultaneousStmt)):
            yield stmt.var, stmt
        elif isinstance(stmt, ast.ScoreStmt) and stmt.result is not None:
            yield stmt.result, stmt


def _assigns(body, name: str) -> bool:
    """Whether a body binds or sets the local `name` anywhere."""
    for stmt in _walk(body):
        if isinstance(stmt, (ast.SetStmt, ast.AddStmt)) and isinstance(stmt.target, ast.Name) \
                and stmt.target.name == name:
            return True
    return any(bound == name for bound, _ in _bindings(body))


def _params(decl) -> list[str]:
    """The names a procedure's callers bind (an action's seat among them)."""
    if decl.kind == "action":
        return ["player"] + [p.name for p in decl.params]
    if decl.kind == "trigger":
        return [decl.piece_var] + ([decl.index_var] if decl.index_var else [])
    return list(getattr(decl, "params", ()))


class _Source:
    """Lines of Python under construction, each remembering the span it came from."""

    def __init__(self):
        self.lines: list[str] = []
        self.spans: dict[int, object] = {}

    def add(self, depth: int, text: str, span) -> None:
        self.lines.append("    " * depth + text)
        self.spans[len(self.lines)] = span

    def insert_after_first(self, lines: list[str], span) -> None:
        """Lines (indented already) placed right after the first, the spans moved with theirs."""
        if not lines:
            return
        n = len(lines)
        self.lines[1:1] = lines
        self.spans = {(line if line == 1 else line + n): at for line, at in self.spans.items()}
        for i in range(n):
            self.spans[2 + i] = span


# Whether a function only code a game never runs asks for is written at its first call
# (False: at load, as before; the tests compare the two).
LAZILY = True


class NativeCompiler:
    def __init__(self, exprs, program, scorings: dict, natives: dict, allowed: set[str], branches: list):
        self.x = exprs
        self.branches = branches     # (coverage name, span) of every if/elif, shared with the VM compiler
        self._current = ""
        self.gen = exprs.codegen
        self.program = program
        self.scorings = scorings
        self.natives = natives       # code name -> function, shared with the model
        self.allowed = allowed
        self.spans: dict = {}        # generated file name -> {line: span}
        self._ids = itertools.count()
        self._compiled: dict = {}    # (name, argument kinds) -> function name
        self._pending: dict = {}     # function name -> how to write it, for those written at their first call
        self._seats: set[str] = set()   # Python locals known to hold a seat where the code being written runs
        self._confined: bool | None = None   # see refs_confined, computed once
        self.gen.ns.setdefault("ZoneRef", ZoneRef)
        self.gen.ns.setdefault("_format", format_value)
        self.gen.ns.setdefault("_said", said)

    def compile(self, name: str, decl, param_names, param_kinds: dict, lazily: bool = False) -> str:
        """The namespace name of the function for procedure `name`, specialised to the kinds of
        its arguments (a rule run with a seat and with a number compiles twice, so each call
        reads and shows its values as what they are).

        `lazily`: for code that only a saved game can run (StmtCompiler.natives_lazily), the
        function is written at its first call, if it ever comes; until then the name holds a
        stand-in that writes it. Asked for again without `lazily`, it is written at once."""
        signature = (name, tuple(sorted((k, str(v)) for k, v in param_kinds.items())))
        fname = self._compiled.get(signature)
        if fname is not None:
            if not lazily and fname in self._pending:
                self._write(fname, *self._pending.pop(fname))
            return fname
        fname = f"_n{next(self._ids)}_{decl.name}"
        self._compiled[signature] = fname
        if lazily and LAZILY:
            self._pending[fname] = (name, decl, param_names, param_kinds)
            self.gen.ns[fname] = self._stand_in(fname)
        else:
            self._write(fname, name, decl, param_names, param_kinds)
        return fname

    def _stand_in(self, fname: str):
        """What `fname` names until its function is written: at the first call, writes it (in
        place of itself) and calls it."""
        def first_call(*args):
            pending = self._pending.pop(fname, None)
            if pending is not None:
                self._write(fname, *pending)
            return self.gen.ns[fname](*args)
        return first_call

    def _write(self, fname: str, name: str, decl, param_names, param_kinds: dict) -> None:
        binds = {}
        params = []
        # A parameter of no known kind may be given a zone reference only where some local
        # may hold one unseen (see refs_confined); else it is read as it is, never _deref'd.
        unknown = "any" if not self.refs_confined() else None
        for param in param_names:
            py = f"_l{next(self._ids)}"
            params.append(py)
            binds[param] = (py, param_kinds.get(param) or unknown)
        if name.startswith("action:") and param_names and param_names[0] == "player" \
                and not _assigns(decl.body, "player"):
            self._seats.add(params[0])   # the seat making the move: a seat, never checked again
        src = _Source()
        src.add(0, f"def {fname}(c{''.join(', ' + p for p in params)}):", decl.span)
        src.add(1, "_h = c.hits", decl.span)   # None: the game counts no coverage
        src.add(1, f"if _h is not None: _h[{name!r}] = _h.get({name!r}, 0) + 1", decl.span)
        outer, self._current = self._current, name
        # The state's parts are read through locals set once per call (codegen.STATE_LOCALS):
        # nothing a procedure does replaces the state or one of its parts, only what they hold.
        state_locals, self.gen.state_locals = self.gen.state_locals, True
        try:
            self._block(src, 1, decl.body, binds)
        finally:
            self._current = outer
            self.gen.state_locals = state_locals
        src.insert_after_first(state_reads("\n".join(src.lines[1:]) + "\n"), decl.span)
        filename = f"<regnum native {fname}>"
        self.spans[filename] = src.spans
        exec(self.gen.compiled("\n".join(src.lines) + "\n", filename), self.gen.ns)
        self.natives.setdefault(name, self.gen.ns[fname])

    def refs_confined(self) -> bool:
        """Whether a zone reference is only ever read where its local is known to hold one.

        A local holds a reference (ZoneRef) when `let` binds it to a zone or a rule is given a
        zone; as a value it is read through _deref, where the compiler knows the local's kind
        is "zone" (or "any": a parameter of unknown kind). The kind is the one the local was
        last bound with in the text, so a local bound twice (`let x = 1` … in a loop, `let x
        = region(r)`) could hold a reference where its kind says otherwise, and pass it on.
        When no procedure binds a name twice that one binding may make a reference (a
        parameter, or a `let` of a name or a zone), no such value exists: a parameter of
        unknown kind holds what its callers computed, never a reference."""
        if self._confined is None:
            self._confined = all(self._confined_in(decl) for decl in self._procedures())
        return self._confined

    def _procedures(self):
        for kind in ("rule", "phase", "action", "trigger"):
            yield from self.program.of_kind(kind)
        for kind in ("setup", "flow"):
            decl = self.program.singletons.get(kind)
            if decl is not None:
                yield decl

    def _confined_in(self, decl) -> bool:
        count: dict = {}
        maybe_ref: set = set(_params(decl))
        for name in _params(decl):
            count[name] = count.get(name, 0) + 1
        for name, stmt in _bindings(decl.body):
            count[name] = count.get(name, 0) + 1
            if isinstance(stmt, ast.LetStmt) and (isinstance(stmt.value, ast.Name) or (
                    isinstance(stmt.value, ast.Call) and stmt.value.func in self.x.zones)):
                maybe_ref.add(name)
        return not any(count[name] > 1 for name in maybe_ref)

    def _moves_in(self, body, seen: frozenset = frozenset()) -> bool:
        """Whether running a body may change a zone's list (move, create, shuffle, or a rule
        run that does): pieces moved may also fire triggers, which only moves do."""
        for stmt in _walk(body):
            if isinstance(stmt, (ast.MoveStmt, ast.MoveCountStmt, ast.CreateStmt, ast.ShuffleStmt)):
                return True
            if isinstance(stmt, ast.RunStmt):
                target = self.program.get(stmt.name)
                if target is None or stmt.name in seen or \
                        self._moves_in(target.body, seen | {stmt.name}):
                    return True
        return False

    def scoring_entries(self, decl):
        """`f(c, *params)` -> (contenders, needs, pays, places, [(contender, measure)…]) of a
        scoring, computed in the order its closures are (source, needs, pays, places, then each
        contender's measure), as one function: the parameters its arguments, the measure written
        inline in a loop, where a call per contender copied the environment to bind it. None
        where Python cannot compile it (the closures are used). Not a native procedure: an
        error in it is located at the `score` that ran it, as an expression's is."""
        unknown = None if self.refs_confined() else "any"
        binds = {p: (f"_l{next(self._ids)}", unknown) for p in decl.params}
        source_kind = self.x.kind(decl.source, self._kinds(binds))
        inner = dict(binds)
        var = inner[decl.var] = (f"_l{next(self._ids)}", {"players": "player"}.get(source_kind) or unknown)
        fname = f"_score{next(self._ids)}_{decl.name}"
        state_locals, self.gen.state_locals = self.gen.state_locals, True
        try:
            parts = [f"    _contenders = list({self._e(decl.source, binds)})",
                     f"    _needs = {self._e(decl.needs, binds) if decl.needs is not None else None}",
                     f"    _pays = list({self._e(decl.pays, binds) if decl.pays is not None else [1]})",
                     f"    _places = {self._e(decl.places, binds) if decl.places is not None else None}",
                     "    _entries = []",
                     f"    for {var[0]} in _contenders:",
                     f"        _entries.append(({var[0]}, {self._e(decl.measure, inner)}))",
                     "    return _contenders, _needs, _pays, _places, _entries"]
        except (SyntaxError, RecursionError, MemoryError):
            return None
        finally:
            self.gen.state_locals = state_locals
        body = "\n".join(parts) + "\n"
        head = "".join(f", {py}" for py, _ in binds.values())   # the parameters, in order
        source = f"def {fname}(c{head}):\n" + "".join(f"{line}\n" for line in state_reads(body)) + body
        try:
            exec(self.gen.compiled(source, "<regnum scoring>"), self.gen.ns)
        except (SyntaxError, RecursionError, MemoryError):
            return None
        return self.gen.ns[fname]

    def function(self, fname: str):
        return self.gen.ns[fname]

    # ── helpers ──
    def _e(self, node, binds) -> str:
        return self._unchecked_seats(self.gen.src(node, {}, binds))

    def _unchecked_seats(self, text: str) -> str:
        """`_seat(c, x)` is x when x is a seat: a local known to hold one is not checked again."""
        for py in self._seats:
            if py in text:
                for depth in range(3):
                    inner = "(" * depth + py + ")" * depth
                    text = text.replace(f"_seat(c, {inner})", inner)
        return text

    def _fit(self, node, text: str) -> str:
        return fitted(node, text)

    def _kinds(self, binds) -> dict:
        return {n: k for n, (_, k) in binds.items()}

    def _zone(self, node, binds) -> str:
        """Source giving the key of the zone `node` names."""
        if isinstance(node, ast.Name) and node.name in binds:
            return binds[node.name][0]
        fam = self.x.zones.get(getattr(node, "func", None) or getattr(node, "name", None))
        if isinstance(node, ast.Name) and fam is not None and fam.index is None:
            return repr(fam.keys[""])
        if isinstance(node, ast.Call) and fam is not None:
            index = self._e(node.args[0], binds)
            if not fam.open:   # read from the plain copy of the keys first (CodeGen._zone_key)
                return f"({self.gen._zone_key(fam, index)})"
            return f"{self.gen.bind(fam.keys, 'z')}[{index}]"
        from .expressions import CompileError
        raise CompileError("a zone is expected here", node.span)

    def _is_zone(self, node, binds) -> bool:
        if isinstance(node, ast.Name) and node.name in binds:
            return binds[node.name][1] == "zone"
        return self.x.is_zone(node, {})

    def _block(self, src, depth, body, binds) -> None:
        binds = dict(binds)
        start = len(src.lines)
        for stmt in body:
            getattr(self, "_" + type(stmt).__name__)(src, depth, stmt, binds)
        if len(src.lines) == start:
            src.add(depth, "pass", None)

    def _local(self, binds, name, kind) -> str:
        if name in binds:
            py = binds[name][0]
        else:
            py = f"_l{next(self._ids)}"
        binds[name] = (py, kind)
        return py

    # ── statements ──
    def _LetStmt(self, src, d, s, binds):
        if self._is_zone(s.value, binds):
            value = f"ZoneRef({self._zone(s.value, binds)})"
            py = self._local(binds, s.name, "zone")
        else:
            value = self._fit(s.value, self._e(s.value, binds))
            py = self._local(binds, s.name, self.x.kind(s.value, self._kinds(binds)))
        self._seats.discard(py)
        src.add(d, f"{py} = {value}", s.span)

    def _assign(self, src, d, target, node, value, span, binds, op):
        raw = value   # what set_table and set_field store: they fit it themselves, as the VM's do
        if op == "+=":  # store the sum, checked, rather than adding in place
            current = self._e(target, binds)
            raw = f"{current} + {value}"
            value, op = f"c.fit({raw})", "="
        else:
            value = self._fit(node, value)
        # The state's variables are set through the context, which journals the write.
        if isinstance(target, ast.Name):
            if target.name in binds:
                self._seats.discard(binds[target.name][0])
                src.add(d, f"{binds[target.name][0]} {op} {value}", span)
            else:
                src.add(d, f"c.set_var({target.name!r}, {value})", span)
        elif isinstance(target, ast.Call):
            decl = self.program.get(target.func, "var")
            if decl is not None and decl.per_index:
                src.add(d, f"c.set_table({target.func!r}, {self._e(target.args[0], binds)}, {raw}, False)", span)
            else:
                seat = self._e(target.args[0], binds)
                if seat in self._seats:   # a seat: nothing to check, so nothing to order
                    src.add(d, f"c.set_pvar({seat}, {target.func!r}, {value})", span)
                    return
                src.add(d, f"_put = {value}", span)   # the value first, then the seat, as Python would
                src.add(d, f"c.set_pvar(_seat(c, {seat}), {target.func!r}, _put)", span)
        elif isinstance(target, ast.Attribute):
            src.add(d, f"c.set_field({self._e(target.obj, binds)}, {target.name!r}, {raw}, False)", span)
        else:
            from .expressions import CompileError
            raise CompileError("cannot assign to this", span)

    def _SetStmt(self, src, d, s, binds):
        self._assign(src, d, s.target, s.value, self._e(s.value, binds), s.span, binds, "=")

    def _AddStmt(self, src, d, s, binds):
        amount = self._e(s.amount, binds)
        self._assign(src, d, s.target, None, f"-({amount})" if s.negate else amount, s.span, binds, "+=")

    def _fire(self, src, d, span):
        src.add(d, "if c.fired: c.run_fired()", span)

    def _MoveStmt(self, src, d, s, binds):
        what, dest = self._e(s.pieces, binds), self._zone(s.dest, binds)
        if self._is_zone(s.pieces, binds) or self.x.kind(s.pieces, self._kinds(binds)) == "pieces":
            src.add(d, f"c.move_any({what}, {dest})", s.span)
        else:
            # One piece, most often: moved without the call that tells it from a list.
            if not _PLAIN.fullmatch(what):
                src.add(d, f"_move_what = {what}", s.span)
                what = "_move_what"
            src.add(d, f"(c.move_piece if type({what}) is int else c.move_any)({what}, {dest})", s.span)
        self._fire(src, d, s.span)

    def _MoveCountStmt(self, src, d, s, binds):
        count, source, dest = (self._e(s.count, binds), self._zone(s.source, binds),
                               self._zone(s.dest, binds))
        if isinstance(s.count, ast.IntLit) and s.count.value == 1:
            # The top piece: what move_top does for one, without its loop.
            src.add(d, f"_move_from = {self.gen.state('zones')}.get({source}, ())", s.span)
            src.add(d, f"_move_to = {dest}", s.span)
            src.add(d, "if not _move_from: raise EvalError('move 1 from a zone holding 0')", s.span)   # as move_top
            src.add(d, "c.move_piece(_move_from[-1], _move_to)", s.span)
        else:
            src.add(d, f"c.move_top({count}, {source}, {dest})", s.span)
        self._fire(src, d, s.span)

    def _CreateStmt(self, src, d, s, binds):
        fields = "{" + ", ".join(f"{n!r}: {self._e(v, binds)}" for n, _, v in s.fields) + "}"
        label = f"str({self._e(s.label, binds)})" if s.label is not None else repr(s.piece_type)
        src.add(d, f"c.create_many({self._e(s.count, binds)}, {s.piece_type!r}, {fields}, {label}, "
                   f"{self._zone(s.dest, binds)})", s.span)

    def _ShuffleStmt(self, src, d, s, binds):
        src.add(d, f"c.shuffle_zone({self._zone(s.zone, binds)})", s.span)

    def _RevealStmt(self, src, d, s, binds):
        src.add(d, f"c.reveal({self._e(s.pieces, binds)})", s.span)

    def _RunStmt(self, src, d, s, binds):
        target = self.program.get(s.name)
        name = f"{target.kind}:{s.name}"
        kinds = {}
        args = []
        for param, arg in zip(target.params, s.args):
            if self._is_zone(arg, binds):
                kinds[param] = "zone"
                args.append(f"ZoneRef({self._zone(arg, binds)})")
            else:
                kinds[param] = self.x.kind(arg, self._kinds(binds))
                args.append(self._e(arg, binds))
        fname = self.compile(name, target, target.params, kinds)
        src.add(d, f"{fname}(c{''.join(', ' + a for a in args)})", s.span)

    def _ScoreStmt(self, src, d, s, binds):
        args = [self._e(a, binds) for a in s.args]
        scoring = self.scorings.get(s.name)
        if scoring is not None:   # its function called with the arguments, not looked up by name
            src.add(d, f"{self.gen.bind(scoring.run, 'sc')}({', '.join(['c'] + args)})", s.span)
        else:
            src.add(d, f"c.score({s.name!r}, ({''.join(a + ', ' for a in args)}))", s.span)
        if s.result is not None:
            src.add(d, f"{self._local(binds, s.result, None)} = c.ranking()", s.span)

    def _AnnounceStmt(self, src, d, s, binds):
        pieces = []
        for part in s.text.parts:
            if isinstance(part, str):
                pieces.append(repr(part))
            else:
                kind = self.x.kind(part, self._kinds(binds))
                pieces.append(f"_format({self._e(part, binds)}, {kind!r}, c)")
        src.add(d, f"if c.narrate: c.events.append(_said(c, ''.join([{', '.join(pieces)}])))", s.span)

    def _PassStmt(self, src, d, s, binds):
        src.add(d, "pass", s.span)

    def _NewTurnStmt(self, src, d, s, binds):
        src.add(d, "c.new_turn()", s.span)

    def _IfStmt(self, src, d, s, binds):
        for i, (cond, body) in enumerate(s.branches):
            keyword = "if" if i == 0 else "elif"
            branch = f"branch:{self._current}@{cond.span.line}"
            self.branches.append((branch, cond.span))
            src.add(d, f"{keyword} {self._e(cond, binds)}:", cond.span)
            src.add(d + 1, f"if _h is not None: _h[{branch!r}] = _h.get({branch!r}, 0) + 1", cond.span)
            self._block(src, d + 1, body, binds)
        if s.otherwise:
            first = s.otherwise[0].span
            branch = f"branch:{self._current}@{first.line}"
            self.branches.append((branch, first))
            src.add(d, "else:", s.span)
            src.add(d + 1, f"if _h is not None: _h[{branch!r}] = _h.get({branch!r}, 0) + 1", first)
            self._block(src, d + 1, s.otherwise, binds)

    def _tick(self, src, d, span):
        src.add(d, "c.steps += 1", span)
        src.add(d, "if c.steps > c.max_steps: c.runaway()", span)

    def _ForStmt(self, src, d, s, binds):
        inner = dict(binds)
        kind = {"players": "player", "pieces": "piece", "zone": "piece"}.get(
            self.x.kind(s.source, self._kinds(binds)))
        py = self._local(inner, s.var, kind)
        items = self._e(s.source, binds)
        if not self._stays(s.source, binds, s.body):
            items = f"list({items})"   # gone through as it was when the loop began
        seat = self._over_seats(s.source, binds) and not _assigns(s.body, s.var)
        src.add(d, f"for {py} in {items}:", s.span)
        if seat:
            self._seats.add(py)
        try:
            if s.cond is not None:
                src.add(d + 1, f"if not ({self._e(s.cond, inner)}): continue", s.cond.span)
            self._tick(src, d + 1, s.span)
            self._block(src, d + 1, s.body, inner)
        finally:
            self._seats.discard(py)

    def _over_seats(self, node, binds) -> bool:
        """Whether `node` is `players`, the seats of the game."""
        return isinstance(node, ast.Name) and node.name == "players" and node.name not in binds \
            and self.program.get(node.name) is None

    def _stays(self, node, binds, body) -> bool:
        """Whether the list a loop goes through cannot change while its body runs, so that it
        needs no copy: the only lists changed in place are zones', and only moves change them;
        the seats, the ruleset's constants and lists built for the loop are never a zone's."""
        if self._over_seats(node, binds) or (self.x.fixed_list(node, {}) is not None and not (
                isinstance(node, ast.Name) and node.name in binds)):
            return True
        if isinstance(node, (ast.ListComp, ast.ListLit)):
            return True
        return not self._moves_in(body)

    def _RepeatStmt(self, src, d, s, binds):
        src.add(d, f"for _ in range(c.times({self._e(s.count, binds)})):", s.span)
        self._tick(src, d + 1, s.span)
        self._block(src, d + 1, s.body, binds)

    def _UntilStmt(self, src, d, s, binds):
        src.add(d, "while True:", s.span)
        self._tick(src, d + 1, s.span)
        self._block(src, d + 1, s.body, binds)
        src.add(d + 1, f"if {self._e(s.cond, binds)}: break", s.cond.span)

    def _WhileStmt(self, src, d, s, binds):
        src.add(d, f"while {self._e(s.cond, binds)}:", s.span)
        self._tick(src, d + 1, s.span)
        self._block(src, d + 1, s.body, binds)


def locate(err: BaseException, spans: dict, default):
    """The ruleset span of the innermost native line an exception went through."""
    found = default
    tb = err.__traceback__
    while tb is not None:
        table = spans.get(tb.tb_frame.f_code.co_filename)
        if table is not None and table.get(tb.tb_lineno) is not None:
            found = table[tb.tb_lineno]
        tb = tb.tb_next
    return found


__all__ = ["eligible", "NativeCompiler", "locate"]
