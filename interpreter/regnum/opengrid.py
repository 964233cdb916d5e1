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
        return _named(row, col)
    raise Overflow(f"cell ({row},{col}) of open grid '{board.name}' lies beyond its reach of "
                   f"±{reach} rows and columns (runaway growth?)", c.limits.hint("grid_reach"))


def _named(row: int, col: int) -> str:
    """The text of the cell at (row, col), kept (see _NAMED); the reach is the caller's to check."""
    name = _NAMED.get((row, col))
    if name is None:
        name = cell_name(row, col)
        _keep(_NAMED, (row, col), name, _CACHE_LIMIT)
    return name


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
# a full cache is emptied, so that a long run keeps answering its current cells from it.
_CACHE_LIMIT = 1 << 16
_NEAR_8: dict = {}   # cell -> (extent, the eight cells around, row by row: also what `step` reads)
# (row, col) -> the cell's text, for `cell(board, row, col)`, a step of several cells and
# `line`: one lookup where a text would be written again (a game names the same cells over
# and over), and the same text each time, its hash computed once.
_NAMED: dict = {}
_NEAR_4: dict = {}
# (cell, direction, n) -> (the extent of the cell n steps that way, its coordinates, by which
# _NAMED keeps its text): `step(B, x, d, i)` for the i of a walk, asked again at every walk
# from the same cell.
_STEPS: dict = {}
# direction -> its place among the eight cells around (_AROUND_8)
_SLOT = {"north_west": 0, "north": 1, "north_east": 2, "west": 3, "east": 4, "south_west": 5,
         "south": 6, "south_east": 7}


def _keep(cache: dict, key, value, limit: int) -> None:
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value


def neighbours(board: Board, c, cell) -> list:
    return (neighbours_8 if diagonals(board) else neighbours_4)(board, c, cell)


def _neighbours_with(diagonal: bool):
    """neighbours() of the boards with (or without) diagonals: what a board is is settled
    when the ruleset is compiled (see `query`), not at each call."""
    near, offsets = (_NEAR_8, _AROUND_8) if diagonal else (_NEAR_4, _AROUND_4)

    def neighbours(board: Board, c, cell) -> list:
        try:
            known = near[cell]
            if known[0] < c.limits.grid_reach:
                return list(known[1])
        except KeyError:
            pass
        found = coordinates(cell)
        if found is None:
            return []
        r, col = found
        cells = [reached(board, c, r + dr, col + dc) for dr, dc in offsets]
        _keep(near, cell, (max(abs(r), abs(col)), tuple(cells)), _CACHE_LIMIT)
        return cells
    return neighbours


neighbours_8, neighbours_4 = _neighbours_with(True), _neighbours_with(False)


def adjacent(board: Board, c, a, b) -> bool:
    pa, pb = coordinates(a), coordinates(b)
    if pa is None or pb is None:
        return False
    dr, dc = abs(pa[0] - pb[0]), abs(pa[1] - pb[1])
    return (max(dr, dc) == 1) if diagonals(board) else (dr + dc == 1)


def step(board: Board, c, cell, direction, n: int = 1):
    if type(n) is int and n == 1:
        return step_one(board, c, cell, direction)
    try:   # a step of several cells met before (a walk along a line, one more cell each time)
        known = _STEPS[cell, direction, n]
        if known[0] <= c.limits.grid_reach:   # named as _named names it (the same text kept)
            return _NAMED.get(known[1]) or _named(*known[1])
    except (KeyError, TypeError):
        pass
    return _step(board, c, cell, direction, n)


def step_each(board: Board, c, cell, directions: tuple) -> list:
    """`[step(board, cell, d) for d in directions]`, the comprehension's steps charged first as
    it charges them: the cells around `cell` read once for all the directions (a list: the
    value may be kept or changed). See steps_seen."""
    return list(steps_seen(board, c, cell, directions))


# The cells a step away from a cell in each of a few directions, by the directions' tuple then
# by cell: (the cell's extent, the cells). Like _NEAR_8, emptied when full.
_EACH: dict = {}
_EACH_KINDS = 64   # tuples of directions remembered (a ruleset writes a few)


def steps_seen(board: Board, c, cell, directions: tuple) -> tuple:
    """step_each's cells as a tuple, for a comprehension that only goes through them: one
    lookup for a cell met before (a `sides(x)` judged for every candidate of a listing). What
    the fast read cannot answer (a direction that is none, a cell at the reach) goes through
    step_one, direction by direction, failing where the comprehension fails."""
    steps = c.steps = c.steps + len(directions)
    if steps > c.max_steps:
        c.runaway()
    try:
        known = _EACH[directions][cell]
        if known[0] < c.limits.grid_reach:
            return known[1]
    except (KeyError, TypeError):
        pass
    try:
        known = _NEAR_8[cell]
        if known[0] < c.limits.grid_reach:
            around = known[1]
            cells = tuple([around[_SLOT[d]] for d in directions])
            kept = _EACH.get(directions)
            if kept is None:
                if len(_EACH) >= _EACH_KINDS:
                    _EACH.clear()
                kept = _EACH[directions] = {}
            _keep(kept, cell, (known[0], cells), _CACHE_LIMIT)
            return cells
    except (KeyError, TypeError):
        pass
    return tuple([step_one(board, c, cell, d) for d in directions])


