"""The public test helpers of regnum.testing, on King's Road positions."""
from __future__ import annotations

import pytest

import regnum
from regnum import Move
from regnum.testing import (Scenario, assert_invariants, place, random_playout, restart_flow,
                            set_fields, set_player_var, set_var)


def where_is_consistent(game) -> bool:
    state = game.state
    return all(state.where[i] == key for key, ids in state.zones.items() for i in ids)


def test_place_moves_pieces_and_keeps_where_consistent(kings_road):
    game = kings_road.new_game(players=2)
    moved = place(game, "supply#1", "region#dark_tower", n=3)
    assert len(moved) == 3 and game.state.zones["region#dark_tower"] == moved
    assert len(game.state.zones["supply#1"]) == 16
    assert where_is_consistent(game)
    assert_invariants(game)  # still 20 markers per player


def test_place_with_a_filter_and_all_matching(kings_road):
    game = kings_road.new_game(players=2)
    moved = place(game, "hand#0", "out_of_game", n=None, where=lambda c: c["kind"] != "region_card")
    labels = sorted(game.state.pieces[i]["label"] for i in moved)
    assert labels == ["dragon", "knight", "witch"]
    assert len(game.state.zones["hand#0"]) == 8 and where_is_consistent(game)


def test_place_refuses_bad_requests(kings_road):
    game = kings_road.new_game(players=2)
    with pytest.raises(ValueError, match="only 19"):
        place(game, "supply#0", "region#dark_tower", n=20)
    with pytest.raises(KeyError, match="supply#7"):
        place(game, "supply#7", "region#dark_tower")
    with pytest.raises(KeyError, match="region#atlantis"):
        place(game, "supply#0", "region#atlantis")
    assert len(game.state.zones["supply#0"]) == 19  # nothing moved


def test_edits_do_not_touch_earlier_copies(kings_road):
    game = kings_road.new_game(players=2)
    snapshot = game.copy()
    before = snapshot.to_json()
    place(game, "supply#0", "region#dark_tower", n=2)
    set_fields(game, "region#dark_tower", noble=True)
    set_var(game, "king", "dark_tower")
    set_player_var(game, 1, "score", 12)
    assert snapshot.to_json() == before
    assert game.state.vars["king"] == "dark_tower" and game.scores == [0, 12]
    nobles = [p["noble"] for p in (game.state.pieces[i] for i in game.state.zones["region#dark_tower"])]
    assert nobles == [True, False]
    assert not any(snapshot.state.pieces[i]["noble"] for i in game.state.zones["region#dark_tower"])


def test_setters_check_names(kings_road):
    game = kings_road.new_game(players=2)
    with pytest.raises(KeyError, match="kingg"):
        set_var(game, "kingg", "dark_tower")
    with pytest.raises(KeyError, match="scor"):
        set_player_var(game, 0, "scor", 1)
    with pytest.raises(IndexError):
        set_player_var(game, 2, "score", 1)
    with pytest.raises(KeyError, match="nobel"):
        set_fields(game, "supply#0", nobel=True)


def test_assert_invariants_lists_the_failures(kings_road):
    game = kings_road.new_game(players=2)
    assert_invariants(game)
    place(game, "supply#0", "out_of_game")  # a marker vanishes from the count
    with pytest.raises(AssertionError, match="markers_conserved"):
        assert_invariants(game)


def test_scenario_starts_the_flow_from_the_edited_position(kings_road):
    # The number of cards to pick is computed when the round starts: from the edited supply.
    game = (Scenario(kings_road, players=2)
            .set_var("king", "kings_castle")
            .place("supply#0", "region#kings_altar", n=18)
            .start())
    assert game.to_move == [0, 1] and game.state.vars["round"] == 1
    game.play(Move(0, "pick", {"card": "dark_tower"}))
    assert game.to_move == [1]  # one marker: one card


def test_restart_flow_mid_game(kings_road):
    game = kings_road.new_game(players=2)
    assert game.to_move == [0, 1]
    place(game, "supply#1", "region#kings_altar", n=19)
    assert game.to_move == [0, 1]  # the open round still counts P1's old supply
    restart_flow(game)
    assert game.to_move == [0]  # rerun from the top: P1 has nothing to play


def test_random_playout_is_a_function_of_its_seed(kings_road):
    a = random_playout(kings_road.new_game(players=4, seed=2), seed=9)
    b = random_playout(kings_road.new_game(players=4, seed=2), seed=9)
    assert a.is_over and a.to_json() == b.to_json()
    seen = []
    c = random_playout(kings_road.new_game(players=4, seed=2), seed=9, max_moves=10,
                       check=True, on_move=lambda g, m: seen.append(m))
    assert c.move_count == 10 and len(seen) == 10
    assert [m.to_dict() for m in seen] == [m.model_dump() for m in a.log.moves[:10]]
    assert regnum.replay(kings_road, c.log.to_json()).to_json() == c.to_json()


def test_refusal_names_the_rule_and_fails_on_an_accepted_move():
    from regnum.testing import refusal
    game = regnum.load("kings_gate").new_game(players=3, seed=5, options={"random_start": False})
    assert refusal(game, Move(0, "end_turn", {})) == "end_turn.played_one"
    assert refusal(game, Move(1, "end_turn", {})) == "flow"          # not P1's turn
    with pytest.raises(AssertionError, match="was accepted"):
        refusal(game, Move(0, "play", {"v": 4, "at": "(1,0)", "chip": None}))
    assert game.move_count == 1


def test_kind_first_move_picks_an_action_then_a_move_and_piece_ids_finds_every_piece():
    import random as random_
    from regnum.testing import kind_first_move, piece_ids
    game = regnum.load("kings_gate").new_game(players=3, seed=5, options={"random_start": False})
    game.play(Move(0, "play", {"v": 1, "at": "(1,0)", "chip": None}))
    moves = game.all_legal_moves()       # nine more 1s, or ending the turn
    assert len(moves) == 10 and sorted({m.action for m in moves}) == ["end_turn", "play"]
    kind_first = [kind_first_move(game, random_.Random(seed)).action for seed in range(40)]
    uniform = [random_.Random(seed).choice(moves).action for seed in range(40)]
    assert (kind_first.count("end_turn"), uniform.count("end_turn")) == (22, 5)
    hand = game.observation(1)
    assert piece_ids(hand) >= set(game.state.zones["hand#0"]) and not piece_ids(hand) & set(game.state.zones["stack#0"])
