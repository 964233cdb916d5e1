"""Searches answered by an index: `[x for x in B where D(x) == v]` and its count.

A ruleset asks "which cells are the player's?" as a search over the board (`[h for h in
land where owner_of(h) == p]`), at every listing of a move that starts from one of them and
for every goal scored; judged cell by cell, it goes through the whole board each time,
though a move changes a cell or two. When D is a pure def of one cell (memo.Analysis: its
value follows from its argument, constants and zones) the value of D at every cell of the
fixed board B is kept on the state with the cells of each value (engine/memo.Indexed), and
a cell is judged again only once a zone it read changed. The search then reads the cells of
v, in the board's order, and charges the steps it would (engine/memo.where); wherever the
index cannot answer exactly as the search (a judging that fails, the step limit) the search
is made as written.

Here: which searches have that shape, and the source calling the index for them.
"""
from __future__ import annotations

import re

from .. import ast, boards
from ..check.walk import free_names
from ..engine import memo as kept

# A value read without a step and without a fault, as often as needed: a local or a literal
# (what a call of a def without parameters or an expression would not be). The value a
# search compares with; the arguments near_lifted reads.
_READ = re.compile(r"\(*(?:[A-Za-z_][A-Za-z0-9_]*|e\['[A-Za-z_][A-Za-z0-9_]*'\]|-?\d+|'[^'\\]*'|True|False|None)\)*")
_LITERALS = (ast.IntLit, ast.StrLit, ast.BoolLit, ast.NoneLit)
# The most cells a board's lines of k may hold with each cell's lines through it (cells ×
# directions × k × k, made once, without steps: a ruleset's lines of hundreds of cells on a
# board of thousands would take gigabytes): past it, the search is made as written, charging
# its steps. Kingdom Builder's lines of three hold 21,600.
MOST_LINE_CELLS = 1_000_000


def indexed_search(g, node, scope: dict, binds: dict, counted: bool, write) -> str | None:
    """The source answering the comprehension `node` from an index, or None (written as
    before). `counted`: `count(…)` of it, else the list of the cells; `write(node, scope,
    binds)`: its source as written, made where the index cannot answer. `g`: the CodeGen."""
    if not g.memo_enabled or g._recording or g._once or node.more or not isinstance(node.cond, ast.Binary) \
            or node.cond.op != "==":
        return None
    var = node.var
    if not counted and not (isinstance(node.element, ast.Name) and node.element.name == var):
        return None
    board = fixed_board(g, node.source, scope, binds)
    if board is None:
        return None
    found = _def_of_item(g, node.cond, var, scope, binds)
    if found is None:
        return None
    decl, other = found
    if var in {n for n, _, _ in free_names(other)}:
        return None
    wanted = g.src(other, scope, binds)
    if not (isinstance(other, _LITERALS) or _READ.fullmatch(wanted)):
        return None
    inner = dict(binds)
    inner[var] = ("_", None)
    if not isinstance(other, ast.NoneLit) and not g._cheap(node.cond, scope, inner):
        return None   # `_compare` may charge steps for each cell: judged as written
    function = g._memo_function(decl, (None,), g._index_bodies)
    if function is None:
        return None
    number = re.match(r"_mw(\d+)_", function).group(1)
    cells, position = _board_cells(g, board)
    g.ns.setdefault("_m_where", kept.check_where if g.memo_verify else kept.where)
    scan = g._lazy_sources(node, scope, binds, write)
    key = g._index_keys.setdefault((number, board), len(g._index_keys))
    return (f"_m_where(c, {key}, _mb{number}, {cells}, {position}, {wanted}, "
            f"lambda: {scan}{', True' if counted else ''})")


def fixed_board(g, source, scope, binds) -> str | None:
    """The name of the fixed board whose cells `source` is (a board named as it is)."""
    if not isinstance(source, ast.Name) or source.name in scope or source.name in binds:
        return None
    decl = g.x.program.get(source.name)
    if decl is None or decl.kind != "board":
        return None
    record = g.x.boards.get(source.name)
    return None if record is None or record.is_open else source.name


