"""Each of the fuzzer's checks fails on the bug it exists for, and a log of that failure is
reproduced by `failures.reproduce` (what `regnum replay` runs).

The bugs are planted in the engine with monkeypatch (a refusal that changes the state, an
observation that leaks a hand, a JSON that loses a variable…): the bundled engine has none of
them, which is why the fuzzer must be shown to catch them here.
"""
from __future__ import annotations

import random
import textwrap

import pytest

import regnum
from regnum.engine import game as game_module
from regnum.engine import observe
from regnum.failures import reproduce
from regnum.fuzz import checks
from regnum.fuzz import failure_log
from regnum.fuzz.checks import CheckFailed
from regnum.fuzz.playout import Settings, fuzz_game
from regnum.moves import Move

# Two players draw cards into their own hidden hands, then pass them on, for four turns.
CARDS = """
game cards "Cards"
players 2..3
piece card:
    rank: int
zone deck: hidden
zone hand per player: owner
zone table: public
var turns: int = 0
setup:
    for r in range(8):
        create 1 card(rank: r) in deck
    shuffle deck
flow:
    repeat 3 times:
        for p in players:
            ask p to draw or lay
            add 1 to turns
action draw():
    require cards_left: count(deck) > 0 else "the deck is empty"
    move 1 from deck to hand(player)
action lay(c in hand(player), face in [true, false]):
    move c to table
invariant cards_conserved: count(deck) + count(table) + sum(count(hand(p)) for p in players) == 8
"""


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    path = tmp_path_factory.mktemp("cards") / "cards.rules"
    path.write_text(textwrap.dedent(CARDS))
    return regnum.load(path)


def played(rules, moves: int, seed: int = 3, players: int = 2):
    game = rules.new_game(players=players, seed=seed, narrate=False)
    rnd = random.Random(seed)
    while game.move_count < moves and not game.is_over:
        game.play(rnd.choice(game.all_legal_moves()))
    return game


def drawn(rules, moves: int):
    """A game in which the seats have only drawn cards, into their hidden hands."""
    game = rules.new_game(players=2, seed=3, narrate=False)
    for _ in range(moves):
        game.play(Move(game.to_move[0], "draw", {}))
    return game


def failing(check, *args) -> CheckFailed:
    with pytest.raises(CheckFailed) as caught:
        check(*args)
    return caught.value


def reproduced(rules, game, failure: CheckFailed):
    from regnum.fuzz.playout import failure_record
    log = failure_log(rules, game, failure_record(game, failure), game.players, game.seed, None)
    return reproduce(rules, log)


def test_the_checks_pass_on_a_sound_game(cards):
    game = played(cards, 3)
    legal = game.all_legal_moves()
    rng = random.Random(0)
    checks.invariants(game)
    checks.offers_a_move(game)
    checks.ends_in_time(game, 100)
    checks.offered_moves_accepted(game, legal, rng, tries=len(legal))
    checks.wrong_moves_refused(game, checks.mutations(game, legal, [], rng, count=40))
    checks.round_trip(game)
    for seat in (None, 0, 1):
        checks.secrecy(game, seat)
    checks.replays(game)
    outcome = fuzz_game(cards, 3, 5, "endgame", Settings(bound=100))
    assert outcome.failure is None and outcome.over and 0 < outcome.checked_from < 9


def test_mutations_cover_every_way_of_making_a_move_wrong(cards):
    game = played(cards, 3)
    legal = game.all_legal_moves()
    earlier = played(cards, 2).all_legal_moves()
    made = {how for how, _ in checks.mutations(game, legal, earlier, random.Random(1), count=200)}
    assert made == {"seat", "action", "unknown action", "extra argument", "missing argument",
                    "argument value", "argument type", "earlier move", "made up"}


def test_a_refusal_that_changes_the_state_is_unclean(cards, monkeypatch):
    game = played(cards, 3)
    real = game_module.Game._play

    def careless(self, move):
        self._state.vars["turns"] += 100   # writes before it checks
        return real(self, move)

    monkeypatch.setattr(game_module.Game, "_play", careless)
    wrong = [("seat", Move(1 - game.to_move[0], "draw", {}))]
    failure = failing(checks.wrong_moves_refused, game, wrong)
    assert (failure.kind, failure.check) == ("unclean", "seat")
    assert "changed the state" in failure.message


