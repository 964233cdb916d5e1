"""Boards: one model of cells and relations under every topology.

A board is a set of cells. Each cell is a value of the board's type: a graph's nodes are
their names, a grid's cells are their coordinates written `(row,col)`. Every topology is a
generator of the same record — the cells in order, who is next to whom, and for the
topologies that have them, coordinates and the step in each named direction — and every
query (neighbours, step, line, distance, edge, connected groups) is written once, here,
over that record. The checker reads the settings each topology takes from TOPOLOGIES.
"""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field

from .builtins import EvalError
from .source import Span

MAX_CELLS = 100_000

# Directions of the hexagonal layouts: pointy-top hexes in rows (`*_r`, the rows are
# shifted) and flat-top hexes in columns (`*_q`, the columns are shifted).
_ROW_DIRECTIONS = ("east", "west", "north_east", "north_west", "south_east", "south_west")
_COLUMN_DIRECTIONS = ("north", "south", "north_east", "north_west", "south_east", "south_west")
HEX_LAYOUTS = ("odd_r", "even_r", "odd_q", "even_q")
PYRAMID_DIRECTIONS = ("left", "right", "down_left", "down_right", "up_left", "up_right")
# The open grid's: the eight compass directions, clockwise from north; rows grow southward.
OPEN_DIRECTIONS = ("north", "north_east", "east", "south_east", "south", "south_west", "west", "north_west")


@dataclass(frozen=True)
class Setting:
    name: str
    required: bool
    meaning: str


# topology -> the settings it reads (graph boards keep any setting for tools; they read none)
TOPOLOGIES: dict[str, tuple[Setting, ...]] = {
    "graph": (),
    "hex_grid": (Setting("rows", True, "the number of rows"),
                 Setting("cols", True, "the number of columns"),
                 Setting("layout", False, "the offset convention: " + ", ".join(HEX_LAYOUTS)
                         + " (default odd_r)")),
    "pyramid": (Setting("rows", True, "the number of rows; the bottom row has that many places"),),
    "open_grid": (Setting("diagonals", False, "whether cells touching at a corner are neighbours "
                          "(default true: eight neighbours; false: four)"),),
}
COORDINATE_TOPOLOGIES = ("hex_grid", "pyramid", "open_grid")


@dataclass
class Board:
    name: str
    topology: str
    cells: list                       # every cell, in order (a grid: row by row)
    adjacency: dict                   # cell -> tuple of neighbouring cells
    settings: dict
    span: Span
    directions: tuple = ()            # the names of the directions (none for a graph)
    steps: dict = field(default_factory=dict)      # direction -> {cell: the next cell that way}
    coords: dict = field(default_factory=dict)     # cell -> (row, col); empty for a graph
    edge: frozenset = frozenset()     # cells from which some direction leads off the board
    _distances: dict = field(default_factory=dict, repr=False, compare=False)
    _lines: dict = field(default_factory=dict, repr=False, compare=False)   # see line()
    _at: dict | None = field(default=None, repr=False, compare=False)       # see cell_at()

    @property
    def nodes(self) -> list:
        return self.cells

    @property
    def has_coordinates(self) -> bool:
        return self.topology in COORDINATE_TOPOLOGIES

    @property
    def is_open(self) -> bool:
        """An open grid: no fixed cells; the cells in use live in the state (opengrid.py)."""
        return self.topology == "open_grid"


class BoardError(ValueError):
    """A board whose settings cannot generate it; the compiler reports it at the setting."""

    def __init__(self, message: str, setting: str | None = None):
        super().__init__(message)
        self.setting = setting


# ── cells as text ─────────────────────────────────────────────────────────────

# Only the canonical text of a cell: no leading zeros, no "-0", no spaces; at most 1,000
# digits (a text of thousands, which a ruleset may build, is no cell: Python refuses to read
# such a number, and no grid reaches that far).
_CELL = re.compile(r"^\((0|-?[1-9]\d{0,999}),(0|-?[1-9]\d{0,999})\)$")
# text -> (row, col) of the texts already parsed as cells (and of every cell of a fixed grid):
# only cell texts are ever keys, so a text found here is a cell. Bounded in entries, and in
# their size: a longer text (a ruleset may build one) is parsed each time, never kept.
PARSED: dict = {}
KEPT_TEXT = 48   # characters: any cell whose row and column fit in 64 bits


