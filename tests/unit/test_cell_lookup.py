"""`cell(B, row, col)` of a fixed board is looked up by position (boards.cell_at: the board's
cells by (row, col), made at the first call that passed the checks): the same cell or none
as naming the position and looking the name up, and the same refusals, before and after."""
from __future__ import annotations

import pytest

from regnum import boards
from regnum.builtins import EvalError
from regnum.source import NO_SPAN


def _named(board, row, col):
    """What cell_at answered before the lookup: the position's name, if it is a cell."""
    name = boards.cell_name(row, col)
    return name if name in board.adjacency else None


def _boards():
    return [boards.hex_grid("land", {"rows": 6, "cols": 5, "layout": "odd_r"}, NO_SPAN),
            boards.hex_grid("field", {"rows": 4, "cols": 7, "layout": "even_q"}, NO_SPAN),
            boards.pyramid("stack", {"rows": 5}, NO_SPAN)]


@pytest.mark.parametrize("board", _boards(), ids=lambda b: b.name)
def test_every_position_gives_the_cell_its_name_gives(board):
    assert board._at is None   # nothing made before the first call
    positions = [(r, c) for r in range(-3, 10) for c in range(-3, 10)] + [(10**20, 0), (0, -10**20)]
    answers = [boards.cell_at(board, r, c) for r, c in positions]
    assert board._at is not None and len(board._at) == len(board.cells)
    assert answers == [_named(board, r, c) for r, c in positions]
    assert sum(a is not None for a in answers) == len(board.cells)
    first, last = board.cells[0], board.cells[-1]
    assert boards.cell_at(board, *board.coords[first]) == first
    assert boards.cell_at(board, *board.coords[last]) == last


@pytest.mark.parametrize("row, col", [(True, 0), (0, False), ("1", 2), (1, None), (1.0, 2)])
def test_what_is_not_two_whole_numbers_is_refused_before_and_after_the_lookup(row, col):
    board = boards.hex_grid("land", {"rows": 3, "cols": 3}, NO_SPAN)
    for _ in range(2):
        with pytest.raises(EvalError, match=r"cell\(\): row and column are whole numbers"):
            boards.cell_at(board, row, col)
        assert boards.cell_at(board, 1, 2) == "(1,2)"   # the lookup, made at once


def test_a_board_without_coordinates_refuses_every_position():
    graph = boards.graph("map", ["a", "b"], [("a", "b")], {}, NO_SPAN)
    for _ in range(2):
        with pytest.raises(EvalError, match="its cells have no coordinates"):
            boards.cell_at(graph, 0, 0)
    assert graph._at is None
