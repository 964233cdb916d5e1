"""The open grid (issue 10): an unbounded square grid whose cells in use come into use during
play and are kept in the state — queries computed from coordinates, zones and variables per
cell, the reach limit, saved games, copies and the drawn board."""
from __future__ import annotations

import json
import re
import textwrap

import pytest

import regnum
from regnum import LimitExceeded, Move, RulesetError, StateError
from regnum.render import plain, render

HEAD = """
game opengame "Open"
players 2..2
board floor: open_grid{settings}
piece tile:
    owner: player
zone spot per floor: public
zone stash per floor: hidden
zone supply per player: public
var height per floor: int = 0
var mark: floor? = none
setup:
    for p in players:
        create 4 tile(owner: p) in supply(p)
    shuffle stash(cell(floor, 0, 0))     # an empty zone not in use: nothing happens
flow:
    repeat until false:
        ask 0 to lay or raise or wait{more}
action lay(r in range(-3, 4), c in range(-3, 4)):
    require stocked: count(supply(player)) > 0
    move 1 from supply(player) to spot(cell(floor, r, c))
    set mark = cell(floor, r, c)
action raise(r in [0, 5], c in [0, 5]):
    add 2 to height(cell(floor, r, c))
action wait():
    pass
"""


def load(tmp_path, text: str = HEAD, settings: str = "", limits=None, more: str = "") -> regnum.Ruleset:
    """The ruleset above; `more` adds an action of that name, the text after HEAD its body."""
    path = tmp_path / "open.rules"
    text = text.replace("{settings}", settings).replace("{more}", f" or {more}" if more else "")
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return regnum.load(path, limits=limits) if limits else regnum.load(path)


def lay(r: int, c: int, player: int = 0) -> Move:
    return Move(player, "lay", {"r": r, "c": c})


@pytest.fixture
def rules(tmp_path):
    return load(tmp_path)


# ── cells in use ────────────────────────────────────────────────────────────────

def test_no_cell_is_in_use_at_first_and_the_state_holds_none(rules):
    game = rules.new_game(2, seed=1)
    assert game.evaluate("[c for c in floor]") == []
    assert game.state.grids == {"floor": {"cells": [], "start": {"height": 0}}}
    assert sorted(game.state.zones) == ["supply#0", "supply#1"]
    assert dict(game.state.tables["height"]) == {}


def test_cells_come_into_use_in_order_when_a_piece_enters_or_a_variable_is_set(rules):
    game = rules.new_game(2, seed=1)
    game.play(lay(1, -2))
    game.play(Move(0, "raise", {"r": 5, "c": 0}))
    game.play(lay(0, 0))
    game.play(lay(1, -2))                                 # already in use: no second entry
    assert game.evaluate("[c for c in floor]") == ["(1,-2)", "(5,0)", "(0,0)"]
    assert game.evaluate("count(floor)") == 3
    assert game.state.grids["floor"]["cells"] == ["(1,-2)", "(5,0)", "(0,0)"]
    # every zone and variable per the grid has an entry at each cell in use, and only there
    assert sorted(k for k in game.state.zones if "#(" in k) == [
        "spot#(0,0)", "spot#(1,-2)", "spot#(5,0)", "stash#(0,0)", "stash#(1,-2)", "stash#(5,0)"]
    assert dict(game.state.tables["height"]) == {"(1,-2)": 0, "(5,0)": 2, "(0,0)": 0}
    assert game.evaluate("count(spot(cell(floor, 1, -2)))") == 2
    assert game.evaluate("mark") == "(1,-2)"


def test_a_cell_not_in_use_reads_empty_and_at_its_start_without_coming_into_use(rules):
    game = rules.new_game(2, seed=1)
    assert game.evaluate("count(spot(cell(floor, -40, 7)))") == 0
    assert game.evaluate("height(cell(floor, -40, 7))") == 0
    assert game.evaluate("[c for c in floor where height(c) > 0]") == []
    assert game.state.grids["floor"]["cells"] == []


def test_cells_compare_sort_and_key_maps_like_other_grid_cells(rules):
    game = rules.new_game(2, seed=1)
    for r, c in ((2, 1), (-1, 3), (0, 0)):
        game.play(lay(r, c))
    assert game.evaluate("sorted(floor)") == ["(-1,3)", "(0,0)", "(2,1)"]
    assert game.evaluate("cell(floor, 2, 1) == first(floor)") is True
    assert game.evaluate("[c.row * 10 + c.col for c in floor]") == [21, -7, 0]


