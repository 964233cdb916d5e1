"""The fuzzer checks a step's invariants once: on the game, and not again when its round trip
reads the game's JSON back (`game_from_json(…, check_invariants=False)`) — unless the
invariants check is off, as when a round trip's failure is shrunk: the reader then checks
them, and refuses a state that breaks one, as it refuses any such saved game."""
from __future__ import annotations

import textwrap

import pytest

import regnum
from regnum.engine import game as game_module
from regnum.fuzz import checks
from regnum.fuzz.checks import CheckFailed
from regnum.fuzz.playout import Settings, check_step, fuzz_game
from regnum.moves import Move

COUNTER = """
game counter "Counter"
players 2..2
var total: int = 0
flow:
    repeat 4 times:
        for p in players:
            ask p to add_one or add_two
action add_one():
    add 1 to total
action add_two():
    add 2 to total
invariant total_small: total <= 16 else "the total stays at 16 or less"
"""


@pytest.fixture(scope="module")
def counter(tmp_path_factory):
    path = tmp_path_factory.mktemp("counter") / "counter.rules"
    path.write_text(textwrap.dedent(COUNTER))
    return regnum.load(path)


def broken(rules):
    """A game whose state breaks `total_small` (a position no move reaches)."""
    game = rules.new_game(players=2, seed=1, narrate=False)
    game.play(Move(0, "add_two", {}))
    game.state.vars["total"] = 40
    game._edited()
    return game


def test_the_reader_skips_the_invariants_only_when_asked(counter):
    text = broken(counter).to_json()
    with pytest.raises(regnum.StateError, match=r"^the state breaks invariant total_small: "
                                                r"the total stays at 16 or less \(.*counter.rules:13:1\)$"):
        counter.game_from_json(text, check_moves=False)
    again = counter.game_from_json(text, check_moves=False, check_invariants=False)
    assert again.state.vars["total"] == 40 and again.to_json() == text
    with pytest.raises(regnum.StateError, match=r"^state field 'state.vars.total': 40 is not what the game's "
                                                r"1 moves give \(2\)$"):
        counter.game_from_json(text, check_invariants=False)   # the moves are still replayed


def test_the_round_trip_leaves_held_invariants_to_the_invariants_check(counter):
    game = broken(counter)
    checks.round_trip(game, None, invariants_held=True)   # read back, the same state
    with pytest.raises(CheckFailed) as caught:
        checks.round_trip(game)
    assert (caught.value.kind, caught.value.check) == ("round_trip", "read back")
    assert caught.value.message.startswith("the game's own JSON is refused: StateError: the state breaks "
                                           "invariant total_small")


@pytest.mark.parametrize("invariants, kind, check", [(True, "invariant", "total_small"),
                                                     (False, "round_trip", "read back")])
def test_a_broken_invariant_is_reported_once_whichever_check_is_on(counter, invariants, kind, check):
    game = broken(counter)
    settings = Settings(bound=100, invariants=invariants, mutations=0, offered=0, secrecy=False)
    with pytest.raises(CheckFailed) as caught:
        check_step(game, settings, game.all_legal_moves(), [])
    assert (caught.value.kind, caught.value.check) == (kind, check)


def test_a_fuzzed_game_checks_its_invariants_once_a_step(counter, monkeypatch):
    calls = []
    real = game_module.Game.check_invariants
    monkeypatch.setattr(game_module.Game, "check_invariants", lambda self: calls.append(self) or real(self))
    outcome = fuzz_game(counter, 2, 3, "random", Settings(bound=100))
    assert outcome.failure is None and outcome.over and outcome.steps == 8
    assert len(calls) == 9   # after each of the 8 moves, and before the first
    calls.clear()
    outcome = fuzz_game(counter, 2, 3, "random", Settings(bound=100, invariants=False))
    assert outcome.failure is None and len(calls) == 9   # by the reader of the round trip
