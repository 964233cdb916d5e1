"""Differential test: benchmarks/unseen/no_thanks.rules (a game none of the engine's
optimisations was written for, benchmarks/unseen/README.md) against its hand-written program,
benchmarks/unseen/no_thanks_baseline.py, fed the same moves: after every move the card
turned up, the chips on it, every player's cards and chips, the cards left in the deck and
who chooses agree, as do the legal moves in order; and the baseline's `bench_game` gives
`play_random_game`'s (moves, scores) at 3, 4 and 5 players, as `regnum bench` compares them.
Then the rules themselves: a run counts its lowest card, chips count for their owner, a
player without chips must take, and the chips stay hidden from the others."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import regnum
from regnum import IllegalMove
from regnum.agents import play_random_game
from regnum.benchmark import load_baseline

UNSEEN = Path(__file__).resolve().parents[2] / "benchmarks" / "unseen"
baseline = load_baseline("no_thanks")   # benchmarks/unseen/no_thanks_baseline.py, as `regnum bench` loads it


@pytest.fixture(scope="module")
def rules():
    return regnum.load(UNSEEN / "no_thanks.rules")


def _snapshot(game, players: int) -> dict:
    return {
        "offer": game.evaluate("if count(offer) == 0 then none else offer[0].value"),
        "pot": game.evaluate("pot"),
        "deck": game.evaluate("[c.value for c in deck]"),
        "cards": [game.evaluate(f"[c.value for c in taken({p})]") for p in range(players)],
        "chips": [game.evaluate(f"chips({p})") for p in range(players)],
        "to_move": game.to_move,
        "scores": game.scores,
    }


def _theirs(hand, players: int) -> dict:
    return {"offer": hand.offer, "pot": hand.pot, "deck": hand.deck, "cards": hand.cards,
            "chips": hand.chips, "to_move": [] if hand.over else [hand.seat], "scores": hand.scores}


@pytest.mark.parametrize("players, seed", [(3, 0), (3, 1), (4, 2), (4, 3), (5, 4), (5, 5)])
def test_the_same_moves_give_the_same_game(rules, players, seed):
    game, hand = rules.new_game(players, seed), baseline.NoThanks(players, seed)
    pick = random.Random(seed)
    assert _snapshot(game, players) == _theirs(hand, players)
    while not game.is_over:
        seat = game.to_move[0]
        assert [m.action for m in game.legal_moves(seat)] == hand.legal_moves()
        chosen = pick.choice(hand.legal_moves())
        game.play(next(m for m in game.legal_moves(seat) if m.action == chosen))
        hand.play(chosen)
        assert _snapshot(game, players) == _theirs(hand, players)
    assert hand.over and game.move_count > 24


@pytest.mark.parametrize("players, seed, max_moves", [(3, 0, 10_000), (4, 1, 10_000), (5, 2, 10_000),
                                                      (4, 3, 7), (3, 4, 1)])
def test_bench_game_plays_what_play_random_game_plays(rules, players, seed, max_moves):
    game = play_random_game(rules, players, seed, max_moves=max_moves, coverage=False)
    assert baseline.bench_game(players, seed, max_moves) == (game.move_count, game.scores)


def test_a_run_counts_its_lowest_card_and_chips_count_for_their_owner(rules):
    game = play_random_game(rules, 4, 0, coverage=False)
    assert (game.move_count, game.scores, game.winners) == (43, [-25, -53, -96, -129], [0])
    assert game.evaluate("sorted([c.value for c in taken(2)])") == [4, 6, 7, 8, 19, 22, 27, 30, 31, 32]
    assert game.evaluate("run_heads(2)") == [4, 6, 30, 27, 22, 19]   # in the order taken: 108 points
    assert [game.evaluate(f"chips({p})") for p in range(4)] == [11, 9, 12, 12]
    assert game.evaluate("sorted([c.value for c in box])") == [3, 5, 11, 12, 14, 17, 18, 25, 34]


def test_a_player_without_chips_must_take(rules):
    game = rules.new_game(3, 0)
    while game.evaluate("chips(0)") > 0 or game.to_move != [0]:
        seat = game.to_move[0]
        game.play(next(m for m in game.legal_moves(seat) if m.action == "no_thanks"))
    assert [m.action for m in game.legal_moves(0)] == ["take"]
    before = game.to_json()
    with pytest.raises(IllegalMove) as refused:
        game.play(regnum.Move(player=0, action="no_thanks", args={}))
    assert "has_chips" in str(refused.value) and "you have no chips left" in str(refused.value)
    assert game.to_json() == before


def test_the_chips_are_hidden_from_the_others(rules):
    game = rules.new_game(3, 0)
    assert [seat["chips"] for seat in game.observation(1)["player_vars"]] == ["hidden", 11, "hidden"]
    assert [seat["chips"] for seat in game.observation(None)["player_vars"]] == ["hidden"] * 3
    assert game.observation(1)["zones"]["deck"] == {"count": 23, "revealed": []}
