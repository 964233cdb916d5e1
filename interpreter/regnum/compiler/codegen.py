"""Expressions to Python source, compiled once into one function per expression.

A rule such as `card.kind != special or count(chosen(player)) == 0` becomes a single
`lambda c, e: …` whose body reads the state directly, instead of a tree of small
closures calling each other: the interpreter's hottest path (listing legal moves)
runs at the speed of ordinary Python code.

Nothing of the ruleset's text is pasted into the source: names become string
literals (via repr) or generated identifiers, and every value (constants, zone
key tables, adjacency) is bound in the namespace the code runs in. Loading a
ruleset therefore never executes code written in it.
"""
from __future__ import annotations

import itertools
import operator
import re

from .. import ast, boards, opengrid
from . import memo
from ..builtins import FUNCTIONS, EvalError, _max, _min
from ..documents import all_plain
from .indexes import indexed_search, line_test, near_test
from .helpers import RUNTIME, _index, _walk_items



# The locals a move lister reads the state's parts through (CodeGen.state).
STATE_LOCALS = {part: f"_s_{part}" for part in ("vars", "pvars", "tables", "zones", "pieces", "grids")}


def state_reads(body: str, indent: str = "    ") -> list[str]:
    """The lines setting the STATE_LOCALS that `body` (generated source) reads, and no
    others: a lister runs hundreds of times a game, and most read two parts of six. (The
    body is read once for all six: every function a load writes goes through here.)"""
    read = {m.group(1) for m in _STATE_READ.finditer(body) if m.start() == 0 or not _WORD.match(body, m.start() - 1)}
    return [f"{indent}{local} = c.state.{part}" for part, local in STATE_LOCALS.items() if part in read]


# A local of STATE_LOCALS, not preceded by a word character (a `\b` before it would keep the
# search from skipping ahead to its first characters, which made it seven times as slow).
_STATE_READ = re.compile(rf"_s_({'|'.join(STATE_LOCALS)})\b")
_WORD = re.compile(r"\w")

# A table read through the state's locals: a variable per index, or the start of a variable
# per cell of an open grid (a name is an identifier: no quote inside).
_TABLE_READ = re.compile(r"_s_tables\['(\w+)'\]|_s_grids\['(\w+)'\]\['start'\]\['(\w+)'\]")


def table_reads(body: str, indent: str = "    ") -> tuple[list[str], str]:
    """(lines setting one local per table `body` reads, body reading those locals): a listing
    changes no table and every table of the model is in the state, so each is looked up once
    per listing instead of once per cell judged."""
    names: dict[str, str] = {}

    def local(match) -> str:
        text = match.group(0)
        if text not in names:
            names[text] = f"_t{len(names)}"
        return names[text]
    body = _TABLE_READ.sub(local, body)
    return [f"{indent}{name} = {text}" for text, name in names.items()], body


_COMPARE = {"==", "!=", "<", "<=", ">", ">="}
_ARITH = {"+", "-", "*"}


