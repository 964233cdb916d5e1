"""The board queries of an open grid: a square grid without bounds.

An open grid lists no cells: a cell is any `(row,col)` text whose row and column lie within
±`Limits.grid_reach`, and every query is computed from the coordinates. Rows grow southward,
columns eastward. Its neighbours are the 8 cells around (4 with `diagonals = false`), listed
row by row; nothing is on an edge, and `line` never stops early. The cells **in use** (the
cells at which a zone or a variable per cell was first written, in that order) live in the
state, not here: see `Ctx.use_cell` and `State.grids`.

Each query takes the board, then the running game's Ctx (for the reach limit and to count
the work of a search against the steps), then the arguments the ruleset gave. A cell it
would produce beyond the reach is a located E901, never a huge text or list.
"""
from __future__ import annotations

from .boards import OPEN_DIRECTIONS, Board, _around, _flood, cell_name, coordinates
from .builtins import EvalError
from .limits import Overflow

COMPASS = {"north": (-1, 0), "north_east": (-1, 1), "east": (0, 1), "south_east": (1, 1),
           "south": (1, 0), "south_west": (1, -1), "west": (0, -1), "north_west": (-1, -1)}
# The cells around, row by row: all eight, or the four sharing a side.
_AROUND_8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
_AROUND_4 = ((-1, 0), (0, -1), (0, 1), (1, 0))


def diagonals(board: Board) -> bool:
    return board.settings.get("diagonals", True) is not False


def reached(board: Board, c, row: int, col: int) -> str:
    """The cell at (row, col), refused with E901 beyond the grid's reach."""
    reach = c.limits.grid_reach
    if -reach <= row <= reach and -reach <= col <= reach:
        return cell_name(row, col)
    raise Overflow(f"cell ({row},{col}) of open grid '{board.name}' lies beyond its reach of "
                   f"±{reach} rows and columns (runaway growth?)", c.limits.hint("grid_reach"))


def in_reach(c, cell) -> bool:
    """Whether `cell` is a cell of an open grid (canonical text, within the reach)."""
    found = coordinates(cell)
    reach = c.limits.grid_reach
    return found is not None and abs(found[0]) <= reach and abs(found[1]) <= reach


def _offset(board: Board, direction) -> tuple[int, int]:
    found = COMPASS.get(direction) if type(direction) is str else None
    if found is None:
        raise EvalError(f"board '{board.name}' has no direction {direction!r} "
                        f"(directions: {', '.join(OPEN_DIRECTIONS)})")
    return found


def _count(name: str, n) -> int:
    if type(n) is not int or n < 0:
        raise EvalError(f"{name}(): the number {'of steps' if name == 'step' else 'of cells'} "
                        f"must be 0 or more, not {n!r}")
    return n


# Answers already computed, by cell text (a cell's neighbours do not depend on the board, only
# on whether diagonals count): games ask for the same few hundred cells over and over, and
# building their names is most of a query's cost. Each answer keeps the cell's extent (its
# largest |row| or |col|), so that a smaller reach (another Limits) still refuses it. Bounded;
# past the bound, answers are computed and not kept.
_CACHE_LIMIT = 1 << 17
_NEAR_8: dict = {}
_NEAR_4: dict = {}
_STEP_1: dict = {}   # (cell, direction) -> (extent, the cell one step that way)


def neighbours(board: Board, c, cell) -> list:
    diagonal = diagonals(board)
    near = _NEAR_8 if diagonal else _NEAR_4
    known = near.get(cell)
    if known is not None and known[0] < c.limits.grid_reach:
        return list(known[1])
    found = coordinates(cell)
    if found is None:
        return []
    r, col = found
    cells = [reached(board, c, r + dr, col + dc) for dr, dc in (_AROUND_8 if diagonal else _AROUND_4)]
    if len(near) < _CACHE_LIMIT:
        near[cell] = (max(abs(r), abs(col)), tuple(cells))
    return cells


def adjacent(board: Board, c, a, b) -> bool:
    pa, pb = coordinates(a), coordinates(b)
    if pa is None or pb is None:
        return False
    dr, dc = abs(pa[0] - pb[0]), abs(pa[1] - pb[1])
    return (max(dr, dc) == 1) if diagonals(board) else (dr + dc == 1)


def step(board: Board, c, cell, direction, n: int = 1):
    if type(n) is int and n == 1 and type(direction) is str:
        known = _STEP_1.get((cell, direction))
        if known is not None and known[0] < c.limits.grid_reach:
            return known[1]
    dr, dc = _offset(board, direction)
    n = _count("step", n)
    found = coordinates(cell)
    if found is None:
        return None
    there = reached(board, c, found[0] + n * dr, found[1] + n * dc)
    if n == 1 and len(_STEP_1) < _CACHE_LIMIT:
        _STEP_1[(cell, direction)] = (max(abs(found[0]), abs(found[1])), there)
    return there


def line(board: Board, c, cell, direction, n: int) -> list:
    dr, dc = _offset(board, direction)
    n = _count("line", n)
    found = coordinates(cell)
    if found is None or n == 0:
        return []
    r, col = found
    reached(board, c, r + n * dr, col + n * dc)   # the far end first: no list past the reach
    c.charge(n)
    return [cell_name(r + i * dr, col + i * dc) for i in range(1, n + 1)]


def distance(board: Board, c, a, b):
    pa, pb = coordinates(a), coordinates(b)
    if pa is None or pb is None:
        return None
    dr, dc = abs(pa[0] - pb[0]), abs(pa[1] - pb[1])
    return max(dr, dc) if diagonals(board) else dr + dc


def on_edge(board: Board, c, cell) -> bool:
    return False


def cell_at(board: Board, c, row, col):
    if type(row) is not int or type(col) is not int:
        raise EvalError(f"cell(): row and column are whole numbers, not {row!r} and {col!r}")
    return reached(board, c, row, col)


class _Around:
    """The neighbour relation of an open grid, read like an adjacency dict by _flood."""

    __slots__ = ("offsets",)

    def __init__(self, board: Board):
        self.offsets = _AROUND_8 if diagonals(board) else _AROUND_4

    def get(self, cell, default=()):
        found = coordinates(cell)
        if found is None:
            return default
        return [cell_name(found[0] + dr, found[1] + dc) for dr, dc in self.offsets]


def connected(board: Board, c, start, allowed) -> list:
    ok = set(allowed)
    c.charge(len(ok))
    if start not in ok:
        return []
    return _flood(_Around(board), start, ok, {start})


def groups(board: Board, c, cells) -> list:
    cells = list(cells)
    c.charge(len(cells))
    ok, seen, out, around = set(cells), set(), [], _Around(board)
    for cell in cells:
        if cell not in seen:
            seen.add(cell)
            out.append(_flood(around, cell, ok, seen))
    return out


def around(board: Board, c, cells) -> list:
    cells = list(cells)
    c.charge(len(cells))
    return _around(cells, lambda cell: neighbours(board, c, cell))


def directions(board: Board, c) -> list:
    return list(OPEN_DIRECTIONS)


# The same names and arities as boards.FUNCTIONS; each takes (board, ctx, args…).
FUNCTIONS = {
    "neighbours": neighbours, "adjacent": adjacent, "connected": connected, "groups": groups,
    "around": around, "step": step, "line": line, "distance": distance, "on_edge": on_edge, "cell": cell_at,
    "directions": directions,
}
