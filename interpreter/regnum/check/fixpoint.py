"""The analysis' fixpoint, walking again only the declarations whose inputs changed.

The fixpoint (analysis.py) repeats the walk until the zones' contents and the
parameters' expectations stop changing. A declaration's walk reads few of
them: a rule that never names a zone learns nothing new when a zone grows. So
each declaration's walk is kept with the values it read (of zones and of
expectations, its own and those of the defs and constants whose types it
asked for) and the facts it gave; a round walks again only the declarations
for which one of those values is now different, and takes the kept facts of
the others. The result is the same as walking everything each round:

- a walk is a function of what it reads: the Program never changes, and each
  round starts a fresh walker, whose caches (a def's or constant's type) are
  functions of what they read too; except when defs or constants refer to
  each other in a cycle: then a type depends on which was asked for first,
  and every round walks everything, as before;
- the notes on operators the compiler reads (Program.cheap_ops) are a
  conjunction over every walk: walking again what would give the same notes
  changes nothing;
- "did you mean" has a budget per check, which the quiet walks spend too
  (their hints are dropped, but the candidates are counted): what a walk
  not taken again would have spent, a walk of the same inputs spent before,
  and it is taken from the budget as if spent again.

The walk that reports (analysis.analyse) would walk every declaration once more
with the fixpoint's answers. Its findings are those of each declaration's last
walk here, whose inputs were the same: the references, runs, asks and spawns
of the declaration's own code are kept with its walk (not those of the def
and constant types it asked for, which that walk infers quietly apart), and so
is whether it found anything to report. When none did, and the fixpoint's
answers are what its last round read (it converged and left no zone empty,
which the reporting walk reads as "any"), the reporting walk would report
nothing: its facts are the kept ones, in the same order. Nor would it spend any
of the "did you mean" budget, which is spent only on a mistake, and a type
inferred quietly finds only mistakes its declaration's own walk finds too.
Otherwise the reporting walk runs, as it always did.
"""
from __future__ import annotations

from .. import diagnostics
from ..program import Program
from .exprs import ExprChecker
from .report import Facts, QuietReport, Report

MAX_ROUNDS = 20
_MISSING = object()


def fixpoint(program: Program, walker) -> tuple[dict, dict]:
    """What the walk learns from itself, repeated until it stops changing.

    Zone family -> the piece types it may ever hold (None: any), from creates
    and moves; and for each def, rule and scoring, what types its body needs
    of its parameters (so that callers' arguments can be checked).
    `walker(program, zone_pieces, expects, report, exprs)` makes a walker
    (analysis._Walker) whose `units()` are its declarations in order.
    """
    zones, expects, _ = fixpoint_and_last(program, walker)
    return zones, expects


def fixpoint_and_last(program: Program, walker) -> tuple[dict, dict, Facts | None]:
    """`fixpoint`'s answers, and the facts the reporting walk after it would find when it
    is known to find them and nothing to report (None otherwise: see the module's
    docstring). Its walks are quiet: a hint they ask for is dropped, so it is not looked for
    (its budget is spent all the same)."""
    with diagnostics.quietly():
        return _rounds(program, walker)


def _rounds(program: Program, walker) -> tuple[dict, dict, Facts | None]:
    contents: dict = {z.name: frozenset() for z in program.of_kind("zone")}
    expects: dict = {}
    kept: dict = {}      # origin -> _Kept: the last walk of each declaration
    types: dict = {}     # ("def" | "const", name) -> _Frame: the last inference of each type
    every = True         # the first round walks everything (and finds cycles)
    last = None
    for _ in range(MAX_ROUNDS):
        tracker = _Tracker(types, contents, expects, reuse=not every)
        report = tracker.report = _FactsOnly()
        walk = walker(program, _Read(contents, tracker, "zones"), _Read(expects, tracker, "expects"), report,
                      lambda symbols, report_: _TypesChecker(symbols, report_, tracker))
        order = []
        for origin, method, decl in walk.units():
            order.append(origin)
            before = kept.get(origin)
            if every or before is None or before.frame.changed(contents, expects):
                report.origin, report.facts, report.reported = origin, Facts(), False
                frame = tracker.enter()
                report.own = True
                method(decl)
                report.own = False
                tracker.leave(frame)
                kept[origin] = _Kept(frame, report.facts, report.reported, origin)
            else:
                tracker.spend(before.frame.spent)
        tracker.spend_unasked({key for origin in order for key in kept[origin].frame.uses}, walk.x,
                              contents, expects)
        moves = [move for origin in order for move in kept[origin].facts.moves]
        learnt = {origin: kept[origin].expects for origin in order if kept[origin].expects is not None}
        grown = _grow(contents, moves)
        if grown == contents and learnt == expects:
            if frozenset() not in contents.values() and not any(kept[origin].reported for origin in order):
                last = _joined([kept[origin].facts for origin in order], learnt)
            break
        contents, expects = grown, learnt
        every = tracker.cyclic
    else:
        contents = {z: None for z in contents}
    return {z: (p or None) for z, p in contents.items()}, expects, last  # a zone never filled: any