def _def_of_item(g, cond, var: str, scope, binds):
    """(D's declaration, the other side) when one side of `cond` is `D(var)`, D a def of one
    parameter whose value depends on its argument, constants and zones only."""
    for side, other in ((cond.left, cond.right), (cond.right, cond.left)):
        if not (isinstance(side, ast.Call) and len(side.args) == 1 and isinstance(side.args[0], ast.Name)
                and side.args[0].name == var and side.func not in scope and side.func not in binds):
            continue
        decl = g.x.program.get(side.func, "def")
        if decl is None or len(decl.params) != 1 or g.memo_analysis().impure(decl.name) is not None:
            continue
        return decl, other
    return None


def _board_cells(g, board: str) -> tuple[str, str]:
    """The names of the board's cells (a list, in its order) and of each cell's position."""
    known = g._index_boards.get(board)
    if known is None:
        cells = list(g.x.boards[board].nodes)
        known = g._index_boards[board] = (g.bind(cells), g.bind({cell: i for i, cell in enumerate(cells)}, "pos"))
    return known


def near_test(g, node, args: list, key: str, pad: str) -> tuple[list, str, list] | None:
    """(the lines before a prefer's loop, the test that the counts answer, the lines setting
    `ok` from them) for a prefer that is one call of a kept def K whose value is whether a
    neighbour of a cell has D's value `p`:

        def K(h, p, lifted) = any(D(n) == p and n != lifted for n in neighbours(B, h))

    (or `any(D(n) == p for n in …)`), called as `K(x, player, none)`. How many neighbours of
    each cell D gives the player is counted once for the listing, from D's index
    (engine/memo.near), and kept up to date by it as cells change; a value of K not kept yet
    is then that count's test, charging what computing K charges (one step a neighbour: the
    counts stand only while D charges none), and kept as computing it would keep it
    (the lines of `answer`). A value kept is read as before; where the counts cannot answer,
    K is computed as before (CodeGen.kept_lines writes both around these lines). `args`: the
    sources of the call's arguments; `key`: the source of its kept value's key. None: not of
    that shape."""
    if not g.memo_enabled or g.memo_verify:
        return None
    counted = _counted(g, node, lifted=False)
    if counted is None:
        return None
    number, cells, adjacency, index = counted
    g.ns.setdefault("_m_NearReads", kept.NearReads)
    cell = args[0]
    # The memo and the index the counts came from, for keeping values as computing K would
    # (read once: within the loop nothing but these lines and the values met touches them).
    prologue = [f"_nr = _m_near(c, {index}, _mb{number}, {cells}, {adjacency}, pl)",
                "_nm = c.state.memo",
                f"_ni = _nm.indexes.get({index})"]
    test = "_nr is not None" if cell in g.keyed_locals else f"_nr is not None and type({cell}) in _m_keyed_args"
    # Kept as computing K keeps it: the same key, value and steps; its zones those the judging
    # of each neighbour read (listed when asked: engine/memo.NearReads); dropped through the
    # index's cells when a neighbour's zone changes (Memo.drop), so noted around the cell.
    answer = [f"{pad}    _ms = len({adjacency}.get({cell}, ()))",
              f"{pad}    acc += _ms",
              f"{pad}    ok = {cell} in _nr",
              f"{pad}    _mk = {key}",
              f"{pad}    _me[_mk] = (ok, _ms, _m_NearReads(_ni, {cell}))",
              f"{pad}    _nm.kept += 1",
              f"{pad}    _nm.size += 1",
              f"{pad}    _na = _ni.around.get({cell})",
              f"{pad}    if _na is None:",
              f"{pad}        _ni.around[{cell}] = [_mk]",
              f"{pad}    else:",
              f"{pad}        _na.append(_mk)"]
    return prologue, test, answer


