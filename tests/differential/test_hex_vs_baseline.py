"""Differential test: benchmarks/unseen/hex.rules (a game none of the engine's optimisations was
written for, benchmarks/unseen/README.md) against its hand-written program,
benchmarks/unseen/hex_baseline.py, fed the same moves: after every move the stones hex by hex,
the empty hexes in order and the scores agree; the hexes around each hex are the board's; and
the baseline's `bench_game` gives `play_random_game`'s (moves, scores), as `regnum bench`
compares them. Then the rules themselves: a chain joining a player's own two sides wins, a
chain joining the other player's sides does not, an occupied hex is refused by its rule."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import regnum
from regnum import IllegalMove
from regnum.agents import play_random_game
from regnum.benchmark import load_baseline

UNSEEN = Path(__file__).resolve().parents[2] / "benchmarks" / "unseen"
baseline = load_baseline("hex")   # benchmarks/unseen/hex_baseline.py, as `regnum bench` loads it
SIZE = baseline.SIZE


@pytest.fixture(scope="module")
def rules():
    return regnum.load(UNSEEN / "hex.rules")


def _cell(index: int) -> str:
    return f"({index // SIZE},{index % SIZE})"


def test_the_hexes_around_each_hex_are_the_boards(rules):
    game = rules.new_game(2, 0)
    for index in range(SIZE * SIZE):
        around = game.evaluate(f"neighbours(board, cell(board, {index // SIZE}, {index % SIZE}))")
        assert sorted(around) == sorted(_cell(i) for i in baseline.NEIGHBOURS[index])


@pytest.mark.parametrize("seed", range(10))
def test_the_same_moves_give_the_same_game(rules, seed):
    game, hand = rules.new_game(2, seed), baseline.Hex()
    pick = random.Random(seed)
    while not game.is_over:
        seat = game.to_move[0]
        assert seat == hand.seat
        assert [m.args["h"] for m in game.legal_moves(seat)] == [_cell(i) for i in hand.legal_moves()]
        index = pick.choice(hand.legal_moves())
        game.play(regnum.Move(player=seat, action="place", args={"h": _cell(index)}))
        hand.play(index)
        assert game.evaluate("[stone(h) for h in board]") == hand.stones
        assert game.scores == hand.scores
    assert hand.over and sum(game.scores) == 1


@pytest.mark.parametrize("seed, max_moves", [(0, 10_000), (1, 10_000), (2, 10_000), (3, 12), (4, 1)])
def test_bench_game_plays_what_play_random_game_plays(rules, seed, max_moves):
    game = play_random_game(rules, 2, seed, max_moves=max_moves, coverage=False)
    assert baseline.bench_game(2, seed, max_moves) == (game.move_count, game.scores)


def _played(rules, cells: list[tuple[int, int]]):
    game = rules.new_game(2, 0)
    for row, col in cells:
        game.play(regnum.Move(player=game.to_move[0], action="place", args={"h": f"({row},{col})"}))
    return game


def test_a_chain_from_top_to_bottom_wins_for_the_first_player(rules):
    # P0 down column 3 (each row's (r,3) touches the next row's (r+1,3) on offset rows),
    # P1 along the left column, one short of its own sides.
    moves = [cell for r in range(SIZE) for cell in ((r, 3), (r, 0))][:2 * SIZE - 1]
    game = _played(rules, moves)
    assert game.is_over and game.move_count == 13 and game.scores == [1, 0] and game.winners == [0]


def test_the_other_players_sides_do_not_count(rules):
    # P1 joins the top and bottom rows down column 5 (P0's sides, not its own): no win; then P1
    # fills row 6 from the left, joining the left and right columns: it wins on its last stone.
    chain = [(r, 5) for r in range(SIZE)]
    row = [(6, c) for c in range(SIZE) if c != 5]
    elsewhere = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (0, 2)]
    moves = [cell for pair in zip(elsewhere, chain + row) for cell in pair]
    game = _played(rules, moves[:2 * len(chain)])
    assert not game.is_over and game.scores == [0, 0]
    game = _played(rules, moves)
    assert game.is_over and game.scores == [0, 1] and game.winners == [1] and game.move_count == 26


def test_an_occupied_hex_is_refused_by_its_rule_and_changes_nothing(rules):
    game = _played(rules, [(3, 3)])
    assert "(3,3)" not in [m.args["h"] for m in game.legal_moves(1)]
    before = game.to_json()
    with pytest.raises(IllegalMove) as refused:
        game.play(regnum.Move(player=1, action="place", args={"h": "(3,3)"}))
    assert "empty" in str(refused.value) and "a stone is already there" in str(refused.value)
    assert game.to_json() == before
