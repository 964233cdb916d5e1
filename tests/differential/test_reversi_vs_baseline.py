"""Differential test: benchmarks/unseen/reversi.rules (a game none of the engine's
optimisations was written for, benchmarks/unseen/README.md) against its hand-written program,
benchmarks/unseen/reversi_baseline.py, fed the same moves: after every move the board square by
square, whose turn it is, the legal moves in order (the pass included) and the scores agree;
and the baseline's `bench_game` gives `play_random_game`'s (moves, scores), as `regnum bench`
compares them. Then the rules themselves: the start's four moves, a disc that outflanks nothing
refused by its rule, a disc turning two lines at once, a forced pass, and the endings — a board
wiped out in nine moves, a board left with a square nobody can fill, a shared victory."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import regnum
from regnum import IllegalMove
from regnum.agents import play_random_game
from regnum.benchmark import load_baseline

UNSEEN = Path(__file__).resolve().parents[2] / "benchmarks" / "unseen"
baseline = load_baseline("reversi")   # benchmarks/unseen/reversi_baseline.py, as `regnum bench` loads it
SIZE = baseline.SIZE


@pytest.fixture(scope="module")
def rules():
    return regnum.load(UNSEEN / "reversi.rules")


def _square(index: int) -> str:
    return f"({index // SIZE},{index % SIZE})"


def _as_baseline(move: regnum.Move):
    """A move of the interpreter as the baseline writes it: a square's index, or "pass"."""
    if move.action == "pass_turn":
        return baseline.PASS
    row, col = move.args["sq"].strip("()").split(",")
    return int(row) * SIZE + int(col)


def _board(game) -> list:
    return game.evaluate("[disc(sq) for sq in squares]")


def _place(seat: int, row: int, col: int) -> regnum.Move:
    return regnum.Move(player=seat, action="place", args={"sq": f"({row},{col})"})


@pytest.mark.parametrize("seed", range(8))
def test_the_same_moves_give_the_same_game(rules, seed):
    game, hand = rules.new_game(2, seed), baseline.Reversi()
    pick = random.Random(seed)
    while not game.is_over:
        assert game.to_move == [hand.seat] and not hand.over
        moves = game.legal_moves(hand.seat)
        assert [_as_baseline(m) for m in moves] == hand.legal_moves()
        move = pick.choice(moves)
        game.play(move)
        hand.play(_as_baseline(move))
        assert _board(game) == hand.squares
    assert hand.over and game.scores == hand.scores and sum(game.scores) <= SIZE * SIZE


@pytest.mark.parametrize("seed, max_moves", [(0, 10_000), (1, 10_000), (148, 10_000), (3, 20), (4, 1)])
def test_bench_game_plays_what_play_random_game_plays(rules, seed, max_moves):
    game = play_random_game(rules, 2, seed, max_moves=max_moves, coverage=False)
    assert baseline.bench_game(2, seed, max_moves) == (game.move_count, game.scores)


def test_the_start_offers_dark_four_squares(rules):
    game = rules.new_game(2, 0)
    assert game.to_move == [0]
    assert [(m.action, m.args) for m in game.legal_moves(0)] == [
        ("place", {"sq": "(2,3)"}), ("place", {"sq": "(3,2)"}), ("place", {"sq": "(4,5)"}), ("place", {"sq": "(5,4)"})]
    assert game.evaluate("[sq for sq in squares where disc(sq) != none]") == ["(3,3)", "(3,4)", "(4,3)", "(4,4)"]
    assert _board(game)[3 * SIZE + 3: 3 * SIZE + 5] == [1, 0] and _board(game)[4 * SIZE + 3: 4 * SIZE + 5] == [0, 1]


@pytest.mark.parametrize("move, rule, reason", [
    (_place(0, 2, 2), "place.outflank", "the disc must outflank at least one line of the opponent's discs"),
    (_place(0, 3, 3), "place.empty", "the square is taken"),
    (regnum.Move(player=0, action="pass_turn", args={}), "pass_turn.no_move",
     "a player passes only when no disc can be placed"),
])
def test_a_wrong_move_is_refused_by_its_rule_and_changes_nothing(rules, move, rule, reason):
    game = rules.new_game(2, 0)
    before = game.to_json()
    with pytest.raises(IllegalMove) as refused:
        game.play(move)
    assert (refused.value.rule, refused.value.reason) == (rule, reason)
    assert game.to_json() == before


def test_a_disc_turns_every_line_it_outflanks_and_nothing_else(rules):
    game = rules.new_game(2, 0)
    for seat, (row, col) in enumerate([(2, 3), (2, 4), (3, 5), (2, 2)]):   # d3 e3 f4 c3
        game.play(_place(seat % 2, row, col))
    before = _board(game)
    game.play(_place(0, 1, 3))   # d2: e3 to the south-east, d3 and d4 to the south (d5 is dark)
    after = _board(game)
    changed = {_square(i): (before[i], after[i]) for i in range(SIZE * SIZE) if before[i] != after[i]}
    assert changed == {"(1,3)": (None, 0), "(2,4)": (1, 0), "(2,3)": (1, 0), "(3,3)": (1, 0)}
    assert game.to_move == [1]


def test_a_player_without_a_placement_must_pass(rules):
    game = play_random_game(rules, 2, 0, max_moves=59, coverage=False)   # seed 0 passes at its 60th move
    assert game.to_move == [1] and not game.is_over
    assert [(m.action, m.args) for m in game.legal_moves(1)] == [("pass_turn", {})]
    assert game.evaluate("[sq for sq in squares where disc(sq) == none]") == ["(0,7)"]
    with pytest.raises(IllegalMove) as refused:
        game.play(_place(1, 0, 7))
    assert refused.value.rule == "place.outflank"
    game.play(regnum.Move(player=1, action="pass_turn", args={}))
    assert game.to_move == [0] and [m.args for m in game.legal_moves(0)] == [{"sq": "(0,7)"}]


def test_a_board_wiped_out_in_nine_moves_ends_the_game(rules):
    # Maruo's shortest game: e6 f4 e3 f6 g5 d6 e7 f5 c5 leaves light without a disc.
    game = rules.new_game(2, 0)
    for i, (row, col) in enumerate([(5, 4), (3, 5), (2, 4), (5, 5), (4, 6), (5, 3), (6, 4), (4, 5), (4, 2)]):
        game.play(_place(i % 2, row, col))
    assert game.is_over and game.move_count == 9
    assert game.scores == [13, 0] and game.winners == [0]
    assert game.evaluate("count(sq for sq in squares where disc(sq) == none)") == 51


def test_a_square_nobody_can_fill_ends_the_game(rules):
    game = play_random_game(rules, 2, 148, coverage=False)
    assert game.is_over and game.move_count == 59
    assert game.evaluate("[sq for sq in squares where disc(sq) == none]") == ["(6,0)"]
    assert game.scores == [30, 33] and game.winners == [1]


def test_equal_discs_share_the_victory(rules):
    game = play_random_game(rules, 2, 28, coverage=False)
    assert game.is_over and game.move_count == 60
    assert game.scores == [32, 32] and game.winners == [0, 1]
