"""A move lister whose require of a cell is `on_edge(B, x)` (or `on_edge(B, x) and …`), or a
guard `a or` before it, goes through the domain's cells on B's edge only, found at load,
when no coverage is counted (compiler/listers._edge_cells): the moves, steps and faults of
the generic walk, which judges every cell (listings.both compares them, with and without
coverage)."""
from __future__ import annotations

import re

import pytest

import regnum
from regnum import Move

from listings import both   # tests/unit is on the path of its tests
from toy_rules import load

RULES = """
game toy "Toy"
players 2..2
board land: hex_grid
    rows = 4
    cols = 5
piece marker:
    kind: str = "plain"
    owner: player
zone site per land: public
zone hand per player: public
setup:
    for p in players:
        create 1 marker(kind: "plain", owner: p) in hand(p) named "plain"
        create 1 marker(kind: "rim", owner: p) in hand(p) named "rim"
flow:
    repeat 6 times:
        for p in players:
            ask p to put
action put(m in hand(player), h in land):
    require free: count(site(h)) == 0 else "taken"
    require rim: REQUIRE else "a rim marker goes on the edge"
    move m to site(h)
    create 1 marker(kind: m.kind, owner: player) in hand(player) named m.kind
"""


def _rules(tmp_path, require: str):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REGNUM_CACHE_DIR", "off")
        return load(tmp_path, RULES.replace("REQUIRE", require))


@pytest.mark.parametrize("require, narrowed", [
    ('m.kind != "rim" or on_edge(land, h)', True),
    ('m.kind != "rim" or (on_edge(land, h) and h != cell(land, 0, 0))', True),
    ("on_edge(land, h)", True),
    ('m.kind != "rim" or (h != cell(land, 0, 0) and on_edge(land, h))', False),   # not its first test
    ('m.kind != "rim" or not on_edge(land, h)', False),
])
def test_which_requires_narrow_to_the_edge(tmp_path, require, narrowed):
    rules = _rules(tmp_path, require)
    source = rules.model.actions["put"].lister.source
    assert (re.search(r"w1 = _fixed\d+\n", source) is not None) is narrowed
    game = rules.new_game(2, seed=1)
    for turn in range(6):
        for seat in (0, 1):
            both(game, "put", seat)
            moves = game.legal_moves(seat)
            game.play(moves[(turn * 7 + seat * 3) % len(moves)])
    assert game.is_over


def test_the_cells_on_the_edge_in_the_board_order(tmp_path):
    rules = _rules(tmp_path, 'm.kind != "rim" or on_edge(land, h)')
    game = rules.new_game(2, seed=1, coverage=False)   # (counting coverage, every cell is judged)
    rims = [m.args["h"] for m in game.legal_moves(0) if m.args["m"] == "rim"]
    # A board of 4 rows of 5: the first and last rows whole, the first and last cell of the others.
    assert rims == ["(0,0)", "(0,1)", "(0,2)", "(0,3)", "(0,4)", "(1,0)", "(1,4)", "(2,0)", "(2,4)",
                    "(3,0)", "(3,1)", "(3,2)", "(3,3)", "(3,4)"]
    assert len([m for m in game.legal_moves(0) if m.args["m"] == "plain"]) == 20
    game.play(Move(0, "put", {"m": "rim", "h": "(1,4)"}))
    with pytest.raises(regnum.IllegalMove) as refused:
        game.play(Move(1, "put", {"m": "rim", "h": "(1,2)"}))
    assert refused.value.rule == "put.rim"


def test_kingdom_builder_lists_the_tower_on_the_edge_only():
    source = regnum.load("kingdom_builder").model.actions["build_with_tile"].lister.source
    assert re.search(r"elif not \(\(_s_pieces\[v0\]\['kind'\] != 'Tower'\)\):\n +w1 = _fixed\d+\n", source)
