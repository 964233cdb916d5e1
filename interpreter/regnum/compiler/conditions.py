"""Conditions written as statements and loops instead of one expression.

A require or a prefer judged for every candidate move often holds an `any`/`all` of a
comprehension or a count of one compared with a number; as an expression that is a
generator and a call of any() per candidate, which cost more than the few items judged.
Written as nested loops, the same work stops where the generator would stop (a count goes
through every item), charges each source where the generator charges it and faults where
it faults, so moves, coverage, steps and errors stay those of the expression. Used by the
move listers (listers.py) and the prefers' narrowings (prefers.py).
"""
from __future__ import annotations

import re

from .. import ast
from ..check.walk import free_names
from .codegen import _COMPARE, _NOT_KNOWN, _item_kind
from .indexes import near_lifted


def truth_lines(g, node, scope, binds, depth: int, loops: int) -> list:
    """Lines, indented `depth` levels, that set `ok` to the truth (a bool) of `node`;
    `loops` counts the loops around them (Python nests at most 20)."""
    pad = "    " * depth
    if depth < _DEEPEST and loops < _LOOPS and id(node) not in g._hoisted:
        if isinstance(node, ast.Binary) and node.op in ("and", "or"):
            return truth_lines(g, node.left, scope, binds, depth, loops) \
                + [f"{pad}if {'ok' if node.op == 'and' else 'not ok'}:"] \
                + truth_lines(g, node.right, scope, binds, depth + 1, loops)
        if isinstance(node, ast.Unary) and node.op == "not":
            return truth_lines(g, node.operand, scope, binds, depth, loops) + [f"{pad}ok = not ok"]
        if isinstance(node, ast.IfExpr):
            return truth_lines(g, node.cond, scope, binds, depth, loops) + [f"{pad}if ok:"] \
                + truth_lines(g, node.then, scope, binds, depth + 1, loops) + [f"{pad}else:"] \
                + truth_lines(g, node.otherwise, scope, binds, depth + 1, loops)
        if isinstance(node, ast.Aggregate) and node.func in ("any", "all"):
            return _search(g, node, scope, binds, depth, loops)
        if _tallied(g, node):
            return _tally(g, node, scope, binds, depth, loops)
        if isinstance(node, ast.Call):
            kept = g.kept_lines(node, scope, binds, pad)
            if kept is not None:
                return kept
            inlined = _inlined(g, node, scope, binds)
            if inlined is not None:
                body, inner = inlined
                # A neighbour's count in place of the search, where an index counts them
                # (indexes.near_lifted); the search as written where it cannot.
                counted = near_lifted(g, node, [a for a, _ in (inner[p] for p in _params(g, node))])
                g._inlining += 1
                try:
                    plain = truth_lines(g, body, {}, inner, depth + (counted is not None), loops)
                finally:
                    g._inlining -= 1
                if counted is None:
                    return plain
                test, answer = counted
                return [f"{pad}if {test}:"] + [f"{pad}    {line}" for line in answer] + [f"{pad}else:"] + plain
    if isinstance(node, ast.Binary) and node.op in _TRUTH_VALUED:   # a truth value already
        return [f"{pad}ok = {g.src(node, scope, binds)}"]
    return [f"{pad}ok = not not ({g.src(node, scope, binds)})"]


# The operators whose every compiled form gives a truth value (`==`, `_compare`, `_in`,
# `_in_fixed`, `is`, a zone tested empty, a comparison folded at load): `ok` needs no `not not`.
_TRUTH_VALUED = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in"})


def loops_pay(g, node, local: set) -> bool:
    """Whether truth_lines writes a loop for `node` (`local`: the names that are not the ruleset's
    there). Only then is a require worth writing as statements: a plain condition costs
    less as the one `if` it is."""
    if id(node) in g._hoisted:
        return False
    if isinstance(node, ast.Binary) and node.op in ("and", "or"):
        return loops_pay(g, node.left, local) or loops_pay(g, node.right, local)
    if isinstance(node, ast.Unary) and node.op == "not":
        return loops_pay(g, node.operand, local)
    if isinstance(node, ast.IfExpr):
        return any(loops_pay(g, n, local) for n in (node.cond, node.then, node.otherwise))
    if isinstance(node, ast.Aggregate) and node.func in ("any", "all") or _tallied(g, node):
        return True
    if isinstance(node, ast.Call):
        if g.keeps_call(node, local):
            return True   # its kept value looked up in place (CodeGen.kept_lines)
        decl = _inlined_def(g, node, local)
        if decl is not None:
            g._inlining += 1
            try:
                return loops_pay(g, decl.body, set(decl.params))
            finally:
                g._inlining -= 1
    return False


