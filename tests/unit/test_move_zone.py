"""`move Z to D` of a whole zone moves its pieces at once (Ctx._move_zone, one undo entry
`undo_move_all`) where no trigger watches pieces move and none of them is revealed: the same
game as moving them one by one, in order — the state, coverage, narration, a fault undone,
`previous(…)`, a copy that shares the zone — and, where a trigger watches or a piece is
revealed, the pieces still move one by one."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import regnum
from regnum import Move, RulesetError
from regnum.agents import play_random_game
from regnum.engine import runtime
from regnum.engine.state import undo_move, undo_move_all, undo_revealed
from toy_rules import load   # tests/unit is on the path of its tests

CARDS = """
game zones_at_once "Zones at once"
players 2..2
piece card:
    rank: int
zone hand per player: owner
zone table: public
var k: int = 1
setup:
    for p in players:
        create 1 card(rank: 1) in hand(p) named "one"
        create 1 card(rank: 2) in hand(p) named "two"
        create 1 card(rank: 3) in hand(p) named "three"
flow:
    repeat until false:
        for p in players:
            ask p to lay or gather or lay_and_fail or show or pass_turn
def ranked(p) = count(c for c in hand(p) where c.rank > 0)
action lay():
    require some: ranked(player) > 0 else "no card in hand"
    move hand(player) to table
    announce "{player} lays; the table holds {[c.rank for c in table]}"
action gather():
    require some: count(table) > 0 else "nothing on the table"
    move table to hand(player)
action lay_and_fail():
    require some: count(hand(player)) > 0 else "no card in hand"
    move hand(player) to table
    set k = 1 // 0
action show():
    require some: count(hand(player)) > 0 else "no card in hand"
    reveal [c for c in hand(player) where c.rank == 2]
action pass_turn():
    pass
invariant first_hand_keeps: count(hand(0)) >= previous(count(hand(0)))
"""

WATCHED = CARDS + """
trigger laid when c enters table:
    announce "{c.rank} is laid"
    add c.rank to k
