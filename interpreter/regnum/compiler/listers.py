"""One generated Python function per action that lists its legal moves.

Listing legal moves is a third to four fifths of the time of a random game, and the
generic walk (decisions._enumerate_fast) pays for being
generic on every choice: a recursive call per parameter, two dict copies per choice, a
cache key per domain, a filter call per parameter. The function generated here does the
same work as straight-line code: one `for` loop per parameter, the requires written as
`if`s inside it, the choices and the environment held in locals and one dict.

It must list exactly what the generic walk lists, in the same order, with the same
coverage counts, step charges, limits and faults, because the walk is the reference it
is tested against and the fallback a fault takes is decided by *where* the fault
happens. So it keeps the walk's order of work:

- each parameter's domain is computed where the walk computes it (one that no game can
  change, such as a fixed board's cells, was computed at load: `Param.fixed`): the first
  parameter's once; one that reads no earlier parameter once per listing, when first needed (never
  sooner: the loops above may offer no choice, and then the walk never computes it); any
  other once per combination of the values it reads, kept in a table keyed by them as the
  walk's cache is (values that cannot be keys: computed each time, as the walk does);
- every choice of a parameter is charged one step before its requires are checked (asked
  only whether a move exists, a lister stops at the first move of the last parameter's
  batch: its choices are charged, the requires of the choices after it are not checked);
- the requires of a parameter are checked for all its choices before the first choice is
  extended (a require that faults on a later choice falls back before any deeper work);
- a def call in a require that does not read the parameter is computed at its first use
  (a condition before it may guard it) and kept while the parameters it reads keep their
  values: once per listing when it reads none (`black(current)`), once per choice of the
  last one it reads otherwise — or, when it does not read some earlier parameter and
  charges no step, once per listing for each of the values it reads (`_kept_by_values`:
  `free(at)` for each value played). Calls inside the bodies of the defs a require calls, when
  they read none of that def's parameters (a value of the state alone, whatever the
  arguments), are kept the same way for the whole listing. The generic walk's filters
  compute such a call once per batch of choices: a lister may therefore charge fewer
  steps than the walk, never more, and lists the same moves.
- a call of a def or a board function that the requires of one parameter make more than
  once with the same arguments (`tile(at, way)` in three requires) is computed once per
  choice, at its first use.
- the choices of the last parameter that pass its requires are the same whenever its
  domain is the same list and the earlier choices its requires read have the same values
  (the requires are pure, and a listing changes nothing): when they do not read some
  earlier parameter, the passing choices are kept, keyed by the domain list's identity and
  those values, and met again without judging them again; their exclusions are counted
  again each time, their choices charged again, the steps the requires themselves charge
  not (fewer steps, never more). A domain computed per value of the choices it reads keeps
  the choices it made of a list it met before (`if … then near(x) else board_cells`).
- a field of the piece an earlier parameter chose, read by the requires of later ones
  (`p.kind` in every require over the cells), is read once per choice of that piece. The
  read may fail where the requires would never have made it (a condition before it guards
  it): the listing is then handed to the generic walk, with the steps it had before, so
  that what it lists, counts, charges and raises is the walk's own.
- a domain is written into the lister (Param.domain's expression, its earlier choices read
  from their locals): no call, no environment to fill; one kept per value is looked up by
  `get` (a missing key raising KeyError cost more than the lookup); a comprehension keeping
  items of a list of distinct texts (a fixed board's cells or neighbours, an enum) is not
  de-duplicated again.
- the last loop, over a few plain values known at load (`way in ["up_left", "up_right"]`),
  is written out once per value when that lets the code generator compute something at
  load (CodeGen._known: a step in that direction read from the board's table, `rises[way]`);
  each copy is a loop over its one value, so that the work and its order stay the loop's.
- a loop over a fixed board's cells whose requires hold `T(x) == v` (T a variable per
  cell) goes only through the cells where T is v, read from an index of the table
  (State.cells_with), when nothing before that require can fail or charge a step for the
  cells it skips (`_narrowed`): the same moves, faults and steps. With coverage counted,
  the cells skipped are counted under the require that would refuse each: that one, or
  the one zone test before it (`free(x)`), whose refusals are read from an index of the
  zones' emptiness (`_counted_apart`, engine/memo.refused_apart). The cells the index
  gave all pass a lone `T(x) == v`, which the loop then does not judge again (`nw{i}`),
  coverage counted or not: it reads only the state and charges nothing, so that changes
  nothing else.
- so does a loop whose domain is a fixed board's cells at times only (`if tile.kind ==
  jumper then near(x) else cells`), when it is those cells, without coverage: the board's
  cells are read as one list (CodeGen.named_list), so the domain is known by its identity
  and is its own choices. Every narrowing over a board reads one tuple of its cells
  (CodeGen.fixed_tuple), so a table's index of them is built once.
- a loop over a fixed board's cells whose require is `T(x) in K and L(x, player)`, K a
  constant list and L a search of full lines the lines kept answer, goes only through the
  cells with a full line (`_lined`): the cells it skips would have charged steps at that
  require, and engine/memo.lined_cells charges them at once, so the steps stay those of
  the full loop; with coverage counted, it counts them at once too (`_lined_counted`);
  asked by a `can` that keeps its listing, those after the first move are owed to it
  (`_lined_first`), so that it notes what a listing stopped there charges.

A require of a parameter that is, or holds at the top of its and/or/not/if or in a def
written as its body, an `any`/`all` of a comprehension or a `count` of one compared, is
written as statements and loops (conditions.py, as a prefer is): the generator and the call of
any() per choice cost more than the few items they judge. The loops charge each source
where the generator would and stop where it would (a count goes through every item), so
the moves, counts, steps and faults stay those of the expression.

An action falls back to the generic walk (Action.lister is None) when its function
cannot be compiled: Python refuses more than 20 nested blocks, so an action with more
than 20 parameters (fewer when some domains are cached by the values they read: each
such cache is a `try`), or a require the code generator cannot nest that deep.

Each prefer gets a generated function too (prefers.py, Clause.narrow): it judges the
moves once they are listed, whichever way, and keeps what decisions._narrow keeps. An
action whose one prefer groups its moves by every parameter but the last gets, at its first
listing without coverage, a second lister (preferring_lister) that has the prefer judge each
round of the last loop as soon as it is listed: a move the prefer drops is never made.
"""
from __future__ import annotations

import re
from typing import Callable

from ..check.walk import free_names
from .. import ast
from .codegen import _size, state_reads, table_reads
from . import hoists
from .conditions import _STEPLESS_READS, loops_pay, truth_lines
from .expressions import CompileError
from .indexes import fixed_board
from ..engine.memo import emptiness

# Whether a lister counts apart the choices it skips with coverage counted (_counted_apart);
# False: it goes through every choice then (tests compare the two).
COUNT_APART = True
# Whether a lister goes only through the cells with a full line where a require reads the
# lines kept (_lined); False: through every cell (tests compare the two).
LINED = True
# Whether a lister narrows a domain that is a list known at load only at times, when it is
# that list (_fixed_branch); False: through every choice of such a domain (tests compare).
KNOWN_BRANCH = True
# Whether a call kept per choice of a parameter is kept for the listing by the values it reads
# when it does not read some earlier parameter (_kept_by_values); False: computed again for
# each value of that one (tests compare the two).
KEPT_BY_VALUES = True
# Whether a search of a require that reads no choice of its loop (`any(x.kind == k for x in
# pool(player))` in a require over `item`) is computed once, at its first use, as a def's call
# is (_invariant_searches); False: judged again for every choice (tests compare the two).
SEARCHES_KEPT = True
# Whether a loop narrowed by `T(x) == v` (State.cells_with) skips judging that require of the
# choices the index gave, which all pass it (_narrowed: nw{i}); False: judged again (tests
# compare the two).
IMPLIED = True
# Whether the choices of a parameter over a zone (`card in hand(player)`) are made by
# decisions._zone_choices (`_m_choices`), which knows its items are pieces; False: by
# _piece_choices (`_m_piece_choices`), which checks each, as any other domain's (tests compare
# the two).
ZONE_CHOICES = True
_RESET = "#kept-from-level-"   # a marker line, replaced when the function is written
# The comment ending each line that judges a require, with the require's number in the
# lister's `spans`: what a profiler reads to tell a listing's time by the requires' lines.
_SPAN_TAG = "  #@require-"
# The comment ending each other line a parameter's domain or loop wrote, with its number in
# the lister's `parts`: the profiler tells the rest of a listing's time by parameter so.
_PART_TAG = "  #@part-"
_ANY_TAG = hoists.TAG   # either
_TAGGED = "  #@"   # in a line that has a tag (a literal holding it leaves its line untagged: no harm)
_UNROLLED = 4   # values at most of a last loop written out once per value (_Writer._unrolled)


