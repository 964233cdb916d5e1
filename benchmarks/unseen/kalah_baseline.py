"""Kalah (six pits a side, four seeds a pit) written by hand in plain Python: the baseline
`regnum bench` compares `benchmarks/unseen/kalah.rules` with, as a programmer would write it
without a rules engine — the board as a list of 14 counts, counter-clockwise: South's pits
0–5 and store 6, North's pits 7–12 and store 13; pit ``i`` faces pit ``12 - i``.

It plays regnum's random policy (`regnum.benchmark.policy_game`): seat ``p`` picks with
``random.Random("regnum-bot:<seed>:<p>")`` among its non-empty pits from left to right (the
ruleset's order), so both sides play the same games and ``regnum bench`` checks that they did
(moves and final scores: the stores once the game is over, zeros before, as the ruleset scores).
"""
from __future__ import annotations

from regnum.benchmark import policy_game

PITS, SEEDS_A_PIT = 6, 4
STORES = (6, 13)
MAX_MOVES = 10_000


class Kalah:
    def __init__(self):
        self.board = ([SEEDS_A_PIT] * PITS + [0]) * 2
        self.scores = [0, 0]
        self.seat = 0
        self.over = False

    def legal_moves(self) -> list[int]:
        first = 7 * self.seat
        board = self.board
        return [pit for pit in range(first, first + PITS) if board[pit]]

    def play(self, pit: int) -> None:
        seat, board = self.seat, self.board
        own, skipped = STORES[seat], STORES[1 - seat]
        hand, board[pit] = board[pit], 0
        at = pit
        while hand:
            at = (at + 1) % 14
            if at != skipped:
                board[at] += 1
                hand -= 1
        if at != own:
            if 7 * seat <= at < 7 * seat + PITS and board[at] == 1 and board[12 - at]:
                board[own] += 1 + board[12 - at]
                board[at] = board[12 - at] = 0
            self.seat = 1 - seat
        if not any(board[0:6]) or not any(board[7:13]):
            for side, store in ((0, 6), (7, 13)):
                board[store] += sum(board[side:side + PITS])
                board[side:side + PITS] = [0] * PITS
            self.scores = [board[6], board[13]]
            self.over = True


def bench_game(players: int, seed: int, max_moves: int = MAX_MOVES) -> tuple[int, list[int]]:
    """One game played with regnum's random policy; returns (moves played, final scores)."""
    if players != 2:
        raise ValueError("Kalah is for 2 players")
    return policy_game(Kalah(), players, seed, max_moves)