class CodeGen:
    """Builds Python source for expressions; `function(node, scope)` gives `f(c, e)`."""

    def __init__(self, owner):
        self.x = owner             # the ExprCompiler: program, consts, zones, boards, kind()
        self.ns: dict = dict(RUNTIME)
        self.ns["__builtins__"] = {"len": len, "sum": sum, "any": any, "all": all, "max": max,
                                   "min": min, "next": next, "list": list, "isinstance": isinstance,
                                   "int": int, "dict": dict, "type": type, "range": range, "str": str,
                                   "bool": bool}
        self._ids = itertools.count()
        self._writers: dict = {}   # kind of syntax node -> the method writing its source (src)
        self._defs: dict = {}
        self._small: dict = {}     # def name -> (small enough to inline, uses of each parameter)
        self._hoisted: dict = {}   # id of a syntax node -> the local holding its value (filters)
        self._inlining = 0
        # The names of the memos of partial searches (conditions._kept_search) the function
        # being written declares, or None when it keeps none (only a prefer does).
        self._partial: list[str] | None = None
        # The names of the memos of searches kept per item (conditions._kept_inner) the move
        # lister being written declares, or None outside a lister; the inner searches made.
        self._inner_memos: list[str] | None = None
        self._inner_nodes: dict = {}
        # Sources of zones an enclosing `if count(Z) == 0 then … else …` knows are not empty
        # where the code being written runs: `Z[0]` there needs no check.
        self._nonempty: list[tuple] = []   # (zone source, the name it is bound to or None)
        self._bound: dict = {}     # id of a value bound in the namespace -> (value, its name)
        self._fixed_tuples: dict = {}   # the choices of a list known at load -> that one tuple (fixed_tuple)
        self._named_lists: dict = {}   # a fixed board's or an enum's name -> the one list it reads as (named_list)
        self._plain_keys: dict = {}   # id of a zone family's keys -> (keys, name of their plain copy, all truthy)
        # Python locals known to hold one value where the code being written runs (a loop
        # over a few literals written out once per value, listers.py): name -> value.
        self.literals: dict = {}
        self.folds = 0             # values computed at load so far (see _known)
        # How deep the code being written is in the source of a comprehension, where Python
        # refuses an assignment expression (a def's arguments are then not bound by one).
        self._in_iterable = 0
        # Where the generated code reads the state's parts: through `c.state`, or through
        # locals a move lister sets once (STATE_LOCALS), since a listing never changes them.
        self.state_locals = False
        # The code objects of sources compiled before (codecache.py), set by compile_program.
        self.code_cache = None
        # Kept values of defs (memo.py): which defs, the functions written for them by
        # (def, kinds of the arguments), and whether the code being written is the body of
        # one (its zones then read through the recorder `_s_zones`).
        self._memo_analysis: memo.Analysis | None = None
        self._memos: dict = {}
        # Searches answered by an index (indexes.py): a number per (def, board), and the
        # names of each board's cells and positions (and, by ("symmetric", board), whether
        # its neighbours are).
        self._index_keys: dict = {}
        # (zone family, a parameter's choices) -> {choice: its zone's key}, and ("body", id of
        # that map) -> the test of its emptiness: the zone tests listers count apart (listers.py)
        self.zone_keys: dict = {}
        self._index_boards: dict = {}
        self._index_lines: dict = {}   # (board, k) -> the name of its Lines (indexes.line_test)
        self._index_bodies: dict = {}   # (def, kinds) -> its body's functions, as _memos
        self._once = 0   # inside the source of a search made once per evaluation (_lazy_sources)
        self._recording = False
        self._recorded: dict = {}   # source of a zone read noted -> the same read, not noted
        # As the ruleset was loaded (what is compiled lazily later follows the same choice).
        self.memo_enabled, self.memo_verify = memo.ENABLED, memo.VERIFY
        # Set by prefers.py while it writes a prefer that is one kept def's call (kept_lines),
        # with the lines kept_lines asks to be written before the prefer's loop.
        self.steps_later = False
        self.prologue: list[str] | None = None   # a prefer's lines before its loop, while written
        # Set by prefers.py while it writes a prefer: the locals that hold only values of a
        # list known at load whose every item can be a key (a fixed board's cells), which a
        # kept value's key need not check (kept_lines, indexes.near_test).
        self.keyed_locals: frozenset = frozenset()
        self._fixed_sets: dict = {}   # id of a constant list -> (the list, name of its set)

    def compiled(self, source: str, filename: str, mode: str = "exec"):
        """`compile(source, filename, mode)`, or the same code object kept from an earlier load."""
        cache = self.code_cache
        return cache.compile(source, filename, mode) if cache is not None else compile(source, filename, mode)

    # ── entry points ──
    def function(self, node, scope: dict):
        try:
            body = self.src(node, scope, {})
            return self._eval(f"lambda c, e: {body}")
        except (SyntaxError, RecursionError, MemoryError):
            from .expressions import CompileError
            raise CompileError("this expression is nested too deeply to compile; split it with "
                               "let or def", node.span, "E005") from None

    def domain_function(self, node, scope: dict):
        """`f(c, e)` computing an action parameter's domain, reading the state's parts (and
        each table) through locals set once: a domain is computed while moves are listed or
        judged, which changes nothing, and a comprehension over cells reads them per cell."""
        self.state_locals = True
        try:
            body = self.src(node, scope, {})
        except (SyntaxError, RecursionError, MemoryError):
            from .expressions import CompileError
            raise CompileError("this expression is nested too deeply to compile; split it with "
                               "let or def", node.span, "E005") from None
        finally:
            self.state_locals = False
        tables, body = table_reads(f"    return {body}\n")
        body = "".join(f"{line}\n" for line in tables) + body
        fname = f"_dom{next(self._ids)}"
        source = f"def {fname}(c, e):\n" + "".join(f"{line}\n" for line in state_reads(body)) + body
        try:
            exec(self.compiled(source, "<regnum domain>"), self.ns)
        except (SyntaxError, RecursionError, MemoryError):
            from .expressions import CompileError
            raise CompileError("this expression is nested too deeply to compile; split it with "
                               "let or def", node.span, "E005") from None
        return self.ns[fname]

    def filter_function(self, param: str, clauses: list, scope: dict):
        """One function that keeps the choices of `param` passing every clause, in order,
        counting in `hits` (when given) the clause that excludes each other choice:
        `f(c, e, items, hits)` with items [(value, encoded)…]. The clauses' conditions are
        inlined in one loop instead of a call per clause per choice."""
        if not clauses:
            return None
        fname = f"_filter{next(self._ids)}"
        lines = [f"def {fname}(c, e, items, hits):", "    out = []"]
        # Calls that do not read this choice are computed once per filter, at their first use
        # (never sooner: a condition may guard them), instead of once per choice.
        invariant = [n for node, _ in clauses for n in self._invariant_calls(node, {param})]
        if invariant:
            lines.append("    memo = {}")
        for n in invariant:
            if id(n) not in self._hoisted:
                number = next(self._ids)
                lines += [f"    def _h{number}():",
                          f"        v = memo.get({number}, _UNSET)",
                          f"        if v is _UNSET: v = memo[{number}] = {self.src(n, scope, {})}",
                          "        return v"]
                self._hoisted[id(n)] = f"_h{number}()"
        lines.append("    for v, enc in items:")
        choice = {param: ("v", scope.get(param) or "value")}   # the choice is the loop's local, not e[…]
        try:
            for node, hit in clauses:
                lines.append(f"        if not ({self.src(node, scope, choice)}):")
                lines.append(f"            if hits is not None: hits[{hit!r}] = hits.get({hit!r}, 0) + 1")
                lines.append("            continue")
        finally:
            for n in invariant:
                self._hoisted.pop(id(n), None)
        lines += ["        out.append((v, enc))", "    return out"]
        try:
            exec(self.compiled("\n".join(lines) + "\n", "<regnum requires>"), self.ns)
        except (SyntaxError, RecursionError, MemoryError):
            from .expressions import CompileError
            raise CompileError("a require is nested too deeply to compile; split it with def",
                               clauses[0][0].span, "E005") from None
        return self.ns[fname]

    def test_many(self, node, scope: dict):
        """`f(c, envs)`: the truth of a condition in each of many environments, in one
        comprehension (a prefer judges every legal move at once)."""
        try:
            return self._eval(f"lambda c, envs: [bool({self.src(node, scope, {})}) for e in envs]")
        except (SyntaxError, RecursionError, MemoryError):
            from .expressions import CompileError
            raise CompileError("this expression is nested too deeply to compile; split it with "
                               "let or def", node.span, "E005") from None

    def _eval(self, source: str):
        return eval(self.compiled(source, "<regnum expression>", "eval"), self.ns)

    def bind(self, value, stem: str = "k") -> str:
        """The name generated code reads `value` by: one name per object, so that the same
        value written twice is the same text (`_nonempty` compares sources)."""
        known = self._bound.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        name = f"_{stem}{next(self._ids)}"
        self.ns[name] = value
        self._bound[id(value)] = (value, name)
        return name

    def fixed_tuple(self, values) -> tuple:
        """The items of a list known at load as one tuple per content for the whole ruleset:
        every listing, comprehension and narrowing over a board's cells reads the same
        object, so that the index of a table State.cells_with keeps for it is built once
        per table, not once per place that reads the board."""
        items = tuple(values)
        try:
            return self._fixed_tuples.setdefault(items, items)
        except TypeError:   # an item that cannot be a key (a constant list of lists)
            return items

    def named_list(self, name: str) -> list:
        """The list a fixed board's cells or an enum's members are read as, one object per
        name for the whole ruleset (no game changes it, nothing writes into it), so that a
        domain that is it at times is known by its identity (listers._Writer._fixed_branch)."""
        known = self._named_lists.get(name)
        if known is None:
            decl = self.x.program.get(name)
            known = self._named_lists[name] = list(self.x.boards[name].nodes) if decl.kind == "board" \
                else [m for m, _ in decl.members]
        return known

    def _fresh(self) -> str:
        return f"_v{next(self._ids)}"

    def _kinds(self, scope, binds) -> dict:
        merged = dict(scope)
        merged.update({n: k for n, (_, k) in binds.items()})
        return merged

    def state(self, part: str) -> str:
        """The source that reads one part of the state (vars, zones, pieces…)."""
        return STATE_LOCALS[part] if self.state_locals else f"c.state.{part}"

    # ── the generator ──
    def src(self, node, scope: dict, binds: dict) -> str:
        hoisted = self._hoisted.get(id(node))
        if hoisted is not None:
            return hoisted
        method = self._writers.get(type(node))
        if method is None:   # found by name once per kind of node (a load writes thousands)
            method = self._writers[type(node)] = getattr(type(self), "_" + type(node).__name__)
        return method(self, node, scope, binds)

    def iterable(self, node, scope: dict, binds: dict) -> str:
        """The source of a value that is only gone through, never kept or changed (the source
        of a comprehension): a board's own tuple of neighbours instead of the list copied
        from it that a value must be (a value may be changed or kept); a line of a fixed
        board read from the board's remembered tuple when it was met before; on an open
        grid, see _open_seen."""
        open_seen = self._open_seen(node, scope, binds)
        if open_seen is not None:
            return open_seen
        known_range = self._known_range(node, scope, binds)
        if known_range is not None:
            return known_range
        if id(node) not in self._hoisted and isinstance(node, ast.Call) and node.func in ("neighbours", "line", "directions") \
                and self._builtin(node.func, scope, binds) and self.x.program.get(node.func) is None \
                and self.x.zones.get(node.func) is None and node.args:
            board = node.args[0]
            record = self.x.boards.get(board.name) if isinstance(board, ast.Name) else None
            fixed = record is not None and not record.is_open
            if fixed and node.func == "directions" and len(node.args) == 1:
                return self.bind(record.directions, "dirs")   # a tuple
            if fixed and node.func == "neighbours" and len(node.args) == 2:
                adjacency = self.bind(record.adjacency, "adj")
                return f"{adjacency}.get({self.src(node.args[1], scope, binds)}, ())"
            if fixed and node.func == "line" and len(node.args) == 4 and isinstance(node.args[3], ast.IntLit):
                # `(cell, direction, n)` is remembered only once checked (boards.line): a
                # line met before is one lookup; any other goes through boards.line.
                cell, direction = (self.src(a, scope, binds) for a in node.args[1:3])
                if _PLAIN.fullmatch(cell) and (_PLAIN.fullmatch(direction) or isinstance(node.args[2], ast.StrLit)):
                    lines = self.bind(record._lines, "lines")
                    return (f"({lines}.get(({cell}, {direction}, {node.args[3].value})) "
                            f"or {self.src(node, scope, binds)})")
        return self.src(node, scope, binds)

    def _known_range(self, node, scope: dict, binds: dict) -> str | None:
        """The source of `range(lo, hi)` only gone through, its bounds known at load (`for i
        in range(1, size + 1)`, size a constant): the list made once, at load, and charged and
        bounded at every use as `_range` charges and bounds it (helpers._range_known). None
        for any other node, and for a range past KNOWN_RANGE items (made as the game runs)."""
        if not RANGES_AT_LOAD or id(node) in self._hoisted or not isinstance(node, ast.Call) \
                or node.func != "range" or not 1 <= len(node.args) <= 2 \
                or not self._builtin("range", scope, binds):
            return None
        bounds = [self._known(a, scope, binds) for a in node.args]
        if any(type(b) is not int for b in bounds):
            return None
        lo, hi = (0, bounds[0]) if len(bounds) == 1 else bounds
        if not 0 < hi - lo <= KNOWN_RANGE:
            return None
        return f"_range_known(c, {self.bind(list(range(lo, hi)), 'range')}, {lo}, {hi})"

    def _open_seen(self, node, scope: dict, binds: dict) -> str | None:
        """The source of a value only gone through, read on an open grid as a tuple it
        remembers (opengrid.py): `[step(B, x, d) for d in ["north", …]]` (steps_seen) and
        `around(B, [x])` (around_one), or a call of a def written as its body that is one of
        them (`sides(c)`); the same cells, steps and failures as the list. None otherwise."""
        if id(node) in self._hoisted:
            return None
        if isinstance(node, ast.ListComp):
            return self._steps_each(node, scope, binds, seen=True)
        if not isinstance(node, ast.Call):
            return None
        if node.func == "around" and self._builtin("around", scope, binds) and len(node.args) == 2 \
                and isinstance(node.args[0], ast.Name) and isinstance(node.args[1], ast.ListLit) \
                and len(node.args[1].items) == 1:
            record = self.x.boards.get(node.args[0].name)
            if record is None or not record.is_open:
                return None
            one = opengrid.around_one_8 if opengrid.diagonals(record) else opengrid.around_one_4
            cell = self.src(node.args[1].items[0], scope, binds)
            return f"{self.bind(one, 'og')}({self.bind(record, 'board')}, c, {cell})"
        if node.func in scope or node.func in binds or self.x.zones.get(node.func) is not None:
            return None
        decl = self.x.program.get(node.func)
        if decl is None or decl.kind != "def" or not isinstance(decl.body, (ast.ListComp, ast.Call)) \
                or not self._inlinable(decl, node.args):
            return None
        kinds = self._kinds(scope, binds)
        inner = {p: (f"({self.src(a, scope, binds)})", self.x.kind(a, kinds)) for p, a in zip(decl.params, node.args)}
        self._inlining += 1
        try:
            seen = self._open_seen(decl.body, {}, inner)
        finally:
            self._inlining -= 1
        return None if seen is None else f"({seen})"

    def _invariant_calls(self, node, varying: set, bound: frozenset = frozenset()) -> list:
        """The calls of defs in `node` whose value cannot change while `varying` names change:
        computed once before a loop over them instead of once per turn of it."""
        from ..check.walk import free_names
        program = self.x.program
        out: list = []

        def walk(node, bound):
            kind = type(node)
            if kind is ast.Call and node.func not in bound:
                decl = program.get(node.func, "def")
                if decl is not None:
                    names = {n for n, _, _ in free_names(node)} - {node.func}
                    if not names & (varying | bound):
                        out.append(node)
                        return
            elif kind is ast.Name and node.name not in bound and node.name not in varying:
                decl = program.get(node.name, "def")
                if decl is not None and not decl.params:
                    out.append(node)
                    return
            if kind is ast.ListComp or kind is ast.Aggregate:
                inner = bound | {node.var} | {m.var for m in node.more}
                for part in [node.source, node.cond, node.element] + [x for m in node.more for x in (m.source, m.cond)]:
                    if part is not None:
                        walk(part, inner)
            elif isinstance(node, tuple):
                for item in node:
                    walk(item, bound)
            elif kind is not ast.Template:
                for name in ast.parts_of(kind) or ():
                    walk(getattr(node, name), bound)

        walk(node, bound)
        return out

    def _known(self, node, scope: dict, binds: dict):
        """The value of `node` where the code being written runs, when it is known at load and
        is a plain value (a text, a whole number, a truth value or none): a literal; a local
        of `literals`; a constant of the ruleset (never changed by a game); an item of a
        constant map or list at a known key (`rises[way]`, the way known); whole numbers
        added, subtracted, multiplied or compared. _NOT_KNOWN otherwise, and wherever the
        computation would fail (it then fails as the game runs, where it did)."""
        if id(node) in self._hoisted:
            return _NOT_KNOWN
        if isinstance(node, (ast.StrLit, ast.IntLit, ast.BoolLit)):
            return node.value
        if isinstance(node, ast.NoneLit):
            return None
        if isinstance(node, ast.Name):
            name = node.name
            if name in binds:
                value = self.literals.get(binds[name][0], _NOT_KNOWN)
                return value if type(value) in _SCALARS else _NOT_KNOWN
            if name in scope or name not in self.x.consts:
                return _NOT_KNOWN
            value = self.x.consts[name]
            return value if type(value) in _SCALARS else _NOT_KNOWN
        if isinstance(node, ast.Index) and isinstance(node.obj, ast.Name):
            name = node.obj.name
            if name in binds or name in scope or name not in self.x.consts:
                return _NOT_KNOWN
            index = self._known(node.index, scope, binds)
            if index is _NOT_KNOWN:
                return _NOT_KNOWN
            try:
                value = _index(self.x.consts[name], index)
            except EvalError:
                return _NOT_KNOWN
            return value if type(value) in _SCALARS else _NOT_KNOWN
        if isinstance(node, ast.Binary) and node.op in _FOLDED:
            a = self._known(node.left, scope, binds)
            b = self._known(node.right, scope, binds) if type(a) is int else _NOT_KNOWN
            if type(b) is not int:   # whole numbers only (not truth values): no step, no failure
                return _NOT_KNOWN
            return _FOLDED[node.op](a, b)
        return _NOT_KNOWN

    def _IntLit(self, node, scope, binds):
        return repr(node.value)

    _StrLit = _BoolLit = _IntLit

    def _NoneLit(self, node, scope, binds):
        return "None"

    def _Name(self, node, scope, binds):
        name = node.name
        if name in binds:
            py, kind = binds[name]
            if py in self.literals:   # a local holding one known value here (_known)
                return repr(self.literals[py])
            # A native procedure's local may hold a zone reference (kind "zone", or "any"
            # for a parameter whose callers are unknown): as a value it means the contents.
            return f"_deref(c, {py})" if kind in ("zone", "any") else py
        if name in scope:
            if scope[name] in (None, "zone"):
                return f"_deref(c, e[{name!r}])"
            return f"e[{name!r}]"
        x = self.x
        if name in x.consts:
            return self.bind(x.consts[name])
        if name in x.program.enum_members or name in x.program.board_nodes:
            return repr(name)
        if name == "players":
            return "c.seats"
        decl = x.program.get(name)
        if decl is not None:
            if (decl.kind == "var" and decl.index is None) or decl.kind == "option":
                return f"{self.state('vars')}[{name!r}]"
            if decl.kind == "zone" and decl.index is None:
                return self._zone_read(repr(x.zones[name].keys['']))
            if decl.kind == "board" and x.boards[name].is_open:   # the cells in use, as they are now
                return f"list({self.state('grids')}[{name!r}]['cells'])"
            if decl.kind in ("board", "enum"):
                return self.bind(self.named_list(name))
            if decl.kind == "def" and not decl.params:
                return f"{self._def(decl, ())}(c)"
        from .expressions import CompileError
        raise CompileError(f"unknown name '{name}'", node.span)

    def _ListLit(self, node, scope, binds):
        return "[" + ", ".join(self.src(i, scope, binds) for i in node.items) + "]"

    def _MapLit(self, node, scope, binds):
        return "{" + ", ".join(f"{k!r}: {self.src(v, scope, binds)}" for k, _, v in node.entries) + "}"

    def _DataFile(self, node, scope, binds):
        return self.bind(node.value, "data")

    def _RandomExpr(self, node, scope, binds):
        source = self.src(node.source, scope, binds)
        if node.count is None:
            return f"c.random_one({source})"
        return f"c.random_many({self.src(node.count, scope, binds)}, {source})"

    def _generator(self, node, scope, binds, element_narrows: bool = False):
        """(last python var, `for … in … if …` clauses, element) of `e for x in xs where c …`.
        `element_narrows`: an item whose element is false counts for nothing (`any`), so
        the element may narrow the items as a `where` does (_table_narrowed)."""
        inner = dict(binds)
        clauses = []
        var = None
        for k, (name, source_node, cond_node) in enumerate([(node.var, node.source, node.cond)] + [
                (m.var, m.source, m.cond) for m in node.more]):
            self._in_iterable += 1
            try:
                source = f"_walk(c, {self.iterable(source_node, scope, inner)})"
            finally:
                self._in_iterable -= 1
            var = self._fresh()
            item_kind = _item_kind(self.x.kind(source_node, self._kinds(scope, inner)))
            inner = dict(inner)
            inner[name] = (var, item_kind)
            test = cond_node if cond_node is not None else node.element if element_narrows and k == 0 \
                and not node.more else None
            if test is not None:
                source = self._table_narrowed(name, source_node, test, source, scope, inner) or source
            cond = f" if {self.src(cond_node, scope, inner)}" if cond_node is not None else ""
            clauses.append(f"for {var} in {source}{cond}")
        element = self.src(node.element, scope, inner)
        return var, " ".join(clauses), element

    def _table_narrowed(self, name: str, source_node, test, walked: str, scope, inner) -> str | None:
        """The items of a comprehension over a fixed board's cells (`walked`, the source that
        charges them) narrowed to those where a table T has the value v, when the test that
        keeps an item (its `where`, or the element of an `any`) is `T(x) == v and …`: read
        from the table's index (State.cells_with), the items skipped being those the test
        refuses at its first part, which charges nothing and cannot fail there (its source
        mentions the context only to read the state; a board's cell is in its tables). v,
        which reads no item, is computed once, after the items are charged, as the first
        item computes it (a board has cells), failing where it fails. Not an element that
        narrows ahead of a second `for`, whose source each item computes and charges.
        `[x for x in board where colour(x) == red …]`, `any(colour(x) == c and empty(x)
        for x in board)`. None for anything else."""
        from ..check.walk import free_names
        from .indexes import fixed_board
        if fixed_board(self, source_node, scope, inner) is None:
            return None
        while isinstance(test, ast.Binary) and test.op == "and":
            test = test.left
        if not (isinstance(test, ast.Binary) and test.op == "=="):
            return None
        for side, other in ((test.left, test.right), (test.right, test.left)):
            if not (isinstance(side, ast.Call) and len(side.args) == 1 and isinstance(side.args[0], ast.Name)
                    and side.args[0].name == name and side.func not in scope and side.func not in inner):
                continue
            decl = self.x.program.get(side.func)
            if decl is None or decl.kind != "var" or not decl.per_index:
                continue
            board = self.x.boards.get(decl.index)
            if board is None or board.is_open or name in {n for n, _, _ in free_names(other)}:
                continue
            # Written out only for a test of this shape (every comprehension meets this check).
            if _STEPS_OR_CALLS.search(self.src(test, scope, inner)):   # `c.state` reads are no step
                return None
            cells = self.bind(self.fixed_tuple(self.x.boards[source_node.name].nodes), "fixed")
            return f"_cells_where(c, {walked}, {side.func!r}, {self.src(other, scope, inner)}, {cells})"
        return None

    def _ListComp(self, node, scope, binds):
        stepped = self._steps_each(node, scope, binds)
        if stepped is not None:
            return stepped
        indexed = indexed_search(self, node, scope, binds, False, self._list_comp)
        if indexed is not None:
            return indexed
        return self._lazy_sources(node, scope, binds, self._list_comp)

    def _list_comp(self, node, scope, binds):
        _, gen, element = self._generator(node, scope, binds)
        return f"[{element} {gen}]"

    def _lazy_sources(self, node, scope, binds, write):
        """`write(node, scope, binds)`, the source of a comprehension, where every search
        nested in its items (`count(h for h in own(p) where h.row == r) for r in rows`) whose
        source is a call of a def reading none of the comprehension's names is computed once
        per evaluation, at its first use (never sooner: a condition may guard it), instead of
        once per item: `_m_once` holds it, and charges its steps at every use as before."""
        found = self._invariant_sources(node, {node.var} | {m.var for m in node.more})
        if not found:
            return write(node, scope, binds)
        names = []
        self._once += 1   # a search made once per evaluation is written as it is (indexes.py)
        try:
            for n in found:
                name = f"_o{next(self._ids)}"
                names.append((name, self.src(n, scope, binds)))
                self._hoisted[id(n)] = f"{name}()"
        finally:
            self._once -= 1
        try:
            body = write(node, scope, binds)
        finally:
            for n in found:
                self._hoisted.pop(id(n), None)
        params = ", ".join(name for name, _ in names)
        values = ", ".join(f"_m_once(c, lambda: {value})" for _, value in names)
        return f"(lambda {params}: {body})({values})"

    def _invariant_sources(self, node, varying: set) -> list:
        """The sources of the comprehensions nested in `node`'s per-item parts that are calls
        of defs reading neither `varying` nor a name bound between (see _lazy_sources)."""
        hoisted = self._hoisted
        out: list = []

        def walk(node, bound, nested):
            kind = type(node)
            if kind is ast.ListComp or kind is ast.Aggregate:
                if nested:   # its source is computed once per item of the comprehension outside
                    calls = self._invariant_calls(node.source, varying, bound)
                    if len(calls) == 1 and calls[0] is node.source and id(node.source) not in hoisted:
                        out.append(node.source)
                    else:
                        walk(node.source, bound, True)
                inner = bound | {node.var} | {m.var for m in node.more}
                for part in [node.cond, node.element] + [x for m in node.more for x in (m.source, m.cond)]:
                    if part is not None:
                        walk(part, inner, True)
            elif isinstance(node, tuple):
                for item in node:
                    walk(item, bound, nested)
            elif kind is not ast.Template:
                for name in ast.parts_of(kind) or ():
                    walk(getattr(node, name), bound, nested)

        walk(node, frozenset(), False)
        return out

    def _steps_each(self, node, scope, binds, seen: bool = False) -> str | None:
        """`[step(B, x, d) for d in ["north", …]]` on an open grid, x a plain name: one call
        reading the cells around x once (opengrid.step_each) rather than a step per direction,
        with the same steps charged, the same cells and the same failures; `seen`: only gone
        through, the tuple opengrid.steps_seen remembers."""
        element, source = node.element, node.source
        if node.cond is not None or node.more or not isinstance(source, ast.ListLit) or not source.items \
                or not all(isinstance(item, ast.StrLit) for item in source.items):
            return None
        if not (isinstance(element, ast.Call) and element.func == "step" and len(element.args) == 3
                and isinstance(element.args[0], ast.Name) and isinstance(element.args[2], ast.Name)
                and element.args[2].name == node.var and isinstance(element.args[1], ast.Name)
                and element.args[1].name != node.var and self._builtin("step", scope, binds)):
            return None
        record = self.x.boards.get(element.args[0].name)
        cell = self.src(element.args[1], scope, binds)
        if record is None or not record.is_open or not _PLAIN.fullmatch(cell):
            return None
        directions = self.bind(tuple(item.value for item in source.items), "dirs")
        function = opengrid.steps_seen if seen else opengrid.step_each
        return f"{self.bind(function, 'og')}({self.bind(record, 'board')}, c, {cell}, {directions})"

    def _Aggregate(self, node, scope, binds):
        if node.func == "count":
            indexed = indexed_search(self, node, scope, binds, True, self._aggregate)
            if indexed is not None:
                return indexed
        return self._lazy_sources(node, scope, binds, self._aggregate)

    def _aggregate(self, node, scope, binds):
        var, gen, element = self._generator(node, scope, binds, element_narrows=node.func == "any")
        func = node.func
        # Every item is gone through by count, sum, max and min (their faults and steps are
        # the same either way): a list comprehension, which costs less an item than a generator.
        if func == "count":
            simple = node.cond is None and not node.more
            return f"len({self.src(node.source, scope, binds)})" if simple else f"len([0 {gen}])"
        if func == "sum":
            return f"sum([{element} {gen}])"
        if func in ("any", "all"):   # they stop at the first item that decides
            return f"{func}({element} {gen})"
        if func in ("max", "min"):
            return f"{func}([{element} {gen}], default=None)"
        if func == "first":
            return f"next(({element} {gen}), None)"
        if func == "last":
            return f"_last([{element} {gen}])"
        if func in ("argmax", "argmin"):
            return f"_argbest([({var}, {element}) {gen}], {func == 'argmax'})"
        from .expressions import CompileError
        raise CompileError(f"'{func}' does not take a generator", node.span)

    def _Call(self, node, scope, binds):
        name, x = node.func, self.x
        if name == "can" and name not in scope and name not in binds and x.program.get(name) is None:
            actions = tuple(a.name for a in node.args[1:])
            return f"c.can({self.src(node.args[0], scope, binds)}, {actions!r})"
        if name == "previous" and name not in scope and name not in binds and x.program.get(name) is None:
            # The argument, locals and all, evaluated against the game before the last move.
            state_locals, self.state_locals = self.state_locals, False
            try:
                return f"(lambda c: {self.src(node.args[0], scope, binds)})(c.previous())"
            finally:
                self.state_locals = state_locals
        args = [self.src(a, scope, binds) for a in node.args]
        if name not in scope and name not in binds:
            fam = x.zones.get(name)
            if fam is not None and fam.open:   # a cell not in use has an empty zone
                # The keys made so far: a cell met before is a plain lookup (model.MadeKeys).
                return f"{self.state('zones')}.get({self.bind(fam.keys.made, 'z')}[{args[0]}], [])"
            if fam is not None:
                return self._zone_read(self._zone_key(fam, args[0]))
            decl = x.program.get(name)
            if (decl is not None and decl.kind == "var" and decl.per_player) or (name == "score" and decl is None):
                return f"{self.state('pvars')}[_seat(c, {args[0]})][{name!r}]"
            if decl is not None and decl.kind == "var" and decl.per_index:
                if decl.index in x.boards and x.boards[decl.index].is_open:
                    return self._cell_read(name, decl.index, args[0])
                return f"{self.state('tables')}[{name!r}][{args[0]}]"
            if decl is not None and decl.kind == "def":
                kinds = self._kinds(scope, binds)
                arg_kinds = [x.kind(a, kinds) for a in node.args]
                kept = self._kept_call(decl, node, args, arg_kinds, scope.keys() | binds.keys())
                if kept is not None:
                    return kept
                if self._inlinable(decl, node.args):
                    inner = {p: (f"({a})", k) for p, a, k in zip(decl.params, args, arg_kinds)}
                    self._inlining += 1
                    try:
                        return f"({self.src(decl.body, {}, inner)})"
                    finally:
                        self._inlining -= 1
                bound = self._bound_inline(decl, node.args, args, arg_kinds)
                if bound is not None:
                    return bound
                return f"{self._def(decl, arg_kinds)}(c, {', '.join(args)})"
        if name in boards.FUNCTIONS:
            return self._board_call(node, args, scope, binds)
        if name == "text":
            return f"_text(c, {args[0]}, {self.x.kind(node.args[0], self._kinds(scope, binds))!r})"
        if name == "count":
            return f"len({args[0]})"
        if name == "range":
            return f"_range(c, {', '.join(args)})"
        if name in ("max", "min") and len(args) >= 2 and FUNCTIONS[name][2] in (_max, _min):
            return f"{name}({', '.join(args)})"   # of two or more, Python's own is builtins._max's
        if name in ("first", "last") and len(args) == 1 and not self._in_iterable:
            item = f"_e{next(self._ids)}"   # builtins._first and _last, without the call
            return f"({item}[{0 if name == 'first' else -1}] if ({item} := {args[0]}) else None)"
        if name in _WALKING and len(args) >= 1 and (name not in ("max", "min") or len(args) == 1):
            args[0] = self._walked(args[0])   # the builtin goes through every item: counted
        if name in FUNCTIONS:
            return f"{self.bind(FUNCTIONS[name][2], 'f')}({', '.join(args)})"
        from .expressions import CompileError
        raise CompileError(f"'{name}' cannot be called", node.span)

    def _bound_inline(self, decl, nodes, args, arg_kinds) -> str | None:
        """A call of a small def whose parameter is used more than once with an argument that
        is not a plain name (`filled(step(B, x, d))`), written as its body, each such argument
        computed first, in order, into a fresh local by an assignment expression:
        `((_a := arg) is _UNSET or body)` (no value of a game is `_UNSET`, so the test is
        false and the whole is the body's value). Arguments are computed once, before the
        body, as the call computes them, without the call. None where Python refuses an
        assignment expression (in a comprehension's source) or the def is not small."""
        if self._in_iterable or len(nodes) != len(decl.params) or not self._inlinable(decl, ()):
            return None
        simple = (ast.Name, ast.IntLit, ast.StrLit, ast.BoolLit, ast.NoneLit)
        inner, first = {}, []
        for p, n, a, k in zip(decl.params, nodes, args, arg_kinds):
            if isinstance(n, simple):
                inner[p] = (f"({a})", k)
            else:
                local = f"_a{next(self._ids)}"
                first.append(f"(({local} := {a}) is _UNSET)")
                inner[p] = (local, k)
        self._inlining += 1
        try:
            body = self.src(decl.body, {}, inner)
        finally:
            self._inlining -= 1
        return f"({' or '.join(first + [f'({body})'])})"

    # ── kept values (memo.py) ──
    def memo_analysis(self) -> memo.Analysis:
        analysis = self._memo_analysis
        if analysis is None:
            analysis = self._memo_analysis = memo.Analysis(self.x.program, self.x.zones, self.x.boards)
        return analysis

    def keeps_call(self, node, local) -> bool:
        """Whether a call of a def is written as a call of its kept values: the def is kept
        (memo.Analysis) and every argument is a name or a literal, which costs no step and
        cannot fail, so computing them before the body (as a call does) changes nothing
        against the body written out, where each is read where it is used; and at most one
        of them varies here (the seat asked aside). `local`: the names that mean no def
        here."""
        if not self.memo_enabled or not isinstance(node, ast.Call) or node.func in local:
            return False
        decl = self.x.program.get(node.func, "def")
        if decl is None or len(node.args) != len(decl.params) or not self.memo_analysis().kept(decl.name):
            return False
        varying = 0
        for arg in node.args:
            if isinstance(arg, ast.Name):
                if arg.name not in local and self.x.program.get(arg.name, "def") is not None:
                    return False   # a def without parameters: its call may charge steps
                varying += arg.name in local and arg.name != "player"
            elif not isinstance(arg, (ast.IntLit, ast.StrLit, ast.BoolLit, ast.NoneLit)):
                return False
        # Values are met again when their arguments come again: two names that vary apart
        # (two choices of a move) make a value per pair, rarely asked twice.
        return varying <= 1

    def kept_lines(self, node, scope: dict, binds: dict, pad: str) -> list | None:
        """Lines setting `ok` to the truth of a call of a kept def, the kept value looked up
        in place (no call when it is there: a listing meets it for every candidate), or
        None when the call is not written as one of kept values (then as before)."""
        if self.memo_verify or not self.keeps_call(node, scope.keys() | binds.keys()):
            return None
        decl = self.x.program.get(node.func, "def")
        kinds = self._kinds(scope, binds)
        arg_kinds = tuple(self.x.kind(a, kinds) for a in node.args)
        if any(k in ("zone", "any") for k in arg_kinds):
            return None
        function = self._memo_function(decl, arg_kinds)
        if function is None:
            return None
        args = [self.src(a, scope, binds) for a in node.args]
        # A seat is a whole number, a key as it is; any other name is checked to be one.
        checks = [f"type({a}) in _m_keyed_args" for a, n, k in zip(args, node.args, arg_kinds)
                  if isinstance(n, ast.Name) and k != "player" and a not in self.keyed_locals]
        number = re.match(r"_mw(\d+)_", function).group(1)
        plain_key = key = "(" + ", ".join([number] + args) + ")"
        if checks:
            key = f"{key} if {' and '.join(checks)} else None"   # None: never a key
        tail = ", _rl" if self._recording else ""
        if self.steps_later:   # prefers.py: the values met charge their steps in `acc`, added later
            call = f"_mf{number}(c{''.join(', ' + a for a in args)}{tail})"
            computed = [f"{pad}    c.steps += acc",   # what is computed counts from the steps so far,
                        f"{pad}    acc = 0",             # and never runs past the limit
                        f"{pad}    if c.steps > c.max_steps: c.runaway()",
                        f"{pad}    ok = not not ({call})",
                        f"{pad}    _me = c.state.memo.entries"]   # a state's first value kept makes its memo
            met = [f"{pad}    acc += _mh[1]", f"{pad}    ok = not not _mh[0]"]
            lookup = f"{pad}_mh = _me.get({key})"
            counted = near_test(self, node, args, plain_key, pad)   # indexes.py: from counts kept
            if counted is None:
                return [lookup, f"{pad}if _mh is None:"] + computed + [f"{pad}else:"] + met
            prologue, test, answer = counted
            self.prologue += prologue
            # A value computed may make room by forgetting every value kept, the index too:
            # the counts then answer no more in this loop.
            return ([lookup, f"{pad}if _mh is not None:"] + met + [f"{pad}elif {test}:"] + answer
                    + [f"{pad}else:"] + computed + [f"{pad}    _nr = None"])
        lined = line_test(self, node, args)   # indexes.py: from the lines kept, in a listing
        if lined is not None:
            test, answer = lined
            head = [f"{pad}if {test}:"] + [f"{pad}    {line}" for line in answer] + [f"{pad}else:"]
            pad += "    "
        return ([] if lined is None else head) + (
                [f"{pad}_mh = c.state.memo.entries.get({key})",
                 f"{pad}if _mh is None:",
                 f"{pad}    ok = not not (_mf{number}(c{''.join(', ' + a for a in args)}{tail}))",
                 f"{pad}else:",
                 f"{pad}    c.steps += _mh[1]",
                 f"{pad}    if c.steps > c.max_steps: c.runaway()"]
                + ([f"{pad}    _rl.extend(_mh[2])"] if self._recording else [])
                + [f"{pad}    ok = not not _mh[0]"])

    def _kept_call(self, decl, node, args, arg_kinds, local) -> str | None:
        """The source calling the kept values of `decl`, or None (written as before)."""
        if not self.keeps_call(node, local) or any(k in ("zone", "any") for k in arg_kinds):
            return None
        function = self._memo_function(decl, tuple(arg_kinds))
        if function is None:
            return None
        tail = ", _rl" if self._recording else ""   # inside another's body: its reads are its too
        return f"{function}(c{''.join(', ' + a for a in args)}{tail})"

    def _memo_function(self, decl, arg_kinds: tuple, written: dict | None = None) -> str | None:
        """The name of the function keeping the values of `decl` for arguments of these
        kinds (written once), or None when its body reads the state otherwise than the
        analysis proved (the def is then refused, and written as before). `written`: where
        the functions written are noted (the kept defs' by default; indexes.py's own)."""
        memos = self._memos if written is None else written
        key = (decl.name, arg_kinds)
        if key in memos:
            return memos[key]
        memos[key] = None   # while written: a call of itself is written as before
        number = next(self._ids)
        params = [f"_p{i}" for i in range(len(decl.params))]
        binds = {p: (py, k) for p, py, k in zip(decl.params, params, arg_kinds)}
        saved = (self._hoisted, self._nonempty, self.state_locals, self._partial, self._inner_memos,
                 self._in_iterable, self._recording, self._inlining)
        self._hoisted, self._nonempty, self.state_locals = {}, [], True
        self._partial = self._inner_memos = None
        self._in_iterable, self._recording, self._inlining = 0, True, 0
        try:
            body = self._memo_body(decl.body, binds)
        finally:
            (self._hoisted, self._nonempty, self.state_locals, self._partial, self._inner_memos,
             self._in_iterable, self._recording, self._inlining) = saved
        reads = [line for line in state_reads(body) if not line.lstrip().startswith("_s_zones ")]
        found = memo.forbidden("\n".join(reads + [body]))
        if found is not None:
            if written is None:
                self.memo_analysis().refuse(decl.name, f"its compiled form reads {found!r}")
            return None
        memos[key] = name = f"_mw{number}_{decl.name}"
        self.ns.setdefault("_m_Memo", memo.Memo)
        self.ns.setdefault("_m_keyed_args", memo.KEYED)
        self.ns.setdefault("_m_no_state", memo.NO_STATE)
        self.ns.setdefault("_m_verify", memo.verify)
        self.ns.setdefault("_m_read", memo.read)
        self.ns.setdefault("_m_EMPTY", memo.EMPTY)
        source = _memo_source(name, f"_mb{number}", number, params, reads, body, self.memo_verify)
        exec(self.compiled(source, f"<regnum kept def {decl.name}>"), self.ns)
        return name

    def _memo_body(self, node, binds) -> str:
        """The lines of a kept def's body computing its value into `v`: a search or a
        comparison (a truth value) written as loops (conditions.truth_lines, as a require
        is), anything else as one expression."""
        from .conditions import truth_lines
        if (isinstance(node, ast.Aggregate) and node.func in ("any", "all")) \
                or (isinstance(node, ast.Binary) and node.op in _COMPARE and isinstance(node.left, ast.Aggregate)):
            lines = truth_lines(self, node, {}, binds, 1, 0)
            return "\n".join(lines + ["    v = ok"]) + "\n"
        return f"    v = {self.src(node, {}, binds)}\n"

    def _inlinable(self, decl, args) -> bool:
        """Whether a call of this def may be replaced by its body: a small body, whose
        parameters are used once each or given plain names or literals (expressions have no
        effects, so only the cost of computing an argument twice is at stake)."""
        info = self._small.get(decl.name)
        if info is None:
            uses = {p: 0 for p in decl.params}
            _count_uses(decl.body, uses, 1)
            info = self._small[decl.name] = (_size(decl.body) <= _INLINE_SIZE, uses)
        small, uses = info
        if not small or self._inlining > _INLINE_DEPTH:
            return False
        simple = (ast.Name, ast.IntLit, ast.StrLit, ast.BoolLit, ast.NoneLit)
        return all(uses[p] <= 1 or isinstance(a, simple) for p, a in zip(decl.params, args))

    def _def(self, decl, arg_kinds) -> str:
        """The namespace name of the Python function compiled from a `def` (once)."""
        known = self._defs.get(decl.name)
        if known is not None:
            return known
        fname = f"_d{next(self._ids)}_{decl.name}"
        self._defs[decl.name] = fname
        params = [f"_p{i}" for i in range(len(decl.params))]
        kinds = list(arg_kinds) + [None] * (len(decl.params) - len(arg_kinds))
        binds = {p: (py, k) for p, py, k in zip(decl.params, params, kinds)}
        # A def is compiled once, for every caller: values hoisted out of the lister or
        # filter being written when it is first called are locals there, not here.
        # Nor is a zone its first caller knows not to be empty known here (its parameters
        # are written alike in every def: `_p0`).
        hoisted, self._hoisted = self._hoisted, {}
        nonempty, self._nonempty = self._nonempty, []
        state_locals, self.state_locals = self.state_locals, False
        try:
            body = self.src(decl.body, {}, binds)
        finally:
            self._hoisted = hoisted
            self._nonempty = nonempty
            self.state_locals = state_locals
        source = f"def {fname}(c{''.join(', ' + p for p in params)}):\n    return {body}\n"
        exec(self.compiled(source, f"<regnum def {decl.name}>"), self.ns)
        return fname

    def _zone_key(self, fam, index: str) -> str:
        """The source of the key of the zone of a (fixed) family at `index`. The family's keys
        are a dict subclass (its `__missing__` says which zone does not exist), and `[]` of a
        dict subclass goes through a generic slot that looks the method up and calls it: a
        plain copy of the keys is read by `get` first (cheaper, measured), the family's own
        lookup only for an index the copy lacks (which raises as before). The index is then
        computed again, so this is only for an index that mentions no context (it charges no
        step). Written for a subscript's brackets (no parentheses)."""
        keys = self.bind(fam.keys, "z")
        plain = self._plain_keys.get(id(fam.keys))
        if plain is None or plain[0] is not fam.keys:
            copy = dict(fam.keys)
            plain = self._plain_keys[id(fam.keys)] = (fam.keys, self.bind(copy, "zk"), all(copy.values()))
        _, copy, truthy = plain
        if truthy and not re.search(r"\bc\b", index):
            return f"{copy}.get({index}) or {keys}[{index}]"
        return f"{keys}[{index}]"

    def _zone_read(self, key: str) -> str:
        """The source reading the zone of key `key` (a subscript's text); in the body of a kept
        def (memo.py), the key is first noted among what the evaluation read (`_ra`, a
        list's append, which gives None)."""
        if not self._recording:
            return f"{self.state('zones')}[{key}]"
        if self._in_iterable:   # no assignment expression there: a call of a helper
            text = f"_m_read(_rl, _s_zones, {key})"
        else:
            text = f"(_ra(_k := {key}) or _s_zones[_k])"
        self._recorded[text] = f"_s_zones[{key}]"
        return text

    def _board_call(self, node, args, scope, binds):
        board = node.args[0]
        if not isinstance(board, ast.Name) or board.name not in self.x.boards:
            from .expressions import CompileError
            raise CompileError(f"{node.func}() needs a board name as its first argument", node.span)
        record = self.x.boards[board.name]
        if record.is_open:   # computed from the coordinates, within the reach (opengrid.py)
            function = self.bind(opengrid.query(record, node.func, len(args)), "og")
            return f"{function}({self.bind(record, 'board')}, c{''.join(', ' + a for a in args[1:])})"
        if node.func in ("neighbours", "adjacent"):  # the hottest two, inlined
            adjacency = self.bind(record.adjacency, "adj")
            if node.func == "neighbours":
                return f"list({adjacency}.get({args[1]}, ()))"
            return f"({args[2]} in {adjacency}.get({args[1]}, ()))"
        way = self._known(node.args[2], scope, binds) if node.func == "step" and len(args) in (3, 4) else _NOT_KNOWN
        if type(way) is str and way in record.steps and len(args) == 3:   # one step in a direction named in the rule
            if not isinstance(node.args[2], ast.StrLit):   # or known where this runs (_known)
                self.folds += 1
            return f"{self.bind(record.steps[way], 'way')}.get({args[1]})"
        if node.func == "directions" and len(args) == 1:   # a board's directions never change
            return f"list({self.bind(record.directions, 'dirs')})"
        if node.func == "on_edge" and len(args) == 2:
            return f"({args[1]} in {self.bind(record.edge, 'edge')})"
        steps_known = self._known(node.args[3], scope, binds) if node.func == "step" and len(args) == 4 else _NOT_KNOWN
        if type(steps_known) is int and 1 <= steps_known <= 3 and record.steps:
            # n steps, n known where this runs: n lookups in the direction's table (a cell off
            # the board is none, which no table holds), or boards.step, which says why not.
            if type(way) is str and way in record.steps:
                if not isinstance(node.args[2], ast.StrLit):   # known where this runs (_known)
                    self.folds += 1
                table = self.bind(record.steps[way], "way")
                return f"{table}.get(" * steps_known + args[1] + ")" * steps_known
            if _PLAIN.fullmatch(args[2]):
                table = f"{self.bind(record.steps, 'ways')}[{args[2]}]"
                function = self.bind(boards.step, "bf")
                return (f"({f'{table}.get(' * steps_known}{args[1]}{')' * steps_known} "
                        f"if {args[2]} in {self.bind(record.steps, 'ways')} "
                        f"else {function}({self.bind(record, 'board')}, {args[1]}, {args[2]}, {args[3]}))")
        if node.func == "step" and len(args) == 3 and record.steps:
            # A direction known only as the game runs: its table read inline when it names
            # one, or boards.step, which says why it does not (a plain name is read twice at
            # no cost; anything else is computed once, by the helper).
            steps = self.bind(record.steps, "ways")
            if _PLAIN.fullmatch(args[2]):
                function = self.bind(boards.step, "bf")
                return (f"({steps}[{args[2]}].get({args[1]}) if {args[2]} in {steps} "
                        f"else {function}({self.bind(record, 'board')}, {args[1]}, {args[2]}))")
            function = self.bind(boards.step_once, "bf")
            return f"{function}({steps}, {self.bind(record, 'board')}, {args[1]}, {args[2]})"
        function = self.bind(boards.FUNCTIONS[node.func][2], "bf")
        call = f"{function}({self.bind(record, 'board')}{''.join(', ' + a for a in args[1:])})"
        if node.func in _SEARCHING:   # a search of the board: its size is work done
            return f"(c.charge({len(record.nodes)}) or {call})"
        return call

    def _cell_read(self, name: str, board: str, cell: str) -> str:
        """A variable per cell of an open grid. A cell given by a plain name (a local, read
        more than once at no cost) is looked up inline: no call when the cell is in use, or
        is a text already known to be a cell (boards.PARSED); since the forty-eighth step a
        computed one too, put in a local first, save where Python refuses an assignment
        expression (a comprehension's source)."""
        if not _PLAIN.fullmatch(cell):
            if self._in_iterable or not CELLS_COMPUTED_INLINE:
                return f"_cell_value(c, {name!r}, {board!r}, {cell})"
            # A cell computed (`height(step(board, c, way, i))`): into a fresh local first, by an
            # assignment expression (no value of a game is _UNSET), then looked up as a local.
            local = f"_a{next(self._ids)}"
            return f"((({local} := {cell}) is _UNSET) or {self._cell_read(name, board, local)})"
        table = f"{self.state('tables')}[{name!r}]"
        start = f"{self.state('grids')}[{board!r}]['start'][{name!r}]"
        return (f"({table}[{cell}] if {cell} in {table} else {start} if {cell} in _cells "
                f"else _cell_start(c, {name!r}, {board!r}, {cell}))")

    def _Attribute(self, node, scope, binds):
        obj = self.src(node.obj, scope, binds)
        if self.x.kind(node.obj, self._kinds(scope, binds)) == "piece":
            return f"{self.state('pieces')}[{obj}][{node.name!r}]"
        if node.name in ("row", "col"):
            return f"_{node.name}(c, {obj})"
        return f"_attr(c, {obj}, {node.name!r})"

    def _Index(self, node, scope, binds):
        known = self._known(node, scope, binds)
        if known is not _NOT_KNOWN:
            self.folds += 1
            return repr(known)
        obj = self.src(node.obj, scope, binds)
        if isinstance(node.index, ast.IntLit) and node.index.value == 0:
            for zone, bound in reversed(self._nonempty):
                if zone == obj:
                    # The first piece of a zone known not to be empty: `owner_of(h)`. Read
                    # from the name the test bound it to (_IfExpr); where the test could bind
                    # none, read again (in a kept def's body, without noting its key twice).
                    if bound is not None:
                        return f"{bound}[0]"
                    return f"{self._recorded.get(obj, obj) if self._recording else obj}[0]"
        return f"_index({obj}, {self.src(node.index, scope, binds)})"

    def _Unary(self, node, scope, binds):
        operand = self.src(node.operand, scope, binds)
        return f"(not {operand})" if node.op == "not" else f"(-{operand})"

    def _Binary(self, node, scope, binds):
        zone = self._counted_zone(node, scope, binds)
        if zone is not None:   # `count(place(c)) == 0`: whether the zone is empty, without len()
            zone = self._open_zone_tested(node.left.args[0], zone)
            return f"(not {zone})" if node.op == "==" else f"(not not {zone})"
        if node.op in _FOLDED:
            known = self._known(node, scope, binds)
            if known is not _NOT_KNOWN:
                self.folds += 1
                return repr(known)
        a, b, op = self.src(node.left, scope, binds), self.src(node.right, scope, binds), node.op
        if op in ("==", "!=") and (isinstance(node.left, ast.NoneLit) or isinstance(node.right, ast.NoneLit)):
            # Against none, equality is identity for every value a game holds (no type of
            # them defines `==` otherwise), and it charges nothing: `is` skips the rich
            # comparison's round of both types' methods.
            return f"({a} {'is' if op == '==' else 'is not'} {b})"
        if (op in ("+", "*") or op in _COMPARE) and not self._cheap(node, scope, binds):
            if op in _COMPARE:
                return f"_compare(c, {a}, {b}, {op!r})"
            return f"{'_add' if op == '+' else '_mul'}(c, {a}, {b})"
        if op in ("and", "or") or op in _COMPARE or op in _ARITH:
            return f"({a} {op} {b})"
        if op == "//":
            return f"_div({a}, {b})"
        if op == "%":
            return f"_mod({a}, {b})"
        if op in ("in", "not in"):
            fixed = self._fixed_items(b)
            test = f"_in_fixed(c, {a}, {fixed[0]}, {fixed[1]})" if fixed is not None else f"_in(c, {a}, {b})"
            return test if op == "in" else f"(not {test})"
        from .expressions import CompileError
        raise CompileError(f"unknown operator '{op}'", node.span)

    def _walked(self, source: str) -> str:
        """`_walk_items(c, source)`, the steps of a builtin going through a list; for a list
        bound at load (a constant: an enum's members, `next(kinds, k)`), the same steps
        counted now, once, rather than at every call by measuring its items again."""
        name = source.strip("()")
        value = self.ns.get(name) if WALKED_AT_LOAD and re.fullmatch(r"_k\d+", name) else None
        if type(value) is not list:
            return f"_walk_items(c, {source})"
        charge = _WalkCharge()
        _walk_items(charge, value)
        if charge.steps == len(value):
            return f"_walk(c, {source})"
        return f"_charged(c, {charge.steps}, {source})"

    def _fixed_items(self, source: str) -> tuple[str, int] | None:
        """(name of its set, its length) when `source` reads a list bound at load (a constant,
        never changed by a game) whose items are all texts, whole numbers, truth values or
        none: `x in buildable` is then one lookup (helpers._in_fixed). None otherwise."""
        name = source.strip("()")
        value = self.ns.get(name) if re.fullmatch(r"_k\d+", name) else None
        if type(value) is not list or not all_plain(value):
            return None
        known = self._fixed_sets.get(id(value))
        if known is None or known[0] is not value:
            known = self._fixed_sets[id(value)] = (value, self.bind(frozenset(value), "items"))
        return known[1], len(value)

    def _open_zone_tested(self, zone, source: str) -> str:
        """The source of an open grid's zone whose emptiness only is tested: a cell not in use
        reads an empty tuple, not a new empty list (`free(c)`, judged for every cell near
        a candidate)."""
        if isinstance(zone, ast.Call) and id(zone) not in self._hoisted and source.endswith(", [])") \
                and self.x.zones.get(zone.func) is not None and self.x.zones[zone.func].open:
            return source[:-len(", [])")] + ", ())"
        return source

    def _counted_zone(self, node, scope, binds) -> str | None:
        """The source of Z in `count(Z) == 0`, `!= 0` or `> 0` where Z is a zone (a list,
        always): the test is then its emptiness. None for anything else."""
        if node.op not in ("==", "!=", ">") or not (isinstance(node.right, ast.IntLit) and node.right.value == 0):
            return None
        count = node.left
        if not (isinstance(count, ast.Call) and count.func == "count" and len(count.args) == 1
                and self._builtin("count", scope, binds)):
            return None
        zone = count.args[0]
        x = self.x
        if isinstance(zone, ast.Call) and zone.func in x.zones and self._builtin(zone.func, scope, binds):
            return self.src(zone, scope, binds)
        if isinstance(zone, ast.Name) and zone.name in x.zones and x.zones[zone.name].index is None \
                and self._builtin(zone.name, scope, binds):
            return self.src(zone, scope, binds)
        return None

    def _builtin(self, name: str, scope, binds) -> bool:
        """Whether `name` means what the language gives it here, not a local or a def."""
        return name not in scope and name not in binds and self.x.program.get(name, "def") is None

    def _cheap(self, node, scope, binds) -> bool:
        """Whether an operator's work is bounded by itself: the checker proved it (numbers
        added, a comparison with a number, seat, cell, member or literal), or one side is a
        seat or a piece here (a number, whatever the other side is)."""
        known = self.x.program.cheap_ops.get(id(node))
        if known is not None and known[1]:
            return True
        kinds = self._kinds(scope, binds)
        return any(self.x.kind(side, kinds) in ("player", "piece") for side in (node.left, node.right))

    def _IfExpr(self, node, scope, binds):
        zone = self._counted_zone(node.cond, scope, binds) if isinstance(node.cond, ast.Binary) else None
        # `if count(Z) == 0 then … else Z[0]…`: Z is not empty in the branch the test leaves it.
        nonempty_in = None if zone is None else node.otherwise if node.cond.op == "==" else node.then
        bound = None
        if zone is not None and not self._in_iterable:
            # The zone the test reads is bound to a fresh name (an assignment expression, which
            # Python refuses only in a comprehension's source), and that branch reads its
            # first piece from it: the zone's key is not computed and looked up twice. The
            # test is the one _Binary writes, the zone read once instead of twice.
            bound = f"_e{next(self._ids)}"
            tested = f"({bound} := {self._open_zone_tested(node.cond.left.args[0], zone)})"
            cond = f"(not {tested})" if node.cond.op == "==" else f"(not not {tested})"
        else:
            cond = self.src(node.cond, scope, binds)
        branches = []
        for branch in (node.then, node.otherwise):
            if branch is nonempty_in:
                self._nonempty.append((zone, bound))
            try:
                branches.append(self.src(branch, scope, binds))
            finally:
                if branch is nonempty_in:
                    self._nonempty.pop()
        return f"({branches[0]} if {cond} else {branches[1]})"