def test_a_zone_index_that_is_not_a_cell_is_a_runtime_fault(tmp_path):
    rules = load(tmp_path, HEAD + """
action bad():
    move 1 from supply(player) to spot("(01,2)")
""", more="bad")
    game = rules.new_game(2, seed=1)
    with pytest.raises(RulesetError, match=r"spot\('\(01,2\)'\) is not a zone"):
        game.play(Move(0, "bad", {}))


# ── queries on an unbounded grid ────────────────────────────────────────────────

def test_neighbours_with_diagonals_are_the_eight_around_row_by_row(rules):
    game = rules.new_game(2, seed=1)
    assert game.evaluate("neighbours(floor, cell(floor, 0, 0))") == [
        "(-1,-1)", "(-1,0)", "(-1,1)", "(0,-1)", "(0,1)", "(1,-1)", "(1,0)", "(1,1)"]
    assert game.evaluate("adjacent(floor, cell(floor, 0, 0), cell(floor, 1, 1))") is True
    assert game.evaluate("distance(floor, cell(floor, 0, 0), cell(floor, 3, -5))") == 5


def test_neighbours_without_diagonals_are_the_four_sharing_a_side(tmp_path):
    game = load(tmp_path, settings="\n    diagonals = false").new_game(2, seed=1)
    assert game.evaluate("neighbours(floor, cell(floor, -7, 2))") == ["(-8,2)", "(-7,1)", "(-7,3)", "(-6,2)"]
    assert game.evaluate("adjacent(floor, cell(floor, 0, 0), cell(floor, 1, 1))") is False
    assert game.evaluate("distance(floor, cell(floor, 0, 0), cell(floor, 3, -5))") == 8
    # the eight directions stay, whether or not diagonal cells are neighbours
    assert game.evaluate('step(floor, cell(floor, 0, 0), "south_west")') == "(1,-1)"
    assert game.evaluate("connected(floor, cell(floor, 0, 0), [cell(floor, 0, 0), cell(floor, 1, 1)])") == ["(0,0)"]


def test_step_line_edge_and_directions_never_stop(rules):
    game = rules.new_game(2, seed=1)
    assert game.evaluate("directions(floor)") == [
        "north", "north_east", "east", "south_east", "south", "south_west", "west", "north_west"]
    assert game.evaluate('step(floor, cell(floor, 0, 0), "north", 1000)') == "(-1000,0)"
    assert game.evaluate('line(floor, cell(floor, 2, 2), "north_west", 4)') == ["(1,1)", "(0,0)", "(-1,-1)", "(-2,-2)"]
    assert game.evaluate('line(floor, cell(floor, 2, 2), "east", 0)') == []
    assert game.evaluate("on_edge(floor, cell(floor, 999, -999))") is False
    assert game.evaluate("cell(floor, -5, 12)") == "(-5,12)"


def test_connected_and_groups_reach_across_any_coordinates(rules):
    game = rules.new_game(2, seed=1)
    cells = "[cell(floor, -1, -1), cell(floor, 0, 0), cell(floor, 2, 0), cell(floor, 3, 1), cell(floor, 9, 9)]"
    assert game.evaluate(f"groups(floor, {cells})") == [["(-1,-1)", "(0,0)"], ["(2,0)", "(3,1)"], ["(9,9)"]]
    assert game.evaluate(f"connected(floor, cell(floor, 3, 1), {cells})") == ["(3,1)", "(2,0)"]
    assert game.evaluate(f"connected(floor, cell(floor, 5, 5), {cells})") == []


# ── the reach: a located E901 ───────────────────────────────────────────────────

@pytest.mark.parametrize("expression", [
    "cell(floor, 4, 0)", 'step(floor, cell(floor, 0, 0), "south", 4)',
    'line(floor, cell(floor, 0, 0), "west", 1000000000)', "neighbours(floor, cell(floor, 3, 3))"])