def cell_name(row: int, col: int) -> str:
    return f"({row},{col})"


def coordinates(cell) -> tuple[int, int] | None:
    """(row, col) of a grid cell written `(row,col)`; None for anything else."""
    if cell in PARSED:   # a test and a subscript: cheaper than a call of get
        return PARSED[cell]
    if type(cell) is not str:
        return None
    match = _CELL.match(cell)
    if match is None:
        return None
    found = (int(match.group(1)), int(match.group(2)))
    if len(cell) <= KEPT_TEXT:
        PARSED[cell] = found
        if len(PARSED) > 200_000:
            PARSED.clear()
    return found


def coordinate(cell, which: str) -> int:
    """The `row` or `col` of a cell (for `h.row`, `h.col`)."""
    found = coordinates(cell)
    if found is None:
        raise EvalError(f"{cell!r} is not a cell with coordinates, so it has no {which}")
    return found[0] if which == "row" else found[1]


# ── generators ────────────────────────────────────────────────────────────────

def graph(name: str, nodes: list, edges: list, settings: dict, span: Span) -> Board:
    adjacency: dict = {n: [] for n in nodes}
    for a, b in edges:
        adjacency.setdefault(a, []).append(b)
        adjacency.setdefault(b, []).append(a)
    return Board(name, "graph", list(nodes), {k: tuple(v) for k, v in adjacency.items()}, settings, span)


def _positive(settings: dict, key: str) -> int:
    value = settings.get(key)
    if type(value) is not int or value < 1:
        raise BoardError(f"'{key}' must be a whole number of at least 1, not {value!r}", key)
    return value


def _hex_offset(layout: str, row: int, col: int) -> dict:
    """direction -> (d_row, d_col) from (row, col) in an offset hex layout."""
    if layout.endswith("_r"):
        shifted = (row % 2 == 1) == (layout == "odd_r")   # this row sits half a hex to the right
        right, left = (1, 0) if shifted else (0, -1)      # the columns of the hexes above and below
        return {"east": (0, 1), "west": (0, -1), "north_east": (-1, right), "north_west": (-1, left),
                "south_east": (1, right), "south_west": (1, left)}
    shifted = (col % 2 == 1) == (layout == "odd_q")       # this column sits half a hex lower
    return {"north": (-1, 0), "south": (1, 0),
            "north_east": (0 if shifted else -1, 1), "north_west": (0 if shifted else -1, -1),
            "south_east": (1 if shifted else 0, 1), "south_west": (1 if shifted else 0, -1)}


def hex_grid(name: str, settings: dict, span: Span) -> Board:
    rows, cols = _positive(settings, "rows"), _positive(settings, "cols")
    layout = settings.get("layout", "odd_r")
    if layout not in HEX_LAYOUTS:
        raise BoardError(f"'layout' must be one of {', '.join(HEX_LAYOUTS)}, not {layout!r}", "layout")
    if rows * cols > MAX_CELLS:
        raise BoardError(f"a board of {rows} × {cols} cells is larger than the limit of {MAX_CELLS}", "rows")
    directions = _ROW_DIRECTIONS if layout.endswith("_r") else _COLUMN_DIRECTIONS
    positions = [(r, c) for r in range(rows) for c in range(cols)]
    return _generated(name, "hex_grid", positions, directions,
                      lambda r, c: _hex_offset(layout, r, c), settings, span)


