"""`move N from Z to D` takes the top N pieces of Z without a call and a search of Z for each
(Ctx.move_top), and a trigger watching one zone family no longer makes every other zone move
piece by piece (Ctx._fires): the same game as moving one by one — the state, every undo
entry, coverage, narration, a fault undone — and, where a trigger watches the zones or a
moved piece is revealed, the pieces still move one by one, each in turn."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import regnum
from regnum import Move, RulesetError
from regnum.agents import play_random_game
from regnum.engine import runtime
from regnum.engine.state import undo_move, undo_move_all, undo_revealed
from toy_rules import load   # tests/unit is on the path of its tests

DECK = """
game deck "Deck"
players 2..2
piece card:
    rank: int
zone deck: hidden
zone hand per player: owner
zone discard: public
zone shown: public
var k: int = 0
setup:
    for r in range(1, 9):
        create 1 card(rank: r) in deck named "card " + text(r)
flow:
    repeat until false:
        for p in players:
            ask p to draw or draw_and_fail or draw_one_and_fail or discard_hand or show_top or draw_all or pass_turn
def short(n) = count(c for c in deck where c.rank > 0) < n
action draw(n in [1, 2, 3]):
    require enough: not short(n) else "the deck is short"
    move n from deck to hand(player)
    announce "{player} holds {[c.rank for c in hand(player)]}"
action draw_and_fail():
    require enough: count(deck) >= 2 else "the deck is short"
    move 2 from deck to hand(player)
    set k = 1 // 0
action draw_one_and_fail():
    require enough: count(deck) >= 1 else "the deck is empty"
    move 1 from deck to hand(player)
    set k = 1 // 0
def holds(p, n) = count(c for c in hand(p) where c.rank > 0) >= n
action discard_hand():
    require some: holds(player, 1) else "no card in hand"
    move hand(player) to discard
action show_top():
    require some: count(deck) > 0 else "the deck is empty"
    reveal [deck[count(deck) - 1]]
action draw_all():
    require some: count(deck) > 0 else "the deck is empty"
    move count(deck) from deck to deck
    move count(deck) from deck to hand(player)
action pass_turn():
    pass
"""

# A trigger on the discard pile only: the deck and the hands are not watched.
ELSEWHERE = DECK + """
trigger discarded when c enters discard:
    add c.rank to k
"""

# A trigger on the hands: every card drawn fires it, in the order the cards move.
DRAWN = DECK + """
trigger drawn when c enters hand(p):
    announce "{p} draws {c.rank}"
    set k = k * 10 + c.rank
"""


def _everything(game):
    return game.to_json(), dict(game.hits), list(game.events), game.to_move, game.peak_steps


def _undo(game):
    return [entry[0] for entry in game._last.entries]


def _hand(game, seat):
    return [game.state.pieces[i]["rank"] for i in game.state.zones[f"hand#{seat}"]]


def test_the_top_pieces_move_with_the_undo_entries_of_moving_each(tmp_path, monkeypatch):
    rules = load(tmp_path, DECK, "deck.rules")
    games = []
    for at_once in (True, False):
        monkeypatch.setattr(runtime, "MOVE_ZONES", at_once)
        game = rules.new_game(players=2, seed=1, narrate=True)
        game.play(Move(0, "draw", {"n": 3}))
        games.append((_everything(game), game._last.entries))
        assert _hand(game, 0) == [8, 7, 6] and game.events[-1] == "P0 holds [8, 7, 6]"
        assert game.state.zones["deck"] == [0, 1, 2, 3, 4]
        assert game.state.where[5:8] == ["hand#0"] * 3
    assert games[0] == games[1]
    assert games[0][1] == [(undo_move, 7, "deck", 7, "hand#0"), (undo_move, 6, "deck", 6, "hand#0"),
                           (undo_move, 5, "deck", 5, "hand#0")]
    game.play(Move(1, "draw", {"n": 1}))   # one: Ctx.move_piece takes the top without a search
    assert game._last.entries == [(undo_move, 4, "deck", 4, "hand#1")]


def _short(game) -> dict:
    """short(n)'s values kept: n -> (value, steps)."""
    return {key[1]: entry[:2] for key, entry in game.state.memo.entries.items() if len(key) == 2}


def _holds(game) -> dict:
    """holds(p, n)'s values kept: (p, n) -> (value, steps)."""
    return {key[1:]: entry[:2] for key, entry in game.state.memo.entries.items() if len(key) == 3}


def test_the_values_kept_that_read_either_zone_are_dropped(tmp_path):
    game = load(tmp_path, DECK, "deck.rules").new_game(players=2, seed=3)
    legal = game.legal_moves(0)
    assert {m.args["n"] for m in legal if m.action == "draw"} == {1, 2, 3}
    assert "discard_hand" not in {m.action for m in legal}
    assert _short(game) == {1: (False, 8), 2: (False, 8), 3: (False, 8)}   # short(n) of 8 cards
    assert _holds(game) == {(0, 1): (False, 0)}   # holds(0, 1) of an empty hand
    game.play(Move(0, "draw", {"n": 3}))   # from the deck, which short(n) read, into hand(0)
    assert _short(game) == {} and _holds(game) == {}
    game.play(Move(1, "draw", {"n": 3}))
    legal = game.legal_moves(0)
    assert {m.args["n"] for m in legal if m.action == "draw"} == {1, 2}
    assert "discard_hand" in {m.action for m in legal}
    assert _short(game) == {1: (False, 2), 2: (False, 2), 3: (True, 2)}
    assert _holds(game) == {(0, 1): (True, 3)}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["draw", "draw_and_fail", "draw_one_and_fail", "discard_hand", "show_top",
                                           "draw_all", "pass_turn"]), st.integers(1, 3)), max_size=14))
