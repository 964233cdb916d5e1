"""The open grid's fast paths (opengrid.py, compiler/model.py MadeKeys, the reads codegen.py
writes): every remembered answer is the answer computed afresh, is refused again under a
narrower reach, and never outgrows its bound; a text that is not a cell is still refused
with its message, whichever path reads it."""
from __future__ import annotations

import re
import textwrap

import pytest

import regnum
from regnum import LimitExceeded, Move, RulesetError, opengrid
from regnum.boards import PARSED, coordinates
from regnum.compiler import model as model_module

RULES = """
game fastgrid "Fast grid"
players 2..2
board floor: open_grid{settings}
piece tile:
    owner: player
zone spot per floor: public
zone supply per player: public
var height per floor: int = 7
var mark: floor? = none
setup:
    for p in players:
        create 4 tile(owner: p) in supply(p)
flow:
    repeat until false:
        ask 0 to lay or raise or wait{more}
action lay(r in range(-3, 4), c in range(-3, 4)):
    require stocked: count(supply(player)) > 0
    move 1 from supply(player) to spot(cell(floor, r, c))
action raise(r in [0, 1], c in [0, 1]):
    add 2 to height(cell(floor, r, c))
action wait():
    pass
"""


def load(tmp_path, more_rules: str = "", settings: str = "", more: str = "", limits=None) -> regnum.Ruleset:
    path = tmp_path / "fast.rules"
    text = (RULES + more_rules).replace("{settings}", settings).replace("{more}", f" or {more}" if more else "")
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return regnum.load(path, limits=limits) if limits else regnum.load(path)


@pytest.fixture
def game(tmp_path):
    return load(tmp_path).new_game(2, seed=1)


def _source_of(rules, action: str) -> str:
    return rules.model.actions[action].lister.source


# ── zone keys of an open grid ─────────────────────────────────────────────────

def test_zone_keys_made_are_items_of_made_and_never_of_the_keys(tmp_path):
    rules = load(tmp_path)
    game = rules.new_game(2, seed=1)
    fam = game.model.zones["spot"]
    fam.keys.made.clear()
    assert game.evaluate("count(spot(cell(floor, 2, -1)))") == 0
    game.play(Move(0, "lay", {"r": 0, "c": 0}))
    assert dict(fam.keys.made) == {"(2,-1)": "spot#(2,-1)", "(0,0)": "spot#(0,0)"}
    assert fam.keys["(5,5)"] == "spot#(5,5)" and fam.keys.made["(5,5)"] == "spot#(5,5)"
    # what iterates the keys (a new game's zones, a saved game's check) meets no cell
    assert list(fam.keys.items()) == [] and len(fam.keys) == 0
    assert sorted(game.state.zones) == ["spot#(0,0)", "supply#0", "supply#1"]
    assert sorted(rules.new_game(2, seed=1).state.zones) == ["supply#0", "supply#1"]


def test_zone_keys_made_stop_at_their_bound_and_still_answer(game, monkeypatch):
    made = game.model.zones["spot"].keys.made
    made.clear()
    monkeypatch.setattr(model_module, "_KEYS_MADE", 2)
    keys = [made[f"({r},0)"] for r in range(5)]
    assert keys == ["spot#(0,0)", "spot#(1,0)", "spot#(2,0)", "spot#(3,0)", "spot#(4,0)"]
    assert dict(made) == {"(0,0)": "spot#(0,0)", "(1,0)": "spot#(1,0)"}


@pytest.mark.parametrize("index", ['"x"', '"(01,2)"', '"(1, 2)"'])
def test_a_zone_index_that_is_not_a_cell_is_refused_each_time(tmp_path, index):
    rules = load(tmp_path, f"""
action bad():
    require empty: count(spot({index})) == 0
""", more="bad")
    game = rules.new_game(2, seed=1)
    text = index.strip('"')
    for _ in range(2):   # refused again: nothing of it was remembered
        with pytest.raises(RulesetError, match=re.escape(f"spot({text!r}) is not a zone: {text!r} is not a cell (row,col)")):
            game.legal_moves(0)
    assert text not in rules.model.zones["spot"].keys.made