# Whether a variable per cell of an open grid read at a computed cell is looked up inline
# (CodeGen._cell_read); False: through helpers._cell_value (tests compare the two).
CELLS_COMPUTED_INLINE = True

# Whether a `range` with bounds known at load that is only gone through is made at load
# (CodeGen._known_range), when it holds KNOWN_RANGE items at most; False: made at every use
# (tests compare the two).
RANGES_AT_LOAD = True
KNOWN_RANGE = 4096

# Whether a builtin going through a list bound at load (`next(kinds, k)`, an enum's members)
# has the steps it charges counted at load, once (CodeGen._walked); False: measured at every
# call (tests compare the two).
WALKED_AT_LOAD = True


class _WalkCharge:
    """What `_walk_items` reads and writes of a context, to learn at load the steps it would
    charge for a list that never changes (CodeGen._walked)."""
    steps = 0
    max_steps = float("inf")

    def charge(self, n: int) -> None:
        self.steps += n


# Builtins that go through every item of their (first) argument, and board queries that
# search the whole board: both count that work against the step limit.
_WALKING = ("sum", "max", "min", "any", "all", "index", "next", "reversed", "sorted", "unique")
_SEARCHING = ("connected", "groups", "distance")

# The source of a plain local, maybe in parentheses: reading it more than once costs nothing.
_PLAIN = re.compile(r"\(*[A-Za-z_][A-Za-z0-9_]*\)*")
# A mention of the context in a source, other than a read of the state's parts: a step
# charged, a helper called, a limit checked.
_STEPS_OR_CALLS = re.compile(r"\bc\b(?!\.state\.(?:tables|zones|vars|pvars|pieces)\b)")