def pyramid(name: str, settings: dict, span: Span) -> Board:
    """Rows numbered from 1 at the bottom; row r has rows − r + 1 places, numbered from 0 at the
    left; place (r, i) rests on (r−1, i) and (r−1, i+1), like brickwork."""
    rows = _positive(settings, "rows")
    if rows * (rows + 1) // 2 > MAX_CELLS:
        raise BoardError(f"a pyramid of {rows} rows is larger than the limit of {MAX_CELLS} cells", "rows")
    positions = [(r, i) for r in range(1, rows + 1) for i in range(rows - r + 1)]
    offsets = {"left": (0, -1), "right": (0, 1), "down_left": (-1, 0), "down_right": (-1, 1),
               "up_left": (1, -1), "up_right": (1, 0)}
    return _generated(name, "pyramid", positions, PYRAMID_DIRECTIONS, lambda r, c: offsets, settings, span)


def _generated(name, topology, positions, directions, offsets_at, settings, span) -> Board:
    cells = [cell_name(r, c) for r, c in positions]
    named = dict(zip(positions, cells))   # each cell's name made once (every load makes the board)
    steps: dict = {d: {} for d in directions}
    adjacency: dict = {}
    edge = set()
    for (r, c), cell in zip(positions, cells):
        around = []
        for direction, (dr, dc) in offsets_at(r, c).items():
            target = named.get((r + dr, c + dc))
            if target is not None:
                steps[direction][cell] = target
                around.append(target)
            else:
                edge.add(cell)
        adjacency[cell] = tuple(around)
    coords = dict(zip(cells, positions))
    PARSED.update(coords)
    return Board(name, topology, cells, adjacency, settings, span, tuple(directions), steps, coords,
                 frozenset(edge))


def open_grid(name: str, settings: dict, span: Span) -> Board:
    """A square grid without bounds: no cells are listed, every query is computed from the
    coordinates (opengrid.py), and the cells in use are kept in the state."""
    diagonals = settings.get("diagonals", True)
    if type(diagonals) is not bool:
        raise BoardError(f"'diagonals' must be true or false, not {diagonals!r}", "diagonals")
    return Board(name, "open_grid", [], {}, settings, span, OPEN_DIRECTIONS)


GENERATORS = {"hex_grid": hex_grid, "pyramid": pyramid, "open_grid": open_grid}


# ── queries, written once for every topology ────────────────────────────────

def neighbours(board: Board, cell) -> list:
    return list(board.adjacency.get(cell, ()))


def adjacent(board: Board, a, b) -> bool:
    return b in board.adjacency.get(a, ())


def _direction(board: Board, direction) -> dict:
    table = board.steps.get(direction)
    if table is None:
        if not board.directions:
            raise EvalError(f"board '{board.name}' is a {board.topology}: it has no directions")
        raise EvalError(f"board '{board.name}' has no direction {direction!r} "
                        f"(directions: {', '.join(board.directions)})")
    return table


def step(board: Board, cell, direction, n: int = 1):
    """The cell `n` steps from `cell` in `direction`, or none if that leaves the board."""
    table = _direction(board, direction)
    if type(n) is not int or n < 0:
        raise EvalError(f"step(): the number of steps must be 0 or more, not {n!r}")
    for _ in range(n):
        cell = table.get(cell)
        if cell is None:
            return None
    return cell


def step_once(steps: dict, board: Board, cell, direction):
    """`step(board, cell, direction)`, one step, as the compiler calls it with the board's
    `steps` table at hand: one lookup when the direction is one of the board's."""
    table = steps.get(direction)
    if table is None:
        return step(board, cell, direction)   # which says why not
    return table.get(cell)


_LINES_KEPT = 1 << 16   # lines remembered per board, emptied when full


def line(board: Board, cell, direction, n: int) -> list:
    """The cells 1 … n steps from `cell` in `direction`, stopping at the board's edge.

    A fixed board never changes, so the lines from its cells are remembered (a search for
    lines of three looks at every cell and direction, at every listing)."""
    if type(n) is not int or n < 0:
        _direction(board, direction)   # an unknown direction is named first
        raise EvalError(f"line(): the number of cells must be 0 or more, not {n!r}")
    key = (cell, direction, n)
    known = board._lines.get(key)
    if known is not None:
        return list(known)
    table = _direction(board, direction)
    out = []
    start = cell
    for _ in range(min(n, len(board.cells))):
        cell = table.get(cell)
        if cell is None:
            break
        out.append(cell)
    if type(start) is str and start in board.adjacency:
        if len(board._lines) >= _LINES_KEPT:
            board._lines.clear()
        board._lines[key] = tuple(out)
    return out


