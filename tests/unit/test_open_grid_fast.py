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