# ── variables per cell ────────────────────────────────────────────────────────

def test_a_variable_per_cell_reads_the_same_through_every_path(tmp_path):
    rules = load(tmp_path, """
action look(at in [cell(floor, 0, 0), cell(floor, 1, 1), cell(floor, 9, 9)]):
    require tall: height(at) > 7
""", more="look")
    game = rules.new_game(2, seed=1)
    game.play(Move(0, "raise", {"r": 0, "c": 0}))
    # inline (a plain local) and through _cell_value (any other expression)
    assert "in _cells" in _source_of(rules, "look")
    assert game.evaluate("[height(c) for c in [cell(floor, 0, 0), cell(floor, 1, 1), cell(floor, 9, 9)]]") == [9, 7, 7]
    assert game.evaluate("[height(cell(floor, r, r)) for r in [0, 1, 9]]") == [9, 7, 7]
    assert [m.args for m in game.legal_moves(0) if m.action == "look"] == [{"at": "(0,0)"}]
    assert game.state.grids["floor"]["cells"] == ["(0,0)"]   # read, not brought into use


@pytest.mark.parametrize("expression", ['[height(c) for c in ["(01,2)"]]', 'height("(01,2)")',
                                        '[height(c) for c in ["x", "x"]]'])
def test_a_variable_index_that_is_not_a_cell_is_refused_inline_or_not(game, expression):
    text = re.search(r'"([^"]+)"', expression).group(1)
    with pytest.raises(RulesetError, match=re.escape(f"height({text!r}): {text!r} is not a cell (row,col)")):
        game.evaluate(expression)
    assert text not in PARSED


def test_only_cells_are_remembered_as_parsed():
    assert coordinates("(12,-30)") == (12, -30) and PARSED["(12,-30)"] == (12, -30)
    assert [coordinates(x) for x in ("(-0,1)", "(1,2) ", 7, None)] == [None, None, None, None]
    assert "(-0,1)" not in PARSED and 7 not in PARSED


def test_a_text_of_too_many_digits_is_no_cell():
    assert coordinates("(" + "9" * 1000 + ",-1)") == (int("9" * 1000), -1)
    assert coordinates("(" + "9" * 1001 + ",-1)") is None
    assert coordinates("(" + "9" * 5000 + ",1)") is None   # not Python's ValueError


# ── step, neighbours and around: remembered, within the reach ───────────────────

def test_step_reads_the_cells_around_in_every_direction(game):
    opengrid._NEAR_8.clear()
    expected = ["(-1,0)", "(-1,1)", "(0,1)", "(1,1)", "(1,0)", "(1,-1)", "(0,-1)", "(-1,-1)"]
    for _ in range(2):   # computed, then remembered
        assert game.evaluate("[step(floor, cell(floor, 0, 0), d) for d in directions(floor)]") == expected
    assert opengrid._NEAR_8["(0,0)"] == (0, ("(-1,-1)", "(-1,0)", "(-1,1)", "(0,-1)", "(0,1)", "(1,-1)", "(1,0)", "(1,1)"))
    assert game.evaluate('step(floor, "x", "north")') is None
    assert game.evaluate('step(floor, cell(floor, 0, 0), "north", 1)') == "(-1,0)"


def test_a_step_at_the_reach_is_answered_or_refused_like_any_step(tmp_path):
    wide = load(tmp_path, limits=regnum.Limits(grid_reach=10)).new_game(2, seed=1)
    assert wide.evaluate("neighbours(floor, cell(floor, 3, 3))")[1] == "(2,3)"   # (3,3) remembered
    narrow = load(tmp_path, limits=regnum.Limits(grid_reach=3)).new_game(2, seed=1)
    assert narrow.evaluate('step(floor, cell(floor, 3, 3), "north")') == "(2,3)"
    assert narrow.evaluate('step(floor, cell(floor, 3, 3), "north_west")') == "(2,2)"
    with pytest.raises(LimitExceeded, match=r"cell \(3,4\) of open grid 'floor' lies beyond its reach of ±3"):
        narrow.evaluate('step(floor, cell(floor, 3, 3), "east")')
    assert opengrid._NEAR_8["(3,3)"][0] == 3