def test_a_cell_beyond_the_reach_is_an_e901_wherever_it_is_made(tmp_path, expression):
    value = f"first({expression})" if expression.startswith(("line", "neighbours")) else expression
    rules = load(tmp_path, HEAD + f"""
action far():
    set mark = {value}
""", limits=regnum.Limits(grid_reach=3), more="far")
    game = rules.new_game(2, seed=1)
    game.play(lay(3, 3))
    before = game.to_json()
    with pytest.raises(LimitExceeded) as err:
        game.play(Move(0, "far", {}))
    (d,) = err.value.diagnostics
    assert d.code == "E901" and d.span.line == 29   # the `set` in `far`
    assert "beyond its reach of ±3" in d.message
    assert d.hint == rules.limits.hint("grid_reach")
    assert game.to_json() == before


@pytest.mark.parametrize("expression, beyond", [("neighbours(floor, cell(floor, 3, 3))", "(2,4)"),
                                                ('step(floor, cell(floor, 3, 3), "south")', "(4,3)")])
def test_a_query_answered_within_a_wide_reach_is_still_refused_within_a_narrow_one(tmp_path, expression,
                                                                                   beyond):
    # Queries of an open grid are remembered by cell; the answer must not outlive the reach.
    wide = load(tmp_path, limits=regnum.Limits(grid_reach=10)).new_game(2, seed=1)
    assert wide.evaluate(expression) == (
        ["(2,2)", "(2,3)", "(2,4)", "(3,2)", "(3,4)", "(4,2)", "(4,3)", "(4,4)"]
        if expression.startswith("neighbours") else "(4,3)")
    narrow = load(tmp_path, limits=regnum.Limits(grid_reach=3)).new_game(2, seed=1)
    with pytest.raises(LimitExceeded, match=rf"cell {re.escape(beyond)} of open grid 'floor' lies beyond its reach of ±3"):
        narrow.evaluate(expression)


def test_a_cell_coming_into_use_beyond_the_reach_is_an_e901(tmp_path):
    rules = load(tmp_path, limits=regnum.Limits(grid_reach=4))
    game = rules.new_game(2, seed=1)
    game.play(Move(0, "raise", {"r": 0, "c": 0}))
    with pytest.raises(LimitExceeded, match=r"cell \(5,0\) of open grid 'floor' lies beyond"):
        game.play(Move(0, "raise", {"r": 5, "c": 0}))
    assert game.state.grids["floor"]["cells"] == ["(0,0)"]


def test_the_cells_in_use_count_against_the_state_size(tmp_path):
    rules = load(tmp_path, HEAD + """
action fill():
    for r in range(0, 300):
        set height(cell(floor, r, 0)) = 1
""", limits=regnum.Limits(state_size=3_000), more="fill")
    game = rules.new_game(2, seed=1)
    with pytest.raises(LimitExceeded) as err:
        game.play(Move(0, "fill", {}))
    assert err.value.diagnostics[0].hint == rules.limits.hint("state_size")
    assert game.state.grids["floor"]["cells"] == []


# ── state: JSON, copies, saved games ────────────────────────────────────────────

def _played(rules):
    game = rules.new_game(2, seed=3)
    for move in (lay(0, 0), lay(-1, 2), Move(0, "raise", {"r": 5, "c": 5}), lay(0, 0)):
        game.play(move)
    return game


def test_the_json_round_trip_is_exact(rules):
    game = _played(rules)
    text = game.to_json()
    state = json.loads(text)["state"]
    assert state["grids"] == {"floor": {"cells": ["(0,0)", "(-1,2)", "(5,5)"], "start": {"height": 0}}}
    again = rules.game_from_json(text)
    assert again.to_json() == text
    assert again.evaluate("[c for c in floor]") == ["(0,0)", "(-1,2)", "(5,5)"]
    again.play(lay(3, -3))
    game.play(lay(3, -3))
    assert again.to_json() == game.to_json()


def test_a_copy_is_independent_both_ways(rules):
    game = _played(rules)
    before = game.to_json()
    copy = game.copy()
    copy.play(lay(2, 2))
    copy.play(Move(0, "raise", {"r": 0, "c": 5}))
    assert game.to_json() == before
    assert game.evaluate("count(floor)") == 3 and copy.evaluate("count(floor)") == 5
    game.play(lay(-3, -3))
    assert copy.evaluate("[c for c in floor]") == ["(0,0)", "(-1,2)", "(5,5)", "(2,2)", "(0,5)"]
    assert game.evaluate("[c for c in floor]") == ["(0,0)", "(-1,2)", "(5,5)", "(-3,-3)"]