def _comprehension(g, node, scope, binds, depth: int, loops: int):
    """(lines, binds within, depth within, loops within) of the loops of a comprehension:
    each source counted where the generator codegen writes (_generator) counts it, by the
    same steps _walk charges, each `where` a `continue`."""
    lines = []
    inner = dict(binds)
    level = depth
    for name, source_node, cond_node in [(node.var, node.source, node.cond)] + [
            (m.var, m.source, m.cond) for m in node.more]:
        source = g.iterable(source_node, scope, inner)
        var, items = g._fresh(), g._fresh()
        kind = _item_kind(g.x.kind(source_node, g._kinds(scope, inner)))
        inner = dict(inner)
        inner[name] = (var, kind)
        pad = "    " * level
        lines += [f"{pad}{items} = {source}", f"{pad}c.steps += len({items})",
                  f"{pad}if c.steps > c.max_steps: c.runaway()", f"{pad}for {var} in {items}:"]
        level += 1
        loops += 1
        if cond_node is not None:
            lines += [f"{'    ' * level}if not ({g.src(cond_node, scope, inner)}):", f"{'    ' * level}    continue"]
    return lines, inner, level, loops


def _search(g, node, scope, binds, depth: int, loops: int) -> list:
    """`any`/`all` of a comprehension as nested loops, stopping at the first item that
    decides."""
    if g._partial is not None and node.func == "any":
        kept = _kept_search(g, node, scope, binds, depth, loops)
        if kept is not None:
            return kept
    if g._inner_memos is not None and node.more:
        kept = _kept_inner(g, node, scope, binds, depth, loops)
        if kept is not None:
            return kept
    if g._inner_memos is not None and node.func == "all" and not node.more and node.cond is None:
        unequal = _cells_unequal(g, node, scope, binds, depth, loops)
        if unequal is not None:
            return unequal
    decided = "ok" if node.func == "any" else "not ok"
    lines, inner, level, loops = _comprehension(g, node, scope, binds, depth, loops)
    lines = [f"{'    ' * depth}ok = {node.func == 'all'}"] + lines + truth_lines(g, node.element, scope, inner, level, loops)
    lines += [f"{'    ' * at}if {decided}:\n{'    ' * at}    break" for at in range(level, depth, -1)]
    return lines


# Whether a move lister judges `all(T(x) == v for x in S)`, S cells around, by the cells where T is not v
# (False: the loop alone, as before; the tests compare the two).
CELLS_UNEQUAL = True


def _cells_unequal(g, node, scope, binds, depth: int, loops: int) -> list | None:
    """`all(T(x) == v for x in S)` in a move lister, T a variable per cell of a board B, v a
    value known at load and S the cells `around(B, …)` or `neighbours(B, …)` gives
    (`all(object_at(c) == 0 for c in around(table, cells))`): S is charged as the loop
    charges it, then the test is whether no item is among T's cells where T is not v, a set
    made once per listing (helpers._cells_unequal), instead of each item's value read and
    compared, candidate after candidate. Where one is (the first such item decides), and
    before the set is made (it pays once the loop would have judged as many items as half
    T's cells), the loop as written judges S. Exact: every item is a cell of B, which T
    holds (a fixed board's) or whose start it holds (an open grid's, not in use yet); the
    test charges no step and fails nowhere there; a listing writes nothing; and the set is
    made with the test's own `==`."""
    element = node.element
    if not CELLS_UNEQUAL or not (isinstance(element, ast.Binary) and element.op == "=="):
        return None
    for side, other in ((element.left, element.right), (element.right, element.left)):
        if isinstance(side, ast.Call) and len(side.args) == 1 and isinstance(side.args[0], ast.Name) \
                and side.args[0].name == node.var and side.func not in scope and side.func not in binds:
            break
    else:
        return None
    decl = g.x.program.get(side.func)
    if decl is None or decl.kind != "var" or not decl.per_index or decl.index not in g.x.boards:
        return None
    source = node.source
    if not (isinstance(source, ast.Call) and source.func in ("around", "neighbours") and len(source.args) == 2
            and isinstance(source.args[0], ast.Name) and source.args[0].name == decl.index
            and g._builtin(source.func, scope, binds) and g._builtin(decl.index, scope, binds)):
        return None
    if node.var in {name for name, _, _ in free_names(other)}:
        return None   # v read at each item (the item itself, or a constant the item's name hides)
    value = g._known(other, scope, binds)
    if value is _NOT_KNOWN:
        return None
    var, items = g._fresh(), g._fresh()
    inner = dict(binds)
    inner[node.var] = (var, _item_kind(g.x.kind(source, g._kinds(scope, binds))))
    test = truth_lines(g, element, scope, inner, depth + 2, loops + 1)
    if len(test) != 1 or re.search(r"\bc\b", _STEPLESS_READS.sub("", test[0])):
        return None   # a comparison that charges steps (texts the checker did not prove short)
    start = f", {g.state('grids')}[{decl.index!r}]['start'][{decl.name!r}]" if g.x.boards[decl.index].is_open \
        else ""
    memo = _named(g._inner_memos, "cu")
    unequal = g._fresh()
    pad = "    " * depth
    return [f"{pad}{items} = {g.iterable(source, scope, binds)}",
            f"{pad}c.steps += len({items})",
            f"{pad}if c.steps > c.max_steps: c.runaway()",
            f"{pad}{unequal} = {memo}.get(0)",
            f"{pad}if {unequal} is None:",
            f"{pad}    {unequal} = _m_cells_unequal({memo}, {g.state('tables')}[{decl.name!r}], {items}, "
            f"{value!r}{start})",
            f"{pad}ok = {unequal} is not None and {unequal}.isdisjoint({items})",
            f"{pad}if not ok:   # an item among those cells, or no set yet: judged as written",
            f"{pad}    ok = True",
            f"{pad}    for {var} in {items}:"] + test + [
            f"{pad}        if not ok:",
            f"{pad}            break"]