def test_any_game_is_the_game_of_moving_one_by_one(tmp_path_factory, script):
    folder = tmp_path_factory.mktemp("top")
    games = []
    for at_once in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(runtime, "MOVE_ZONES", at_once)
            for text, name in ((DECK, "deck.rules"), (ELSEWHERE, "elsewhere.rules"), (DRAWN, "drawn.rules")):
                game = load(folder, text, name).new_game(players=2, seed=3, narrate=True)
                refused = []
                for action, n in script:
                    seat = game.to_move[0]
                    try:
                        game.play(Move(seat, action, {"n": n} if action == "draw" else {}))
                    except regnum.IllegalMove as err:
                        refused.append(err.rule)
                    except RulesetError as err:
                        refused.append(err.diagnostics[0].message)
                games.append((_everything(game), refused))
    assert games[:3] == games[3:]


def test_a_fault_after_the_cards_moved_leaves_the_game_as_it_was(tmp_path):
    game = load(tmp_path, DECK, "deck.rules").new_game(players=2, seed=3, narrate=True)
    game.play(Move(0, "draw", {"n": 1}))
    before = game.to_json(), list(game.events), game.to_move
    with pytest.raises(RulesetError, match="by zero"):
        game.play(Move(1, "draw_and_fail", {}))
    assert (game.to_json(), list(game.events), game.to_move) == before
    assert game.state.zones["deck"] == [0, 1, 2, 3, 4, 5, 6] and game.state.zones["hand#1"] == []
    with pytest.raises(RulesetError, match="by zero"):
        game.play(Move(1, "draw_one_and_fail", {}))
    assert (game.to_json(), list(game.events), game.to_move) == before
    assert game.state.zones["deck"] == [0, 1, 2, 3, 4, 5, 6] and game.state.where[6] == "deck"


def test_a_trigger_elsewhere_leaves_these_zones_moving_at_once(tmp_path):
    game = load(tmp_path, ELSEWHERE, "elsewhere.rules").new_game(players=2, seed=3)
    game.play(Move(0, "draw", {"n": 2}))
    game.play(Move(1, "pass_turn", {}))
    game.play(Move(0, "discard_hand", {}))   # watched: one by one, each fires
    assert _undo(game)[:2] == [undo_move, undo_move] and game.state.vars["k"] == 15
    game.play(Move(1, "draw", {"n": 3}))
    game.play(Move(0, "pass_turn", {}))
    assert _hand(game, 1) == [6, 5, 4]
    game.play(Move(1, "draw_all", {}))   # the deck to itself: nothing moves; then the rest
    assert _hand(game, 1) == [6, 5, 4, 3, 2, 1] and game.state.zones["deck"] == []
    assert game._last.entries == [(undo_move, 2, "deck", 2, "hand#1"), (undo_move, 1, "deck", 1, "hand#1"),
                                  (undo_move, 0, "deck", 0, "hand#1")]   # none for the deck to itself


def test_a_zone_no_trigger_watches_moves_whole_in_a_game_with_triggers(tmp_path):
    game = load(tmp_path, ELSEWHERE, "elsewhere.rules").new_game(players=2, seed=3)
    game.play(Move(0, "draw", {"n": 3}))
    game.play(Move(1, "pass_turn", {}))
    rules = load(tmp_path, ELSEWHERE.replace("move hand(player) to discard", "move hand(player) to deck"),
                 "back.rules")
    game = rules.new_game(players=2, seed=3)
    game.play(Move(0, "draw", {"n": 3}))
    game.play(Move(1, "pass_turn", {}))
    game.play(Move(0, "discard_hand", {}))
    assert _undo(game) == [undo_move_all] and game.state.zones["deck"] == [0, 1, 2, 3, 4, 7, 6, 5]
    game.play(Move(1, "draw", {"n": 1}))
    game.play(Move(0, "pass_turn", {}))
    game.play(Move(1, "discard_hand", {}))   # a zone of one piece: moved as that piece
    assert _undo(game) == [undo_move] and game.state.zones["deck"] == [0, 1, 2, 3, 4, 7, 6, 5]


def test_watched_cards_move_one_by_one_and_fire_in_turn(tmp_path):
    game = load(tmp_path, DRAWN, "drawn.rules").new_game(players=2, seed=3, narrate=True)
    game.play(Move(0, "draw", {"n": 3}))
    assert game.events[-4:] == ["P0 draws 8", "P0 draws 7", "P0 draws 6", "P0 holds [8, 7, 6]"]
    assert game.state.vars["k"] == 876


def test_a_revealed_card_is_hidden_again_as_it_moves(tmp_path):
    game = load(tmp_path, DECK, "deck.rules").new_game(players=2, seed=3)
    game.play(Move(0, "show_top", {}))
    assert game.state.revealed == {7: None}
    game.play(Move(1, "pass_turn", {}))
    game.play(Move(0, "draw", {"n": 2}))
    assert _undo(game) == [undo_move, undo_revealed, undo_move]
    assert game.state.revealed == {} and _hand(game, 0) == [8, 7]


@pytest.mark.parametrize("name", ["kings_kilt", "kings_gate", "kingdom_builder"])
def test_whole_games_are_the_games_of_moving_one_by_one(name, monkeypatch):
    rules = regnum.load(name)
    at_once = [play_random_game(rules, 2 + seed % 3, seed) for seed in range(3)]
    monkeypatch.setattr(runtime, "MOVE_ZONES", False)
    alike = [play_random_game(rules, 2 + seed % 3, seed) for seed in range(3)]
    for a, b in zip(at_once, alike):
        assert (a.to_json(), a.hits, a.peak_steps, a.events) == (b.to_json(), b.hits, b.peak_steps, b.events)