def test_around_is_remembered_and_refused_again_under_a_narrower_reach(tmp_path):
    opengrid._RING_8.clear()
    expression = "around(floor, [cell(floor, 3, 3), cell(floor, 3, 2)])"
    ring = ["(2,2)", "(2,3)", "(2,4)", "(3,4)", "(4,2)", "(4,3)", "(4,4)", "(2,1)", "(3,1)", "(4,1)"]
    wide = load(tmp_path, limits=regnum.Limits(grid_reach=10)).new_game(2, seed=1)
    assert wide.evaluate(expression) == ring
    assert opengrid._RING_8[("(3,3)", "(3,2)")] == (3, tuple(ring))
    assert wide.evaluate(expression) == ring
    narrow = load(tmp_path, limits=regnum.Limits(grid_reach=3)).new_game(2, seed=1)
    with pytest.raises(LimitExceeded, match=r"cell \(2,4\) of open grid 'floor' lies beyond its reach of ±3"):
        narrow.evaluate(expression)


def test_around_counts_the_same_steps_remembered_or_not(game):
    opengrid._RING_8.clear()
    expression = "around(floor, [cell(floor, 0, 0), cell(floor, 0, 1)])"
    ctx = game._ctx(game.state)
    steps = []
    for _ in range(2):
        ctx.steps = 0
        assert opengrid.around(game.model.boards["floor"], ctx, ["(0,0)", "(0,1)"]) == [
            "(-1,-1)", "(-1,0)", "(-1,1)", "(0,-1)", "(1,-1)", "(1,0)", "(1,1)", "(-1,2)", "(0,2)", "(1,2)"]
        steps.append(ctx.steps)
    assert steps == [2, 2]
    assert game.evaluate(expression) == game.evaluate(expression)


def test_around_without_diagonals_and_of_texts_that_are_not_cells(tmp_path):
    opengrid._RING_4.clear()
    opengrid._RING_8.clear()
    four = load(tmp_path, settings="\n    diagonals = false").new_game(2, seed=1)
    assert four.evaluate("around(floor, [cell(floor, 0, 0), cell(floor, 0, 1)])") == [
        "(-1,0)", "(0,-1)", "(1,0)", "(-1,1)", "(0,2)", "(1,1)"]
    assert four.evaluate("neighbours(floor, cell(floor, 0, 0))") == ["(-1,0)", "(0,-1)", "(0,1)", "(1,0)"]
    assert list(opengrid._RING_4) == [("(0,0)", "(0,1)")] and opengrid._RING_8 == {}
    eight = load(tmp_path).new_game(2, seed=1)
    board, ctx = eight.model.boards["floor"], eight._ctx(eight.state)
    assert opengrid.around(board, ctx, ["(0,0)", "x"]) == [   # the checker lets no such list through
        "(-1,-1)", "(-1,0)", "(-1,1)", "(0,-1)", "(0,1)", "(1,-1)", "(1,0)", "(1,1)"]
    assert eight.evaluate("around(floor, [])") == []
    assert opengrid._RING_8 == {}   # a text that is not a cell: answered, not remembered


def test_the_caches_are_emptied_at_their_bound(game, monkeypatch):
    monkeypatch.setattr(opengrid, "_CACHE_LIMIT", 3)
    monkeypatch.setattr(opengrid, "_RING_LIMIT", 2)
    opengrid._NEAR_8.clear()
    opengrid._RING_8.clear()
    steps = game.evaluate('[step(floor, cell(floor, r, 0), "east") for r in range(0, 5)]')
    assert steps == ["(0,1)", "(1,1)", "(2,1)", "(3,1)", "(4,1)"]
    assert list(opengrid._NEAR_8) == ["(3,0)", "(4,0)"]   # emptied at the fourth cell
    rings = game.evaluate("[count(around(floor, [cell(floor, r, 0)])) for r in range(0, 3)]")
    assert rings == [8, 8, 8] and list(opengrid._RING_8) == [("(2,0)",)]