def _joined(walks: list[Facts], expects: dict) -> Facts:
    """The facts of one walk of every declaration, from each one's own walk, in order."""
    out = Facts(expects=dict(expects))
    for facts in walks:
        out.refs |= facts.refs
        out.runs += facts.runs
        out.asks += facts.asks
        out.spawns += facts.spawns
        out.moves += facts.moves
    return out


def _grow(contents: dict, moves: list) -> dict:
    grown = dict(contents)
    for family, pieces in moves:
        if family is None:  # a move into a zone not known statically: any zone may hold anything
            return {z: None for z in contents}
        if family in grown and grown[family] is not None:
            grown[family] = None if pieces is None else grown[family] | pieces
    return grown


class _FactsOnly(QuietReport):
    """Keeps the facts the fixpoint needs (moves, expectations); and, of a declaration's own
    code only (`own`: while it is walked, not while a type it asks for is inferred), the
    facts the other passes read and whether a diagnostic was found (`reported`), which a
    quiet walk drops. The fixpoint sets `own` around each declaration's walk; a walker
    without it keeps them of all its walk."""

    def __init__(self):
        super().__init__()
        self.own = True
        self.reported = False

    def _add(self, d) -> None:
        if self.own:
            self.reported = True

    def ref(self, name: str) -> None:
        if self.own:
            self.facts.refs.add((self.origin, name))

    def run(self, target: str, span, in_simultaneous: bool) -> None:
        if self.own:
            Report.run(self, target, span, in_simultaneous)

    def ask(self, span, in_simultaneous: bool, actions: tuple) -> None:
        if self.own:
            Report.ask(self, span, in_simultaneous, actions)

    def spawn(self, span, in_simultaneous: bool) -> None:
        if self.own:
            Report.spawn(self, span, in_simultaneous)

    def move(self, family, pieces) -> None:
        self.facts.moves.append((family, pieces))

    def expect(self, param: str, want) -> None:
        Report.expect(self, param, want)


class _Kept:
    __slots__ = ("frame", "facts", "expects", "reported")

    def __init__(self, frame, facts: Facts, reported: bool, origin: str):
        self.frame, self.facts, self.reported = frame, facts, reported
        self.expects = facts.expects.get(origin)


class _Frame:
    """What one walk (of a declaration, or of a def's or constant's type) read and spent.

    `zones` and `expects`: key -> the value read (_MISSING when absent); `uses`:
    the def and constant types asked for, through others too; `spent`: the
    "did you mean" budget spent by this walk itself, not by the types it asked for.
    """

    __slots__ = ("zones", "expects", "uses", "spent", "start", "nested", "type")

    def __init__(self, start):
        self.zones: dict = {}
        self.expects: dict = {}
        self.uses: set = set()
        self.spent = 0
        self.start = start      # the budget when the walk began
        self.nested = 0         # the budget spent by the types first asked for inside it
        self.type = None        # of a def's or constant's walk: the type it found

    def add(self, other: "_Frame") -> None:
        self.zones.update(other.zones)
        self.expects.update(other.expects)
        self.uses |= other.uses

    def changed(self, contents: dict, expects: dict) -> bool:
        """Whether a value this walk read is different now."""
        return any(contents.get(k, _MISSING) != v for k, v in self.zones.items()) or \
            any(expects.get(k, _MISSING) != v for k, v in self.expects.items())


