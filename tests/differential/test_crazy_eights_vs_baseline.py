"""Differential test: benchmarks/unseen/crazy_eights.rules (a game none of the engine's
optimisations was written for, benchmarks/unseen/README.md) against its hand-written program,
benchmarks/unseen/crazy_eights_baseline.py, fed the same moves: the deal, then after every
move each hand card by card, the discard pile and its top card, the suit to follow, the deck,
who plays next and the scores agree, as do the legal moves in order; and the baseline's
`bench_game` gives `play_random_game`'s (moves, scores) at 3, 4 and 5 players, as `regnum
bench` compares them. Then the rules themselves: a card matching neither the suit to follow
nor the top card's rank is refused by the rule's name and changes nothing; an 8 names the suit
the next player must follow; a draw takes the deck's top card; the hands stay hidden from the
others; the cards left in hand score their penalties and the highest score wins."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import regnum
from regnum import IllegalMove
from regnum.agents import play_random_game
from regnum.benchmark import load_baseline

UNSEEN = Path(__file__).resolve().parents[2] / "benchmarks" / "unseen"
baseline = load_baseline("crazy_eights")   # benchmarks/unseen/crazy_eights_baseline.py, as `regnum bench` loads it
RANKS = {"ace": 1, "jack": 11, "queen": 12, "king": 13}


@pytest.fixture(scope="module")
def rules():
    return regnum.load(UNSEEN / "crazy_eights.rules")


def _cards(game, zone: str) -> list[tuple]:
    return list(zip(game.evaluate(f"[c.suit for c in {zone}]"), game.evaluate(f"[c.rank for c in {zone}]")))


def _named(label: str) -> tuple:
    """(suit, rank) of a card named as the ruleset names it: `queen of hearts`, `7 of clubs`."""
    rank, _, suit = label.partition(" of ")
    return suit, RANKS.get(rank) or int(rank)


def _move(move) -> tuple:
    """A move of the ruleset as the baseline writes it."""
    if move.action == "play":
        return "play", _named(move.args["card"])
    if move.action == "play_eight":
        return "play_eight", _named(move.args["eight"]), move.args["named"]
    return (move.action,)


def _snapshot(game, players: int) -> dict:
    return {"hands": [_cards(game, f"hand({p})") for p in range(players)], "pile": _cards(game, "pile"),
            "top": _cards(game, "pile")[-1], "suit": game.evaluate("suit_to_follow"),
            "deck": _cards(game, "deck"), "deck_size": game.evaluate("count(deck)"),
            "to_move": game.to_move, "scores": game.scores}


def _theirs(hand) -> dict:
    return {"hands": hand.hands, "pile": hand.pile, "top": hand.pile[-1], "suit": hand.suit,
            "deck": hand.deck, "deck_size": len(hand.deck),
            "to_move": [] if hand.over else [hand.seat], "scores": hand.scores}


def _refused(game, move) -> IllegalMove:
    before = game.to_json()
    with pytest.raises(IllegalMove) as refused:
        game.play(move)
    assert game.to_json() == before
    return refused.value


@pytest.mark.parametrize("players, seed", [(3, 0), (3, 1), (4, 2), (4, 3), (5, 4), (5, 5)])
def test_the_same_moves_give_the_same_game(rules, players, seed):
    game, hand = rules.new_game(players, seed), baseline.CrazyEights(players, seed)
    pick = random.Random(seed)
    assert _snapshot(game, players) == _theirs(hand)
    assert game.evaluate("count(deck)") == 52 - 5 * players - 1
    while not game.is_over:
        seat = game.to_move[0]
        moves = game.legal_moves(seat)
        assert [_move(m) for m in moves] == hand.legal_moves()
        chosen = pick.randrange(len(moves))
        game.play(moves[chosen])
        hand.play(hand.legal_moves()[chosen])
        assert _snapshot(game, players) == _theirs(hand)
    assert hand.over and game.move_count > 20


@pytest.mark.parametrize("players, seed, max_moves", [(3, 0, 10_000), (4, 1, 10_000), (5, 2, 10_000),
                                                      (4, 3, 9), (3, 4, 1)])
def test_bench_game_plays_what_play_random_game_plays(rules, players, seed, max_moves):
    game = play_random_game(rules, players, seed, max_moves=max_moves, coverage=False)
    assert baseline.bench_game(players, seed, max_moves) == (game.move_count, game.scores)


def test_a_card_matching_neither_suit_nor_rank_is_refused(rules):
    """Seed 0, 4 players: the 2 of spades is turned up; seat 0 holds no spade nor 2, only an 8."""
    game = rules.new_game(4, 0)
    assert _cards(game, "pile") == [("spades", 2)] and game.evaluate("suit_to_follow") == "spades"
    assert [_named(c) for c in game.evaluate("[c.label for c in hand(0)]")] == [
        ("hearts", 5), ("diamonds", 7), ("hearts", 11), ("hearts", 8), ("clubs", 9)]
    assert [_move(m) for m in game.legal_moves(0)] == [
        ("play_eight", ("hearts", 8), s) for s in ("clubs", "diamonds", "hearts", "spades")] + [("draw",)]
    refused = _refused(game, regnum.Move(player=0, action="play", args={"card": "5 of hearts"}))
    assert refused.rule == "play.follows"
    assert refused.reason == "play a card of the suit to follow or of the top card's rank"
    refused = _refused(game, regnum.Move(player=0, action="play", args={"card": "8 of hearts"}))
    assert refused.rule == "play.not_an_eight"
    refused = _refused(game, regnum.Move(player=0, action="pass_turn", args={}))
    assert refused.rule == "pass_turn.deck_empty"


def test_an_eight_names_the_suit_the_next_player_must_follow(rules):
    """Seat 0 plays its 8 of hearts naming diamonds: seat 1 (2 and 9 of hearts, 6 and 10 of
    spades, 10 of diamonds) may play only its diamond, neither a heart nor a spade."""
    game = rules.new_game(4, 0)
    game.play(regnum.Move(player=0, action="play_eight", args={"eight": "8 of hearts", "named": "diamonds"}))
    assert _cards(game, "pile") == [("spades", 2), ("hearts", 8)] and game.evaluate("suit_to_follow") == "diamonds"
    assert game.to_move == [1] and len(_cards(game, "hand(0)")) == 4
    assert [_move(m) for m in game.legal_moves(1)] == [("play", ("diamonds", 10)), ("draw",)]
    for card in ("9 of hearts", "6 of spades"):
        refused = _refused(game, regnum.Move(player=1, action="play", args={"card": card}))
        assert refused.rule == "play.follows"
    game.play(regnum.Move(player=1, action="play", args={"card": "10 of diamonds"}))
    assert game.evaluate("suit_to_follow") == "diamonds" and game.to_move == [2]


def test_drawing_takes_the_top_card_of_the_deck(rules):
    game = rules.new_game(4, 0)
    assert _cards(game, "deck")[-1] == ("diamonds", 5) and game.evaluate("count(deck)") == 31
    game.play(regnum.Move(player=0, action="draw", args={}))
    assert _cards(game, "hand(0)") == [("hearts", 5), ("diamonds", 7), ("hearts", 11), ("hearts", 8),
                                       ("clubs", 9), ("diamonds", 5)]
    assert game.evaluate("count(deck)") == 30 and _cards(game, "deck")[-1] == ("spades", 7)
    assert _cards(game, "pile") == [("spades", 2)] and game.to_move == [1]


def test_the_hands_are_hidden_from_the_others(rules):
    game = rules.new_game(4, 0)
    game.play(regnum.Move(player=0, action="draw", args={}))
    zones = game.observation(1)["zones"]
    assert zones["hand#0"] == {"count": 6, "revealed": []} and len(zones["hand#1"]) == 5
    assert zones["deck"] == {"count": 30, "revealed": []}
    assert [card["label"] for card in zones["pile"]] == ["2 of spades"]
    assert [card["label"] for card in game.observation(0)["zones"]["hand#0"]][-1] == "5 of diamonds"
    spectator = game.observation(None)["zones"]
    assert all(spectator[f"hand#{p}"]["revealed"] == [] for p in range(4))


def test_a_player_out_of_cards_ends_the_hand_and_the_others_pay_their_penalties(rules):
    """Seed 39, 4 players: seat 1 plays its last card; seat 2 is left with an 8 (50), a Queen
    (10), an Ace (1) and 3 + 10 + 3 + 6 + 2 + 6, seat 3 with two Jacks, two 9s and a 6."""
    game = play_random_game(rules, 4, 39, coverage=False)
    assert game.is_over and game.move_count == 66 and _cards(game, "hand(1)") == []
    assert _cards(game, "hand(2)") == [("hearts", 3), ("hearts", 10), ("spades", 3), ("clubs", 6),
                                       ("spades", 12), ("diamonds", 1), ("spades", 2), ("hearts", 8),
                                       ("spades", 6)]
    assert _cards(game, "hand(3)") == [("spades", 11), ("hearts", 9), ("clubs", 9), ("diamonds", 6), ("hearts", 11)]
    assert (game.scores, game.winners) == ([-9, 0, -91, -44], [1])


def test_when_everyone_passes_in_a_row_the_fewest_penalty_points_win_shared(rules):
    """Seed 1, 3 players: the deck runs out and after move 74 nobody can play; three passes
    end the hand. Seats 1 and 2 tie at 22 penalty points and share the win."""
    game = play_random_game(rules, 3, 1, max_moves=74, coverage=False)
    assert not game.is_over and game.evaluate("count(deck)") == 0
    for _ in range(3):
        seat = game.to_move[0]
        assert [m.action for m in game.legal_moves(seat)] == ["pass_turn"]
        game.play(game.legal_moves(seat)[0])
    assert game.is_over and game.move_count == 77
    assert [sum(game.evaluate(f"[penalty(c) for c in hand({p})]")) for p in range(3)] == [45, 22, 22]
    assert (game.scores, game.winners) == ([-45, -22, -22], [1, 2])