_INLINE_SIZE = 40     # syntax nodes

# What CodeGen._known computes at load: plain values, and operators on whole numbers.
_NOT_KNOWN = object()
_SCALARS = (str, int, bool, type(None))
_FOLDED = {"+": operator.add, "-": operator.sub, "*": operator.mul, "==": operator.eq, "!=": operator.ne,
           "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_INLINE_DEPTH = 8


def _memo_source(name: str, body_name: str, number: int, params: list, reads: list, body: str,
                 verify: bool) -> str:
    """The source of a kept def: its body reading zones through a recorder (`body_name`);
    the function that computes, records and keeps a value not kept yet (`_mf…`, which a
    listing calls once it looked the value up in place, CodeGen.kept_lines); and the
    function other callers call (`name`), which meets a value kept for the same arguments
    (charging its steps again, and adding its zones to an enclosing kept def's reads) or
    has it computed."""
    args = "".join(", " + p for p in params)
    keyed = " and ".join(f"type({p}) in _m_keyed_args" for p in params)
    key = "(" + ", ".join([str(number)] + params) + ("," if not params else "") + ")"
    missed = f"_mf{number}"
    lines = [f"def {body_name}(c, _s_zones, _rl{args}):", "    _ra = _rl.append"] + reads + [body.rstrip("\n"),
             "    return v",
             f"def {missed}(c{args}, _zr=None):",
             "    st = c.state",
             "    if st is None:",
             f"        return {body_name}(c, _m_no_state, []{args})",
             "    r = []",
             "    s0 = c.steps",
             f"    v = {body_name}(c, st.zones, r{args})",
             "    if _zr is not None: _zr.extend(r)",
             f"    if {keyed}:",
             "        m = st.memo",
             "        if m is _m_EMPTY:",
             "            m = st.memo = _m_Memo()",
             f"        m.keep({key}, v, c.steps - s0, r)",
             "    return v",
             f"def {name}(c{args}, _zr=None):",
             "    st = c.state",
             f"    if st is not None and {keyed}:",
             f"        hit = st.memo.entries.get({key})",
             "        if hit is not None:",
             "            st.memo.hits += 1"]
    if verify:
        lines += ["            s0 = c.steps",
                  f"            _m_verify(hit[0], hit[1], {body_name}(c, st.zones, []{args}), c.steps - s0)",
                  "            c.steps = s0"]
    lines += ["            c.steps += hit[1]",
              "            if c.steps > c.max_steps: c.runaway()",
              "            if _zr is not None: _zr.extend(hit[2])",
              "            return hit[0]",
              f"    return {missed}(c{args}, _zr)"]
    return "\n".join(lines) + "\n"


def _count_uses(node, uses: dict, weight: int) -> None:
    """How often each parameter's value would be computed if the argument were pasted in its
    place: a use inside a comprehension's element or condition (or a later clause's source)
    counts as many (2), since it runs once per item."""
    if isinstance(node, ast.Name):
        if node.name in uses:
            uses[node.name] += weight
        return
    if isinstance(node, (ast.ListComp, ast.Aggregate)):
        _count_uses(node.source, uses, weight)
        for part in [node.cond, node.element] + [x for m in node.more for x in (m.source, m.cond)]:
            if part is not None:
                _count_uses(part, uses, 2)
        return
    if isinstance(node, ast.Call):
        if node.func in uses:
            uses[node.func] += weight
    if isinstance(node, tuple):
        for item in node:
            _count_uses(item, uses, weight)
    elif type(node) is not ast.Template:
        for name in ast.parts_of(type(node)) or ():
            _count_uses(getattr(node, name), uses, weight)


def _size(node) -> int:
    """The number of syntax nodes of an expression."""
    if isinstance(node, tuple):
        return sum([_size(x) for x in node])
    parts = ast.parts_of(type(node))
    if parts is not None and type(node) is not ast.Template:
        return 1 + sum([_size(getattr(node, f)) for f in parts])
    return 0


def _item_kind(kind):
    """The kind of what iterating over a value of `kind` gives."""
    return {"players": "player", "pieces": "piece", "zone": "piece"}.get(kind)