"""


@pytest.fixture
def one_by_one(monkeypatch):
    """Within the test, `move Z to D` moves the pieces of Z one by one, as before."""
    def switch(on: bool):
        monkeypatch.setattr(runtime, "MOVE_ZONES", on)
    return switch


def _everything(game):
    return game.to_json(), dict(game.hits), list(game.events), game.to_move, game.peak_steps


def _played(rules, script):
    """The game after the script's moves: each seat to move plays the first move of its
    action that is legal, and the refused ones are skipped (their rule kept)."""
    game = rules.new_game(players=2, seed=3, narrate=True)
    refused = []
    for action in script:
        seat = game.to_move[0]
        try:
            game.play(Move(seat, action, {}))
        except regnum.IllegalMove as err:
            refused.append(err.rule)
        except RulesetError as err:
            refused.append(err.diagnostics[0].message)
    return game, refused


def _undo_kinds(game):
    return [entry[0] for entry in game._last.entries]


def test_a_zone_moves_at_once_with_one_undo_entry(tmp_path, one_by_one):
    rules = load(tmp_path, CARDS, "cards.rules")
    game = rules.new_game(players=2, seed=3, narrate=True)
    game.play(Move(0, "lay", {}))
    assert _undo_kinds(game) == [undo_move_all]
    state = game.state
    assert state.zones["table"] == [0, 1, 2] and state.zones["hand#0"] == []
    assert state.where[:3] == ["table"] * 3
    assert game.events[-1] == "P0 lays; the table holds [1, 2, 3]"
    one_by_one(False)
    game = rules.new_game(players=2, seed=3, narrate=True)
    game.play(Move(0, "lay", {}))
    assert _undo_kinds(game) == [undo_move] * 3


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["lay", "gather", "lay_and_fail", "show", "pass_turn"]), max_size=14))
def test_any_game_is_the_game_of_moving_one_by_one(tmp_path_factory, script):
    folder = tmp_path_factory.mktemp("zones")
    games = []
    for at_once in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(runtime, "MOVE_ZONES", at_once)
            for text, name in ((CARDS, "cards.rules"), (WATCHED, "watched.rules")):
                game, refused = _played(load(folder, text, name), script)
                games.append((_everything(game), refused, game.check_invariants()))
    assert games[:2] == games[2:]


def test_the_values_kept_that_read_either_zone_are_dropped(tmp_path):
    game = load(tmp_path, CARDS, "cards.rules").new_game(players=2, seed=3)
    assert "lay" in {m.action for m in game.legal_moves(0)}
    assert dict(game.state.memo.entries) == {(0, 0): (3, 3, ["hand#0"])}   # ranked(0): 3 cards
    game.play(Move(0, "lay", {}))
    assert _undo_kinds(game) == [undo_move_all] and dict(game.state.memo.entries) == {}
    game.play(Move(1, "pass_turn", {}))
    assert "lay" not in {m.action for m in game.legal_moves(0)}   # ranked(0) is 0 now
    assert dict(game.state.memo.entries) == {(0, 0): (0, 0, ["hand#0"]), (0, 1): (3, 3, ["hand#1"])}


def test_a_fault_after_the_zone_moved_leaves_the_game_as_it_was(tmp_path):
    game = load(tmp_path, CARDS, "cards.rules").new_game(players=2, seed=3, narrate=True)
    game.play(Move(0, "pass_turn", {}))
    game.play(Move(1, "lay", {}))
    before = _everything(game)
    with pytest.raises(RulesetError, match="by zero"):
        game.play(Move(0, "lay_and_fail", {}))
    assert _everything(game) == before
    assert game.state.zones["table"] == [3, 4, 5] and game.state.zones["hand#0"] == [0, 1, 2]


def test_previous_reads_the_zone_before_it_moved(tmp_path):
    game = load(tmp_path, CARDS, "cards.rules").new_game(players=2, seed=3)
    game.play(Move(0, "pass_turn", {}))
    assert game.check_invariants() == []
    game.play(Move(1, "lay", {}))
    game.play(Move(0, "lay", {}))   # hand(0): 3 cards before, none after
    assert _undo_kinds(game) == [undo_move_all]
    assert [failed.partition(":")[0] for failed in game.check_invariants()] == ["first_hand_keeps"]
    game.play(Move(1, "gather", {}))
    assert game.state.zones["hand#1"] == [3, 4, 5, 0, 1, 2] and game.check_invariants() == []


def test_a_copy_sharing_the_zones_is_not_changed(tmp_path):
    game = load(tmp_path, CARDS, "cards.rules").new_game(players=2, seed=3)
    copy = game.copy()
    before = game.to_json()
    copy.play(Move(0, "lay", {}))
    assert game.to_json() == before and game.state.zones["hand#0"] == [0, 1, 2]
    assert copy.state.zones["table"] == [0, 1, 2]
    game.play(Move(0, "pass_turn", {}))
    game.play(Move(1, "lay", {}))
    assert copy.state.zones["table"] == [0, 1, 2] and game.state.zones["table"] == [3, 4, 5]


def test_a_revealed_piece_moves_on_its_own_and_is_hidden_again(tmp_path):
    game = load(tmp_path, CARDS, "cards.rules").new_game(players=2, seed=3)
    game.play(Move(0, "show", {}))
    assert game.state.revealed == {1: None}
    game.play(Move(1, "pass_turn", {}))
    game.play(Move(0, "lay", {}))
    assert _undo_kinds(game) == [undo_move, undo_move, undo_revealed, undo_move]   # "two" hidden again
    assert game.state.revealed == {} and game.state.zones["table"] == [0, 1, 2]


def test_a_watched_zone_moves_one_by_one_and_fires_each_in_turn(tmp_path):
    game = load(tmp_path, WATCHED, "watched.rules").new_game(players=2, seed=3, narrate=True)
    game.play(Move(0, "lay", {}))
    assert undo_move_all not in _undo_kinds(game)
    assert game.events[-4:] == ["1 is laid", "2 is laid", "3 is laid",
                                                  "P0 lays; the table holds [1, 2, 3]"]
    assert game.state.vars["k"] == 7


@pytest.mark.parametrize("name", ["kings_road", "rulesets/variants/permanent_nobles.rules"])
def test_whole_games_are_the_games_of_moving_one_by_one(name, one_by_one):
    rules = regnum.load(name)
    at_once = [play_random_game(rules, 2 + seed % 3, seed) for seed in range(6)]
    one_by_one(False)
    alike = [play_random_game(rules, 2 + seed % 3, seed) for seed in range(6)]
    for a, b in zip(at_once, alike):
        assert (a.to_json(), a.hits, a.peak_steps) == (b.to_json(), b.hits, b.peak_steps)
    assert sum(a.move_count for a in at_once) > 300
