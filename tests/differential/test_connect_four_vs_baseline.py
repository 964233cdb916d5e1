"""Differential test: benchmarks/unseen/connect_four.rules (a game none of the engine's
optimisations was written for, benchmarks/unseen/README.md) against its hand-written program,
benchmarks/unseen/connect_four_baseline.py, fed the same moves: after every move the frame
disc by disc, the legal columns in order, the discs left and the scores agree; and the
baseline's `bench_game` gives `play_random_game`'s (moves, scores), as `regnum bench` compares
them. Then the rules themselves: each way of four in a row wins, a full frame is a draw, a
full column is refused by its rule and changes nothing."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import regnum
from regnum import IllegalMove
from regnum.agents import play_random_game
from regnum.benchmark import load_baseline

UNSEEN = Path(__file__).resolve().parents[2] / "benchmarks" / "unseen"
baseline = load_baseline("connect_four")   # benchmarks/unseen/connect_four_baseline.py, as `regnum bench` loads it


@pytest.fixture(scope="module")
def rules():
    return regnum.load(UNSEEN / "connect_four.rules")


def _frame(game) -> list[list]:
    """The interpreter's frame as the baseline holds it: grid[row][col], the seat or None."""
    discs = game.evaluate("[[if taken(cell(frame, r, c)) then slot(cell(frame, r, c))[0].owner else none "
                          "for c in columns] for r in range(rows)]")
    return [[None if d is None else d for d in row] for row in discs]


def _columns(game, seat: int) -> list[int]:
    return [m.args["col"] for m in game.legal_moves(seat)]


@pytest.mark.parametrize("seed", range(12))
def test_the_same_moves_give_the_same_game(rules, seed):
    game, hand = rules.new_game(2, seed), baseline.ConnectFour()
    pick = random.Random(seed)
    while not game.is_over:
        seat = game.to_move[0]
        assert seat == hand.seat and not hand.over
        assert _columns(game, seat) == hand.legal_moves()
        col = pick.choice(hand.legal_moves())
        game.play(next(m for m in game.legal_moves(seat) if m.args["col"] == col))
        hand.play(col)
        assert _frame(game) == hand.grid
        assert [game.evaluate(f"count(supply({p}))") for p in (0, 1)] == hand.supply
        assert game.scores == hand.scores
    assert hand.over


@pytest.mark.parametrize("seed, max_moves", [(0, 10_000), (1, 10_000), (412, 10_000), (7, 5), (9, 1)])
def test_bench_game_plays_what_play_random_game_plays(rules, seed, max_moves):
    game = play_random_game(rules, 2, seed, max_moves=max_moves, coverage=False)
    assert baseline.bench_game(2, seed, max_moves) == (game.move_count, game.scores)


def test_a_random_game_that_fills_the_frame_is_a_draw(rules):
    game = play_random_game(rules, 2, 412, coverage=False)
    assert (game.move_count, game.scores, game.winners, game.is_over) == (42, [0, 0], [0, 1], True)
    assert game.evaluate("count(supply(0)) + count(supply(1))") == 0


def _played(rules, columns: list[int]):
    game = rules.new_game(2, 0)
    for col in columns:
        seat = game.to_move[0]
        game.play(next(m for m in game.legal_moves(seat) if m.args["col"] == col))
    return game


@pytest.mark.parametrize("columns, winner", [
    ([0, 1, 0, 1, 0, 1, 0], 0),                          # down a column
    ([0, 0, 1, 1, 2, 2, 3], 0),                          # across a row
    ([0, 6, 5, 5, 4, 4, 0, 4, 3, 3, 3, 0, 1, 3], 1),      # P1's diagonal down to the east, laid last at its top
    ([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], 0),              # P0's diagonal up to the east
])
def test_four_in_a_row_wins_each_way(rules, columns, winner):
    game = _played(rules, columns)
    assert game.is_over and game.move_count == len(columns)
    assert game.scores == [1 - winner, winner] and game.winners == [winner]


def test_a_full_column_is_refused_by_its_rule_and_changes_nothing(rules):
    game = _played(rules, [3, 3, 3, 3, 3, 3])
    assert 3 not in _columns(game, 0)
    before = game.to_json()
    with pytest.raises(IllegalMove) as refused:
        game.play(regnum.Move(player=0, action="drop", args={"col": 3}))
    assert "the column is full" in str(refused.value) and "room" in str(refused.value)
    assert game.to_json() == before
