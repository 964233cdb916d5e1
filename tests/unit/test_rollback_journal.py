"""A move that fails half-way is undone by the move's journal (engine/state.py Journal):
pieces moved, created and revealed, variables per game, per player and per cell set, an
open grid's cells opened, the RNG drawn, a `once` trigger fired, frames and locals of the
flow changed — all back as they were, byte for byte, with the coverage counts and the
narration; and the game plays on as if the failed move had never been tried."""
from __future__ import annotations

import pytest

from regnum import IllegalMove, Move, RulesetError
from toy_rules import load   # tests/unit is on the path of its tests

TOY = """
game undo "Undo"
players 2..2
board floor: open_grid
piece tile:
    owner: player
    value: int = 0
zone spot per floor: public
zone supply per player: owner
zone bag: hidden
var height per floor: int = 0
var total: int = 0
var drawn: int = 0
var rounds: int = 0
var log: list of str = []
var tally per player: int = 0
setup:
    for p in players:
        create 3 tile(owner: p) in supply(p)
flow:
    repeat until false:
        set rounds = rounds + 1
        for p in players:
            ask p to work or rest
action work(r in range(-2, 3), k in [0, 1, 2]):
    move 1 from supply(player) to spot(cell(floor, r, 0))
    create 2 tile(owner: player, value: 7) in bag
    add 3 to height(cell(floor, r, 1))
    add 5 to total
    add 1 to tally(player)
    set drawn = random one of [1, 2, 3, 4, 5, 6]
    shuffle bag
    reveal [t for t in bag]
    for t in bag:
        set t.value = t.value + 1
    announce "P{player} worked"
    add 10 // k to total
action rest():
    add 1 to tally(player)
trigger first_tile once when t enters spot(c):
    set log = log + ["first"]
invariant total_never_falls: total >= previous(total) else "the total never falls"
invariant tallies_grow: all(tally(p) >= previous(tally(p)) for p in players)
"""


@pytest.fixture
def rules(tmp_path):
    return load(tmp_path, TOY, "undo.rules")


def _everything(game):
    return game.to_json(), dict(game.hits), list(game.events), game.to_move, game.move_count


def test_a_fault_after_every_kind_of_write_leaves_the_game_byte_identical(rules):
    game = rules.new_game(players=2, seed=3, narrate=True)
    before = _everything(game)
    with pytest.raises(RulesetError, match="ZeroDivisionError|divi"):
        game.play(Move(0, "work", {"r": 1, "k": 0}))   # everything written, then 10 // 0
    assert _everything(game) == before
    assert game.state.grids["floor"]["cells"] == [] and game.state.once == ()
    assert game.state.revealed == {} and len(game.state.pieces) == 6
    # the game plays on: the same move with k = 1 does everything the failed one did first
    game.play(Move(0, "work", {"r": 1, "k": 1}))
    state = game.state
    assert state.grids["floor"]["cells"] == ["(1,0)", "(1,1)"]
    assert state.once == ("first_tile",) and state.vars["log"] == ["first"]
    assert state.vars["total"] == 15 and state.pvars[0]["tally"] == 1
    assert dict(state.tables["height"]) == {"(1,0)": 0, "(1,1)": 3}
    assert len(state.pieces) == 8 and list(state.revealed) != []
    assert [state.pieces[t]["value"] for t in state.zones["bag"]] == [8, 8]
    assert game.events[-1].endswith("P0 worked")
    assert game.hits["action:work"] == 1


def test_the_failed_move_changes_nothing_a_replay_would_see(rules):
    """The RNG drawn by a failed move is restored: a game that failed a move first plays on
    exactly as a game that never tried it."""
    tried = rules.new_game(players=2, seed=9)
    clean = rules.new_game(players=2, seed=9)
    with pytest.raises(RulesetError):
        tried.play(Move(0, "work", {"r": 0, "k": 0}))
    for game in (tried, clean):
        game.play(Move(0, "work", {"r": 0, "k": 2}))
        game.play(Move(1, "work", {"r": -1, "k": 1}))
    assert tried.to_json() == clean.to_json()
    assert tried.state.vars["drawn"] == clean.state.vars["drawn"]