def step_one(board: Board, c, cell, direction):
    """One step, the common call: read from the cells around `cell` (_NEAR_8), which a cell
    within the reach gets all at once the first time it is asked. Anything else (a cell or a
    direction that is not one, a cell at the reach) takes the checks of `_step_one`."""
    try:
        known = _NEAR_8[cell]
        if known[0] < c.limits.grid_reach:
            return known[1][_SLOT[direction]]
    except (KeyError, TypeError):
        pass
    return _step_one(board, c, cell, direction)


def _step_one(board: Board, c, cell, direction):
    if type(direction) is str and direction in _SLOT:
        found = coordinates(cell)
        reach = c.limits.grid_reach
        if found is not None and abs(found[0]) < reach and abs(found[1]) < reach:
            r, col = found
            cells = tuple([cell_name(r + dr, col + dc) for dr, dc in _AROUND_8])
            _keep(_NEAR_8, cell, (max(abs(r), abs(col)), cells), _CACHE_LIMIT)
            return cells[_SLOT[direction]]
    return _step(board, c, cell, direction, 1)


def _step(board: Board, c, cell, direction, n):
    dr, dc = _offset(board, direction)
    n = _count("step", n)
    found = coordinates(cell)
    if found is None:
        return None
    row, col = found[0] + n * dr, found[1] + n * dc
    far = reached(board, c, row, col)
    if type(n) is int and type(cell) is str:   # (not a truth value taken for 0 or 1)
        _keep(_STEPS, (cell, direction, n), (max(abs(row), abs(col)), (row, col)), _CACHE_LIMIT)
    return far


def line(board: Board, c, cell, direction, n: int) -> list:
    dr, dc = _offset(board, direction)
    n = _count("line", n)
    found = coordinates(cell)
    if found is None or n == 0:
        return []
    r, col = found
    reached(board, c, r + n * dr, col + n * dc)   # the far end first: no list past the reach
    c.charge(n)
    return [_named(r + i * dr, col + i * dc) for i in range(1, n + 1)]


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
    reach = c.limits.grid_reach
    if -reach <= row <= reach and -reach <= col <= reach:
        name = _NAMED.get((row, col))
        if name is not None:
            return name
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


# around() of a few cells (the shape of a piece), by the tuple of cells: (their extent, the
# cells around). Kept only when every one is a cell, so a key is a few short texts; emptied
# when full, like the caches above.
_RING_8: dict = {}
_RING_4: dict = {}
_RING_CELLS = 8
_RING_LIMIT = 1 << 14


def around(board: Board, c, cells) -> list:
    return (around_8 if diagonals(board) else around_4)(board, c, cells)


def _around_with(diagonal: bool):
    """around() of the boards with (or without) diagonals, like _neighbours_with."""
    rings = _RING_8 if diagonal else _RING_4
    neighbours_of = neighbours_8 if diagonal else neighbours_4

    def around(board: Board, c, cells) -> list:
        if type(cells) is not list:
            cells = list(cells)
        steps = c.steps = c.steps + len(cells)   # c.charge(len(cells)), without its call
        if steps > c.max_steps:
            c.runaway()
        if not cells or len(cells) > _RING_CELLS:
            return _around(cells, lambda cell: neighbours_of(board, c, cell))
        key = tuple(cells)
        try:
            known = rings[key]
            if known[0] < c.limits.grid_reach:
                return list(known[1])
        except KeyError:
            pass
        out = _around(cells, lambda cell: neighbours_of(board, c, cell))
        found = [coordinates(cell) for cell in cells]
        if None not in found:
            _keep(rings, key, (max(max(abs(r), abs(col)) for r, col in found), tuple(out)), _RING_LIMIT)
        return out
    return around


around_8, around_4 = _around_with(True), _around_with(False)


def _around_one_with(diagonal: bool):
    """`around(board, [cell])` for a comprehension that only goes through it: the cells
    around one cell are its neighbours, in their order, read as the tuple remembered for it
    (no list made for the argument, no key, no copy); the one step `around` charges for its
    one cell, charged. Anything else (a cell not met, one at the reach, a text that is not a
    cell) is `around` itself, answering or failing as it does."""
    near = _NEAR_8 if diagonal else _NEAR_4
    around = around_8 if diagonal else around_4

    def around_one(board: Board, c, cell):
        try:
            known = near[cell]
            if known[0] < c.limits.grid_reach:
                steps = c.steps = c.steps + 1
                if steps > c.max_steps:
                    c.runaway()
                return known[1]
        except (KeyError, TypeError):
            pass
        return around(board, c, [cell])
    return around_one


around_one_8, around_one_4 = _around_one_with(True), _around_one_with(False)


def around_one(board: Board, c, cell):
    """around_one_8 or around_one_4, as the board has diagonals or not."""
    return (around_one_8 if diagonals(board) else around_one_4)(board, c, cell)


def directions(board: Board, c) -> list:
    return list(OPEN_DIRECTIONS)


def query(board: Board, name: str, count: int):
    """The function answering `name` with `count` arguments (the board first) on `board`, for
    the compiler to call: settled for this board where it can be (diagonals or not, one step)."""
    if name in ("neighbours", "around"):
        diagonal = diagonals(board)
        if name == "neighbours":
            return neighbours_8 if diagonal else neighbours_4
        return around_8 if diagonal else around_4
    if name == "step" and count == 3:
        return step_one
    return FUNCTIONS[name]


# The same names and arities as boards.FUNCTIONS; each takes (board, ctx, args…).
FUNCTIONS = {
    "neighbours": neighbours, "adjacent": adjacent, "connected": connected, "groups": groups,
    "around": around, "step": step, "line": line, "distance": distance, "on_edge": on_edge, "cell": cell_at,
    "directions": directions,
}
