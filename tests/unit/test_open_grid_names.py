"""The texts of an open grid's cells kept by their coordinates (opengrid._NAMED): `cell(…)`,
a step of several cells and `line` give the same text object for the same cell, exactly the
text written afresh; a text kept under a wide reach is refused again under a narrower one;
and the keeping stops at its bound and still answers."""
from __future__ import annotations

import pytest

import regnum
from regnum import LimitExceeded, opengrid
from test_open_grid_fast import load   # tests/unit is on the path of its tests


def test_cell_gives_the_same_text_each_time(tmp_path):
    opengrid._NAMED.clear()
    game = load(tmp_path).new_game(2, seed=1)
    first = game.evaluate("cell(floor, 2, -3)")
    assert first == "(2,-3)" and opengrid._NAMED == {(2, -3): "(2,-3)"}
    assert game.evaluate("cell(floor, 2, -3)") is first
    assert game.evaluate('step(floor, cell(floor, 0, -3), "south", 2)') is first
    assert game.evaluate('line(floor, cell(floor, 0, -3), "south", 3)') == ["(1,-3)", "(2,-3)", "(3,-3)"]
    assert game.evaluate('line(floor, cell(floor, 0, -3), "south", 3)')[1] is first


@pytest.mark.parametrize("expression", ["cell(floor, 5, 5)", 'step(floor, cell(floor, 3, 3), "south_east", 2)',
                                        'line(floor, cell(floor, 3, 3), "south_east", 2)'])
def test_a_text_kept_under_a_wide_reach_is_refused_under_a_narrower_one(tmp_path, expression):
    opengrid._NAMED.clear()
    wide = load(tmp_path, limits=regnum.Limits(grid_reach=10)).new_game(2, seed=1)
    wide.evaluate(expression)
    assert opengrid._NAMED[(5, 5)] == "(5,5)"
    narrow = load(tmp_path, limits=regnum.Limits(grid_reach=3)).new_game(2, seed=1)
    with pytest.raises(LimitExceeded, match=r"cell \(5,5\) of open grid 'floor' lies beyond its reach of ±3"):
        narrow.evaluate(expression)


def test_a_cell_at_the_reach_is_named_and_one_past_it_refused(tmp_path):
    opengrid._NAMED.clear()
    game = load(tmp_path, limits=regnum.Limits(grid_reach=3)).new_game(2, seed=1)
    assert game.evaluate("cell(floor, -3, 3)") == "(-3,3)"
    with pytest.raises(LimitExceeded, match=r"cell \(-4,3\) of open grid 'floor'"):
        game.evaluate("cell(floor, -4, 3)")
    assert (-4, 3) not in opengrid._NAMED


def test_the_texts_kept_are_emptied_at_their_bound_and_still_answer(tmp_path, monkeypatch):
    opengrid._NAMED.clear()
    monkeypatch.setattr(opengrid, "_CACHE_LIMIT", 4)
    game = load(tmp_path).new_game(2, seed=1)
    cells = game.evaluate("[cell(floor, r, 0) for r in range(10)]")
    assert cells == [f"({r},0)" for r in range(10)]
    assert len(opengrid._NAMED) <= 4 and opengrid._NAMED[(9, 0)] == "(9,0)"
    assert game.evaluate("line(floor, cell(floor, 0, 0), \"east\", 6)") == [f"(0,{c})" for c in range(1, 7)]
    assert len(opengrid._NAMED) <= 4


def test_a_move_to_a_named_cell_plays_as_before(tmp_path):
    game = load(tmp_path).new_game(2, seed=1)
    lay = next(m for m in game.legal_moves(0) if m.action == "lay" and m.args == {"r": -3, "c": 2})
    game.play(lay)
    assert game.evaluate("count(spot(cell(floor, -3, 2)))") == 1
    assert game.evaluate("[c for c in floor]") == ["(-3,2)"]