def test_a_fault_in_a_later_move_and_then_a_refused_move(rules):
    game = rules.new_game(players=2, seed=4, narrate=True)
    game.play(Move(0, "work", {"r": 2, "k": 1}))
    game.play(Move(1, "rest", {}))
    game.play(Move(0, "work", {"r": -2, "k": 2}))
    before = _everything(game)
    with pytest.raises(RulesetError):
        game.play(Move(1, "work", {"r": 0, "k": 0}))
    assert _everything(game) == before
    with pytest.raises(IllegalMove):   # refused: P0 is not to move
        game.play(Move(0, "rest", {}))
    assert _everything(game) == before
    with pytest.raises(IllegalMove):   # refused: no such row
        game.play(Move(1, "work", {"r": 7, "k": 1}))
    assert _everything(game) == before
    game.play(Move(1, "work", {"r": 0, "k": 1}))
    assert game.state.vars["total"] == 5 + 10 + 5 + 5 + 5 + 10
    assert game.check_invariants() == []


def test_previous_after_several_moves_is_the_state_before_the_last(rules):
    game = rules.new_game(players=2, seed=1)
    moves = [Move(0, "work", {"r": 0, "k": 1}), Move(1, "rest", {}), Move(0, "work", {"r": 1, "k": 2}),
             Move(1, "work", {"r": -1, "k": 1})]
    for move in moves:
        earlier = game.copy()
        game.play(move)
        assert game.check_invariants() == []
        assert game._previous().to_dict() == earlier.state.to_dict()
    # a failed move after them: previous is still the state before the last accepted move
    earlier_json = game._previous().to_dict()
    with pytest.raises(RulesetError):
        game.play(Move(0, "work", {"r": 2, "k": 0}))
    assert game._previous().to_dict() == earlier_json
    assert game.check_invariants() == []


def test_an_invariant_reading_previous_sees_what_the_last_move_changed(tmp_path):
    rules = load(tmp_path, TOY.replace("add 1 to tally(player)\ntrigger", "add -1 to tally(player)\ntrigger"),
                 "undo.rules")
    game = rules.new_game(players=2, seed=1)
    game.play(Move(0, "work", {"r": 0, "k": 1}))
    game.play(Move(1, "rest", {}))
    assert [m.split(":")[0] for m in game.check_invariants()] == ["tallies_grow"]


def test_a_copy_is_independent_of_its_original_both_ways(rules):
    game = rules.new_game(players=2, seed=2)
    game.play(Move(0, "work", {"r": 0, "k": 1}))
    copy = game.copy()
    original_json, copy_json = game.to_json(), copy.to_json()
    assert original_json == copy_json
    copy.play(Move(1, "work", {"r": 0, "k": 2}))    # same cell: zones, tables and pieces shared so far
    assert game.to_json() == original_json
    game.play(Move(1, "work", {"r": 1, "k": 1}))
    assert copy.to_json() != game.to_json()
    assert rules.game_from_json(copy.to_json()).to_json() == copy.to_json()
    # and a failed move on one leaves the other alone
    again = game.copy()
    game_json = game.to_json()
    with pytest.raises(RulesetError):
        again.play(Move(0, "work", {"r": 0, "k": 0}))
    assert again.to_json() == game_json == game.to_json()
    assert copy.check_invariants() == [] and game.check_invariants() == []


def test_a_game_read_back_from_json_rolls_back_too(rules):
    game = rules.new_game(players=2, seed=6)
    game.play(Move(0, "work", {"r": 0, "k": 1}))
    game.play(Move(1, "work", {"r": 0, "k": 1}))
    loaded = rules.game_from_json(game.to_json())
    saved = loaded.to_json()
    with pytest.raises(RulesetError):
        loaded.play(Move(0, "work", {"r": 1, "k": 0}))
    assert loaded.to_json() == saved
    loaded.play(Move(0, "work", {"r": 1, "k": 1}))
    game.play(Move(0, "work", {"r": 1, "k": 1}))
    assert loaded.to_json() == game.to_json()


def test_a_position_edited_after_a_move_is_compared_with_the_state_before_that_move(rules):
    """regnum.testing edits are not moves: previous(…) still reads the state before the last
    move, so an edit that lowers the total breaks the invariant that says it never falls."""
    from regnum import testing
    game = rules.new_game(players=2, seed=1)
    game.play(Move(0, "work", {"r": 0, "k": 1}))
    game.play(Move(1, "rest", {}))                # does not write the total
    assert game.check_invariants() == []
    testing.set_var(game, "total", 3)
    assert [m.split(":")[0] for m in game.check_invariants()] == ["total_never_falls"]
    assert game._previous().vars["total"] == 15
