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

from .. import ast
from ..check.walk import free_names
from ..engine import memo as kept

# A value the search compares with, read without a step and without a fault: a local or a
# literal (what a call of a def without parameters or an expression would not be).
_READ = re.compile(r"\(*(?:[A-Za-z_][A-Za-z0-9_]*|e\['[A-Za-z_][A-Za-z0-9_]*'\]|-?\d+|'[^'\\]*'|True|False|None)\)*")
_LITERALS = (ast.IntLit, ast.StrLit, ast.BoolLit, ast.NoneLit)


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
    board = _fixed_board(g, node.source, scope, binds)
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


def _fixed_board(g, source, scope, binds) -> str | None:
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
