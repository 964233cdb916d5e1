"""Connect Four written by hand in plain Python: the baseline `regnum bench` compares
`benchmarks/unseen/connect_four.rules` with (`--baseline`), as idiomatic as a programmer
would write it without a rules engine — the frame as a list of columns, a disc found by its
row and column, four in a row counted from the disc just dropped.

It plays regnum's random policy (`regnum.benchmark.policy_game`): seat ``p`` picks with ``random.Random("regnum-bot:<seed>:<p>")``
among the legal moves listed in the ruleset's order (the columns left to right), so both sides
play the same games and ``regnum bench`` checks that they did (moves and final scores).
"""
from __future__ import annotations

from regnum.benchmark import policy_game

ROWS, COLUMNS, DISCS_EACH = 6, 7, 21
# The four lines through a disc, each as its two ways (row step, column step).
LINES = (((0, 1), (0, -1)), ((1, 0), (-1, 0)), ((1, 1), (-1, -1)), ((-1, 1), (1, -1)))
MAX_MOVES = 10_000


class ConnectFour:
    def __init__(self):
        self.grid = [[None] * COLUMNS for _ in range(ROWS)]   # grid[row][col]: the seat, or None
        self.heights = [0] * COLUMNS                          # discs in each column
        self.supply = [DISCS_EACH, DISCS_EACH]
        self.scores = [0, 0]
        self.seat = 0
        self.over = False

    def legal_moves(self) -> list[int]:
        return [col for col in range(COLUMNS) if self.heights[col] < ROWS]

    def _straight(self, row: int, col: int, seat: int, dr: int, dc: int) -> int:
        grid, n = self.grid, 0
        for _ in range(3):
            row += dr
            col += dc
            if not (0 <= row < ROWS and 0 <= col < COLUMNS) or grid[row][col] != seat:
                break
            n += 1
        return n

    def play(self, col: int) -> None:
        seat = self.seat
        row = ROWS - 1 - self.heights[col]
        self.grid[row][col] = seat
        self.heights[col] += 1
        self.supply[seat] -= 1
        if any(self._straight(row, col, seat, *one) + self._straight(row, col, seat, *other) >= 3
               for one, other in LINES):
            self.scores[seat] += 1
            self.over = True
        self.seat = 1 - seat
        if self.supply[self.seat] == 0:
            self.over = True


def bench_game(players: int, seed: int, max_moves: int = MAX_MOVES) -> tuple[int, list[int]]:
    """One game played with regnum's random policy; returns (moves played, final scores)."""
    if players != 2:
        raise ValueError("Connect Four is for 2 players")
    return policy_game(ConnectFour(), players, seed, max_moves)