def tagged_lines(source: str, spans: list, parts: list) -> tuple[dict, dict]:
    """What the lines of a lister's source (1 for its first) were written for, read from the
    comments `_tag` and `_tag_part` wrote (`regnum.profiler` gives a listing's samples so):
    line -> the span of the require it judges; line -> (the span of the parameter, what of it
    the line computes: "the domain of at", "the loop over at")."""
    requires, params = {}, {}
    for number, line in enumerate(source.split("\n"), 1):
        if _TAGGED in line:   # cheaper than a search of every line
            found = _ANY_TAG.search(line)
            if found is not None:
                tag = found.group()
                if tag.startswith(_SPAN_TAG):
                    requires[number] = spans[int(tag[len(_SPAN_TAG):])]
                else:
                    params[number] = parts[int(tag[len(_PART_TAG):])]
    return requires, params


def _tagged(line: str, tag: str) -> str:
    """`line` (one or more lines of source) with `tag` ending each of them."""
    if "\n" not in line:
        return line + tag
    return "\n".join(one + tag for one in line.split("\n"))


def groups_by_last_loop(params: list, prefer) -> bool:
    """Whether a prefer's groups are the rounds of a listing's last loop: its `per` names
    every parameter but the last, in order (and no name is repeated)."""
    names = [p.name for p in params]
    return bool(names) and len(set(names)) == len(names) and [n for n, _ in prefer.per] == names[:-1]


def preferring_lister(codegen, action_name: str, params: list, clauses: list, scope: dict,
                      domains: list | None, prefer) -> Callable | None:
    """`f(ctx, player, None, stop)` -> the moves move_lister lists, narrowed by the action's
    one prefer, whose `per` names every parameter but the last: listed as the baseline of a
    game lists them, each group (a round of the last loop) judged by the prefer as soon as
    it is listed (prefers.group_narrower), so that a move the prefer drops is never made.
    For listings without coverage (`hits` None); None when the prefer is of another shape.

    It lists, judges and charges what the lister and then the narrowing would, groups in
    the same order: the same moves and the same steps. What it raises may differ, or come
    earlier (a prefer that faults is judged before the listing is done): any exception
    means "list the plain way" (decisions.listed, decisions._exists_keeping), which then
    does what it always did; so does the lister's hand-over to the generic walk. `.plain`
    and `.narrow` are the lister and the narrowing it stands for: a caller that finds
    others in the action (a test that wrapped them) lists the plain way."""
    from .prefers import group_narrower   # prefers.py imports this module
    found = group_narrower(codegen, action_name, params, prefer, scope)
    if found is None:
        return None
    try:
        return _Writer(codegen, action_name, params, clauses, scope, domains, found).function()
    except (SyntaxError, RecursionError, MemoryError, CompileError):
        return None


def move_lister(codegen, action_name: str, params: list, clauses: list, scope: dict,
                domains: list | None = None) -> Callable | None:
    """`f(ctx, player, hits, stop)` -> [move…] for one action, or None (fallback); a move is
    the flat tuple decisions.move_shape reads (the values chosen, then the labels of the
    parameters that hold pieces): no dict is made for a move that is never played.

    params: the model's Params; clauses: (condition node, coverage name, level) of each
    require in the order written, level -1 for those that read no parameter; scope: the
    kinds of the action's locals (player and every parameter); domains: (syntax node, scope
    it is computed in) of each parameter's domain, written into the lister (else each is
    computed by its compiled function, Param.domain)."""
    try:
        return _Writer(codegen, action_name, params, clauses, scope, domains).function()
    except (SyntaxError, RecursionError, MemoryError, CompileError):
        return None


_HELPERS = None


_ENV = "e = {'player': player}"
_READS_ENV = re.compile(r"\be\b")


def _helpers() -> dict:
    """What generated listers call, bound once into the code generator's namespace
    (imported late: the engine imports the compiler)."""
    global _HELPERS
    if _HELPERS is None:
        from ..engine import decisions, memo as kept
        from .prefers import KEYED
        _HELPERS = {"_m_id": id, "_m_distinct": decisions._distinct, "_m_unique": decisions._unique, "_m_labels": decisions._piece_labels,
                    "_m_choices": decisions._zone_choices, "_m_piece_choices": decisions._piece_choices,
                    "_m_stop": decisions._stop, "_m_too_many": decisions._too_many,
                    "_m_key": decisions._key, "_m_keyed": KEYED,
                    "_m_walk": decisions._enumerate_generic, "_m_flat": decisions._flat,
                    "_m_FAULTS": decisions._FAULTS,
                    # the generated code's namespace has only the builtins expressions use
                    "_m_KeyError": KeyError, "_m_TypeError": TypeError, "_m_Exception": Exception,
                    "_m_set": set, "_m_zip": zip, "_m_Unfused": decisions.Unfused,
                    "_m_apart": kept.refused_apart, "_m_lined": kept.lined_cells, "_m_lined_first": kept.lined_first,
                    "_m_near_rows": kept.near_rows}
    return _HELPERS


