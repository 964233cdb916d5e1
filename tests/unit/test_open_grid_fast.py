"""The open grid's fast paths (opengrid.py, compiler/model.py MadeKeys, the reads codegen.py
writes): every remembered answer is the answer computed afresh, is refused again under a
narrower reach, and never outgrows its bound; a text that is not a cell is still refused
with its message, whichever path reads it."""
from __future__ import annotations

import re
import textwrap

import pytest

import regnum
from regnum import Move, RulesetError
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