def _refusal(rules, edit) -> str:
    data = json.loads(_played(rules).to_json())
    edit(data["state"])
    with pytest.raises(StateError) as err:
        rules.game_from_json(data)
    return str(err.value)


def test_a_saved_zone_key_that_is_not_a_cell_in_use_is_refused(rules):
    def not_a_cell(state):
        state["zones"]["spot#(00,1)"] = []
    assert _refusal(rules, not_a_cell).startswith("state field 'state.zones.spot#(00,1)': this ruleset has no zone")

    def not_in_use(state):
        state["zones"]["spot#(7,7)"] = []
    assert _refusal(rules, not_in_use).startswith("state field 'state.zones.spot#(7,7)'")

    def missing(state):
        del state["zones"]["stash#(5,5)"]
    assert _refusal(rules, missing) == "state field 'state.zones.stash#(5,5)': missing"


def test_saved_cells_in_use_must_be_distinct_cells_within_the_reach(rules):
    def far(state):
        state["grids"]["floor"]["cells"][1] = "(-1000001,2)"
    assert _refusal(rules, far) == ("state field 'state.grids.floor.cells[1]': a cell (row,col) within "
                                    "±1000000 is expected, not \"(-1000001,2)\"")

    def twice(state):
        state["grids"]["floor"]["cells"].append("(0,0)")
    assert _refusal(rules, twice) == "state field 'state.grids.floor.cells[3]': (0,0) is listed twice"

    def text(state):
        state["grids"]["floor"]["start"]["height"] = "tall"
    assert _refusal(rules, text).startswith("state field 'state.grids.floor.start.height': a whole number")

    def table(state):
        state["tables"]["height"]["(9,9)"] = 1
    assert _refusal(rules, table).startswith("state field 'state.tables.height.(9,9)': this ruleset has no index")

    def variable(state):
        state["vars"]["mark"] = "(1,x)"
    assert _refusal(rules, variable).startswith("state field 'state.vars.mark': a cell (row,col) of open grid")

    def no_grid(state):
        del state["grids"]
    assert _refusal(rules, no_grid) == "state field 'state.grids.floor': missing"


# ── the drawn board ─────────────────────────────────────────────────────────────

def test_render_draws_the_cells_in_use_and_one_around(rules):
    game = rules.new_game(2, seed=1)
    game.play(lay(0, 0))
    game.play(lay(-1, 2))
    game.play(Move(0, "raise", {"r": 0, "c": 0}))
    text = plain(render(game, 0))
    board = text[text.index("floor"):text.index("\n\n", text.index("floor"))]
    assert board.splitlines() == [
        "floor  (rows -2…1, columns -1…3: the cells in use and one around; a cell is (row,col); digits are "
        "players' seats)",
        "    -1  0  1  2  3 ",
        "-2   ·  ·  ·  ·  ·   -2",
        "-1   ·  ·  ·  0  ·   -1",
        " 0   ·  0  ·  ·  ·   0",
        " 1   ·  ·  ·  ·  ·   1",
    ]


def test_render_of_an_open_grid_with_no_cell_in_use(rules):
    text = plain(render(rules.new_game(2, seed=1)))
    assert "floor  (an open grid: no cell in use yet)" in text


# ── the checker ─────────────────────────────────────────────────────────────────

def test_open_grid_is_checked_like_other_grids(tmp_path):
    def codes(text):
        try:
            return [d.code for d in load(tmp_path, text).warnings]
        except regnum.RulesetError as err:
            return [d.code for d in err.diagnostics]
    assert codes(HEAD) == []
    assert codes(HEAD.replace("{settings}", "\n    diagonals = 3")) == ["E312"]
    assert "E120" in codes(HEAD + """
def up(c) = step(floor, c, "up")
""")


def test_building_a_position_brings_cells_into_use_as_play_does(rules):
    from regnum import testing
    game = rules.new_game(2, seed=1)
    testing.place(game, "supply#1", "spot#(4,-4)", 2)
    testing.set_table(game, "height", "(0,9)", 5)
    assert game.state.grids["floor"]["cells"] == ["(4,-4)", "(0,9)"]
    assert game.evaluate("[count(spot(c)) * 10 + height(c) for c in floor]") == [20, 5]
    assert rules.game_from_json(game.to_json(), check_moves=False).to_json() == game.to_json()
