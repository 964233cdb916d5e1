"""Differential test: benchmarks/unseen/kalah.rules (a game none of the engine's optimisations
was written for, benchmarks/unseen/README.md) against its hand-written program,
benchmarks/unseen/kalah_baseline.py, fed the same moves: after every move every pit and store,
who sows next and the scores agree, as do the legal moves in order; and the baseline's
`bench_game` gives `play_random_game`'s (moves, scores), as `regnum bench` compares them. Then
the rules themselves: the opening's moves, an empty pit refused by its rule and changing
nothing, another turn for a last seed in one's own store, a capture, the opponent's store
skipped on a sowing that goes round the board, and the end sweeping the seeds left."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import regnum
from regnum import IllegalMove
from regnum.agents import play_random_game
from regnum.benchmark import load_baseline
from regnum.testing import Scenario

UNSEEN = Path(__file__).resolve().parents[2] / "benchmarks" / "unseen"
baseline = load_baseline("kalah")   # benchmarks/unseen/kalah_baseline.py, as `regnum bench` loads it
# The ruleset's hollows in its order, which is the baseline's list: pit i faces pit 12 - i.
HOLLOWS = ["s1", "s2", "s3", "s4", "s5", "s6", "s_store", "n1", "n2", "n3", "n4", "n5", "n6", "n_store"]


@pytest.fixture(scope="module")
def rules():
    return regnum.load(UNSEEN / "kalah.rules")


def _board(game) -> list[int]:
    return game.evaluate("[seeds(h) for h in hollow]")


def _pits(game, seat: int) -> list[int]:
    return [HOLLOWS.index(m.args["pit"]) for m in game.legal_moves(seat)]


def _sow(game, pit: str):
    game.play(regnum.Move(player=game.to_move[0], action="sow", args={"pit": pit}))
    return game


def _position(rules, board: list[int]):
    """A game started with South (seat 0) to sow, from ``board`` in the order of HOLLOWS."""
    scenario = Scenario(rules, 2)
    for hollow, seeds in zip(HOLLOWS, board):
        scenario.set_table("seeds", hollow, seeds)
    return scenario.start()


@pytest.mark.parametrize("seed", range(8))
def test_the_same_moves_give_the_same_game(rules, seed):
    game, hand = rules.new_game(2, seed), baseline.Kalah()
    assert game.evaluate("hollow") == HOLLOWS
    pick = random.Random(seed)
    while not game.is_over:
        seat = game.to_move[0]
        assert seat == hand.seat and not hand.over
        assert _pits(game, seat) == hand.legal_moves()
        pit = pick.choice(hand.legal_moves())
        _sow(game, HOLLOWS[pit])
        hand.play(pit)
        assert _board(game) == hand.board
        assert game.scores == hand.scores
    assert hand.over and sum(hand.scores) == 48


@pytest.mark.parametrize("seed, max_moves", [(0, 10_000), (1, 10_000), (2, 10_000), (3, 10_000),
                                             (4, 12), (5, 1)])
def test_bench_game_plays_what_play_random_game_plays(rules, seed, max_moves):
    game = play_random_game(rules, 2, seed, max_moves=max_moves, coverage=False)
    assert baseline.bench_game(2, seed, max_moves) == (game.move_count, game.scores)


def test_a_random_game_ends_with_every_seed_in_a_store(rules):
    game = play_random_game(rules, 2, 0, coverage=False)
    assert (game.move_count, game.scores, game.winners) == (45, [37, 11], [0])
    assert _board(game) == [0] * 6 + [37] + [0] * 6 + [11]


def test_the_opening_offers_south_each_of_its_six_pits(rules):
    game = rules.new_game(2, 0)
    assert _board(game) == [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0] and game.to_move == [0]
    assert game.legal_moves(0) == [regnum.Move(player=0, action="sow", args={"pit": p})
                                   for p in ["s1", "s2", "s3", "s4", "s5", "s6"]]
    assert game.describe(game.legal_moves(0)[2]) == "sow the 4 seeds of s3"


def test_a_last_seed_in_ones_own_store_gives_another_turn(rules):
    game = _sow(rules.new_game(2, 0), "s3")      # s4, s5, s6 and the store
    assert _board(game) == [4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0] and game.to_move == [0]
    _sow(game, "s1")                             # s2 to s5: the turn passes
    assert _board(game) == [0, 5, 1, 6, 6, 5, 1, 4, 4, 4, 4, 4, 4, 0] and game.to_move == [1]
    _sow(game, "n3")                             # n4, n5, n6 and North's store
    assert _board(game) == [0, 5, 1, 6, 6, 5, 1, 4, 4, 0, 5, 5, 5, 1] and game.to_move == [1]


def test_sowing_an_empty_pit_is_refused_by_its_rule_and_changes_nothing(rules):
    game = _sow(rules.new_game(2, 0), "s3")
    assert "s3" not in [m.args["pit"] for m in game.legal_moves(0)]
    before = game.to_json()
    with pytest.raises(IllegalMove) as refused:
        _sow(game, "s3")
    assert refused.value.rule == "sow.seeded" and refused.value.reason == "that pit is empty"
    assert game.to_json() == before


@pytest.mark.parametrize("across, after", [
    (3, [0, 0, 1, 0, 0, 3, 14, 2, 2, 2, 2, 0, 2, 20]),   # s1's seed ends in empty s2: it and n5's 3 go home
    (0, [0, 1, 1, 0, 0, 3, 10, 2, 2, 2, 2, 0, 2, 20]),   # n5 is empty: nothing is captured
])
def test_a_last_seed_in_an_empty_pit_of_ones_own_captures_the_seeds_opposite(rules, across, after):
    game = _sow(_position(rules, [1, 0, 1, 0, 0, 3, 10, 2, 2, 2, 2, across, 2, 20]), "s1")
    assert _board(game) == after and game.to_move == [1]


def test_a_long_sowing_skips_the_opponents_store(rules):
    """Thirteen seeds from s6: South's store, North's six pits, not North's store, then South's
    six pits, the last one in s6 emptied at the start, so it captures n1 as well."""
    game = _sow(_position(rules, [1, 0, 0, 0, 0, 13, 6, 3, 3, 3, 3, 3, 3, 10]), "s6")
    assert _board(game) == [2, 1, 1, 1, 1, 0, 12, 0, 4, 4, 4, 4, 4, 10] and game.to_move == [1]


@pytest.mark.parametrize("north_store, scores, winners", [(21, [21, 27], [1]), (15, [21, 21], [0, 1])])
def test_the_end_sweeps_the_seeds_left_into_their_sides_store(rules, north_store, scores, winners):
    """South's last seed reaches its store: its pits are empty, so the game ends at once and
    North puts the 1 + 2 + 3 seeds left on its side into its store."""
    game = _sow(_position(rules, [0, 0, 0, 0, 0, 1, 20, 1, 2, 3, 0, 0, 0, north_store]), "s6")
    assert game.is_over and game.to_move == []
    assert _board(game) == [0] * 6 + [scores[0]] + [0] * 6 + [scores[1]]
    assert (game.scores, game.winners) == (scores, winners)
