"""Differential test: benchmarks/unseen/whist.rules (a game none of the engine's optimisations
was written for, benchmarks/unseen/README.md) against its hand-written program,
benchmarks/unseen/whist_baseline.py, fed the same moves: the deal and trumps, then after every
move each hand card by card, the trick, the tricks won and who plays next agree, as do the
legal moves in order; and the baseline's `bench_game` gives `play_random_game`'s (moves,
scores), as `regnum bench` compares them. Then the rules themselves: a player must follow the
suit led while they can, refused by the rule's name and changing nothing; a trump beats the
suit led; the hands stay hidden from the others."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import regnum
from regnum import IllegalMove
from regnum.agents import play_random_game
from regnum.benchmark import load_baseline

UNSEEN = Path(__file__).resolve().parents[2] / "benchmarks" / "unseen"
baseline = load_baseline("whist")   # benchmarks/unseen/whist_baseline.py, as `regnum bench` loads it


@pytest.fixture(scope="module")
def rules():
    return regnum.load(UNSEEN / "whist.rules")


def _cards(game, zone: str) -> list[tuple]:
    return list(zip(game.evaluate(f"[c.suit for c in {zone}]"), game.evaluate(f"[c.rank for c in {zone}]")))


def _named(label: str) -> tuple:
    """(suit, rank) of a card named as the ruleset names it: `12 of hearts`."""
    rank, _, suit = label.partition(" of ")
    return suit, int(rank)


def _snapshot(game) -> dict:
    return {"hands": [_cards(game, f"hand({p})") for p in range(4)], "trick": _cards(game, "trick"),
            "trumps": game.evaluate("trumps"), "to_move": game.to_move, "scores": game.scores}


def _theirs(hand) -> dict:
    return {"hands": hand.hands, "trick": [card for _, card in hand.trick], "trumps": hand.trumps,
            "to_move": [] if hand.over else [hand.seat], "scores": hand.scores}


def _card(game, seat: int, card: tuple):
    return next(m for m in game.legal_moves(seat) if _named(m.args["card"]) == card)


@pytest.mark.parametrize("seed", range(4))
def test_the_same_moves_give_the_same_game(rules, seed):
    game, hand = rules.new_game(4, seed), baseline.Whist(seed)
    pick = random.Random(seed)
    assert _snapshot(game) == _theirs(hand)
    while not game.is_over:
        seat = game.to_move[0]
        assert [_named(m.args["card"]) for m in game.legal_moves(seat)] == hand.legal_moves()
        card = pick.choice(hand.legal_moves())
        game.play(_card(game, seat, card))
        hand.play(card)
        assert _snapshot(game) == _theirs(hand)
    assert game.move_count == 52 and sum(game.scores) == 13


@pytest.mark.parametrize("seed, max_moves", [(0, 10_000), (1, 10_000), (2, 10_000), (3, 9), (4, 1)])
def test_bench_game_plays_what_play_random_game_plays(rules, seed, max_moves):
    game = play_random_game(rules, 4, seed, max_moves=max_moves, coverage=False)
    assert baseline.bench_game(4, seed, max_moves) == (game.move_count, game.scores)


def test_a_random_deal_scores_its_tricks(rules):
    game = play_random_game(rules, 4, 0, coverage=False)
    assert (game.move_count, game.scores, game.winners) == (52, [2, 4, 2, 5], [3])


def test_a_player_must_follow_suit_while_they_can(rules):
    game = rules.new_game(4, 0)
    led = _cards(game, "hand(0)")[0]
    game.play(_card(game, 0, led))
    hand = _cards(game, "hand(1)")
    following = [card for card in hand if card[0] == led[0]]
    assert following and [_named(m.args["card"]) for m in game.legal_moves(1)] == following
    other = next(card for card in hand if card[0] != led[0])
    before = game.to_json()
    with pytest.raises(IllegalMove) as refused:
        game.play(regnum.Move(player=1, action="play", args={"card": f"{other[1]} of {other[0]}"}))
    assert "follow_suit" in str(refused.value) and "you must follow the suit led" in str(refused.value)
    assert game.to_json() == before


def test_a_trump_beats_the_suit_led(rules):
    """Seed 7: diamonds are trumps; seat 1 holds no heart, so it may trump seat 0's 9 of hearts
    with its 2 of diamonds, the lowest trump, and wins the trick over any heart."""
    game = rules.new_game(4, 7)
    assert game.evaluate("trumps") == "diamonds"
    game.play(_card(game, 0, ("hearts", 9)))
    assert ("diamonds", 2) in [_named(m.args["card"]) for m in game.legal_moves(1)]
    game.play(_card(game, 1, ("diamonds", 2)))
    for seat in (2, 3):   # each follows with its first heart
        assert _named(game.legal_moves(seat)[0].args["card"])[0] == "hearts"
        game.play(game.legal_moves(seat)[0])
    assert game.scores == [0, 1, 0, 0] and game.to_move == [1]
    assert _cards(game, "trick") == [] and game.evaluate("count(won)") == 4


def test_the_hands_are_hidden_from_the_others(rules):
    game = rules.new_game(4, 0)
    zones = game.observation(1)["zones"]
    assert len(zones["hand#1"]) == 13 and zones["hand#0"] == {"count": 13, "revealed": []}
    assert zones["deck"] == {"count": 0, "revealed": []}
