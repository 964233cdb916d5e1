"""Hex on 7 × 7 hexes in offset rows, written by hand in plain Python: the baseline `regnum
bench` compares `benchmarks/unseen/hex.rules` with, as a programmer would write it without a
rules engine — the board as a list of cells, a stone per cell, the neighbours of the offset
rows computed once, the chain through the stone just placed found by a search from it.

It plays regnum's random policy (`regnum.benchmark.policy_game`): seat ``p`` picks with ``random.Random("regnum-bot:<seed>:<p>")``
among the empty hexes in the board's order (row by row), so both sides play the same games and
``regnum bench`` checks that they did (moves and final scores).
"""
from __future__ import annotations

from regnum.benchmark import policy_game

SIZE = 7
MAX_MOVES = 10_000


def _neighbours(row: int, col: int) -> list[int]:
    """The hexes around (row, col) of pointy-top rows whose odd rows are shifted right ("odd_r")."""
    shift = 0 if row % 2 else -1
    around = [(row, col - 1), (row, col + 1), (row - 1, col + shift), (row - 1, col + shift + 1),
              (row + 1, col + shift), (row + 1, col + shift + 1)]
    return [r * SIZE + c for r, c in around if 0 <= r < SIZE and 0 <= c < SIZE]


NEIGHBOURS = [_neighbours(i // SIZE, i % SIZE) for i in range(SIZE * SIZE)]
# The two sides each seat joins: the top and bottom rows, or the left and right columns.
SIDES = ((frozenset(range(SIZE)), frozenset(range(SIZE * (SIZE - 1), SIZE * SIZE))),
         (frozenset(range(0, SIZE * SIZE, SIZE)), frozenset(range(SIZE - 1, SIZE * SIZE, SIZE))))


class Hex:
    def __init__(self):
        self.stones = [None] * (SIZE * SIZE)
        self.scores = [0, 0]
        self.seat = 0
        self.over = False

    def legal_moves(self) -> list[int]:
        stones = self.stones
        return [cell for cell in range(SIZE * SIZE) if stones[cell] is None]

    def play(self, cell: int) -> None:
        seat, stones = self.seat, self.stones
        stones[cell] = seat
        chain, todo = {cell}, [cell]
        while todo:
            for other in NEIGHBOURS[todo.pop()]:
                if stones[other] == seat and other not in chain:
                    chain.add(other)
                    todo.append(other)
        first, last = SIDES[seat]
        if not chain.isdisjoint(first) and not chain.isdisjoint(last):
            self.scores[seat] += 1
            self.over = True
        self.seat = 1 - seat


def bench_game(players: int, seed: int, max_moves: int = MAX_MOVES) -> tuple[int, list[int]]:
    """One game played with regnum's random policy; returns (moves played, final scores)."""
    if players != 2:
        raise ValueError("Hex is for 2 players")
    return policy_game(Hex(), players, seed, max_moves)
