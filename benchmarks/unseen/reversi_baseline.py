"""Reversi (Othello) on 8 × 8 squares, written by hand in plain Python: the baseline `regnum
bench` compares `benchmarks/unseen/reversi.rules` with, as a programmer would write it without
a rules engine — the board as a list of 64 squares (the seat whose disc lies there, or None),
the discs a move outflanks found by walking from the square in each of the eight directions.

It plays regnum's random policy (`regnum.benchmark.policy_game`): seat ``p`` picks with
``random.Random("regnum-bot:<seed>:<p>")`` among the squares that outflank, in the board's
order (row by row), or "pass" when there is none, so both sides play the same games and
``regnum bench`` checks that they did (moves and final scores).
"""
from __future__ import annotations

from regnum.benchmark import policy_game

SIZE = 8
# The eight directions as (row step, column step); row 0 is the top row.
DIRECTIONS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
PASS = "pass"
MAX_MOVES = 10_000


class Reversi:
    def __init__(self):
        self.squares = [None] * (SIZE * SIZE)          # squares[row * SIZE + col]: the seat, or None
        for row, col, seat in ((3, 3, 1), (3, 4, 0), (4, 3, 0), (4, 4, 1)):
            self.squares[row * SIZE + col] = seat
        self.scores = [0, 0]
        self.seat = 0
        self.over = False

    def outflanked(self, square: int, seat: int) -> list[int]:
        """The opponent's discs a disc of `seat` on `square` would turn, every direction."""
        squares, turned = self.squares, []
        row, col = divmod(square, SIZE)
        for dr, dc in DIRECTIONS:
            r, c, line = row + dr, col + dc, []
            while 0 <= r < SIZE and 0 <= c < SIZE and squares[r * SIZE + c] == 1 - seat:
                line.append(r * SIZE + c)
                r, c = r + dr, c + dc
            if line and 0 <= r < SIZE and 0 <= c < SIZE and squares[r * SIZE + c] == seat:
                turned += line
        return turned

    def placements(self, seat: int) -> list[int]:
        squares = self.squares
        return [sq for sq in range(SIZE * SIZE) if squares[sq] is None and self.outflanked(sq, seat)]

    def legal_moves(self) -> list:
        return self.placements(self.seat) or [PASS]

    def play(self, move) -> None:
        seat = self.seat
        if move != PASS:
            for sq in self.outflanked(move, seat) + [move]:
                self.squares[sq] = seat
        self.seat = 1 - seat
        if not self.placements(self.seat) and not self.placements(seat):
            self.over = True
            self.scores = [self.squares.count(0), self.squares.count(1)]


def bench_game(players: int, seed: int, max_moves: int = MAX_MOVES) -> tuple[int, list[int]]:
    """One game played with regnum's random policy; returns (moves played, final scores)."""
    if players != 2:
        raise ValueError("Reversi is for 2 players")
    return policy_game(Reversi(), players, seed, max_moves)