def test_a_wrong_move_accepted_is_unclean(cards, monkeypatch):
    game = played(cards, 3)
    seat = game.to_move[0]
    real = game_module.Game._play

    def lax(self, move):   # drops the arguments it does not know instead of refusing the move
        known = {"c", "face"}
        return real(self, Move(move.player, move.action, {k: v for k, v in move.args.items() if k in known}))

    monkeypatch.setattr(game_module.Game, "_play", lax)
    wrong = Move(seat, "draw", {"unknown_argument": 1})
    failure = failing(checks.wrong_moves_refused, game, [("extra argument", wrong)])
    assert (failure.kind, failure.check, failure.move) == ("unclean", "extra argument", wrong)
    assert "was accepted; the game did not offer it" in failure.message


def test_an_offered_move_refused_is_found_and_reproduced(cards, monkeypatch):
    game = played(cards, 2)
    real = game_module.Game._play

    def picky(self, move):
        if move.action == "lay" and move.args.get("face") is False:
            raise regnum.IllegalMove(move, "face down is refused", "lay")
        return real(self, move)

    monkeypatch.setattr(game_module.Game, "_play", picky)
    laid = [m for m in game.all_legal_moves() if m.action == "lay" and m.args["face"] is False]
    failure = failing(checks.offered_moves_accepted, game, laid, random.Random(0), 1)
    assert (failure.kind, failure.move) == ("refused", laid[0])
    again = reproduced(cards, game, failure)
    assert again.reproduced and again.observed.kind == "refused" and again.observed.move == 2


def test_an_observation_that_shows_a_hidden_hand_is_a_secrecy_failure(cards, monkeypatch):
    game = drawn(cards, 4)
    real = observe._visible
    monkeypatch.setattr(observe, "_visible", lambda fam, index, viewer: fam.name == "hand" or real(fam, index, viewer))
    failure = failing(checks.secrecy, game, 0)
    assert (failure.kind, failure.check) == ("secrecy", "seat 0")
    assert "in zone hand#1, which it may not see" in failure.message
    again = reproduced(cards, game, failure)
    assert again.reproduced and again.observed.check == "seat 0"


def test_a_leak_through_another_field_is_found_by_changing_the_secrets(cards, monkeypatch):
    game = drawn(cards, 4)
    real = observe.observation

    def leaky(game, viewer):
        seen = real(game, viewer)
        seen["moves"] = sum(game.state.pieces[i]["rank"] for i in game.state.zones["deck"])
        return seen

    monkeypatch.setattr(observe, "observation", leaky)
    failure = failing(checks.secrecy, game, None)
    assert failure.kind == "secrecy" and "('moves') changes" in failure.message


def test_a_state_that_loses_a_variable_in_json_fails_the_round_trip(cards, monkeypatch):
    game = played(cards, 3)
    real = game_module.State.from_dict.__func__

    def forgetful(cls, data):   # reads every variable back but one
        state = real(cls, data)
        state.vars["turns"] = 0
        return state

    monkeypatch.setattr(game_module.State, "from_dict", classmethod(forgetful))
    failure = failing(checks.round_trip, game)
    assert failure.kind == "round_trip"
    again = reproduced(cards, game, failure)
    assert again.reproduced


def test_a_log_that_replays_to_another_state_fails_the_replay(cards, monkeypatch):
    game = played(cards, 3)
    real = game_module.Game.start.__func__

    def shifted(cls, *args, **kwargs):   # every new game now starts from another state
        started = real(cls, *args, **kwargs)
        started.state.vars["turns"] = 7
        return started

    monkeypatch.setattr(game_module.Game, "start", classmethod(shifted))
    failure = failing(checks.replays, game)
    assert (failure.kind, failure.check) == ("replay", "same state")


def test_a_game_past_its_bound_is_unending(cards):
    game = played(cards, 4)
    failure = failing(checks.ends_in_time, game, 4)
    assert (failure.kind, failure.check) == ("unending", "ends within 4 moves")
    again = reproduced(cards, game, failure)
    assert again.reproduced and again.observed.move == 3
