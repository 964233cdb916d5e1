"""A generated function per `prefer`: which of the listed moves it keeps.

decisions._narrow is the reference (and the path of explain()); the function generated here
keeps exactly what it keeps, in the same order, with the same faults, for less: see
_Narrower.
"""
from __future__ import annotations

import re
from typing import Callable

from .. import ast
from ..check.walk import free_names
from . import hoists, memo
from .codegen import state_reads
from .conditions import _DEEPEST, _LOOPS, _inlined, _params, truth_lines
from .expressions import CompileError
from .indexes import near_lifted_parts
from .listers import _helpers, _state_only_calls, invariant_values

# Whether a group whose prefer the counts of neighbours answer is judged at once (_near_group),
# and a narrowing's moves from the counts with what they read kept (_near_loop); False:
# choice by choice, move by move (tests compare the two).
AT_ONCE = True


# Whether a prefer leaves out the check that a value it reads can be a key (of a kept value,
# of its own memo) when the value is one of a list known at load of keys (_Narrower.keyed);
# False: checked for each (tests compare the two).
KEYED_CHOICES = True


# The types of values that may key a prefer's memo: a value of these equals only values of
# its own type (True == 1: booleans are judged afresh, never taken for a number kept).
KEYED = memo.KEYED   # the kept values' keys are of the same types


def prefer_narrower(codegen, action_name: str, params: list, clause, scope: dict) -> Callable | None:
    """`f(ctx, player, found)` -> the moves of `found` [move…] (decisions.move_shape's flat
    tuples) that one prefer keeps,
    exactly those and in the order decisions._narrow keeps them, or None (then _narrow is used).

    params: the action's Params; clause: the prefer's syntax (its condition and `per`);
    scope: the kinds of the action's locals."""
    try:
        return _Narrower(codegen, action_name, params, clause, scope).function()
    except (SyntaxError, RecursionError, MemoryError, CompileError):
        return None


def group_narrower(codegen, action_name: str, params: list, clause, scope: dict) -> tuple[str, bool] | None:
    """(name, memo) of `f(ctx, player, memo, a0, …, choices)`: what the prefer keeps of one
    group of moves, given as the values of every parameter but the last (a0, …) and the
    last one's choices (a value, or a (piece, label) pair) in the listing's order; `memo`
    is a dict the listing passes to every group (what the narrowing keeps for all its
    moves: the judgings of the combinations the prefer reads, the calls that read no
    parameter), or None when the function keeps nothing (`memo` False).

    For a prefer whose `per` names every parameter but the last, in order: a group is then
    one round of the listing's last loop, which listers.py judges there, instead of making
    every move first and grouping them after (the narrowing). None when the prefer is of
    another shape, or cannot be written."""
    from .listers import groups_by_last_loop
    if not groups_by_last_loop(params, clause):
        return None
    try:
        return _Narrower(codegen, action_name, params, clause, scope).function(group=True)
    except (SyntaxError, RecursionError, MemoryError, CompileError):
        return None


def _keyed(param) -> bool:
    """Whether every value of the parameter is one of a list known at load whose items can
    all be keys (`_m_keyed`, `_m_keyed_args`)."""
    return not param.encode_pieces and param.fixed is not None \
        and all(type(v) in KEYED for v in param.fixed)