def near_lifted(g, node, args: list) -> tuple[str, list] | None:
    """(the test that the counts answer, the lines setting `ok` from them) for a prefer's
    call `K(x, player, y)` of a def K of near_test's shape with a third parameter, `lifted`:

        def K(h, p, lifted) = any(D(n) == p and n != lifted for n in neighbours(B, h))

    whose values a narrowing does not keep (x and y both vary: is a piece moved from y to
    x next to one of the player's own, the moved one aside?). The count of x's
    neighbours to which D gives the player (engine/memo.near, for the whole narrowing, in
    lines added to g.prologue), less one when y is among them: that neighbour is left out.
    It charges what computing K charges, one step a neighbour (the counts stand only while
    D charges none), and nothing can fault there: D was judged at every cell of B without
    a fault, or there are no counts and K is computed as written (the lines that follow
    these, which CodeGen writes as before). `args`: the sources of the call's arguments,
    each a plain name or literal (read twice, computed never). None: not of that shape."""
    parts = near_lifted_parts(g, node, args)
    if parts is None:
        return None
    counts, values, adjacency, cell, lifted = parts
    test = f"{counts} is not None and type({cell}) in _m_keyed_args"
    answer = [f"_na = {adjacency}.get({cell}, ())",
              "c.steps += len(_na)",
              "if c.steps > c.max_steps: c.runaway()",
              f"_nn = {counts}.get({cell}, 0)",
              f"if _nn and {lifted} in _na and {values}.get({lifted}) == pl:",
              "    _nn -= 1",
              "ok = _nn > 0"]
    return test, answer


def near_lifted_parts(g, node, args: list) -> tuple[str, str, str, str, str] | None:
    """(the names of the counts, of the index's values and of the adjacency; the sources of
    the cell and of the lifted argument) that near_lifted's lines read, the lines before
    the loops that set the first two added to g.prologue; None where near_lifted is None."""
    if not g.memo_enabled or g.memo_verify or g.prologue is None:
        return None
    cell, lifted = args[0], args[-1]
    if len(args) != 3 or not (_READ.fullmatch(cell) and _READ.fullmatch(lifted)):
        return None
    counted = _counted(g, node, lifted=True)
    if counted is None:
        return None
    number, cells, adjacency, index = counted
    counts, values = f"_nl{index}", f"_nv{index}"
    _before_loops(g, f"{counts} = _m_near(c, {index}, _mb{number}, {cells}, {adjacency}, pl)",
                  f"{values} = c.state.memo.indexes[{index}].values if {counts} is not None else None")
    return counts, values, adjacency, cell, lifted


def line_test(g, node, args: list) -> tuple[str, list] | None:
    """(the test that the lines kept answer, the lines setting `ok` from them) for a call
    `K(x, player)` of a kept def K whose value is whether a straight line of k cells from a
    cell is all of D's value `p`:

        def K(h, p) = any(count(x for x in line(B, h, d, k) where D(x) == p) == k
                          for d in directions(B))

    D a pure def of one cell, B a fixed board, k a whole number of 2 or more. Which of each
    cell's lines are all the player's is kept for the listing from D's index
    (engine/memo.full_lines, in lines added to g.prologue), and kept up to date by it as
    cells change: K's value is one lookup, charging what computing it charges (one step a
    direction and a cell of each line gone through, up to the first found: the lines stand
    only while D charges none). Nothing can fault there: D was judged at every cell of B
    without a fault, x is one of B's cells, and B's lines are what line() gives. The value
    is not kept (a listing asks it once a cell); where the lines cannot answer, K's kept
    value is looked up or computed, as before (the lines CodeGen.kept_lines writes after
    these). `args`: the sources of the call's arguments. None: not of that shape, or no
    prologue to write (outside a listing)."""
    if not g.memo_enabled or g.memo_verify or g.prologue is None:
        return None
    decl = g.x.program.get(node.func, "def")
    shape = _line_shape(g, decl)
    cell = args[0]
    if shape is None or not _READ.fullmatch(cell):
        return None
    given = node.args[1]
    if not isinstance(given, ast.Name) or given.name != "player":
        return None   # the value wanted is the same for the whole listing
    board, dfn, k = shape
    record = g.x.boards[board]
    if len(record.nodes) * len(record.directions) * k * k > MOST_LINE_CELLS:
        return None   # the lines would cost more to make and hold than the searches they save
    function = g._memo_function(dfn, (None,), g._index_bodies)
    if function is None:
        return None
    number = re.match(r"_mw(\d+)_", function).group(1)
    cells, _ = _board_cells(g, board)
    key = (board, k)
    straight = g._index_lines.get(key)
    if straight is None:
        straight = g._index_lines[key] = g.bind(
            kept.Lines(record.nodes, record.directions, k, lambda h, d: boards.line(record, h, d, k)), "ln")
    index = g._index_keys.setdefault((number, board), len(g._index_keys))
    full, steps = f"_lf{index}_{k}", f"_ls{index}_{k}"
    g.ns.setdefault("_m_full", kept.full_lines)
    # Asked at the first cell that needs them: a listing may never reach the require (no
    # player whose lines are never asked has them kept up to date, move after move).
    _before_loops(g, f"{full} = _UNSET", f"{steps} = {straight}.steps")
    asked = f"(_m_full(c, {index}, _mb{number}, {cells}, {straight}, pl) if {full} is _UNSET else {full})"
    test = f"({full} := {asked}) is not None and type({cell}) in _m_keyed_args and {cell} in {steps}"
    # The first line found is the lowest bit: its number plus one indexes its steps (none: 0).
    answer = [f"_lb = {full}.get({cell}, 0)",
              f"c.steps += {steps}[{cell}][(_lb & -_lb).bit_length()]",
              "if c.steps > c.max_steps: c.runaway()",
              "ok = _lb != 0"]
    return test, answer


