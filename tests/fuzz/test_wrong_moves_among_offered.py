"""A wrong move that happens to be offered is not tried: whether it is among the offered
moves is judged as a set judges it (an equal move of equal hash: `{"face": 1}` equals
`{"face": true}` in Python but is another move), without hashing every offered move at every
step (`checks._among`); and the earlier moves no longer offered are looked for only when a
mutation asks for one (`checks._not_among`)."""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from regnum.engine import game as game_module
from regnum.fuzz import checks
from regnum.moves import Move

from test_checks import cards, played   # noqa: F401  (the fixture, and its games)

VALUES = st.one_of(st.integers(-2, 2), st.booleans(), st.none(), st.text("ab", max_size=2),
                   st.lists(st.integers(0, 2), max_size=2))
MOVES = st.builds(Move, st.integers(0, 2), st.sampled_from(["lay", "draw"]),
                  st.dictionaries(st.sampled_from(["c", "face"]), VALUES, max_size=2))


@settings(max_examples=300, deadline=None)
@given(MOVES, st.lists(MOVES, max_size=8), st.lists(MOVES, max_size=6))
def test_among_is_what_a_set_finds(move, offered, earlier):
    assert checks._among(move, offered) is (move in set(offered))
    assert checks._not_among(earlier, offered) == [m for m in earlier if m not in set(offered)]


def test_an_equal_move_of_another_hash_is_among_none():
    offered = [Move(0, "lay", {"c": "card", "face": True}), Move(0, "lay", {"c": "card", "face": False})]
    assert Move(0, "lay", {"c": "card", "face": 1}) == offered[0]   # equal, as Python compares dicts
    assert not checks._among(Move(0, "lay", {"c": "card", "face": 1}), offered)
    assert not checks._among(Move(0, "lay", {"c": "card", "face": 0}), offered)
    assert checks._among(Move(0, "lay", {"face": False, "c": "card"}), offered)   # the keys' order aside


def _tried(game, wrong, monkeypatch) -> list:
    """The wrong moves wrong_moves_refused plays (each is refused, and the game stays as it was)."""
    tried = []
    real = game_module.Game.play

    def play(self, move):
        tried.append(move)
        return real(self, move)

    monkeypatch.setattr(game_module.Game, "play", play)
    before = game.to_json()
    assert checks.wrong_moves_refused(game, wrong) == before
    assert game.to_json() == before
    return tried


def test_an_offered_move_is_not_tried_and_its_equal_of_another_type_is(cards, monkeypatch):
    game = played(cards, 3)
    offered = [m for m in game.all_legal_moves() if m.action == "lay" and m.args["face"] is True]
    assert offered
    same = Move(offered[0].player, "lay", dict(offered[0].args))
    as_number = Move(offered[0].player, "lay", {**offered[0].args, "face": 1})
    tried = _tried(game, [("argument value", same), ("argument type", as_number)], monkeypatch)
    assert tried == [as_number]


def test_an_earlier_move_is_one_no_longer_offered(cards):
    game = played(cards, 3)
    legal = game.all_legal_moves()
    stale = Move(legal[0].player, "lay", {"c": "no such card", "face": True})
    made = checks.mutations(game, legal, legal + [stale], random.Random(1), count=200)
    earlier = [move for how, move in made if how == "earlier move"]
    # The draws made when the stale moves were looked for at every step (counted then too)
    assert len(earlier) == 21 and all(move is stale for move in earlier)
    assert sum(how == "made up" for how, _ in made) == 56


def test_without_an_earlier_move_left_one_is_made_up(cards):
    game = played(cards, 3)
    legal = game.all_legal_moves()
    made = checks.mutations(game, legal, list(legal), random.Random(1), count=200)
    assert "earlier move" not in {how for how, _ in made}
    assert sum(how == "made up" for how, _ in made) == 74   # the 21 earlier moves above among them