class _Tracker:
    """The frames of the walks under way, innermost last, and the types found this round."""

    def __init__(self, types: dict, contents: dict, expects: dict, reuse: bool):
        self.budget = diagnostics._SUGGESTIONS.get()  # the shared counter did_you_mean takes from
        self.stack: list[_Frame] = []
        self.types = types          # kept across rounds
        self.contents, self.expects = contents, expects   # this round's inputs
        self.reuse = reuse          # whether a type found in an earlier round may be taken again
        self.found: set = set()     # the keys of `types` inferred this round
        self.asking: set = set()    # the keys being inferred now
        self.cyclic = False         # a type was asked for while it was being inferred
        self.report = None          # the round's _FactsOnly, told when a type is inferred (type_of)

    def left(self) -> int:
        return self.budget[0] if self.budget is not None else 0

    def enter(self) -> _Frame:
        frame = _Frame(self.left())
        self.stack.append(frame)
        return frame

    def leave(self, frame: _Frame) -> None:
        self.stack.pop()
        total = frame.start - self.left()
        frame.spent = total - frame.nested
        if self.stack:
            self.stack[-1].nested += total

    def spend(self, amount: int) -> None:
        """Take from the budget what a walk not taken again would have spent (as did_you_mean
        does: only while some is left)."""
        if self.budget is not None and self.budget[0] > 0:
            self.budget[0] -= amount

    def read(self, part: str, key, value) -> None:
        if self.stack:
            getattr(self.stack[-1], part)[key] = value

    def type_of(self, key, cache: dict, name: str, infer):
        """A def's or constant's type through the walker's cache, noting what it read."""
        top = self.stack[-1] if self.stack else None
        if name in cache:
            if key in self.asking:
                self.cyclic = True      # the placeholder of a cycle: which type came first matters
            elif top is not None and key not in top.uses:   # its reads are noted once
                top.add(self.types[key])
                top.uses.add(key)
            return infer()
        last = self.types.get(key)
        if self.reuse and last is not None and not last.changed(self.contents, self.expects):
            cache[name] = last.type      # what inferring it again would give, and spend
            self.spend(last.spent)
            frame = last
        else:
            frame = self.enter()
            self.asking.add(key)
            report = self.report
            own, report.own = report.own, False   # what the type's walk finds is no declaration's
            try:
                frame.type = infer()
            finally:
                report.own = own
                self.asking.discard(key)
                self.leave(frame)
            self.types[key] = frame
        self.found.add(key)
        if top is not None and key not in top.uses:
            top.add(frame)
            top.uses.add(key)
        return frame.type

    def spend_unasked(self, keys: set, checker: ExprChecker, contents: dict, expects: dict) -> None:
        """A full round infers each type some declaration asks for once: spend the budget of
        those no walk of this round asked for (inferring again one whose inputs changed)."""
        for key in sorted(keys - self.found):
            if key in self.found:       # inferred just now, for another one
                continue
            frame = self.types[key]
            if frame.changed(contents, expects):
                kind, name = key
                if kind == "def":
                    checker.def_type(checker.s.decl(name, "def"))
                else:
                    checker.const_type(name)
            else:
                self.spend(frame.spent)


class _Read(dict):
    """The zones' contents or the expectations, telling the tracker each value read."""

    def __init__(self, values: dict, tracker: _Tracker, part: str):
        super().__init__(values)
        self.tracker, self.part = tracker, part

    def get(self, key, default=None):
        value = dict.get(self, key, _MISSING)
        self.tracker.read(self.part, key, value)
        return default if value is _MISSING else value

    def __getitem__(self, key):
        self.tracker.read(self.part, key, dict.get(self, key, _MISSING))
        return dict.__getitem__(self, key)


class _TypesChecker(ExprChecker):
    """An ExprChecker whose def and constant types are noted by the tracker."""

    def __init__(self, symbols, report, tracker: _Tracker):
        super().__init__(symbols, report)
        self.tracker = tracker

    def def_type(self, decl):
        return self.tracker.type_of(("def", decl.name), self.quiet._def_types, decl.name,
                                    lambda: ExprChecker.def_type(self, decl))

    def const_type(self, name: str):
        return self.tracker.type_of(("const", name), self.quiet._const_types, name,
                                    lambda: ExprChecker.const_type(self, name))