def _before_loops(g, *lines: str) -> None:
    """Add `lines` to what the function being written runs before its loops (once each)."""
    for line in lines:
        if line not in g.prologue:
            g.prologue.append(line)


def _line_shape(g, decl):
    """(board, D's declaration, k) when `decl` is `any(count(x for x in line(B, h, d, k) where
    D(x) == p) == k for d in directions(B))`, h and p its two parameters, k a whole number
    of 2 or more, D a pure def of one cell, B a fixed board; else None."""
    if decl is None or len(decl.params) != 2:
        return None
    h, p = decl.params
    body = decl.body
    if not (isinstance(body, ast.Aggregate) and body.func == "any" and body.cond is None and not body.more):
        return None
    d, source = body.var, body.source
    if d in decl.params or not (_builtin_call(g, source, "directions", 1) and isinstance(source.args[0], ast.Name)):
        return None
    board = fixed_board(g, source.args[0], {}, {})
    if board is None:
        return None
    compared = body.element
    if not (isinstance(compared, ast.Binary) and compared.op == "=="):
        return None
    for counted, k in ((compared.left, compared.right), (compared.right, compared.left)):
        if not (isinstance(k, ast.IntLit) and k.value >= 2 and isinstance(counted, ast.Aggregate)
                and counted.func == "count" and not counted.more and counted.cond is not None):
            continue
        x, line = counted.var, counted.source
        if x in decl.params or x == d or not (isinstance(counted.element, ast.Name) and counted.element.name == x):
            continue
        if not (_builtin_call(g, line, "line", 4) and _names(line.args[:3], (source.args[0].name, h, d))
                and isinstance(line.args[3], ast.IntLit) and line.args[3].value == k.value):
            continue
        dfn = _def_of_value(g, counted.cond, x, p, decl)
        if dfn is not None:
            return board, dfn, k.value
    return None


def _builtin_call(g, node, name: str, arity: int) -> bool:
    """Whether `node` calls the builtin `name` (no def of the ruleset's named so) with `arity` arguments."""
    return isinstance(node, ast.Call) and node.func == name and len(node.args) == arity \
        and g.x.program.get(name) is None


def _names(nodes, names) -> bool:
    return all(isinstance(n, ast.Name) and n.name == name for n, name in zip(nodes, names))


