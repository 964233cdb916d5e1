"""Crazy Eights (one hand, 3 to 5 players) written by hand in plain Python: the baseline
`regnum bench` compares `benchmarks/unseen/crazy_eights.rules` with (`--baseline`), as a
programmer would write it without a rules engine — a card as a (suit, rank) pair, each hand a
list, the discard pile a list whose last card is the top, the suit to follow kept apart.

It plays the ruleset's hand for a seed: the deck made suit by suit (clubs, diamonds, hearts,
spades), each from the Ace (1) to the King (13), shuffled by regnum's seeded generator
(`regnum.rng`, the one thing taken from regnum: the same deck needs the same draws), five
cards dealt from its top to each seat in turn from seat 0 (a hand holds them in the reverse of
the deck's order), then the next card turned up.
And it plays regnum's random policy (`regnum.benchmark.policy_game`): seat ``p`` picks with
``random.Random("regnum-bot:<seed>:<p>")`` among its legal moves in the ruleset's order — the
cards it may play in its hand's order, then each 8 with the four suits it may name, then
drawing, then passing — so both sides play the same games and ``regnum bench`` checks that
they did.
"""
from __future__ import annotations

from regnum import rng
from regnum.benchmark import policy_game

SUITS = ("clubs", "diamonds", "hearts", "spades")
RANKS = range(1, 14)
HAND_SIZE, EIGHT = 5, 8
PLAY, PLAY_EIGHT, DRAW, PASS = "play", "play_eight", "draw", "pass_turn"
MAX_MOVES = 10_000


def penalty(card: tuple) -> int:
    rank = card[1]
    return 50 if rank == EIGHT else 10 if rank > 10 else rank


class CrazyEights:
    def __init__(self, players: int, seed: int):
        deck = [(suit, rank) for suit in SUITS for rank in RANKS]
        rng.shuffle(rng.seed_state(seed), deck)   # as the ruleset's `shuffle deck`: regnum's generator
        self.hands = []
        for _ in range(players):
            self.hands.append(deck[:-HAND_SIZE - 1:-1])   # the top five, the last first
            del deck[-HAND_SIZE:]
        self.pile = [deck.pop()]
        self.deck = deck                                  # its top is its end
        self.suit = self.pile[-1][0]                      # the suit to follow
        self.players = players
        self.passes = 0
        self.seat = 0
        self.scores = [0] * players
        self.over = False

    def legal_moves(self) -> list[tuple]:
        hand, top_rank = self.hands[self.seat], self.pile[-1][1]
        moves = [(PLAY, card) for card in hand
                 if card[1] != EIGHT and (card[0] == self.suit or card[1] == top_rank)]
        moves += [(PLAY_EIGHT, card, suit) for card in hand if card[1] == EIGHT for suit in SUITS]
        if self.deck:
            moves.append((DRAW,))
        elif not moves:
            moves.append((PASS,))
        return moves

    def play(self, move: tuple) -> None:
        seat, kind = self.seat, move[0]
        hand = self.hands[seat]
        if kind == DRAW:
            hand.append(self.deck.pop())
        elif kind == PASS:
            self.passes += 1
        else:
            card = move[1]
            hand.remove(card)
            self.pile.append(card)
            self.suit = move[2] if kind == PLAY_EIGHT else card[0]
            self.passes = 0
        if not hand or self.passes == self.players:
            self.over = True
            self.scores = [-sum(map(penalty, held)) for held in self.hands]
        else:
            self.seat = (seat + 1) % self.players


def bench_game(players: int, seed: int, max_moves: int = MAX_MOVES) -> tuple[int, list[int]]:
    """One game played with regnum's random policy; returns (moves played, final scores)."""
    return policy_game(CrazyEights(players, seed), players, seed, max_moves)