def on_edge(board: Board, cell) -> bool:
    return cell in board.edge


def cell_at(board: Board, row, col):
    """The cell at (row, col), or none if the board has no such cell. A board's setup asks
    this of every cell it fills (a section's hexes, row by row), so whole numbers are
    looked up in the board's cells by position, made once, rather than written as a name
    and checked; anything else takes the checks below."""
    at = board._at
    if at is not None and type(row) is int and type(col) is int:
        return at.get((row, col))
    return _cell_at(board, row, col)


def _cell_at(board: Board, row, col):
    if not board.has_coordinates:
        raise EvalError(f"board '{board.name}' is a {board.topology}: its cells have no coordinates")
    if type(row) is not int or type(col) is not int:
        raise EvalError(f"cell(): row and column are whole numbers, not {row!r} and {col!r}")
    if board._at is None:
        board._at = {position: cell for cell, position in board.coords.items()}
    name = cell_name(row, col)
    return name if name in board.adjacency else None


def distance(board: Board, a, b):
    """How many steps between neighbours lead from `a` to `b`; none if no path does."""
    if a not in board.adjacency or b not in board.adjacency:
        return None
    known = board._distances.get(a)
    if known is None:
        known = {a: 0}
        todo = deque([a])
        while todo:
            here = todo.popleft()
            for there in board.adjacency[here]:
                if there not in known:
                    known[there] = known[here] + 1
                    todo.append(there)
        if len(board._distances) > 4096:
            board._distances.clear()
        board._distances[a] = known
    return known.get(b)


def connected(board: Board, start, allowed) -> list:
    """The group of `start` within the cells `allowed` (neighbour to neighbour); [] if `start`
    is not allowed."""
    ok = set(allowed)
    if start not in ok:
        return []
    return _flood(board.adjacency, start, ok, {start})


def _flood(adjacency: dict, start, ok: set, seen: set) -> list:
    todo, out = [start], [start]
    while todo:
        for n in adjacency.get(todo.pop(), ()):
            if n in ok and n not in seen:
                seen.add(n)
                todo.append(n)
                out.append(n)
    return out


def groups(board: Board, cells) -> list:
    """The connected groups of `cells`, each a list, in the order their first cell appears."""
    ok = set(cells)
    seen: set = set()
    out = []
    for cell in cells:
        if cell not in seen:
            seen.add(cell)
            out.append(_flood(board.adjacency, cell, ok, seen))
    return out


def around(board: Board, cells) -> list:
    """The cells next to any of `cells` and not among them, each once, in the order met: the
    ring of a piece that lies on several cells (a domino, a tile of any shape)."""
    return _around(cells, lambda cell: board.adjacency.get(cell, ()))


def _around(cells, neighbours_of) -> list:
    cells = list(cells)
    inside, out, seen = set(cells), [], set()
    for cell in cells:
        for n in neighbours_of(cell):
            if n not in inside and n not in seen:
                seen.add(n)
                out.append(n)
    return out


def directions(board: Board) -> list:
    return list(board.directions)


# name -> (min args, max args, implementation); the first argument is always the board.
FUNCTIONS = {
    "neighbours": (2, 2, neighbours),
    "adjacent": (3, 3, adjacent),
    "connected": (3, 3, connected),
    "groups": (2, 2, groups),
    "around": (2, 2, around),
    "step": (3, 4, step),
    "line": (4, 4, line),
    "distance": (3, 3, distance),
    "on_edge": (2, 2, on_edge),
    "cell": (3, 3, cell_at),
    "directions": (1, 1, directions),
}
# The functions that need coordinates or directions: refused on a graph by the checker.
GRID_ONLY = ("step", "line", "on_edge", "cell", "directions")