def _def_of_value(g, cond, x: str, p: str, decl):
    """D's declaration when `cond` is `D(x) == p` (either way round), D a pure def of one
    parameter other than `decl`; else None."""
    if not (isinstance(cond, ast.Binary) and cond.op == "=="):
        return None
    for side, other in ((cond.left, cond.right), (cond.right, cond.left)):
        if isinstance(other, ast.Name) and other.name == p and isinstance(side, ast.Call) \
                and len(side.args) == 1 and isinstance(side.args[0], ast.Name) and side.args[0].name == x \
                and side.func not in decl.params:
            dfn = g.x.program.get(side.func, "def")
            if dfn is not None and dfn is not decl and len(dfn.params) == 1 \
                    and g.memo_analysis().impure(dfn.name) is None:
                return dfn
    return None


def _counted(g, node, lifted: bool) -> tuple[str, str, str, int] | None:
    """(the number of D's judging function, the sources of B's cells and of its adjacency, the
    number of D's index) for a call of a def K of the shape near_test counts, with a third
    parameter `lifted` (its argument none when `lifted` is False), the player its second
    argument; None for any other call."""
    decl = g.x.program.get(node.func, "def")
    shape = _near_shape(g, decl)
    if shape is None or (lifted and shape[2] is None):
        return None
    board, dfn, left_out = shape
    given = dict(zip(decl.params, node.args))
    if not isinstance(given[decl.params[1]], ast.Name) or given[decl.params[1]].name != "player":
        return None   # the value wanted is the same for the whole listing
    if not lifted and left_out is not None and not isinstance(given[left_out], ast.NoneLit):
        return None
    function = g._memo_function(dfn, (None,), g._index_bodies)
    if function is None:
        return None
    number = re.match(r"_mw(\d+)_", function).group(1)
    cells, _ = _board_cells(g, board)
    adjacency = g.bind(g.x.boards[board].adjacency, "adj")
    g.ns.setdefault("_m_near", kept.near)
    return number, cells, adjacency, g._index_keys.setdefault((number, board), len(g._index_keys))


def _near_shape(g, decl):
    """(board, D's declaration, the parameter each neighbour must differ from, or None) when
    `decl` is `any(D(n) == p [and n != lifted] for n in neighbours(B, h))`, h and p its first
    two parameters, D a pure def of one cell, B a fixed board whose neighbours are
    symmetric; else None."""
    if decl is None or len(decl.params) not in (2, 3):
        return None
    body = decl.body
    h, p = decl.params[0], decl.params[1]
    lifted = decl.params[2] if len(decl.params) == 3 else None
    if not (isinstance(body, ast.Aggregate) and body.func == "any" and body.cond is None and not body.more):
        return None
    source, n = body.source, body.var
    if n in decl.params or not (isinstance(source, ast.Call) and source.func == "neighbours"
                                and g.x.program.get("neighbours") is None and len(source.args) == 2
                                and isinstance(source.args[1], ast.Name) and source.args[1].name == h):
        return None
    board = fixed_board(g, source.args[0], {}, {})
    if board is None or not _symmetric(g, board):
        return None
    element = body.element
    if lifted is not None:
        if not (isinstance(element, ast.Binary) and element.op == "and" and _differs(element.right, n, lifted)):
            return None
        element = element.left
    dfn = _def_of_value(g, element, n, p, decl)
    return None if dfn is None else (board, dfn, lifted)


def _differs(node, n: str, lifted: str) -> bool:
    """Whether `node` is `n != lifted` or `lifted != n`."""
    return isinstance(node, ast.Binary) and node.op == "!=" and isinstance(node.left, ast.Name) \
        and isinstance(node.right, ast.Name) and {node.left.name, node.right.name} == {n, lifted}


def _symmetric(g, board: str) -> bool:
    """Whether every cell of a fixed board is a neighbour of each of its neighbours: found
    once a load (each def that counts neighbours asks it)."""
    known = g._index_boards.get(("symmetric", board))
    if known is None:
        adjacency = g.x.boards[board].adjacency
        known = g._index_boards["symmetric", board] = all(
            cell in adjacency.get(other, ()) for cell, around in adjacency.items() for other in around)
    return known