class _Writer:
    def __init__(self, codegen, action_name, params, clauses, scope, domains=None, group=None):
        self.g = codegen
        # (name, memo) of the prefer judging each group (preferring_lister), or None
        self.group = group
        self.domains = domains
        self.name = action_name
        self.params = params
        self.names = [p.name for p in params]
        self.first = [(node, hit) for node, hit, level in clauses if level < 0]
        self.at = [[(node, hit) for node, hit, level in clauses if level == i] for i in range(len(params))]
        self.scope = scope
        self.lines: list[str] = []
        self.spans: list = []   # the requires' spans the lines' tags number (_tag)
        self.parts: list = []   # (parameter's span, what) the other lines' tags number (_tag_part)
        self.top: list[str] = []        # set before the loops: domains' caches
        self.hoisted = 0
        self.hoists = hoists.Hoists()   # the calls computed at their first use and kept
        self.counters: dict[str, int] = {}   # coverage name -> its local counter's number
        self.resets: dict[int, list[str]] = {}   # level -> the kept values it starts afresh
        self.kept: list[int] = []   # ids of the nodes hoisted, dropped when the function is written
        self.fields = 0   # fields of chosen pieces read once per choice (_read_fields)
        self.walked_again = False   # whether a failed read hands the listing to the walk
        self._known_branches: dict = {}   # parameter -> _fixed_branch's answer (asked twice)
        # parameter -> id of the require `T(x) == v` its narrowing implies, while its loop is
        # written (_narrowed, _loop_body)
        self.implied: dict[int, int] = {}
        # Every parameter's choice and the player are locals; `e` holds what the domains read.
        self.binds = {"player": ("pl", scope.get("player", "player"))}

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    def _tag(self, start: int, span) -> None:
        """The lines written since `start` judge the require written at `span`: each ends in a
        comment naming it (`_SPAN_TAG`), which `tagged_lines` reads from the source compiled."""
        number = len(self.spans)
        self.spans.append(span)
        tag = f"{_SPAN_TAG}{number}"
        self.lines[start:] = [_tagged(line, tag) for line in self.lines[start:]]

    def _tag_part(self, start: int, i: int, what: str) -> None:
        """The lines written since `start` that no tag claims yet (a require's, an inner
        parameter's) compute `what` of parameter i: each ends in a comment naming it
        (`_PART_TAG`), which `tagged_lines` reads. A level's marker is tagged too: `_reset`
        gives its tag to the lines it writes in the marker's place."""
        param = self.params[i]
        number = len(self.parts)
        self.parts.append((param.span, f"{what} {param.name}"))
        tag = f"{_PART_TAG}{number}"
        lines = self.lines
        for k in range(start, len(lines)):
            if _TAGGED not in lines[k]:
                lines[k] = _tagged(lines[k], tag)

    def function(self):
        g = self.g
        g.ns.update(_helpers())
        fname = f"_moves{next(g._ids)}"
        # A listing changes nothing of the state: its parts are read through locals (set
        # once the function is written, for the parts it reads).
        g.state_locals = True
        g._inner_memos = []   # conditions._kept_inner: searches kept per item for a listing
        # The lines before the loops that indexes.py's answers read (made once a listing).
        outer, g.prologue = g.prologue, []
        try:
            return self._function(fname)
        finally:
            g.state_locals = False
            g._inner_memos = None
            g.prologue = outer

    def _function(self, fname: str):
        g = self.g
        self.emit(1, "out = []")
        self.emit(1, _ENV)
        self.emit(1, "pl = player")
        for node, hit in self.first:
            start = len(self.lines)
            self.emit(1, f"if not ({g.src(node, self.scope, self.binds)}):")
            self._count(2, hit)
            self.emit(2, "return out")
            self._tag(start, node.span)
        if not self.params:
            self.emit(1, "if stop: stop = _m_stop(c, stop)")
            self.emit(1, "out.append(())")
            self.emit(1, "return out")
        else:
            self.emit(1, "lim = c.limits.moves")
            body_start = len(self.lines)
            try:
                self._level(0, 1)
            finally:
                for n in self.kept:
                    g._hoisted.pop(n, None)
            # Coverage: each require's exclusions were counted in a local, added once at the
            # end (a listing that raises is not counted: the caller drops or redoes it).
            if self.counters:
                self.emit(1, "if hits is not None:")
                for hit, number in self.counters.items():
                    self.emit(2, f"if n{number}: hits[{hit!r}] = hits.get({hit!r}, 0) + n{number}")
            self.emit(1, "return out")
            self.lines = [self._reset(line) for line in self.lines]
            top = self.top + g.prologue + [f"{memo} = {{}}" for memo in g._inner_memos] \
                + [f"hq{n} = _UNSET" for n in self.resets.get(-1, ())] \
                + [f"n{number} = 0" for number in self.counters.values()]
            self.lines[body_start:body_start] = ["    " + t for t in top] + ["    " + hoists.DEFS]
        if self.walked_again:   # the steps before the listing, for the walk that makes it again
            self.lines.insert(0, "    s0 = c.steps")
        # `e` is what domains not written out read: a listing with none makes no dict.
        made = f"    {_ENV}"
        if not any(_READS_ENV.search(line) for line in self.lines if line != made):
            self.lines.remove(made)
        tables, body = table_reads("\n".join(self.lines) + "\n")
        body = "".join(f"{line}\n" for line in tables) + body
        source = f"def {fname}(c, player, hits, stop):\n" + "".join(f"{line}\n" for line in state_reads(body)) + body
        kind = "moves" if self.group is None else "moves preferred"
        source = self.hoists.compile(g, source, f"<regnum {kind} {self.name}>")
        fn = g.ns[fname]
        fn.line_spans, fn.part_spans = tagged_lines(source, self.spans, self.parts)
        fn.source = _ANY_TAG.sub("", source)   # for reading what was generated (a lister has no file)
        return fn

    def _count(self, depth: int, hit: str, local: bool = False) -> None:
        """Count a choice a require excludes: in a local of the loops (added to `hits` at the
        end), or straight into `hits` for a require checked once, before the loops."""
        if local:
            number = self.counters.setdefault(hit, len(self.counters))
            self.emit(depth, f"n{number} += 1")
        else:
            self.emit(depth, f"if hits is not None: hits[{hit!r}] = hits.get({hit!r}, 0) + 1")

    # ── one parameter ──
    def _level(self, i: int, depth: int) -> None:
        start = len(self.lines)
        self._level_lines(i, depth)
        self._tag_part(start, i, "the loop over")

    def _level_lines(self, i: int, depth: int) -> None:
        start = len(self.lines)
        self._choices(i, depth)
        self._tag_part(start, i, "the domain of")
        self.emit(depth, f"c.steps += len(it{i})")
        self.emit(depth, "if c.steps > c.max_steps: c.runaway()")
        name = self.names[i]
        self.binds = dict(self.binds)
        self.binds[name] = (f"v{i}", self.scope.get(name) or "value")
        last = i == len(self.params) - 1
        if last:
            shared = self._shared_by(i)
            if self.group is not None and shared is None:
                self.emit(depth, "grp = []")
            if shared is None:
                self._checked_loop(i, depth, leaf=True)
            else:
                self._remembered_leaf(i, depth, shared)
            if self.group is not None:
                self._judged_group(i, depth, "grp" if shared is None else f"ok{i}")
                return
            self.emit(depth, "if out:")
            self.emit(depth + 1, "if stop: stop = _m_stop(c, stop)")
            self.emit(depth + 1, f"if len(out) > lim: _m_too_many(c, {self.name!r})")
            return
        if self.at[i]:
            self.emit(depth, f"ok{i} = []")
            self._checked_loop(i, depth, leaf=False)
            source = f"ok{i}"
        else:
            source = f"it{i}"
        self.emit(depth, f"for {self._choice(i)} in {source}:")
        if any(name in p.depends and self._domain(j) is None
               for j, p in enumerate(self.params[i + 1:], start=i + 1)):   # `e` is only what domains read
            self.emit(depth + 1, f"e[{name!r}] = v{i}")
        self.emit(depth + 1, f"{_RESET}{i}")   # the values kept per choice of i start here
        self._read_fields(i, depth + 1)
        self._level(i + 1, depth + 1)

    def _read_fields(self, i: int, depth: int) -> None:
        """The fields of the piece chosen for parameter i that the requires of later
        parameters read (`p.kind` in every require over a cell), read once per choice into
        locals. A read that fails here might not have been made where it is written (an
        earlier condition may guard it), so the listing is then made again by the generic
        walk, which decides what it lists and raises, steps and all."""
        name = self.names[i]
        if self.scope.get(name) != "piece":
            return
        fields: dict[str, list] = {}
        for later in self.at[i + 1:]:
            for node, _ in later:
                # Not inside comprehensions, whose variables may take the same name.
                for n in _nodes(node, into_comprehensions=False):
                    if isinstance(n, ast.Attribute) and isinstance(n.obj, ast.Name) and n.obj.name == name \
                            and id(n) not in self.g._hoisted:
                        fields.setdefault(n.name, []).append(n)
        if not fields:
            return
        self.walked_again = True
        self.emit(depth, "try:")
        for field, nodes in fields.items():
            local = f"fv{self.fields}"
            self.fields += 1
            self.emit(depth + 1, f"{local} = {self.g.state('pieces')}[v{i}][{field!r}]")
            for n in nodes:
                self.g._hoisted[id(n)] = local
                self.kept.append(id(n))
        self.emit(depth, "except _m_FAULTS:")
        self.emit(depth + 1, "c.steps = s0")
        self.emit(depth + 1, f"wa = c.model.actions[{self.name!r}]")
        if self.group is not None:   # the plain way: the walk, then the narrowing
            self.emit(depth + 1, "raise _m_Unfused()")
        else:
            self.emit(depth + 1, "return _m_flat(wa, _m_walk(c, wa, player, hits is not None, stop))")

    def _reset(self, line: str) -> str:
        """A level's marker, replaced by the kept values that start afresh there."""
        stripped = line.lstrip()
        if not stripped.startswith(_RESET):
            return line
        tag = _ANY_TAG.search(line)
        if tag is not None:   # the loop's, given to each line written in the marker's place
            line = line[:tag.start()]
            stripped = line.lstrip()
        indent = line[:len(line) - len(stripped)]
        numbers = self.resets.get(int(stripped[len(_RESET):]), ())
        written = "\n".join(f"{indent}hq{n} = _UNSET" if type(n) is int else f"{indent}{n[1]}"
                            for n in numbers) or f"{indent}pass"
        return written if tag is None else _tagged(written, tag.group())

    def _hoistable(self, i: int, clauses: list):
        """(node, level, scope, binds) of each call the requires of parameter i can compute
        once and keep: level is the last parameter it reads (-1: none)."""
        g = self.g
        names = set(self.names)
        for node, _ in clauses:
            for n in invariant_values(g, node, {self.names[i]}):
                read = {name for name, _, _ in free_names(n)} & names
                yield n, max((self.names.index(r) for r in read), default=-1), self.scope, self.binds
            for n in _state_only_calls(g, node, set()):
                yield n, -1, {}, {}

    def _kept_by_values(self, node, level: int, value: str) -> tuple[str, str] | None:
        """(the key, the test that its values can be keys) under which a call the requires
        compute once per choice of parameter `level` (`value`, its source) is kept for the
        whole listing, when it does not read some parameter before `level`: met again for
        each value of that one (`free(at)` for each value played at each cell of the ring),
        it is read, not computed again. Only a call that charges no step (its source mentions
        the context only to read an open grid's start value), so that the listing charges
        what it charged; it fails, if it does, the first time, as before. None otherwise."""
        if not KEPT_BY_VALUES or level <= 0:
            return None
        read = sorted(self.names.index(name) for name, _, _ in free_names(node) if name in self.names)
        if read == list(range(level + 1)) or re.search(r"\bc\b", _STEPLESS_READS.sub("", value)):
            return None
        key = f"v{read[0]}" if len(read) == 1 else "(" + "".join(f"v{j}, " for j in read) + ")"
        return key, " and ".join(f"type(v{j}) in _m_keyed" for j in read)

    def _checked_loop(self, i: int, depth: int, leaf: bool, stop_first: bool = False) -> None:
        """The loop over the choices of parameter i that keeps those passing its requires:
        into ok{i}, or, for the last parameter, straight into the moves."""
        g = self.g
        clauses = self.at[i]
        for n, level, scope, binds in list(self._hoistable(i, clauses)):
            if id(n) in g._hoisted:
                continue
            number = self.hoisted
            self.hoisted += 1
            value = g.src(n, scope, binds)
            kept = self._kept_by_values(n, level, value)
            if kept is None:
                g._hoisted[id(n)] = self.hoists.use(number, value)
                self.resets.setdefault(level, []).append(number)
            else:   # kept for the listing by the values it reads, met again for other values of the others
                key, keyed = kept
                self.top.append(f"mq{number} = {{}}")
                g._hoisted[id(n)] = self.hoists.use(
                    number, value, kept=f"if {keyed}: mq{number}[{key}] = hq{number}")
                self.resets.setdefault(level, []).append(
                    (number, f"hq{number} = mq{number}.get({key}, _UNSET) if {keyed} else _UNSET"))
            self.kept.append(id(n))
        shared = []   # calls several requires of i make with the same arguments: once per choice
        for group in _repeated_calls(g, [node for node, _ in clauses]):
            number = self.hoisted
            self.hoisted += 1
            value = g.src(group[0], self.scope, self.binds)
            for n in group:
                g._hoisted[id(n)] = self.hoists.use(number, value)
                self.kept.append(id(n))
            shared.append(number)
        start = len(self.lines)
        source = self._narrowed(i, depth)
        self._tag_part(start, i, "the domain of")
        if leaf and not stop_first and source == f"it{i}" and self._unrolled(i, depth, shared):
            return
        self.emit(depth, f"for {self._choice(i)} in {source}:")
        try:
            self._loop_body(i, depth, shared, leaf, stop_first)
        finally:
            self.implied.pop(i, None)

    def _unrolled(self, i: int, depth: int, shared: list) -> bool:
        """The last loop, over a few plain values known at load (`way in ["up_left",
        "up_right"]`), written out once per value, each copy with the value known
        (CodeGen.literals): what the requires compute from it alone is computed at load
        (`rises[way]`, a step in that direction read from its table). Each copy is a loop
        over that one value, so that the requires' `continue` and the order of the work stay
        those of the loop. Only when some copy computes something at load (False: nothing
        written, the plain loop is)."""
        param = self.params[i]
        values = param.fixed
        if param.encode_pieces or values is None or not 0 < len(values) <= _UNROLLED \
                or not all(type(v) in (str, int) for v in values):
            return False
        g = self.g
        outer, folds = self.lines, g.folds
        memos = len(g._inner_memos) if g._inner_memos is not None else 0
        copies = []
        try:
            for value in values:
                self.lines = []
                g.literals[f"v{i}"] = value
                self._loop_body(i, depth, shared, True, False)
                copies.append((value, self.lines))
        finally:
            g.literals.pop(f"v{i}", None)
            self.lines = outer
        if g.folds == folds:
            if g._inner_memos is not None:
                del g._inner_memos[memos:]   # the copies' searches kept per item: not written
            return False
        for value, lines in copies:
            self.emit(depth, f"for v{i} in ({value!r},):")
            self.lines += lines
        return True

    def _loop_body(self, i: int, depth: int, shared: list, leaf: bool, stop_first: bool) -> None:
        """The body of the loop over parameter i: its requires, then the move or the choice kept."""
        g = self.g
        clauses = self.at[i]
        for number in shared:
            self.emit(depth + 1, f"hq{number} = _UNSET")
        for node, hit in clauses:
            start = len(self.lines)
            if loops_pay(g, node, self.scope.keys() | self.binds.keys()):
                # any/all/count of a comprehension as loops, as in a prefer (see prefers._Narrower):
                # this is the innermost loop, where a generator per choice costs the most
                self.lines += truth_lines(g, node, self.scope, self.binds, depth + 1, depth)
                self.emit(depth + 1, "if not ok:")
            elif self.implied.get(i) == id(node):   # passed by every choice the index gave
                self.emit(depth + 1, f"if not (nw{i} or ({g.src(node, self.scope, self.binds)})):")
            else:
                self.emit(depth + 1, f"if not ({g.src(node, self.scope, self.binds)}):")
            self._count(depth + 2, hit, local=True)
            self.emit(depth + 2, "continue")
            self._tag(start, node.span)
        if leaf or stop_first:
            self.emit(depth + 1, "if stop: stop = _m_stop(c, stop)")   # `exists`: the first move is enough
        if leaf and self.group is not None:
            self.emit(depth + 1, f"grp.append({self._choice(i)})")
        elif leaf:
            self._append_move(depth + 1)
        else:
            self.emit(depth + 1, f"ok{i}.append({self._choice(i)})")

    def _narrowed(self, i: int, depth: int) -> str:
        """The choices of parameter i its loop goes through: it{i}, or only those a require
        `T(x) == v` lets through, read from the index of table T (State.cells_with) instead
        of judging every cell.

        Exact, because the loop still judges every require of the choices it goes through,
        and the others would have been refused by that require, or before it by requires
        that can neither fail nor charge a step (a cell's zone being empty: `free(x)`). A
        require `a or T(x) == v` whose `a` reads no choice of i narrows when `a` is false;
        when it is true it lets every choice through, and the next require may narrow.
        `a` and `v` are computed once, before the loop, only when neither can charge a step
        (they mention no context); if one fails, the loop goes through every choice and
        meets the failure where the requires would. The steps are those of the full loop:
        its choices are charged before it, and the requires that charge steps are judged
        on the same choices.

        With coverage counted, every choice skipped is still counted, under the first
        require that would have refused it (_counted_apart): the narrowing require, or the
        one zone test before it. With two zone tests before it, a choice's first refusal
        needs both its zones: the loop then goes through every choice.

        A require that charges steps for the choices it refuses narrows too when the lines
        kept answer it (_lined), the steps of the choices skipped charged at once, and with
        coverage counted, their refusals counted at once (_lined_counted).

        A domain not known at load that is at times a list known at load (`if … then …
        else cells`: _fixed_branch) narrows by `T(x) == v` when it is that list, without
        coverage: the same values in the same order."""
        param = self.params[i]
        if param.encode_pieces:
            return f"it{i}"
        # A domain that is a list known at load only at times (`if … then … else cells`)
        # narrows when it is that list, read from the table's index of the list known.
        same = None if param.fixed is not None or not KNOWN_BRANCH else self._fixed_branch(i)
        if param.fixed is None and same is None:
            return f"it{i}"
        domain = f"it{i}" if same is None else self.g.bind(self.g.fixed_tuple(same), "fixed")   # its index
        # (condition that selects the branch or None, source of the choices or None, counting,
        # a line that narrows them when asked whether a move exists, or None)
        branches = []
        tests = []   # the zone tests met so far: (node, hit)
        for node, hit in self.at[i]:
            if self._safe_require(i, node):
                tests.append((node, hit))
                continue
            guard, test = None, node
            if isinstance(node, ast.Binary) and node.op == "or":
                guard = self._once(i, node.left)
                if guard is not None:
                    test = node.right
            narrowing, by_table = self._narrowing(i, test, domain)
            # The choices a lone `T(x) == v` lets through, read from the index, all pass it.
            implied = node if IMPLIED and guard is None and by_table else None
            # a group (preferring_lister) lists without coverage only: nothing to count
            counting = self._counted_apart(i, narrowing, tests, hit) \
                if narrowing is not None and self.group is None and same is None else None
            asked = None
            if narrowing is None and same is None:   # the cells skipped charge steps: charged at once
                lined = self._lined(i, test, tests)
                if lined is not None:
                    narrowing = f"(it{i} if stop else {lined})"
                    asked = self._lined_first(i, node, lined)
                    if self.group is None:
                        counting = self._lined_counted(i, lined, tests, hit)
            branches.append((guard, narrowing, counting, asked, implied))
            if guard is None:
                break
        while branches and branches[-1][1] is None:   # a last branch that narrows nothing
            branches.pop()
        if not branches:
            return f"it{i}"
        implied = branches[0][4] if len(branches) == 1 else None
        if implied is not None:   # nw{i}: the choices are the index's, all passing `T(x) == v`
            self.implied[i] = id(implied)
            self.emit(depth, f"nw{i} = False")
        self.emit(depth, f"w{i} = it{i}")
        if same is None:
            self.emit(depth, "if hits is None:")
        else:   # the list known itself (its choices: _choices): the same values in the same order
            self.emit(depth, f"if hits is None and it{i} is {self.g.bind(same)}:")
        # (cells_with gives the domain itself where its index cannot answer: then judged)
        self._branches(i, depth + 1, [(guard, narrowing and [f"w{i} = {narrowing}"] + ([asked] if asked else [])
                                       + ([f"nw{i} = w{i} is not {domain}"] if implied is not None else []))
                                      for guard, narrowing, _, asked, _ in branches])
        # Counted too, the choices the index gave all pass the require it narrows by.
        implied_counted = [f"nw{i} = wn is not {domain}"] if implied is not None else []
        counted = [(guard, counting and counting + implied_counted) for guard, _, counting, _, _ in branches]
        while counted and counted[-1][1] is None:   # a last branch that counts nothing apart
            counted.pop()
        if counted:
            self.emit(depth, "else:")
            self._branches(i, depth + 1, counted)
        return f"w{i}"

    def _branches(self, i: int, depth: int, branches: list) -> None:
        """The choice of the narrowing by the requires' guards (_narrowed): each branch's
        lines (None: every choice), within a `try` whose fault means every choice."""
        self.emit(depth, "try:")
        for k, (guard, lines) in enumerate(branches):
            inner = depth + 2
            if guard is not None:
                self.emit(depth + 1, f"{'if' if k == 0 else 'elif'} not ({guard}):")
            elif k:
                self.emit(depth + 1, "else:")
            else:   # the first require that is not safe narrows every time
                inner = depth + 1
            for line in lines or ["pass"]:
                self.emit(inner, line)
        self.emit(depth, "except _m_FAULTS:")
        self.emit(depth + 1, f"w{i} = it{i}")

    def _counted_apart(self, i: int, narrowing: str, tests: list, hit: str) -> list[str] | None:
        """The lines of a narrowing with coverage counted: the choices skipped counted under
        the zone test before the narrowing require that refuses them (a cell's zone empty,
        or not empty: how many of the cells have it is read at once from their zones,
        `_m_apart`), the others under that require; the choices it lets through are judged
        by the loop. None when that cannot be exact: two zone tests before it (a cell's
        first refusal would need both), or a zone whose key is not known at load for every
        cell. Every line that can fail comes before the first count."""
        if not COUNT_APART:
            return None
        for _, counted in self.at[i]:   # numbered in the loop's order, as the loop would number them
            self.counters.setdefault(counted, len(self.counters))
        skipped = f"len(it{i}) - len(wn)"
        lines = [f"wn = {narrowing}"]
        if len(tests) > 1:
            return None
        if tests:
            node, first = tests[0]
            found = self._zone_keys(i, node)
            if found is None:
                return None
            keys, empty_refused = found
            g = self.g
            number = g._index_keys.setdefault(("empty", id(keys)), len(g._index_keys)) if g.memo_enabled else None
            body = g.bind(g.zone_keys["body", id(keys)], "ckb")
            lines.append(f"na = _m_apart(c, {number}, {body}, {g.bind(keys, 'ck')}, wn, {empty_refused})")
            lines.append(f"n{self.counters[first]} += na")
            skipped += " - na"
        lines += [f"n{self.counters[hit]} += {skipped}", f"w{i} = wn"]
        return lines

    def _lined_counted(self, i: int, lined: str, tests: list, hit: str) -> list[str] | None:
        """The lines of the narrowing of `_lined` (its call `lined`) with coverage counted:
        the cells skipped counted under the zone test that refuses them (their zone), the
        others under this require, as engine/memo.lined_cells counts them; every cell judged
        by the loop where it cannot narrow, or is asked only whether a move exists."""
        if not COUNT_APART:
            return None
        for _, counted in self.at[i]:   # numbered in the loop's order, as the loop would number them
            self.counters.setdefault(counted, len(self.counters))
        call = lined[:-1] + ", True)"   # the same call, counting
        lines = [f"wn = None if stop else {call}", "if wn is not None:"]
        if tests:
            lines.append(f"    n{self.counters[tests[0][1]]} += wn[1]")
        return lines + [f"    n{self.counters[hit]} += wn[2]", f"    w{i} = wn[0]"]

    def _lined(self, i: int, test, tests: list) -> str | None:
        """The call of engine/memo.lined_cells giving the choices of parameter i that a
        require `T(x) in K and L(x, player)` lets through, L a search of full lines that
        the lines kept answer (indexes.line_test), T a variable per cell of a fixed board,
        K a constant list of plain values (`colour(x) in usable and ends_a_line(x,
        player)`): the cells with a full line where the zone test before it, if any,
        passes and K holds T. The cells skipped would each have charged steps at this
        require (`in` goes through K, L through every line), unlike those `_narrowing`
        skips: lined_cells charges them at once, so the listing charges what the loop over
        every cell charges. Asked only whether a move exists (`stop`), the loop stops at
        the first move and charges less: the caller then has it go through every cell, but
        for a listing kept whole after its first move (_lined_first). None for anything
        else, or with more than one zone test before it."""
        if not LINED or len(tests) > 1 or not (isinstance(test, ast.Binary) and test.op == "and"):
            return None
        found = self._table_in(i, test.left)
        if found is None:
            return None
        table, items, n = found
        written = self.g.kept_lines(test.right, self.scope, self.binds, "")
        lined = re.search(r"_m_full[(]c, (\d+), (_mb\d+), (\w+), (\w+), pl[)]", "\n".join(written or ()))
        if lined is None or f"type(v{i}) in _m_keyed_args and v{i} in _ls" not in written[0]:
            return None
        zone = "None"
        if tests:
            known = self._zone_keys(i, tests[0][0])
            if known is None:
                return None
            keys, empty_refused = known
            zone = f"({self.g.bind(keys, 'ck')}, {empty_refused})"
        lines = ", ".join(lined.groups())
        return f"_m_lined(c, it{i}, {table!r}, {items}, {n}, {zone}, ({lines}), pl)"

    def _lined_first(self, i: int, node, lined: str) -> str | None:
        """The line narrowing the choices of parameter i when the listing is asked whether
        a move exists (`stop`), the narrowing of `_lined` (its call `lined`) standing
        otherwise: the same call given the `stop` (engine/memo.lined_first) when the require
        `node` is the last of the last parameter, so that every cell it finds is a move and
        a listing kept whole after its first move narrows too; else None (every choice)."""
        if i != len(self.params) - 1 or node is not self.at[i][-1][0]:
            return None
        return f"if stop: w{i} = _m_lined_first({lined[len('_m_lined('):-1]}, stop)"

    def _table_in(self, i: int, node) -> tuple[str, str, int] | None:
        """(table, name of K's set, K's length) for `T(x) in K`, x parameter i's choice, T a
        variable per cell of a fixed board and K a constant list of plain values, written as
        one lookup that charges K's length, times one plus the value's when it is a text
        (helpers._in_fixed); None for anything else."""
        if not (isinstance(node, ast.Binary) and node.op == "in"):
            return None
        side = node.left
        decl = self._cell_table(i, side)
        if decl is None or decl.index not in self.g.x.boards:
            return None
        source = self._written(node)
        table = rf"(?:_t\d+|(?:c[.]state[.]|_s_)tables\[{re.escape(repr(side.func))}\])"
        written = re.fullmatch(rf"_in_fixed[(]c, {table}\[[(]?v{i}[)]?\], (_items\d+), (\d+)[)]", source)
        return None if written is None else (side.func, written.group(1), int(written.group(2)))

    def _zone_keys(self, i: int, node) -> tuple[dict, bool] | None:
        """({choice: the key of its zone}, whether an empty zone is refused) of a zone test
        of parameter i (_safe_require), the keys read at load from the zone family's; None
        when a choice has no zone of the family, or two choices one zone."""
        source = self._plain(node)
        family = re.search(r"(?<![\w])(_z\d+)\[", source)
        keys = self.g.ns.get(family.group(1)) if family is not None else None
        if keys is None:
            return None
        fixed = self.params[i].fixed
        try:
            known = (family.group(1), tuple(fixed))
            made = self.g.zone_keys.get(known)
            if made is None:
                made = {cell: keys[cell] for cell in fixed}
        except Exception:   # a choice that is no key, or has no zone of the family (its test fails where met)
            return None
        if len(made) != len(fixed) or len(set(made.values())) != len(made):
            return None
        if known not in self.g.zone_keys:
            self.g.zone_keys[known] = made
            self.g.zone_keys["body", id(made)] = emptiness(made)
        negations = re.match(r"[(]*((?:not )*)", source).group(1).count("not ")
        return made, negations % 2 == 0

    def _plain(self, node) -> str | None:
        """The source of an expression written out in full (no kept value), when it mentions
        no context: it then charges no step and reads only locals and the state. None otherwise."""
        source = self._written(node)
        return None if re.search(r"\bc\b", source) else source

    def _written(self, node) -> str:
        """The source of an expression written out in full: no value hoisted out of the loop."""
        g = self.g
        hoisted, g._hoisted = g._hoisted, {}
        try:
            return g.src(node, self.scope, self.binds)
        finally:
            g._hoisted = hoisted

    def _once(self, i: int, node) -> str | None:
        """The source of `node` when it reads no choice of parameter i and charges no step
        (it can then be computed once, before the loop); None otherwise."""
        if self.names[i] in {name for name, _, _ in free_names(node)}:
            return None
        return self._plain(node)

    def _safe_require(self, i: int, node) -> bool:
        """Whether a require of parameter i can neither fail nor charge a step, whatever the
        choice: it tests whether a zone of a family indexed by the choice is empty."""
        source = self._plain(node)
        plain = rf"[(]?v{i}[)]?"
        key = rf"(_z\d+\[{plain}\]|_zk\d+\.get[(](?P<a>{plain})[)] or _z\d+\[(?P=a)\])"
        return source is not None and re.fullmatch(
            rf"[(]*(not |not not )?[(]*_s_zones\[{key}\][)]*", source) is not None

    def _table_equality(self, i: int, node) -> tuple[str, str] | None:
        """(table, source of v) for a require `T(x) == v` or `v == T(x)`, x parameter i's
        choice and T a variable per cell of a fixed board, v reading no choice of i and
        charging no step; None for anything else."""
        if not (isinstance(node, ast.Binary) and node.op == "==") or self._plain(node) is None:
            return None
        for side, other in ((node.left, node.right), (node.right, node.left)):
            if self._cell_table(i, side) is None:
                continue
            value = self._once(i, other)
            if value is not None:
                return side.func, value
        return None

    def _cell_table(self, i: int, node):
        """The declaration of T when `node` is `T(x)`, x parameter i's choice and T a variable
        per index that is not an open grid's cells (those read the grid's start values too);
        else None."""
        if not (isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.args[0], ast.Name)
                and node.args[0].name == self.names[i] and node.func not in self.scope and node.func not in self.binds):
            return None
        decl = self.g.x.program.get(node.func)
        if decl is None or decl.kind != "var" or not decl.per_index:
            return None
        board = self.g.x.boards.get(decl.index)
        if board is not None and board.is_open:
            return None
        return decl

    def _narrowing(self, i: int, test, domain: str) -> tuple[str | None, bool]:
        """(the source of the choices of parameter i a require's `test` lets through, read
        instead of judged (_table_equality, _edge_cells), or None; whether they are read
        from a table's index, and so all pass `test`). `domain` is the source of the list
        the choices are, known at load (_fixed_branch) or it{i}."""
        found = self._table_equality(i, test)
        if found is not None:
            table, value = found
            return f"c.state.cells_with({table!r}, {domain}, {value})", True
        return (self._edge_cells(i, test) if self.params[i].fixed is not None else None), False

    def _fixed_branch(self, i: int) -> list | None:
        """The list no game changes that parameter i's domain, itself not known at load, is
        at times: the object a branch of its `if … then … else …` reads as, that names a
        fixed board's cells, an enum's members (CodeGen.named_list) or a constant list, of
        distinct values that can be keys. The first such branch, or None. The domain is then
        known by its identity, and its choices are the list itself (_choices)."""
        if i not in self._known_branches:
            self._known_branches[i] = self._find_fixed_branch(i)
        return self._known_branches[i]

    def _find_fixed_branch(self, i: int) -> list | None:
        if self.domains is None:
            return None
        node, scope = self.domains[i]
        local = {n: None for n in scope} | {n: None for n in self.names[:i]} | dict.fromkeys(self.binds)
        nodes = [node]
        while nodes:
            node = nodes.pop(0)
            if isinstance(node, ast.IfExpr):
                nodes += [node.then, node.otherwise]
            elif isinstance(node, ast.Name) and self.g.x.fixed_list(node, local) is not None:
                consts = self.g.x.consts
                value = consts[node.name] if node.name in consts else self.g.named_list(node.name)
                try:
                    if len(set(value)) == len(value):
                        return value
                except TypeError:   # values that cannot be keys: no index of them
                    pass
        return None

    def _edge_cells(self, i: int, node) -> str | None:
        """The source of the list of the choices of parameter i that a require `on_edge(B,
        x)`, or `on_edge(B, x) and …`, lets through, x the choice, B a board that never
        changes and the domain a list known at load: the domain's cells on B's edge, in its
        order, found at load. None for anything else."""
        while isinstance(node, ast.Binary) and node.op == "and":
            node = node.left
        if not (isinstance(node, ast.Call) and node.func == "on_edge" and len(node.args) == 2
                and node.func not in self.scope and node.func not in self.binds
                and self.g.x.program.get("on_edge") is None):
            return None
        board, cell = node.args
        name = fixed_board(self.g, board, self.scope, self.binds)
        if name is None or not (isinstance(cell, ast.Name) and cell.name == self.names[i]):
            return None
        try:
            on_edge = [x for x in self.params[i].fixed if x in self.g.x.boards[name].edge]
        except TypeError:   # a choice that cannot be a cell: judged as written
            return None
        return self.g.bind(on_edge, "fixed")

    def _append_move(self, depth: int) -> None:
        """The move of the choices in the loop variables, appended to the listing: the values,
        then the labels of the parameters that hold pieces (decisions.move_shape)."""
        items = [f"v{j}" for j in range(len(self.params))] \
            + [f"x{j}" for j, p in enumerate(self.params) if p.encode_pieces]
        self.emit(depth, f"out.append(({', '.join(items)}{',' if len(items) == 1 else ''}))")

    def _shared_by(self, i: int) -> list[int] | None:
        """The earlier parameters the requires of the last parameter i read, when there is
        one they do not read: the choices of i that pass are then the same for every value
        of the others (with the same domain), judged once and remembered. None otherwise."""
        if i == 0 or not self.at[i] or self._taken(i):
            return None
        earlier = set(self.names[:i])
        read = set()
        for node, _ in self.at[i]:
            read |= {name for name, _, _ in free_names(node)} & earlier
        if len(read) == i:
            return None
        return [j for j in range(i) if self.names[j] in read]

    def _remembered_leaf(self, i: int, depth: int, read: list[int]) -> None:
        """The last parameter's loop, whose passing choices are remembered by the domain they
        came from (the same list object: a domain computed once, or kept per the values it
        reads) and the values of the earlier parameters its requires read. On a second
        meeting the requires are not judged again: the same pure conditions of the same
        state on the same values; the exclusions are counted again, and the choices charged;
        the steps the requires themselves charge are not (fewer steps, never more)."""
        self.top.append(f"r{i} = {{}}")
        self.emit(depth, f"k = (_m_id(it{i}), {''.join(f'v{j}, ' for j in read)})")
        self.emit(depth, "try:")
        self.emit(depth + 1, f"g{i} = r{i}[k]")
        self.emit(depth, "except _m_KeyError:")
        self.emit(depth + 1, f"g{i} = None")
        self.emit(depth, "except _m_TypeError:")   # a value that cannot be a key: judged each time
        self.emit(depth + 1, f"g{i} = k = None")
        self.emit(depth, f"if g{i} is None:")
        outer, self.lines = self.lines, []
        self.emit(depth + 1, f"ok{i} = []")
        self._checked_loop(i, depth + 1, leaf=False, stop_first=True)
        loop, self.lines = self.lines, outer
        numbers = list(dict.fromkeys(self.counters[hit] for _, hit in self.at[i]))
        for number in numbers:
            self.emit(depth + 1, f"a{number} = n{number}")
        self.lines += loop
        counted = "".join(f", n{number} - a{number}" for number in numbers)
        self.emit(depth + 1, f"g{i} = (it{i}, ok{i}{counted})")   # it{i} kept: its id stays its own
        self.emit(depth + 1, f"if k is not None: r{i}[k] = g{i}")
        self.emit(depth, "else:")
        self.emit(depth + 1, f"ok{i} = g{i}[1]")
        for place, number in enumerate(numbers, start=2):
            self.emit(depth + 1, f"n{number} += g{i}[{place}]")
        self.emit(depth, f"if stop and ok{i}: stop = _m_stop(c, stop)")
        if self.group is None:   # else ok{i} is the group (_judged_group)
            self.emit(depth, f"for {self._choice(i)} in ok{i}:")
            self._append_move(depth + 1)

    def _judged_group(self, i: int, depth: int, group: str) -> None:
        """The moves of one round of the last loop (the choices in `group`) that the prefer
        keeps (preferring_lister), after the limit of moves is checked on all of them, as
        the lister checks it."""
        name, memo = self.group
        if "nall = 0" not in self.top:
            self.top.append("nall = 0")
            if memo:
                self.top.append("pmemo = {}")
        values = "".join(f"v{j}, " for j in range(i))
        self.emit(depth, f"if {group}:")
        self.emit(depth + 1, f"nall += len({group})")
        self.emit(depth + 1, "if stop: stop = _m_stop(c, stop)")
        self.emit(depth + 1, f"if nall > lim: _m_too_many(c, {self.name!r})")
        self.emit(depth + 1, f"for {self._choice(i)} in {name}(c, pl, {'pmemo' if memo else 'None'}, {values}{group}):")
        self._append_move(depth + 2)

    def _taken(self, i: int) -> list[str]:
        """The earlier choices that are pieces, left out of parameter i's choices afresh."""
        if not self.params[i].encode_pieces:
            return []
        return [f"v{j}" for j, p in enumerate(self.params[:i]) if p.encode_pieces]

    def _choice(self, i: int) -> str:
        """The loop variables of parameter i: a piece and its label, or a value that is its
        own encoding (choices are then plain values, not (value, value) pairs)."""
        return f"(v{i}, x{i})" if self.params[i].encode_pieces else f"v{i}"

    def _choices(self, i: int, depth: int) -> None:
        """it{i}: the distinct choices of parameter i, computed where the generic walk
        computes them (see the module's docstring)."""
        g = self.g
        param = self.params[i]
        if param.fixed is not None:   # known at load: nothing to compute, nothing to check
            self.emit(depth, f"it{i} = {g.bind(param.fixed, 'fixed')}")
            return
        written = self._domain(i)
        domain = f"{g.bind(param.domain, 'dom')}(c, e)" if written is None else written
        labels = "_m_labels(c, d)" if param.encode_pieces else "None"
        taken = self._taken(i)
        # What is kept between choices: the choices themselves, or (domain, labels) when the
        # pieces earlier parameters took are left out afresh each time.
        if taken:
            keep = f"(d, {labels})"
        elif param.encode_pieces:
            keep = "_m_choices(c, d)" if written is not None and ZONE_CHOICES and self._zone(i) \
                else "_m_piece_choices(c, d)"
        else:
            keep = "d" if written is not None and self._distinct(i) else "_m_unique(d)"
        known = self._fixed_branch(i) if keep == "_m_unique(d)" and param.fixed is None else None
        if known is not None:   # a list of distinct values: its own choices
            keep = f"(d if d is {g.bind(known)} else _m_unique(d))"
        compute = [f"d = {domain}", f"f{i} = {keep}"]
        if i == 0:
            for line in compute:
                self.emit(depth, line)
        elif not param.depends:
            self.top.append(f"f{i} = _UNSET")
            self.emit(depth, f"if f{i} is _UNSET:")
            for line in compute:
                self.emit(depth + 1, line)
        else:
            # The same domain list met again (a constant, as `cells` is in `if … then … else
            # cells`) keeps the choices made of it: the same list object (kept, so that its id
            # stays its own), the same choices, the same `it{i}` for the last loop's memo. A
            # list display or comprehension is a new list each time: nothing to meet again.
            self.top.append(f"m{i} = {{}}")
            if not (written is not None and written.startswith("[")):
                self.top.append(f"ud{i} = {{}}")
                compute = [f"d = {domain}", f"u = ud{i}.get(_m_id(d))",
                           f"if u is None: u = ud{i}[_m_id(d)] = (d, {keep})", f"f{i} = u[1]"]
            values = [f"v{self.names.index(d)}" for d in param.depends]
            # One value is its own key (a tuple of one would be made for nothing).
            self.emit(depth, f"k = {values[0] if len(values) == 1 else '(' + ''.join(v + ', ' for v in values) + ')'}")
            self.emit(depth, "try:")   # `get`: a missing key raises nothing (an exception costs more than the lookup)
            self.emit(depth + 1, f"f{i} = m{i}.get(k)")
            self.emit(depth, "except _m_TypeError:")   # a value that cannot be a key: computed each time, as the walk does
            self.emit(depth + 1, f"f{i} = None")
            self.emit(depth + 1, "k = _UNSET")
            self.emit(depth, f"if f{i} is None:")
            for line in compute:
                self.emit(depth + 1, line)
            self.emit(depth + 1, f"if k is not _UNSET: m{i}[k] = f{i}")
        if taken:
            self.emit(depth, f"it{i} = _m_distinct(f{i}[0], f{i}[1], {{{', '.join(taken)}}})")
        else:
            self.emit(depth, f"it{i} = f{i}")

    def _domain(self, i: int) -> str | None:
        """The source of parameter i's domain written into the lister, its earlier choices
        read from their locals (no call of the compiled domain, no `e` to fill): the same
        expression, so the same values, steps and faults. Written in full, without the
        values the requires keep. None when the lister was given no syntax node."""
        if self.domains is None or self.params[i].fixed is not None:
            return None
        node, scope = self.domains[i]
        binds = {n: b for n, b in self.binds.items() if n == "player" or n in self.names[:i]}
        g = self.g
        hoisted, g._hoisted = g._hoisted, {}
        try:
            return g.src(node, {n: k for n, k in scope.items() if n not in binds}, binds)
        finally:
            g._hoisted = hoisted

    def _zone(self, i: int) -> bool:
        """Whether parameter i's domain holds only pieces, as the state numbers them: a zone
        itself (its list), the items of a zone a comprehension keeps (`[c for c in Z where
        …]`), or a def whose body is one of those."""
        node, scope = self.domains[i]
        return _zone_items(self.g.x, node, {n: None for n in scope} | {n: None for n in self.names[:i]}, 0)

    def _distinct(self, i: int) -> bool:
        """Whether parameter i's domain never holds a value twice, so that its distinct choices
        are the list itself: a comprehension `[x for x in S where …]` keeping the items of a
        list S of distinct texts (a fixed board's cells or neighbours, an enum, such a
        comprehension, a def without parameters that is one)."""
        node, scope = self.domains[i]
        return _distinct_texts(self.g, node, {n: None for n in scope} | {n: None for n in self.names[:i]}, 0)