# A test's mention of the context that charges nothing: an open grid's start read at a cell not in use.
_STEPLESS_READS = re.compile(r"_cell_start[(]c, ")


def _kept_search(g, node, scope, binds, depth: int, loops: int) -> list | None:
    """`any(x for x in S where A … and B …)` when the source S and the first tests A read
    fewer of the names around them than the later tests B: the items of S passing A kept by
    the values of what S and A read, for the narrowing, and only B judged for the next move
    that reads the same. A prefer of a move `(from, to)` asking whether a neighbour of `to`
    other than `from` is the player's judges the neighbours of each `to` once, however many
    choices of `from` come with it.

    Exact: S and A mention no context, so they charge no step and read only locals and the
    state, which a narrowing never changes; the source's length is charged at every search,
    as _comprehension charges it; B judges the very items, in the same order, that it judges
    after A in the plain search. If A fails on some item, nothing is kept and the search
    goes through S as the plain one does, failing where it fails. None when the search has
    no such shape."""
    if node.more:
        return None
    var = node.var
    parts = ([node.cond] if node.cond is not None else []) + _conjuncts(g, node.element)
    local = binds.keys() | scope.keys()

    def reads(n) -> set | None:
        names = {name for name, _, _ in free_names(n, frozenset({var}))} & local
        return names if names <= binds.keys() else None   # a name of the move's env: not a local

    kinds = _item_kind(g.x.kind(node.source, g._kinds(scope, binds)))
    inner = dict(binds)
    inner[var] = (g._fresh(), kinds)
    hoisted, g._hoisted = g._hoisted, {}   # written out in full, to see what they mention
    try:
        source = g.iterable(node.source, scope, binds)
        key = reads(node.source)
        if key is None or re.search(r"\bc\b", source):
            return None
        tests, cut = [], None
        for j, part in enumerate(parts[:-1]):
            text, names = g.src(part, scope, inner), reads(part)
            if names is None or re.search(r"\bc\b", text):
                break
            key |= names
            tests.append(text)
            later = set()
            for rest in parts[j + 1:]:
                later |= reads(rest) or set()
            if _names_in(binds, later) - _names_in(binds, key):   # B reads what varies apart
                cut = j + 1
    finally:
        g._hoisted = hoisted
    if cut is None:
        return None
    # The player is the same for every move of a narrowing: no part of the key.
    texts = [binds[name][0] for name in sorted(key) if binds[name][0].strip("()") != "pl"]
    if any(re.search(r"\bc\b", t) for t in texts):
        return None
    n = len(g._partial)
    memo, k, e, items, v = f"pm{n}", f"pk{n}", f"pe{n}", g._fresh(), inner[var][0]
    g._partial.append(memo)
    pad, more = "    " * depth, "    " * (depth + 1)
    keyed = " and ".join(f"type({t}) in _m_keyed" for t in texts) or "True"
    key_source = texts[0] if len(texts) == 1 else "(" + "".join(t + ", " for t in texts) + ")"
    lines = [f"{pad}ok = False",
             f"{pad}{k} = {key_source} if {keyed} else _UNSET   # _UNSET: never kept",
             f"{pad}{e} = {memo}.get({k})",
             f"{pad}if {e} is None:",
             f"{more}{items} = {source}",
             f"{more}try:",
             f"{more}    {e} = ({items}, [{v} for {v} in {items} if {' and '.join(f'({t})' for t in tests[:cut])}])",
             f"{more}except _m_Exception:   # the plain search below fails where it fails",
             f"{more}    {e} = ({items}, None)",
             f"{more}if {e}[1] is not None and {k} is not _UNSET:",
             f"{more}    {memo}[{k}] = {e}",
             f"{pad}c.steps += len({e}[0])",
             f"{pad}if c.steps > c.max_steps: c.runaway()",
             f"{pad}if {e}[1] is not None:",
             f"{more}for {v} in {e}[1]:"]
    lines += _chain(g, parts[cut:], scope, inner, depth + 2, loops + 1)
    lines += [f"{more}    if ok:", f"{more}        break", f"{pad}else:", f"{more}for {v} in {e}[0]:"]
    lines += _chain(g, parts, scope, inner, depth + 2, loops + 1)
    lines += [f"{more}    if ok:", f"{more}        break"]
    return lines


