"""Differential test of the variant Harsh Tournament: the interpreter running
rulesets/variants/harsh_tournament.rules against benchmarks/kings_gate_baseline.py played with
``variant="harsh_tournament"``, fed the same moves.

The variant changes one number of King's Gate (``const tournament_penalty = 5``): the last of
the ranking at the Tournament Field (object 8) loses 5 points instead of 3, not below 0, and
only when two players at least are ranked (§5.4, K11, K34). The comparison after every move is
the base game's differential test's (``test_kings_gate_vs_baseline.py``, loaded by path: its
snapshots of both sides, its ``assert_same`` and its move policies): who is to move, the legal
moves in order, every score and the points won per object, hands, stacks, the table, objects,
chips, the turn's counters; at the end, the winners. 165 games (2-4 players; moves uniform from
the interpreter's list, from the baseline's, or favouring the rare actions), about 16,800 moves.
A replay of the same games on the baseline alone shows that the penalty of 5 is applied (and
the floor at 0 cuts it), one seed shows the variant and the base scoring differently, and
``bench_game(..., variant="harsh_tournament")`` gives ``play_random_game``'s (moves, scores).
"""
from __future__ import annotations

import random

import pytest

import regnum
from regnum.agents import play_random_game

from base_tests import load_base_test   # tests/differential is on the path of its tests

VARIANT = "harsh_tournament"


base = load_base_test("kings_gate")
baseline = base.baseline            # benchmarks/kings_gate_baseline.py, as `regnum bench` loads it
KingsGate = baseline.KingsGate
TOURNAMENT_FIELD = baseline.TOURNAMENT_FIELD


@pytest.fixture(scope="module")
def rules():
    return regnum.load(f"rulesets/variants/{VARIANT}.rules")


@pytest.fixture(scope="module")
def base_rules():
    return regnum.load("kings_gate")


def test_the_baseline_names_the_variant(rules):
    """``VARIANTS`` holds the name the variant's ``variant NAME of`` line declares."""
    assert rules.model.variant == VARIANT and rules.model.name == "kings_gate"
    assert VARIANT in baseline.VARIANTS
    assert KingsGate(4, variant=VARIANT).tournament_penalty == 5
    assert KingsGate(4).tournament_penalty == baseline.TOURNAMENT_PENALTY == 3
    with pytest.raises(ValueError):
        KingsGate(4, variant="no_such_variant")


def tournament_losses(b):
    """The points each player won at the Tournament Field (the last of the ranking: 0 minus
    the loss), once the baseline scored it, else None."""
    if len(b.won[0]) >= TOURNAMENT_FIELD:
        return [w[TOURNAMENT_FIELD - 1] for w in b.won]
    return None


def play_both(rules, players: int, seed: int, drive: str) -> tuple:
    """The base test's play_both, with the variant on both sides; also returns what each
    player won at the Tournament Field ([] when it was not scored)."""
    game, b, history = base.play_both(rules, players, seed, drive, variant=VARIANT)
    return game, b, history, tournament_losses(b) or []


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(30))
def test_random_games_agree_move_by_move(rules, players, seed):
    play_both(rules, players, seed, "interpreter")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(1000, 1005))
def test_moves_drawn_from_the_baseline_are_legal_in_the_interpreter(rules, players, seed):
    play_both(rules, players, seed, "baseline")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(2000, 2020))
def test_games_favouring_rare_actions_agree_move_by_move(rules, players, seed):
    play_both(rules, players, seed, "biased")


def test_the_penalty_of_5_is_applied_in_both(rules):
    """4 players, seed 0, uniform picks: seat 0 is last at the Tournament Field with 16 points
    and loses 5 there on both sides (the interpreter's ``won`` is compared after every move);
    seat 1 wins it (+3)."""
    game, b, history, tournament = play_both(rules, 4, 0, "interpreter")
    assert tournament == [-5, 3, 0, 0] and sum(b.won[0][:TOURNAMENT_FIELD - 1]) == 16
    assert [game.state.pvars[p]["won"][TOURNAMENT_FIELD - 1] for p in range(4)] == tournament


def replay_on_baseline(players: int, seed: int, drive: str) -> list:
    """What each player won at the Tournament Field in the game the move-by-move tests play
    (the baseline's moves are the interpreter's list, in its order, so the same picks)."""
    b = KingsGate(players, seed=seed, variant=VARIANT)
    rng = random.Random(seed)
    last = None
    while not b.is_over:
        moves = [b.move_args(m) for m in b.legal_moves()]
        action, args = base.pick(rng, drive, moves, b.current, lambda c: baseline.cell_of(c) in b.place, last)
        last = (b.player, action, args)
        b.play(KingsGate.move_of(action, args))
        losses = tournament_losses(b)
        if losses is not None:
            return losses
    return []


def test_the_changed_rule_is_reached():
    """Over the games played move by move above, the last of the Tournament Field loses the
    full 5 (which the base game would have made 3) in many, and the floor at 0 cuts the loss
    below 5 in some: the changed rule is reached and compared. (Of these 150 games, 96 score
    object 8, 94 of them with a loss of 5, 2 floored; at 3 players, 22 tokens each, the game
    seldom lasts that long: 1 of 50.)"""
    full = floored = scored = 0
    for players in (2, 3, 4):
        for seed, drive in [(s, "interpreter") for s in range(30)] + [(s, "biased") for s in range(2000, 2020)]:
            losses = replay_on_baseline(players, seed, drive)
            scored += bool(losses)
            full += -5 in losses
            floored += any(-5 < w < 0 for w in losses)
    assert scored >= 80 and full >= 80 and floored >= 1, (scored, full, floored)   # 96, 94, 2


def test_the_variant_and_the_base_game_score_differently(rules, base_rules):
    """The same game (4 players, seed 0, regnum's random policy: the penalty changes no legal
    move) in both rulesets and both sides of the baseline: seat 0, last at the Tournament
    Field with 10 points, ends at 5 in the variant and at 7 in the base game."""
    harsh = play_random_game(rules, 4, 0, coverage=False)
    plain = play_random_game(base_rules, 4, 0, coverage=False)
    assert (harsh.move_count, harsh.scores) == (101, [5, 16, 16, 20])
    assert (plain.move_count, plain.scores) == (101, [7, 16, 16, 20])
    assert harsh.state.pvars[0]["won"][TOURNAMENT_FIELD - 1] == -5
    assert plain.state.pvars[0]["won"][TOURNAMENT_FIELD - 1] == -3
    assert baseline.bench_game(4, 0, 100_000, variant=VARIANT) == (101, [5, 16, 16, 20])
    assert baseline.bench_game(4, 0, 100_000) == (101, [7, 16, 16, 20])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bench_game_plays_regnums_random_game(rules, players):
    """``regnum bench``'s check on the variant: the same (moves, final scores) as
    play_random_game, also when ``max_moves`` stops the game early."""
    for seed in range(20):
        game = play_random_game(rules, players, seed, coverage=False)
        assert game.is_over
        moves, scores = baseline.bench_game(players, seed, 100_000, variant=VARIANT)
        assert (moves, list(scores)) == (game.move_count, list(game.scores)), seed
        if seed % 8 == 0:
            half = game.move_count // 2
            stopped = play_random_game(rules, players, seed, max_moves=half, coverage=False)
            moves, scores = baseline.bench_game(players, seed, half, variant=VARIANT)
            assert (moves, list(scores)) == (stopped.move_count, list(stopped.scores)), seed
