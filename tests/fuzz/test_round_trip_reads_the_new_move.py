"""The fuzzer's round trip reads a game back at every step: it parses only the move that is
new since the step before (engine/saved.MovesRead), and the game read back counts no
coverage, listing its moves the other way to be compared with the fuzzed game's."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

import regnum
from regnum import ruleset as ruleset_module
from regnum.engine import saved
from regnum.fuzz import checks
from regnum.agents import play_random_game
from regnum.fuzz.playout import Settings, fuzz_game

_KILT = regnum.load("kings_kilt")


@pytest.mark.parametrize("name", ["kings_road", "kingdom_builder"])
def test_each_step_of_a_fuzzed_game_parses_one_move(name, monkeypatch):
    rules = regnum.load(name)
    rules.moves_read = None
    parsed: list = []
    real = saved.read_document

    def reading(data, *args):
        parsed.append(data.count('{"action":'))
        return real(data, *args)
    monkeypatch.setattr(saved, "read_document", reading)
    out = fuzz_game(rules, 3, 5, "random", Settings(bound=10_000, replay=False))
    assert out.failure is None and out.over and out.steps == len(out.moves) > 50
    # The start has no move; the first move is read whole; from then on the new move alone.
    assert parsed == [0] + [1] * out.steps


def test_the_game_read_back_counts_no_coverage(monkeypatch):
    rules = regnum.load("kings_gate")
    game = rules.new_game(players=2, seed=3, narrate=False)
    for _ in range(6):
        game.play(game.all_legal_moves()[0])
    read: list = []
    real = ruleset_module.Ruleset.game_from_json

    def game_from_json(self, *args, **kwargs):
        again = real(self, *args, **kwargs)
        read.append((kwargs, again.hits))
        return again
    monkeypatch.setattr(ruleset_module.Ruleset, "game_from_json", game_from_json)
    checks.round_trip(game, None, True)
    assert read == [({"check_moves": False, "check_invariants": False, "coverage": False}, None)]
    assert game.hits   # the fuzzed game counts


def test_the_games_read_back_share_the_texts_of_their_parts(monkeypatch):
    """Each step's game read back writes its JSON with the texts its predecessors kept: a part
    unchanged since is not encoded again, a changed one is, and the text is the game's."""
    from regnum.engine import state as state_module
    rules = regnum.load("kings_road")
    rules.moves_read = None
    game = rules.new_game(players=4, seed=9, narrate=False)
    store: tuple = ({}, {})
    encoded: list = []
    real = state_module._CANONICAL.encode

    class Counting:
        def encode(self, value):
            encoded.append(value)
            return real(value)
    monkeypatch.setattr(state_module, "_CANONICAL", Counting())
    kept = []
    for step in range(12):   # the first round of picks: no piece changes
        encoded.clear()
        checks.round_trip(game, None, True, store)
        kept.append((store[0]["pieces"], any(type(v) is list and v and type(v[0]) is dict and "label" in v[0]
                                             for v in encoded)))
        game.play(game.all_legal_moves()[0])
    # From the third step on (each read then parses one move), the pieces' text is taken as kept.
    assert all(entry is kept[2][0] and not written for entry, written in kept[3:])
    other = rules.new_game(players=4, seed=10, narrate=False)
    picker = random.Random(10)
    while not any(piece.get("noble") for piece in other.state.pieces):   # a Noble crowned
        other.play(picker.choice(other.all_legal_moves()))
    checks.round_trip(other, None, True, store)   # another game's pieces: written again, exactly
    assert store[0]["pieces"] is not kept[2][0]


@settings(max_examples=25, deadline=None)
@given(order=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 40)), min_size=2, max_size=12))
def test_games_sharing_a_store_of_texts_write_their_own_json(order):
    """Whatever games share one store, and in whatever order, each writes its own JSON."""
    rules = _KILT
    store: tuple = ({}, {})
    for seed, moves in order:
        game = play_random_game(rules, 2 + seed % 2, seed, max_moves=moves)
        text = game.to_json()
        again = rules.game_from_json(text, check_moves=False, coverage=False)
        again.keep_texts_in(store)
        assert again.to_json() == text
        assert again.to_json() == text   # written again, from the store alone