def _kept_inner(g, node, scope, binds, depth: int, loops: int) -> list | None:
    """`any(E for a in A for b in B(a) …)` (or `all`) in a move lister, when what follows the
    first clause (its later sources, conditions and E) reads no name of the listing but `a`:
    the search over the later clauses is a value of `a` and the state alone, which a
    listing never changes. So its truth is kept per value of `a` for the whole listing,
    with the steps it charged, and met again without going through it (the same steps
    charged again at once, the step limit checked). `touches(cells)` judged for every
    candidate pair of cells looks around each cell once, however many pairs it is in.

    Exact: the later part holds no kept value (computed once, its steps charged once), no
    draw, no `can` and no `previous`, in itself or in the defs it calls; a value of `a` that
    cannot be a key is searched every time; a search that fails keeps nothing. The memos
    are the lister's (g._inner_memos), new at every listing."""
    later = [x for m in node.more for x in (m.source, m.cond)] + [node.element]
    later = [x for x in later if x is not None]
    bound = frozenset([node.var] + [m.var for m in node.more])
    local = (scope.keys() | binds.keys())
    if any({name for name, _, _ in free_names(x, bound)} & local for x in later):
        return None
    if not all(_fixed_by_state(g, x, set()) for x in later):
        return None
    made = g._inner_nodes.get(id(node))   # kept with the node: their ids stay their own
    if made is None or made[0] is not node:
        first = node.more[0]
        made = g._inner_nodes[id(node)] = (node, ast.Aggregate(
            node.span, node.func, node.element, first.var, first.source, first.cond, node.more[1:]),
            ast.Aggregate(node.span, node.func, node.element, node.var, node.source, node.cond))
    _, inner, outer = made
    memo = _named(g._inner_memos, "pi")
    pad = "    " * depth
    decided = "ok" if node.func == "any" else "not ok"
    lines, inner_binds, level, loops = _comprehension(g, outer, scope, binds, depth, loops)
    var, kept, before = inner_binds[node.var][0], g._fresh(), g._fresh()
    at, more = "    " * level, "    " * (level + 1)
    lines = [f"{pad}ok = {node.func == 'all'}"] + lines + [
        f"{at}{kept} = {memo}.get({var}) if type({var}) in _m_keyed else None",
        f"{at}if {kept} is None:",
        f"{more}{before} = c.steps"]
    lines += _search(g, inner, scope, inner_binds, level + 1, loops)
    lines += [f"{more}if type({var}) in _m_keyed:",
              f"{more}    {memo}[{var}] = (ok, c.steps - {before})",
              f"{at}else:",
              f"{more}ok = {kept}[0]",
              f"{more}c.steps += {kept}[1]",
              f"{more}if c.steps > c.max_steps: c.runaway()",
              f"{at}if {decided}:",
              f"{at}    break"]
    return lines


def _named(memos: list, prefix: str) -> str:
    """A new memo of the listing, declared by the lister (`prefix` and the number of those
    of its kind so far: a kind's names do not depend on the other's)."""
    name = f"{prefix}{sum(memo.startswith(prefix) for memo in memos)}"
    memos.append(name)
    return name


