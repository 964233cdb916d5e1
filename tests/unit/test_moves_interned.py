"""Moves handed out by legal_moves() are made once per position and found again by identity
when played (Game._legal): the shortcut must play exactly what the full check would, and a
move changed after it was handed out must be judged like any other move."""
from __future__ import annotations

import json
import textwrap

import pytest

import regnum
from regnum import IllegalMove, Move
from regnum.agents import RandomAgent, seat_seed

COUNTING = """
game counting "Counting"
players 2..2
flow:
    ask 0 to give
    ask 0 to give
action give(n in range(1, 4), to in players):
    require small: n < 3 else "give one or two"
    add n to score(to)
"""


@pytest.fixture
def counting(tmp_path) -> regnum.Ruleset:
    path = tmp_path / "counting.rules"
    path.write_text(textwrap.dedent(COUNTING), encoding="utf-8")
    return regnum.load(path)


def test_a_position_hands_out_the_same_moves_each_time(counting):
    game = counting.new_game(2)
    first, again = game.legal_moves(0), game.legal_moves(0)
    assert first == again and all(a is b for a, b in zip(first, again))
    assert first is not again   # the list is the caller's to change
    first.clear()
    assert [m.args for m in game.legal_moves(0)] == [
        {"n": 1, "to": 0}, {"n": 1, "to": 1}, {"n": 2, "to": 0}, {"n": 2, "to": 1}]
    assert game.all_legal_moves() == game.legal_moves(0)


def test_a_move_changed_after_it_was_handed_out_plays_what_it_now_says(counting):
    game = counting.new_game(2)
    move = game.legal_moves(0)[0]   # give 1 to seat 0
    move.args["to"] = 1             # now: give 1 to seat 1, also legal
    game.play(move)
    assert game.scores == [0, 1]
    assert json.loads(game.log.to_json())["moves"] == [{"player": 0, "action": "give", "args": {"n": 1, "to": 1}}]
    # what the game lists was not changed with it
    assert [m.args for m in game.legal_moves(0)][:2] == [{"n": 1, "to": 0}, {"n": 1, "to": 1}]


def test_a_move_changed_into_an_illegal_one_is_refused_by_its_rule(counting):
    game = counting.new_game(2)
    move = game.legal_moves(0)[2]   # give 2 to seat 0
    move.args["n"] = 3
    before = game.to_json()
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    assert (info.value.reason, info.value.rule) == ("give one or two", "give.small")
    assert game.to_json() == before


def test_a_move_changed_to_a_lax_equal_value_is_refused(counting):
    game = counting.new_game(2)
    move = game.legal_moves(0)[0]
    move.args["n"] = True   # == 1 in Python, not in a log
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    assert (info.value.reason, info.value.rule) == ("argument 'n' must be a whole number (1), not true", "give.n")


def test_a_move_of_an_earlier_position_is_checked_again(kings_road):
    game = kings_road.new_game(players=2, seed=0)
    stale = next(m for m in game.legal_moves(0) if m.args == {"card": "dark_tower"})
    game.play(stale)
    with pytest.raises(IllegalMove) as info:
        game.play(stale)
    assert info.value.rule == "pick.card"


def test_handed_out_and_rebuilt_moves_play_the_same_games(kings_road):
    """A game played with the moves handed out and one played with equal moves built anew
    (the full check) go through the same states."""
    for seed in range(3):
        fast = kings_road.new_game(players=4, seed=seed, narrate=False)
        slow = kings_road.new_game(players=4, seed=seed, narrate=False)
        agents = [RandomAgent(seat_seed(seed, p)) for p in range(4)]
        while not fast.is_over:
            player = fast.to_move[0]
            move = agents[player].choose(fast, player)
            fast.play(move)
            slow.play(Move(move.player, move.action, json.loads(json.dumps(move.args))))
            assert fast.to_json() == slow.to_json()
        assert slow.is_over and fast.scores == slow.scores and fast.hits == slow.hits


def test_a_move_changed_after_it_was_played_leaves_the_log_as_played(counting):
    """The game keeps moves of its own: changing a played move's arguments afterwards, handed
    out or built by the caller, changes neither the log nor the saved game."""
    from regnum.engine.state import canonical_json
    game = counting.new_game(2)
    handed = next(m for m in game.legal_moves(0) if m.args == {"n": 2, "to": 1})
    game.play(handed)
    built = Move(0, "give", {"n": 1, "to": 0})
    game.play(built)
    before = game.to_json()
    handed.args["n"] = 9
    built.args["to"] = 1
    assert [(m.player, m.action, m.args) for m in game.log.moves] == [
        (0, "give", {"n": 2, "to": 1}), (0, "give", {"n": 1, "to": 0})]
    assert game.to_json() == before == canonical_json(game.to_dict())
    assert game.scores == [1, 2]
