"""A loop narrowed by a require `T(x) == v` goes through the cells the table's index gives
(State.cells_with), which all pass that require: the require is then not judged again for
them (listers._Writer._narrowed sets `nw{i}`, _loop_body tests it first). Where the index
cannot answer (a table the state may still write: the domain itself comes back), with
coverage counted, for a require narrowed by its guard or by a board's edge, every cell is
judged as before. The same moves, steps, faults and coverage, listing by listing and in
whole games (Kingdom Builder's `build` among them)."""
from __future__ import annotations

import pytest

from regnum import Move
from regnum.compiler import listers

from listings import both, played, positions   # tests/unit is on the path of its tests
from toy_rules import load_switched

RULES = """
game toy "Toy"
players 2..2
enum colour_kind: red, blue, green
board land: hex_grid
    rows = 4
    cols = 5
    layout = "odd_r"
piece stone:
    owner: player
zone site per land: public
zone pool per player: public
var colour per land: colour_kind = red
var wanted: colour_kind = blue
setup:
    for h in land:
        set colour(h) = [red, blue, green][(h.row + 2 * h.col) % 3]
    for p in players:
        create 12 stone(owner: p) in pool(p)
flow:
    repeat until false:
        for p in players:
            if can(p, claim):
                ask p to claim or rim or paint or want
            else:
                ask p to rim or paint or want
action claim(x in land):
    require free: count(site(x)) == 0 else "taken"
    require colour_wanted: colour(x) == wanted else "claim the colour wanted"
    require stock: count(pool(player)) > 0 else "no stone left"
    move 1 from pool(player) to site(x)
action rim(x in land):
    require on_rim: on_edge(land, x) and colour(x) == red else "the rim's red cells"
    require free: count(site(x)) == 0 else "taken"
    require stock: count(pool(player)) > 0 else "no stone left"
    move 1 from pool(player) to site(x)
action paint(x in land):
    require free: count(site(x)) == 0 else "taken"
    set colour(x) = green
action want(k in [red, green, blue]):
    set wanted = k
"""

# The cells of each colour the setup gives (row + 2 col modulo 3), in the board's order.
RED, BLUE, GREEN = ([f"({r},{c})" for r in range(4) for c in range(5) if (r + 2 * c) % 3 == k] for k in range(3))


def _loaded(tmp_path, text, implied: bool, name: str = "toy.rules"):
    """The ruleset, its narrowed loops skipping the require their index implies, or not."""
    return load_switched(tmp_path, text, name, [(listers, "IMPLIED", implied)])


def test_only_a_lone_table_equality_is_skipped_and_only_for_the_index_s_cells(tmp_path):
    on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
    claim = on.model.actions["claim"].lister.source
    assert "nw0 = w0 is not it0" in claim and "nw0 = False" in claim
    assert claim.count("if not (nw0 or (") == 1   # colour_wanted; free and stock judged as written
    assert "nw0" not in on.model.actions["rim"].lister.source   # narrowed by the edge: `and` judged
    assert "nw0" not in on.model.actions["paint"].lister.source
    assert "nw0" not in off.model.actions["claim"].lister.source


def test_a_fresh_board_lists_the_index_s_cells_and_a_painted_one_judges_every_cell(tmp_path):
    rules = _loaded(tmp_path, RULES, True)
    game = rules.new_game(2, seed=1, coverage=False)
    assert sorted(m.args["x"] for m in game.legal_moves(0) if m.action == "claim") == sorted(BLUE)
    game.play(Move(0, "paint", {"x": BLUE[0]}))   # the table is the state's now: no index
    assert game.state.tables["colour"] is not None and "colour" in game.state._owned_tables
    assert sorted(m.args["x"] for m in game.legal_moves(1) if m.action == "claim") == sorted(BLUE[1:])
    game.play(Move(1, "want", {"k": "green"}))
    assert sorted(m.args["x"] for m in game.legal_moves(0) if m.action == "claim") == sorted(GREEN + [BLUE[0]])


def test_every_listing_of_random_games_is_the_generic_walk_s(tmp_path):
    checked = 0
    for game, seat in positions(_loaded(tmp_path, RULES, True), range(6)):
        for name in ("claim", "rim"):
            both(game, name, seat)
            both(game, name, seat, stop=True)
            checked += 1
    assert checked == 6 * 40 * 2


@pytest.mark.parametrize("coverage", [False, True])
def test_whole_games_are_those_judging_every_cell(tmp_path, coverage):
    on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
    for seed in range(8):
        a, b = played(on, seed, moves=60, coverage=coverage), played(off, seed, moves=60, coverage=coverage)
        assert a.to_dict() == b.to_dict() and a.peak_steps == b.peak_steps and a.hits == b.hits
        assert any(m.action == "claim" for m in a.log.moves)


def test_kingdom_builder_plays_the_same_games(tmp_path):
    on = _loaded(tmp_path, None, True, "kingdom_builder")
    off = _loaded(tmp_path, None, False, "kingdom_builder")
    assert "nw0 or (" in on.model.actions["build"].lister.source
    assert "nw0" not in off.model.actions["build"].lister.source
    for seed in (1, 2):
        a, b = played(on, seed, players=4, moves=200), played(off, seed, players=4, moves=200)
        assert a.to_dict() == b.to_dict() and a.peak_steps == b.peak_steps
        assert sum(m.action == "build" for m in a.log.moves) > 20