def _zone_items(x, node, local: dict, depth: int) -> bool:
    """Whether `node` (read with the names of `local` bound) is a zone's list of pieces or a
    comprehension keeping some of its items, proven from its shape: see _Writer._zone."""
    if depth > 8:
        return False
    if isinstance(node, ast.ListComp) and not node.more and isinstance(node.element, ast.Name) \
            and node.element.name == node.var:
        return _zone_items(x, node.source, local, depth + 1)
    if isinstance(node, ast.Call) and node.func not in local and x.zones.get(node.func) is None:
        decl = x.program.get(node.func, "def")
        if decl is None or len(decl.params) != len(node.args):
            return False
        return _zone_items(x, decl.body, {p: None for p in decl.params}, depth + 1)
    return x.is_zone(node, local)


def _distinct_texts(g, node, local: dict, depth: int) -> bool:
    """Whether `node` (read with the names of `local` bound) is a list of distinct texts,
    proven from its shape: see _Writer._distinct."""
    if depth > 8:
        return False
    from .. import boards
    x = g.x
    if isinstance(node, ast.ListComp):
        return not node.more and isinstance(node.element, ast.Name) and node.element.name == node.var \
            and _distinct_texts(g, node.source, local, depth + 1)
    if isinstance(node, ast.Call) and node.func not in local:
        if node.func == "neighbours" and len(node.args) == 2 and x.program.get(node.func) is None \
                and x.zones.get(node.func) is None and isinstance(node.args[0], ast.Name):
            record = x.boards.get(node.args[0].name)
            return record is not None and not record.is_open and node.args[0].name not in local \
                and all(_texts_apart(near) for near in record.adjacency.values())
        decl = x.program.get(node.func, "def")
        return decl is not None and not decl.params and not node.args \
            and _distinct_texts(g, decl.body, {}, depth + 1)
    if isinstance(node, ast.Name) and node.name not in local:
        decl = x.program.get(node.name, "def")
        if decl is not None:
            return not decl.params and _distinct_texts(g, decl.body, {}, depth + 1)
        value = x.fixed_list(node, local)
        return value is not None and _texts_apart(value)
    return False


