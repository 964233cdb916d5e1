"""No Thanks! written by hand in plain Python: the baseline `regnum bench` compares
`benchmarks/unseen/no_thanks.rules` with (`--baseline`), as a programmer would write it
without a rules engine — the deck as a list of numbers, each player's cards as a list, chips
as counts, the score of the runs computed at the end.

It plays the ruleset's game for a seed: the deck shuffled by regnum's seeded generator
(`regnum.rng`, the one thing taken from regnum: the same deck needs the same draws), the nine
cards left out taken
from its top, the cards turned up from its top. And it plays regnum's random policy (`regnum.benchmark.policy_game`): seat
``p`` picks with ``random.Random("regnum-bot:<seed>:<p>")`` among its legal moves in the
ruleset's order ("no thanks" before "take"), so both sides play the same games and
``regnum bench`` checks that they did (moves and final scores).
"""
from __future__ import annotations

from regnum import rng
from regnum.benchmark import policy_game

LOWEST, HIGHEST, LEFT_OUT, CHIPS_EACH = 3, 35, 9, 11
NO_THANKS, TAKE = "no_thanks", "take"
MAX_MOVES = 10_000


class NoThanks:
    def __init__(self, players: int, seed: int):
        deck = list(range(LOWEST, HIGHEST + 1))
        rng.shuffle(rng.seed_state(seed), deck)   # as the ruleset's `shuffle deck`: regnum's generator
        self.deck = deck[:-LEFT_OUT]            # the top of the deck is its end
        self.players = players
        self.cards = [[] for _ in range(players)]
        self.chips = [CHIPS_EACH] * players
        self.scores = [0] * players
        self.seat = 0
        self.pot = 0
        self.offer = self.deck.pop()
        self.over = False

    def legal_moves(self) -> list[str]:
        return [NO_THANKS, TAKE] if self.chips[self.seat] > 0 else [TAKE]

    def play(self, move: str) -> None:
        seat = self.seat
        if move == NO_THANKS:
            self.chips[seat] -= 1
            self.pot += 1
            self.seat = (seat + 1) % self.players
            return
        self.chips[seat] += self.pot
        self.pot = 0
        self.cards[seat].append(self.offer)
        if self.deck:
            self.offer = self.deck.pop()   # the taker turns up the next card and chooses first
        else:
            self.offer = None
            self.over = True
            self.scores = [self.chips[p] - self.run_heads(p) for p in range(self.players)]

    def run_heads(self, seat: int) -> int:
        """The sum of the lowest card of each run of cards in a row."""
        held = set(self.cards[seat])
        return sum(card for card in held if card - 1 not in held)


def bench_game(players: int, seed: int, max_moves: int = MAX_MOVES) -> tuple[int, list[int]]:
    """One game played with regnum's random policy; returns (moves played, final scores)."""
    return policy_game(NoThanks(players, seed), players, seed, max_moves)
