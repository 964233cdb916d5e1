"""`step(B, x, d, n)` with n known where the code runs (1 to 3), `on_edge(B, x)` and
`directions(B)` on a fixed board are read from the board's tables inline (codegen._board_call,
CodeGen.iterable): the same cells, `none` off the board, the same failures as boards.step,
boards.on_edge and boards.directions."""
from __future__ import annotations

import pytest

import regnum
from regnum import boards

from test_boards import GRID, load   # tests/unit is on the path of its tests

RULES = GRID + """
const far = 3
var kept: list of str = []
flow:
    let h = cell(land, 2, 3)
    for d in ["east", "west", "south_west", "north_east"]:
        announce "{d}: {step(land, h, d, 2)} {step(land, h, d, far)} {step(land, cell(land, 0, 0), d, 2)}"
    announce "{step(land, h, \\"east\\", 2)} {step(land, h, \\"north_west\\", 3)} {step(land, h, \\"east\\", 0)}"
    announce "{on_edge(land, h)} {on_edge(land, cell(land, 0, 0))} {on_edge(land, cell(land, 5, 2))}"
    announce "{[x for x in land where on_edge(land, x)] == [x for x in land where count(neighbours(land, x)) < 6]}"
    set kept = directions(land)
    set kept = kept + ["more"]
    announce "{kept} {[step(land, h, d, 2) for d in directions(land)]} {directions(land)}"
    ask 0 to look
action look(d in ["north_west", "up"], n in [1, 2]):
    announce "{step(land, cell(land, 3, 3), d, 2)} {step(land, cell(land, 3, 3), d, n)}"
"""


@pytest.fixture()
def game(tmp_path):
    return load(tmp_path, RULES).new_game(2)


def _step(land, cell, d, n):   # the reference: boards.step, as the call was before
    return boards.step(land, cell, d, n) or "none"


def test_steps_known_in_number_read_the_tables_and_give_boards_step_s_cells(game):
    land = game.model.boards["land"]
    assert game.events[0:4] == [
        f"{d}: {_step(land, '(2,3)', d, 2)} {_step(land, '(2,3)', d, 3)} {_step(land, '(0,0)', d, 2)}"
        for d in ("east", "west", "south_west", "north_east")]
    assert game.events[0:2] == ["east: (2,5) none (0,2)", "west: (2,1) (2,0) none"]
    assert game.events[4] == f"{_step(land, '(2,3)', 'east', 2)} {_step(land, '(2,3)', 'north_west', 3)} (2,3)"
    names = game.model.expressions.codegen.ns
    assert any(k.startswith("_ways") and v is land.steps for k, v in names.items())
    assert any(k.startswith("_edge") and v is land.edge for k, v in names.items())


def test_on_edge_reads_the_board_s_edge(game):
    land = game.model.boards["land"]
    assert game.events[5] == " ".join(str(boards.on_edge(land, c)).lower() for c in ("(2,3)", "(0,0)", "(5,2)"))
    assert game.events[5] == "false true true"
    assert game.events[6] == "true"


def test_directions_are_the_board_s_and_a_value_of_its_own(game):
    land = game.model.boards["land"]
    steps = [_step(land, "(2,3)", d, 2) for d in land.directions]
    assert game.events[7] == f"{list(land.directions) + ['more']} {steps} {list(land.directions)}".replace("'", "").replace("None", "none")
    assert game.state.vars["kept"] == list(boards.directions(land)) + ["more"]
    assert game.events[7] == ("[east, west, north_east, north_west, south_east, south_west, more] "
                              "[(2,5), (2,1), (0,4), (0,2), (4,4), (4,2)] "
                              "[east, west, north_east, north_west, south_east, south_west]")


def test_a_direction_the_board_lacks_fails_as_boards_step_says(game):
    moves = {(m.args["d"], m.args["n"]): m for m in game.legal_moves(0)}
    for bad in [("up", 1), ("up", 2)]:
        again = game.copy()
        with pytest.raises(regnum.RulesetError, match="board 'land' has no direction 'up'"):
            again.play(moves[bad])
        assert again.to_dict() == game.to_dict()
    land = game.model.boards["land"]
    game.play(moves[("north_west", 2)])
    assert game.events[-1] == f"{_step(land, '(3,3)', 'north_west', 2)} {_step(land, '(3,3)', 'north_west', 2)}"