def _texts_apart(values) -> bool:
    """Whether every value is a text and none is there twice."""
    return all(type(v) is str for v in values) and len(set(values)) == len(values)


def _state_only_calls(g, node, seen: set):
    """Calls inside the bodies of the defs `node` calls (and theirs, and so on) that read none
    of that def's parameters: values of the state alone, the same at every call, so that one
    computation serves a whole listing wherever the def's body is written out."""
    for call in _calls(node):
        decl = g.x.program.get(call.func, "def")
        if decl is None or decl.name in seen:
            continue
        seen.add(decl.name)
        yield from g._invariant_calls(decl.body, set(decl.params))
        yield from _state_only_calls(g, decl.body, seen)


def invariant_values(g, node, varying: set) -> list:
    """What `node` computes that reads none of `varying`, to be computed once: its searches
    (_invariant_searches) and its defs' calls (CodeGen._invariant_calls) outside them."""
    searches = _invariant_searches(node, varying) if SEARCHES_KEPT else []
    within = {id(n) for search in searches for n in _nodes(search)}
    return searches + [n for n in g._invariant_calls(node, varying) if id(n) not in within]


def _invariant_searches(node, varying: set) -> list:
    """The outermost searches of `node` — an aggregate: `any`, `all`, `count`, `sum` … of a
    comprehension — that read none of `varying` nor a variable of a comprehension around
    them: the same value at every choice of a loop over `varying`, as a def's call that reads
    none (CodeGen._invariant_calls). A search changes nothing, so one computation at its first
    use serves the whole loop; it charges its steps once, where the walk charges them at every
    choice (the steps of a lister are at most the walk's). A list comprehension is left where
    it is written, as it was: a value the loop may hold or go through."""
    out: list = []

    def walk(node, bound: frozenset) -> None:
        if isinstance(node, tuple):
            for item in node:
                walk(item, bound)
            return
        kind = type(node)
        parts = ast.parts_of(kind)
        if parts is None or kind is ast.Template:
            return
        if kind is ast.ListComp or kind is ast.Aggregate:
            if kind is ast.Aggregate and not {name for name, _, _ in free_names(node)} & (varying | bound):
                out.append(node)
                return
            bound = bound | {node.var} | {m.var for m in node.more}
        for name in parts:
            walk(getattr(node, name), bound)

    walk(node, frozenset())
    return out