def test_around_of_more_cells_than_it_remembers_is_answered_afresh(game, monkeypatch):
    opengrid._RING_8.clear()
    monkeypatch.setattr(opengrid, "_RING_CELLS", 2)
    assert game.evaluate("around(floor, [cell(floor, 0, 0), cell(floor, 0, 1), cell(floor, 0, 2)])") == [
        "(-1,-1)", "(-1,0)", "(-1,1)", "(0,-1)", "(1,-1)", "(1,0)", "(1,1)", "(-1,2)", "(1,2)", "(-1,3)",
        "(0,3)", "(1,3)"]
    assert opengrid._RING_8 == {}


# ── the counting of work ──────────────────────────────────────────────────────

@pytest.mark.parametrize("items, steps", [
    (["(0,0)", "(10,-2)", ""], 3 + 5 + 7), (["ab", 5, [1, 2], {"k": 1}], 4 + 2 + 1 + 2 + 1),
    (["", ""], 2), ([3, "abc"], 2), ([], 0), ("abc", 3)])
def test_a_builtin_going_through_texts_counts_each_text_and_its_characters(game, items, steps):
    from regnum.compiler.codegen import _walk_items
    ctx = game._ctx(game.state)
    ctx.steps = 0
    assert _walk_items(ctx, items) is items
    assert ctx.steps == steps


def test_a_long_cell_text_is_answered_and_never_kept(game):
    far = "(" + "1" * 60 + ",0)"
    assert coordinates(far) == (int("1" * 60), 0) and far not in PARSED
    made = game.model.zones["spot"].keys.made
    assert made[far] == "spot#" + far and far not in made
    assert coordinates("(" + "1" * 40 + ",0)") == (int("1" * 40), 0) and "(" + "1" * 40 + ",0)" in PARSED


SIDES = """
def sides(x) = [step(floor, x, d) for d in ["north", "east", "south", "west"]]
def sides_walked(x) = [step(floor, x, d) for d in ["north", "east", "south", "west"] where true]
"""


def test_steps_in_listed_directions_are_read_at_once_and_are_the_steps_one_by_one(tmp_path, monkeypatch):
    """`[step(B, x, d) for d in ["north", …]]` is one call of opengrid.step_each (the cells
    around x read once); the same cells, steps and refusals as a step per direction."""
    calls = []
    real = opengrid.step_each
    monkeypatch.setattr(opengrid, "step_each", lambda *args: calls.append(args[2:]) or real(*args))
    game = load(tmp_path, more_rules=SIDES).new_game(2, seed=1)
    for _ in range(2):   # computed, then remembered
        assert game.evaluate("sides(cell(floor, 2, -1))") == game.evaluate("sides_walked(cell(floor, 2, -1))") \
            == ["(1,-1)", "(2,0)", "(3,-1)", "(2,-2)"]
    assert calls == [("(2,-1)", ("north", "east", "south", "west"))] * 2   # sides_walked is no such call
    board, ctx = game.model.boards["floor"], game._ctx(game.state)
    ctx.steps = 0
    assert real(board, ctx, "(0,0)", ("north", "south_east")) == ["(-1,0)", "(1,1)"] and ctx.steps == 2
    with pytest.raises(Exception) as one:
        opengrid.step_one(board, ctx, "(0,0)", "up")
    with pytest.raises(type(one.value), match=re.escape(str(one.value))):
        real(board, ctx, "(0,0)", ("north", "up"))
    narrow = load(tmp_path, more_rules=SIDES, limits=regnum.Limits(grid_reach=3)).new_game(2, seed=1)
    for expression in ("sides(cell(floor, 3, 3))", "sides_walked(cell(floor, 3, 3))"):
        with pytest.raises(LimitExceeded, match=r"cell \(3,4\) of open grid 'floor' lies beyond its reach of ±3"):
            narrow.evaluate(expression)
