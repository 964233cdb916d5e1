"""A walk along a line of an open grid — `disc(step(board, c, way, i))` for i = 1, 2, … from
the same cell, as Reversi looks for what a disc outflanks — costs a lookup a step and a read a
cell: a step of several cells met before is remembered by (cell, direction, count)
(opengrid._STEPS, bounded, the reach checked before a remembered cell is given), and a variable
per cell read at a computed cell is looked up inline (codegen.CodeGen._cell_read), with the
same values, refusals and steps as through helpers._cell_value."""
from __future__ import annotations

from pathlib import Path

import pytest

import regnum
from regnum import LimitExceeded, RulesetError, opengrid
from regnum.agents import play_random_game
from regnum.compiler import codegen

from listings import assert_alike   # tests/unit is on the path of its tests
from test_open_grid_fast import load
from toy_rules import load_switched

WALKS = """
game walks "Walks"
players 2..2
board floor: open_grid
var height per floor: int = 7
def ahead(c, way) = first(i for i in range(1, 5) where height(step(floor, c, way, i)) != 7)
flow:
    ask 0 to raise
action raise(r in [0, 1, 2], way in ["east", "south"]):
    require flat: ahead(cell(floor, r, 0), way) == none else "the way ahead is not flat"
    set height(step(floor, cell(floor, r, 0), way, 3)) = 9
"""


def test_a_step_of_several_cells_is_remembered_and_given_again(tmp_path):
    opengrid._STEPS.clear()
    game = load(tmp_path).new_game(2, seed=1)
    far = game.evaluate('step(floor, cell(floor, 1, -2), "south_east", 3)')
    assert far == "(4,1)" and opengrid._STEPS == {("(1,-2)", "south_east", 3): (4, (4, 1))}
    assert game.evaluate('step(floor, cell(floor, 1, -2), "south_east", 3)') is far
    opengrid._NAMED.clear()   # the text is named again, and kept, as `cell(…)` names it
    again = game.evaluate('step(floor, cell(floor, 1, -2), "south_east", 3)')
    assert again == far and opengrid._NAMED[(4, 1)] is again
    assert game.evaluate('step(floor, cell(floor, 1, -2), "north", 0)') == "(1,-2)"
    assert ("(1,-2)", "north", 0) in opengrid._STEPS and len(opengrid._STEPS) == 2


def test_a_step_remembered_under_a_wide_reach_is_refused_under_a_narrower_one(tmp_path):
    opengrid._STEPS.clear()
    wide = load(tmp_path, limits=regnum.Limits(grid_reach=10)).new_game(2, seed=1)
    assert wide.evaluate('step(floor, cell(floor, 2, 2), "east", 3)') == "(2,5)"
    narrow = load(tmp_path, limits=regnum.Limits(grid_reach=4)).new_game(2, seed=1)
    with pytest.raises(LimitExceeded, match=r"cell \(2,5\) of open grid 'floor' lies beyond its reach of ±4"):
        narrow.evaluate('step(floor, cell(floor, 2, 2), "east", 3)')
    at_reach = load(tmp_path, limits=regnum.Limits(grid_reach=5)).new_game(2, seed=1)
    assert at_reach.evaluate('step(floor, cell(floor, 2, 2), "east", 3)') == "(2,5)"


@pytest.mark.parametrize("expression, message", [
    ('step(floor, cell(floor, 0, 0), "up", 2)', "has no direction 'up'"),
    ('step(floor, cell(floor, 0, 0), "east", -1)', "the number of steps must be 0 or more, not -1"),
])
def test_a_wrong_step_is_refused_every_time(tmp_path, expression, message):
    opengrid._STEPS.clear()
    game = load(tmp_path).new_game(2, seed=1)
    for _ in range(2):
        with pytest.raises(RulesetError, match=message):
            game.evaluate(expression)
    assert opengrid._STEPS == {}


def test_the_steps_remembered_are_emptied_at_their_bound_and_still_answer(tmp_path, monkeypatch):
    opengrid._STEPS.clear()
    monkeypatch.setattr(opengrid, "_CACHE_LIMIT", 3)
    game = load(tmp_path).new_game(2, seed=1)
    assert game.evaluate('[step(floor, cell(floor, 0, 0), "east", n) for n in range(2, 9)]') == [
        f"(0,{n})" for n in range(2, 9)]
    assert len(opengrid._STEPS) <= 3 and opengrid._STEPS[("(0,0)", "east", 8)] == (8, (0, 8))


def _walks(tmp_path, inline: bool, name: str):
    return load_switched(tmp_path, WALKS, name, [(codegen, "CELLS_COMPUTED_INLINE", inline)])


def test_a_cell_computed_is_read_inline_with_the_same_values_and_steps(tmp_path):
    inline, called = _walks(tmp_path, True, "inline.rules"), _walks(tmp_path, False, "called.rules")
    source = inline.model.actions["raise"].lister.source
    assert ":= _og" in source and "_cell_value" not in source
    assert "_cell_value(c, 'height', 'floor', _og" in called.model.actions["raise"].lister.source
    games = [rules.new_game(2, seed=1) for rules in (inline, called)]
    for game in games:
        assert [(m.args["r"], m.args["way"]) for m in game.legal_moves(0)] == [
            (0, "east"), (0, "south"), (1, "east"), (1, "south"), (2, "east"), (2, "south")]
        game.play(game.legal_moves(0)[0])   # (0,3) raised to 9
    assert_alike(*games)
    assert games[0].evaluate("[height(step(floor, cell(floor, 0, 0), \"east\", i)) for i in [2, 3, 4]]") == [7, 9, 7]
    assert games[0].peak_steps == games[1].peak_steps


@pytest.mark.parametrize("inline", [True, False])
def test_a_computed_index_that_is_not_a_cell_is_refused_either_way(tmp_path, inline):
    rules = _walks(tmp_path, inline, f"refused{inline}.rules")
    game = rules.new_game(2, seed=1)
    with pytest.raises(RulesetError, match=r"height\('x1'\): 'x1' is not a cell \(row,col\)"):
        game.evaluate('height("x" + text(1))')


def test_reversi_plays_the_same_games_either_way(tmp_path):
    reversi = Path(__file__).resolve().parents[2] / "benchmarks" / "unseen" / "reversi.rules"
    text = reversi.read_text(encoding="utf-8")
    inline = load_switched(tmp_path, text, "inline.rules", [(codegen, "CELLS_COMPUTED_INLINE", True)])
    called = load_switched(tmp_path, text, "called.rules", [(codegen, "CELLS_COMPUTED_INLINE", False)])
    for seed in (3, 4):
        a, b = play_random_game(inline, 2, seed), play_random_game(called, 2, seed)
        assert_alike(a, b)