def _nodes(node, into_comprehensions: bool = True):
    """Every syntax node of an expression, itself first (a comprehension's inside only when
    asked: its variables make the same text mean something else there)."""
    if isinstance(node, tuple):
        for item in node:
            yield from _nodes(item, into_comprehensions)
        return
    parts = ast.parts_of(type(node))
    if parts is None or type(node) is ast.Template:
        return
    yield node
    if not into_comprehensions and isinstance(node, (ast.ListComp, ast.Aggregate)):
        return
    for name in parts:
        yield from _nodes(getattr(node, name), into_comprehensions)


def _calls(node):
    """Every call in an expression, nested ones included."""
    return (n for n in _nodes(node) if isinstance(n, ast.Call))


def _repeated_calls(g, nodes: list) -> list[list]:
    """Groups of calls (of defs and board functions) written the same way, with the same
    arguments, more than once among `nodes`, not already kept, and reading no name a
    comprehension binds (those differ from one place to the next); inner calls first, so
    that an outer call's value is written with the inner one's kept value."""
    from .. import boards
    groups: dict = {}
    for node in nodes:
        for call in _calls_outside_comprehensions(node):
            if id(call) in g._hoisted:
                continue
            if g.x.program.get(call.func, "def") is None and call.func not in boards.FUNCTIONS:
                continue
            groups.setdefault(_shape(call), []).append(call)
    repeated = [group for group in groups.values() if len(group) > 1]
    return sorted(repeated, key=lambda group: _size(group[0]))


def _calls_outside_comprehensions(node):
    """The calls of an expression whose arguments read no name bound by a comprehension
    around them (a call inside one is kept only if it reads none of its variables)."""
    for n in _nodes(node, into_comprehensions=False):
        if isinstance(n, ast.Call):
            yield n
        elif isinstance(n, (ast.ListComp, ast.Aggregate)):
            # its own variables and those of any comprehension within it
            variables = {v for inner in _nodes(n) if isinstance(inner, (ast.ListComp, ast.Aggregate))
                         for v in [inner.var] + [m.var for m in inner.more]}
            for call in _calls(n):
                if not {name for name, _, _ in free_names(call)} & variables:
                    yield call


def _shape(node):
    """A node as a value, without its places in the source: equal for the same text."""
    from ..source import Span
    if isinstance(node, tuple):
        return tuple(_shape(item) for item in node)
    if not hasattr(node, "__dataclass_fields__"):
        return node
    return (type(node).__name__,) + tuple(
        _shape(getattr(node, f)) for f in node.__dataclass_fields__
        if not isinstance(getattr(node, f), Span))
