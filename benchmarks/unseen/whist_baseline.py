"""Whist (one deal, 4 players) written by hand in plain Python: the baseline `regnum bench`
compares `benchmarks/unseen/whist.rules` with (`--baseline`), as a programmer would write it
without a rules engine — a card as a (suit, rank) pair, each hand a list, the trick a list of
(seat, card), the cards that may be played filtered by the suit led.

It plays the ruleset's deal for a seed: the deck made suit by suit (clubs, diamonds, hearts,
spades), each from 2 to the Ace, shuffled by regnum's seeded generator (`regnum.rng`, the
one thing taken from regnum: the same deck needs the same draws), thirteen cards dealt from
its top to each seat from the one after the dealer (seat 3), so that a hand holds them in the
reverse of the deck's order.
And it plays regnum's random policy (`regnum.benchmark.policy_game`): seat ``p`` picks with
``random.Random("regnum-bot:<seed>:<p>")`` among its legal moves in the ruleset's order (its
hand's order), so both sides play the same games and ``regnum bench`` checks that they did.
"""
from __future__ import annotations

from regnum import rng
from regnum.benchmark import policy_game

SUITS = ("clubs", "diamonds", "hearts", "spades")
RANKS = range(2, 15)
PLAYERS, TRICKS, DEALER = 4, 13, 3
MAX_MOVES = 10_000


class Whist:
    def __init__(self, seed: int):
        deck = [(suit, rank) for suit in SUITS for rank in RANKS]
        rng.shuffle(rng.seed_state(seed), deck)   # as the ruleset's `shuffle deck`: regnum's generator
        self.hands = [[] for _ in range(PLAYERS)]
        for i in range(1, PLAYERS + 1):
            self.hands[(DEALER + i) % PLAYERS] = deck[:-TRICKS - 1:-1]   # the top 13, the last first
            del deck[-TRICKS:]
        self.trumps = self.hands[DEALER][-1][0]
        self.trick: list[tuple[int, tuple]] = []
        self.leader = self.seat = (DEALER + 1) % PLAYERS
        self.scores = [0] * PLAYERS
        self.tricks_played = 0
        self.over = False

    def legal_moves(self) -> list[tuple]:
        hand = self.hands[self.seat]
        if not self.trick:
            return hand
        led = self.trick[0][1][0]
        following = [card for card in hand if card[0] == led]
        return following or hand

    def play(self, card: tuple) -> None:
        seat = self.seat
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < PLAYERS:
            self.seat = (seat + 1) % PLAYERS
            return
        led, trumps = self.trick[0][1][0], self.trumps
        winner = max(self.trick, key=lambda played: (played[1][0] == trumps, played[1][0] == led, played[1][1]))[0]
        self.scores[winner] += 1
        self.trick = []
        self.tricks_played += 1
        self.leader = self.seat = winner
        self.over = self.tricks_played == TRICKS


def bench_game(players: int, seed: int, max_moves: int = MAX_MOVES) -> tuple[int, list[int]]:
    """One game played with regnum's random policy; returns (moves played, final scores)."""
    if players != PLAYERS:
        raise ValueError("this Whist is for 4 players")
    return policy_game(Whist(seed), players, seed, max_moves)