def _fixed_by_state(g, node, seen: set) -> bool:
    """Whether `node` computes the same value with the same steps whenever the state and
    the names it reads are the same: no kept value of the function being written, no draw,
    no `can`, no `previous`, here or in the defs it calls (each def looked at once)."""
    if isinstance(node, tuple):
        return all(_fixed_by_state(g, item, seen) for item in node)
    if not hasattr(node, "__dataclass_fields__") or isinstance(node, ast.Template):
        return True
    if id(node) in g._hoisted or isinstance(node, ast.RandomExpr):
        return False
    if isinstance(node, ast.Call):
        if node.func in ("can", "previous") and g.x.program.get(node.func) is None:
            return False
        decl = g.x.program.get(node.func, "def")
        if decl is not None and decl.name not in seen:
            seen.add(decl.name)
            if not _fixed_by_state(g, decl.body, seen):
                return False
    return all(_fixed_by_state(g, getattr(node, name), seen)
               for name in node.__dataclass_fields__ if name != "span")


def _names_in(binds, names) -> set:
    """The Python names the sources bound to `names` read (a constant bound reads none)."""
    return {word for name in names for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", binds[name][0])} \
        - {"None", "True", "False"}


def _conjuncts(g, node) -> list:
    """The tests of `a and b and …`, in the order they are judged."""
    if isinstance(node, ast.Binary) and node.op == "and" and id(node) not in g._hoisted:
        return _conjuncts(g, node.left) + _conjuncts(g, node.right)
    return [node]


def _chain(g, parts, scope, binds, depth: int, loops: int) -> list:
    """Lines setting `ok` to whether every test of `parts` holds, judged in order, stopping at
    the first that fails (as truth_lines writes `and`)."""
    lines = truth_lines(g, parts[0], scope, binds, depth, loops)
    if len(parts) > 1:
        lines += [f"{'    ' * depth}if ok:"] + _chain(g, parts[1:], scope, binds, depth + 1, loops)
    return lines


def _tallied(g, node) -> bool:
    """Whether `node` compares a `count` of a comprehension with a filter or more than one
    source (`count(x for x in xs where …) == 3`) with something: counted by loops, every item
    (a later item may fault, as it does in the generator codegen writes)."""
    return isinstance(node, ast.Binary) and node.op in _COMPARE and isinstance(node.left, ast.Aggregate) \
        and node.left.func == "count" and (node.left.cond is not None or bool(node.left.more)) \
        and id(node.left) not in g._hoisted


def _tally(g, node, scope, binds, depth: int, loops: int) -> list:
    """A count compared, the count by loops into a local, then the comparison codegen writes
    with that local for the count (the count is its left side: computed first, as there)."""
    lines, _, level, _ = _comprehension(g, node.left, scope, binds, depth, loops)
    total = g._fresh()
    g._hoisted[id(node.left)] = total
    try:
        compared = g.src(node, scope, binds)
    finally:
        del g._hoisted[id(node.left)]
    return [f"{'    ' * depth}{total} = 0"] + lines + [f"{'    ' * level}{total} += 1",
                                                     f"{'    ' * depth}ok = {compared}"]


def _inlined_def(g, node, local):
    """The def a call of it codegen writes as its body (see CodeGen._Call and _inlinable), or
    None; `local`: the names that mean no def there."""
    name = node.func
    if name in local or g.x.zones.get(name) is not None or g.keeps_call(node, local):
        return None   # (a def whose values are kept is called, not written out: memo.py)
    decl = g.x.program.get(name)
    if decl is None or decl.kind != "def" or not g._inlinable(decl, node.args):
        return None
    return decl


def _params(g, node) -> list:
    """The parameters of the def a call calls (one the checker found)."""
    return g.x.program.get(node.func).params


def _inlined(g, node, scope, binds):
    """(body, binds) of a call codegen writes as the body of the def it calls, or None."""
    decl = _inlined_def(g, node, scope.keys() | binds.keys())
    if decl is None:
        return None
    kinds = g._kinds(scope, binds)
    args = [g.src(a, scope, binds) for a in node.args]
    arg_kinds = [g.x.kind(a, kinds) for a in node.args]
    return decl.body, {p: (f"({a})", k) for p, a, k in zip(decl.params, args, arg_kinds)}


_DEEPEST = 40   # levels of indentation a prefer's statements may take (then: an expression)
_LOOPS = 15     # loops around them, the loop over the moves included