class _Narrower:
    """A prefer judges every legal move after the listing, in the listing's order (a prefer
    that faults must fault on the move the reference faults on, and only once the listing
    itself succeeded, which may have taken the plain way). Generated, it reads the state
    through locals and each parameter it reads from the move's env once; it judges each
    combination of the parameters it reads once (when it leaves one unread: the moves are
    otherwise each a different combination), by a key checked to be one only for values
    that may not be (`keyed`: a fixed board's cells always are); it keeps the calls that
    read no parameter for the whole narrowing; and it computes a group's key once per run
    of moves sharing the very values of the `per` parameters instead of once per move.

    The condition is written as statements where Python would spend more on the machinery
    than on the work: `any`/`all` of a comprehension as loops (a generator and a call of
    any() per move cost more than a few items judged), `and`/`or`/`not`/`if` as tests of
    `ok`, a def codegen inlines as its body. Each part is computed in the order and with the
    steps the expression codegen writes for it (`many`) would compute it."""

    def __init__(self, codegen, action_name, params, clause, scope):
        self.g = codegen
        self.action = action_name
        self.clause = clause
        self.scope = scope
        used = {name for name, _, _ in free_names(clause.cond)}
        names = list(dict.fromkeys(p.name for p in params))
        self.names = names
        # Where a move's tuple holds each name's value and argument: a repeated name reads as
        # its last place, as the move's env and arguments do (decisions.move_args, move_env).
        labelled = [j for j, p in enumerate(params) if p.encode_pieces]
        label_at = {j: len(params) + k for k, j in enumerate(labelled)}
        self.value_at = {p.name: j for j, p in enumerate(params)}
        self.params_pieces = [p.encode_pieces for p in params]
        self.arg_at = {p.name: label_at.get(j, j) for j, p in enumerate(params)}
        self.read = [n for n in names if n in used]
        # The names read whose values are a list known at load of values that can all be keys
        # (a fixed board's cells): every move listed holds one of those, so does every choice
        # of a group (group_narrower).
        self.keyed = {name for name in self.read if _keyed(params[self.value_at[name]])} \
            if KEYED_CHOICES else set()
        self.per = [n for n, _ in clause.per]
        self.memo = len(self.read) < len(names)
        # Whether the prefer is one kept def's call, its values' steps added up (function).
        self.later = False

    def function(self, group: bool = False):
        """The narrowing; with `group`, (name, memo) of group_narrower's function instead."""
        g = self.g
        g.ns.update(_helpers())
        fname = f"_pg{next(g._ids)}" if group else f"_prefer{next(g._ids)}"
        binds = {"player": ("pl", self.scope.get("player", "player"))}
        for j, name in enumerate(self.read):
            binds[name] = (f"v{j}", self.scope.get(name) or "value")
        starts, kept = [], []   # the hoisted values' first assignments
        hoisted = hoists.Hoists()
        state_locals, g.state_locals = g.state_locals, True
        try:
            for n, scope, local in self._hoistable(binds):
                if id(n) in g._hoisted:
                    continue
                number = len(kept)
                # By group, a call kept for the narrowing is kept in the listing's memo: the
                # groups share it as the narrowing's moves do (computed, and charged, once).
                start = f"memo.get((_UNSET, {number}), _UNSET)" if group else "_UNSET"
                starts.append(f"    hq{number} = {start}")
                g._hoisted[id(n)] = hoisted.use(number, g.src(n, scope, local),
                                                f"memo, (_UNSET, {number})" if group else None)
                kept.append(id(n))
            g._partial = []
            first = self._first_by_run(binds)
            if first is not None:
                g._hoisted[id(first[0])] = "hs"
                kept.append(id(first[0]))
            # A prefer that is one call of a kept def (`next_to_own(h, player, none)`) looks
            # its value up for every move: the steps of the values met are added up in a local
            # and charged once after the loop, where nothing between can fault (see kept_lines).
            g.steps_later, g.prologue = True, []
            g.keyed_locals = frozenset(binds[name][0] for name in self.keyed)
            try:
                test = g.kept_lines(self.clause.cond, self.scope, binds, "    " * (3 if self.memo else 2))
                g.steps_later = False
                self.later = test is not None
                if test is None:
                    test = truth_lines(g, self.clause.cond, self.scope, binds, 3 if self.memo else 2, 1)
                at_once = self._near_group(binds, first) if group and not self.later and not self.memo else None
                near = self._near_parts(binds, first) if not group and not self.later and not self.memo else None
                prologue = [f"    {line}" for line in g.prologue]
            finally:
                g.steps_later, g.prologue = False, None
                g.keyed_locals = frozenset()
            partial = [f"    {name} = {{}}" for name in g._partial]
        finally:
            for n in kept:
                g._hoisted.pop(n, None)
            g.state_locals = state_locals
            g._partial = None
        loop = self._group_loop(test, first, at_once) if group else self._loop(test, first, near)
        lines = ["    pl = player"] + starts + ["    " + hoists.DEFS] + partial + prologue + loop
        if group:
            values = "".join(f"a{j}, " for j in range(len(self.names) - 1))
            head = f"def {fname}(c, player, memo, {values}choices):"
            filename = f"<regnum prefer {self.action}.{self.clause.name} by group>"
        else:
            head, filename = f"def {fname}(c, player, found):", f"<regnum prefer {self.action}.{self.clause.name}>"
        lines = [head] + state_reads("\n".join(lines)) + lines
        source = "\n".join(lines) + "\n"
        source = hoisted.compile(g, source, filename)
        fn = g.ns[fname]
        fn.source = source   # for reading what was generated
        return (fname, self.memo or bool(starts) or at_once is not None) if group else fn

    def _hoistable(self, binds):
        """(node, scope, binds) of each call the prefer can compute once per narrowing: those
        that read no parameter (the player is the same for every move), and those inside the
        bodies of the defs it calls that read none of the def's parameters; and, as the
        listers do, each search (an aggregate of a comprehension) that reads no parameter."""
        g = self.g
        for n in invariant_values(g, self.clause.cond, set(self.names)):
            yield n, self.scope, binds
        for n in _state_only_calls(g, self.clause.cond, set()):
            yield n, {}, {}

    def _first_by_run(self, binds) -> tuple | None:
        """(node, its source, the locals of the parameters it reads) of the test a condition
        `A or …` / `A and …` judges first for every move, when A reads some of the parameters
        the condition reads but not all, and mentions no context (it charges no step and
        reads only locals and the state, which a narrowing never changes): `card.kind ==
        joker` of a move (card, from, to). The moves come in runs sharing a card, so A is
        judged once per run of the very same values, at the first move of the run, where it
        is judged anyway and fails if it fails. None otherwise (or when the whole condition
        is judged once per combination of what it reads: `memo`)."""
        if self.memo:
            return None
        node = self.clause.cond
        if not (isinstance(node, ast.Binary) and node.op in ("and", "or")):
            return None
        while isinstance(node, ast.Binary) and node.op in ("and", "or"):
            node = node.left
        read = {name for name, _, _ in free_names(node)} & set(self.read)
        if not read or len(read) == len(self.read):
            return None
        source = self.g.src(node, self.scope, binds)
        if re.search(r"\bc\b", source):
            return None
        return node, source, [binds[name][0] for name in self.read if name in read]

    def _judging(self, test: list, first: tuple | None) -> list:
        """The lines inside the loop that set `ok` for the move whose values are v0, …: the
        test `first` judged once per run, then `test`, or the memo's judging of the same
        values when there is one."""
        lines = self._run_test(first, "        ") if first is not None else []
        if not self.memo:
            return lines + test
        read = self.read
        key = f"({''.join(f'v{j}, ' for j in range(len(read)))})" if len(read) != 1 else "v0"
        keyed = " and ".join(f"type(v{j}) in _m_keyed" for j, name in enumerate(read) if name not in self.keyed)
        lines.append(f"        k = {key} if {keyed} else _UNSET" if keyed else f"        k = {key}")
        lines += ["        ok = memo.get(k)", "        if ok is None:"] + test
        return lines + ["            if k is not _UNSET:" if keyed else "            if True:", "                memo[k] = ok"]

    @staticmethod
    def _run_test(first: tuple, indent: str, before: tuple = ()) -> list:
        """The lines judging `first` (_first_by_run) as `hs` when the values it reads are
        other objects than the last move's, at `indent`; `before`: lines run just before it."""
        _, source, locals_ = first
        lines = [f"{indent}if {' or '.join(f'{v} is not w{j}' for j, v in enumerate(locals_))}:"]
        lines += [f"{indent}    w{j} = {v}" for j, v in enumerate(locals_)]
        return lines + [f"{indent}    {line}" for line in before] + [f"{indent}    hs = {source}"]

    def _near_parts(self, binds, first, choice: str | None = None) -> tuple | None:
        """(A's node or None, the counts, the index's values, the adjacency, the choice's
        local, y's source) for a prefer `K(x, player, y)` or `A or K(x, player, y)` whose K
        the counts of neighbours answer (indexes.near_lifted: x's count, less one when y, one
        of the player's, is among its neighbours), x a parameter the prefer reads that holds
        no piece (`choice`, its local, when given), y anything else read plainly, and A
        judged once a run of moves (`hs`, _first_by_run) without reading x. None for any
        other prefer."""
        if not AT_ONCE:
            return None
        node = self.clause.cond
        guard = None
        if isinstance(node, ast.Binary) and node.op == "or":
            guard, node = node.left, node.right
            if first is None or first[0] is not guard:
                return None   # a guard judged move by move (or a condition of another shape)
        if not isinstance(node, ast.Call):
            return None
        g = self.g
        inlined = _inlined(g, node, self.scope, binds)
        if inlined is None:
            return None
        args = [a for a, _ in (inlined[1][p] for p in _params(g, node))]
        if not args:
            return None
        cell = args[0].strip("()")
        plain = {f"v{j}" for j, name in enumerate(self.read) if not self.params_pieces[self.value_at[name]]}
        if cell != (choice or cell) or cell not in plain or args[-1].strip("()") == cell:
            return None
        if guard is not None and cell in first[2]:
            return None   # a guard that reads the choice is no test of a run
        parts = near_lifted_parts(g, node, args)
        if parts is None:
            return None
        counts, values, adjacency, _, lifted = parts
        return guard, counts, values, adjacency, cell, lifted

    def _near_group(self, binds, first) -> list | None:
        """The lines judging a whole group at once, before its loop, for a prefer of
        _near_parts' shape whose x is the choice and y the same for the group (an earlier
        parameter): each choice's count and neighbours read once a listing for the group's
        list of choices (engine/memo.near_rows), the steps of every choice charged together,
        where nothing between could fault. The loop judges the group as before where the
        counts do not stand or a choice is no key. None for any other prefer."""
        if self.names[-1] not in self.read or self.params_pieces[-1]:
            return None
        choice = f"v{self.read.index(self.names[-1])}"
        parts = self._near_parts(binds, first, choice)
        if parts is None:
            return None
        guard, counts, values, adjacency, _, lifted = parts
        lines = ["    if choices:"]
        if guard is not None:   # judged as the loop judges it at its first choice
            lines += [f"        hs = {first[1]}", f"        if not hs and {counts} is not None:"]
        else:
            lines.append(f"        if {counts} is not None:")
        return lines + [f"            _nr = _m_near_rows(memo, choices, {counts}, {adjacency})",
                        "            if _nr is not None:",
                        "                c.steps += _nr[0]",
                        "                if c.steps > c.max_steps: c.runaway()",
                        f"                _lo = type({lifted}) in _m_keyed_args and {values}.get({lifted}) == pl",
                        f"                kept = [x for x, n, around in _nr[1] if n > 1 or (n and not (_lo and {lifted} in around))]",
                        "                return kept if kept else choices"]

    def _group_loop(self, test: list, first: tuple | None, at_once: list | None = None) -> list:
        """_loop over one group's choices (group_narrower): the values of the parameters
        before the last are the arguments a0, …; the last is each choice. The same tests in
        the same order, the memo the listing's, the steps added up charged once the group
        is judged (a listing's groups add up to the narrowing's total). `at_once`: lines
        judging the whole group before the loop where they can (_near_group)."""
        last = self.names[-1]
        pieces = self.params_pieces[-1]
        lines = ["    acc = 0", "    _me = c.state.memo.entries"] if self.later else []
        lines.append("    kept = []")
        if first is not None:
            lines += [f"    w{j} = _UNSET" for j in range(len(first[2]))]
        lines += [f"    v{j} = a{self.names.index(name)}" for j, name in enumerate(self.read) if name != last]
        lines += at_once or []
        lines.append("    for ch in choices:")
        if last in self.read:
            lines.append(f"        v{self.read.index(last)} = {'ch[0]' if pieces else 'ch'}")
        lines += self._judging(test, first) + ["        if ok:", "            kept.append(ch)"]
        if self.later:
            lines += ["    c.steps += acc", "    if c.steps > c.max_steps: c.runaway()"]
        return lines + ["    return kept if kept else choices"]

    def _loop(self, test: list, first: tuple | None = None, near: tuple | None = None) -> list:
        """The loop over the moves: each judged (`ok`, by the lines `test`), then kept as
        _narrow keeps it; `first`: a test judged once per run of moves (_first_by_run);
        `near`: _near_parts of the prefer, whose moves are judged by _near_loop first."""
        per, read = self.per, self.read
        lines = ["    acc = 0", "    _me = c.state.memo.entries"] if self.later else []
        if self.memo:
            lines.append("    memo = {}")
        if per:
            start = ["    good = _m_set()", "    marks = []"] + [f"    q{j} = _UNSET" for j in range(len(per))]
        else:
            start = ["    kept = []"]
        if first is not None:
            start += [f"    w{j} = _UNSET" for j in range(len(first[2]))]
        lines += start
        if near is not None:
            lines += self._near_loop(first, near, start)
        lines.append("    for m in found:")
        lines += [f"        v{j} = m[{self.value_at[name]}]" for j, name in enumerate(read)]
        lines += self._judging(test, first)
        if self.later:   # after every move is judged; a move may not end here
            charged = ["    c.steps += acc", "    if c.steps > c.max_steps: c.runaway()"]
        else:
            charged = []
        body, after = self._keeping()
        return lines + [f"        {line}" for line in body] + charged + [f"    {line}" for line in after]

    def _keeping(self) -> tuple[list, list]:
        """(the lines keeping the move `m` judged `ok`, in the loop over the moves; the lines
        returning what _narrow keeps, after it), both unindented."""
        per = self.per
        if not per:
            return ["if ok:", "    kept.append(m)"], ["return kept if kept else found"]
        # The group of a move: the key _narrow gives it (decisions._hashable of each `per`
        # argument), computed again only when an argument is another object than the last.
        # An argument that is the value read already (no piece's label) is its local.
        args = [f"v{self.read.index(name)}" if name in self.read and self.arg_at[name] == self.value_at[name]
                else f"p{j}" for j, name in enumerate(per)]
        lines = [f"p{j} = m[{self.arg_at[name]}]" for j, name in enumerate(per) if args[j] == f"p{j}"]
        lines.append(f"if {' or '.join(f'{a} is not q{j}' for j, a in enumerate(args))}:")
        lines += [f"    q{j} = {a}" for j, a in enumerate(args)]
        parts = [f"({a} if type({a}) is int or type({a}) is str else _m_key({a}))" for a in args]
        lines.append(f"    gk = {parts[0] if len(parts) == 1 else '(' + ', '.join(parts) + ')'}")
        lines += ["if ok:", "    good.add(gk)", "    marks.append(None)", "else:", "    marks.append(gk)"]
        return lines, ["if not good:", "    return found",
                       "return [m for m, gk in _m_zip(found, marks) if gk is None or gk not in good]"]

    def _near_loop(self, first: tuple | None, near: tuple, start: list) -> list:
        """The narrowing's loop for a prefer of _near_parts' shape, judging each move from the
        counts with what it reads kept for the narrowing: each choice's count and neighbours
        read once (a choice comes back in every run of moves), whether y is one of the
        player's read once a value of y, the steps added up. They are charged before A is
        judged again (which may fault: it faults where the moves judged one by one fault, the
        steps before it charged) and at the end; nothing else between can fault. Where the
        counts do not stand (the loop is not entered) or a choice is no key (the loop gives
        up, its steps not charged, and what it kept made anew by the lines `start`), the loop
        after it judges every move as written."""
        guard, counts, values, adjacency, choice, lifted = near
        name = self.read[int(choice[1:])]
        lines = [f"    if {counts} is not None:", "        _ns0 = c.steps", "        _nsum = 0", "        _nrows = {}",
                 "        _nwl = _UNSET", "        _nlo = False", "        for m in found:"]
        lines += [f"            v{j} = m[{self.value_at[n]}]" for j, n in enumerate(self.read)]
        judge = "            "
        if guard is not None:   # the steps before A charged before it is judged
            charged = ("if _nsum:", "    c.steps += _nsum", "    _nsum = 0", "    if c.steps > c.max_steps: c.runaway()")
            lines += self._run_test(first, "            ", charged)
            lines += ["            if hs:", "                ok = True", "            else:"]
            judge += "    "
        if name not in self.keyed:
            lines += [f"{judge}if type({choice}) not in _m_keyed_args:", f"{judge}    break"]
        lines += [f"{judge}if {lifted} is not _nwl:", f"{judge}    _nwl = {lifted}",
                  f"{judge}    _nlo = type(_nwl) in _m_keyed_args and {values}.get(_nwl) == pl",
                  f"{judge}_nr = _nrows.get({choice})",
                  f"{judge}if _nr is None:",
                  f"{judge}    _na = {adjacency}.get({choice}, ())",
                  f"{judge}    _nr = _nrows[{choice}] = (len(_na), {counts}.get({choice}, 0), _na)",
                  f"{judge}_nsum += _nr[0]",
                  f"{judge}_nn = _nr[1]",
                  f"{judge}ok = _nn > 1 or (_nn > 0 and not (_nlo and {lifted} in _nr[2]))"]
        body, after = self._keeping()
        # The loop ends by returning (`for … else`); a loop that gave up charges nothing.
        return (lines + [f"            {line}" for line in body]
                + ["        else:", "            c.steps += _nsum", "            if c.steps > c.max_steps: c.runaway()"]
                + [f"            {line}" for line in after] + ["        c.steps = _ns0"]
                + [f"    {line}" for line in start])
