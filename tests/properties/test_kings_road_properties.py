"""Property-based tests of King's Road (Hypothesis), over 2–5 players and random seeds.

King's Road has no randomness of its own: the game seed only labels the game, and the moves
come from `random.Random(move_seed)` (or from Hypothesis's `st.data()` in the state machine).
Example counts are kept small so that this file runs in well under a minute.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import regnum
from regnum.testing import assert_invariants, game_machine, legal_move_sequences, random_playout

MOVE_BOUND = 3_000  # random games end in a few hundred moves; digest §9 asks for a bound
MARKERS = 20
CARDS = 11
REGIONS = {"zin_kais_deep", "dragons_lair", "temple_ruins", "savage_hills",
           "dark_tower", "wizards_tower", "kings_altar", "kings_castle"}

players_st = st.integers(2, 5)
seeds_st = st.integers(0, 2**32 - 1)


def examples(n: int) -> settings:
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])


RULES = regnum.load("kings_road")


def markers_held(game, seat: int) -> int:
    """Supply + board (Nobles included) + score track markers of `seat`."""
    state = game.state
    total = len(state.zones[f"supply#{seat}"]) + len(state.zones[f"track#{seat}"])
    for key, ids in state.zones.items():
        if key.startswith("region#"):
            total += sum(1 for i in ids if state.pieces[i]["owner"] == seat)
    return total


def cards_held(game, seat: int) -> int:
    """Cards of `seat` in hand, chosen, played or out of the game (digest §9: always 11)."""
    state = game.state
    total = sum(len(state.zones[f"{z}#{seat}"]) for z in ("hand", "chosen", "played"))
    return total + sum(1 for i in state.zones["out_of_game"] if state.pieces[i]["owner"] == seat)


def moves_of(players: int, seed: int, move_seed: int, limit: int = MOVE_BOUND):
    """A random game's moves (and the finished game)."""
    game = RULES.new_game(players=players, seed=seed)
    moves = []
    random_playout(game, move_seed, max_moves=limit, on_move=lambda g, m: moves.append(m))
    return game, moves


def part_played(players: int, seed: int, moves: list, cut: float):
    """(k, a new game with the first k = cut·len(moves) of `moves` played)."""
    k = int(cut * len(moves))
    game = RULES.new_game(players=players, seed=seed)
    for move in moves[:k]:
        game.play(move)
    return k, game


# ── after every move ──────────────────────────────────────────────────────────

@examples(200)
@given(players=players_st, seed=seeds_st, move_seed=seeds_st)
def test_every_move_conserves_markers_keeps_scores_and_invariants(players, seed, move_seed):
    game = RULES.new_game(players=players, seed=seed)
    rng = random.Random(move_seed)
    scores = game.scores
    while not game.is_over:
        assert game.move_count < MOVE_BOUND, "the game did not end within the move bound"
        moves = game.all_legal_moves()
        assert moves, "a game that is not over must offer a legal move"
        assert {m.player for m in moves} == set(game.to_move)
        game.play(rng.choice(moves))
        for p in range(players):
            assert markers_held(game, p) == MARKERS, (p, game.move_count)
            assert cards_held(game, p) == CARDS, (p, game.move_count)
            assert len(game.state.zones[f"track#{p}"]) == 1
        assert game.state.vars["king"] in REGIONS
        assert all(new >= old for new, old in zip(game.scores, scores)), (scores, game.scores)
        scores = game.scores
        assert_invariants(game)
    # At the end somebody has reached 40 and the winners have the best score.
    assert max(game.scores) >= 40
    assert game.winners and all(game.scores[w] == max(game.scores) for w in game.winners)
    assert game.to_move == [] and game.all_legal_moves() == []


# ── determinism, serialisation, replay ───────────────────────────────────────

@examples(80)
@given(players=players_st, seed=seeds_st, move_seed=seeds_st)
def test_same_seed_and_moves_give_the_same_game(players, seed, move_seed):
    first, moves = moves_of(players, seed, move_seed)
    second = RULES.new_game(players=players, seed=seed)
    for move in moves:
        second.play(move)
    assert second.to_json() == first.to_json()
    # The random playout itself is a function of its seed.
    assert moves_of(players, seed, move_seed)[0].to_json() == first.to_json()


@examples(80)
@given(players=players_st, seed=seeds_st, move_seed=seeds_st, cut=st.floats(0, 1))
def test_json_round_trip_and_the_restored_game_continues_identically(players, seed, move_seed, cut):
    full, moves = moves_of(players, seed, move_seed)
    k, game = part_played(players, seed, moves, cut)
    text = game.to_json()
    restored = RULES.game_from_json(text)
    assert restored.to_json() == text
    assert json.loads(text) == json.loads(restored.to_json())
    assert restored.to_move == game.to_move and restored.all_legal_moves() == game.all_legal_moves()
    for move in moves[k:]:
        game.play(move)
        restored.play(move)
        assert restored.to_json() == game.to_json()
    assert restored.to_json() == full.to_json()
    assert restored.winners == full.winners and restored.scores == full.scores


@examples(60)
@given(players=players_st, seed=seeds_st, move_seed=seeds_st, cut=st.floats(0, 1))
def test_replaying_the_log_reproduces_the_game(players, seed, move_seed, cut):
    full, moves = moves_of(players, seed, move_seed)
    k, game = part_played(players, seed, moves, cut)
    for g in (game, full):
        log = g.log.to_json()
        assert regnum.replay(RULES, log).to_json() == g.to_json()
        assert regnum.replay(RULES, json.loads(log)).to_json() == g.to_json()
    assert full.log.result is not None and full.log.result.winners == full.winners


# ── hidden information ────────────────────────────────────────────────────────

@examples(80)
@given(players=players_st, seed=seeds_st, move_seed=seeds_st)
def test_observations_never_show_another_players_chosen_cards(players, seed, move_seed):
    game = RULES.new_game(players=players, seed=seed)
    rng = random.Random(move_seed)
    compared = 0
    while not game.is_over and game.move_count < MOVE_BOUND:
        deciding = game.to_move
        for viewer in range(players):
            zones = game.observation(viewer)["zones"]
            for p in range(players):
                if p != viewer:
                    hidden = zones[f"chosen#{p}"]
                    assert isinstance(hidden, dict) and hidden["revealed"] == [], (viewer, p, hidden)
        # While another player still picks, what a seat picks must not change what the
        # others observe at all (no leak through hands, counts or variables).
        if len(deciding) >= 2 and compared < 30:
            p = rng.choice(deciding)
            options = game.legal_moves(p)
            if len(options) >= 2:
                a, b = rng.sample(options, 2)
                ga, gb = game.copy(), game.copy()
                ga.play(a)
                gb.play(b)
                for viewer in range(players):
                    if viewer != p:
                        assert ga.observation(viewer) == gb.observation(viewer), (viewer, a, b)
                assert ga.observation(p) != gb.observation(p)
                compared += 1
        game.play(rng.choice(game.all_legal_moves()))


# ── copies ───────────────────────────────────────────────────────────────────

@examples(80)
@given(players=players_st, seed=seeds_st, move_seed=seeds_st, cut=st.floats(0, 1))
def test_copy_is_independent(players, seed, move_seed, cut):
    _, moves = moves_of(players, seed, move_seed)
    k, game = part_played(players, seed, moves, cut)
    snapshot = game.to_json()
    clone = game.copy()
    assert clone.to_json() == snapshot and clone == game
    random_playout(clone, move_seed + 1, max_moves=200)
    assert game.to_json() == snapshot  # playing the copy left the original alone
    clone_snapshot = clone.to_json()
    for move in moves[k:k + 200]:
        game.play(move)
    assert clone.to_json() == clone_snapshot  # and the other way round
    assert_invariants(game)
    assert_invariants(clone)


# ── the public Hypothesis helpers of regnum.testing ─────────────────────────────

@examples(60)
@given(legal_move_sequences(RULES, players=[2, 3, 4, 5], max_moves=300))
def test_drawn_legal_move_sequences_replay_identically(playout):
    game = playout.replay(RULES)
    assert game.move_count == len(playout.moves)
    assert_invariants(game)
    again = regnum.replay(RULES, game.log.to_json())
    assert again.to_json() == game.to_json()


KingsRoadMachine = game_machine(
    RULES, players=[2, 3, 4, 5], max_moves=400,
    checks=[lambda g: [markers_held(g, p) for p in range(g.players)] == [MARKERS] * g.players
            or pytest.fail("markers not conserved")])
KingsRoadMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=300,
                                                  deadline=None)
TestKingsRoadMachine = KingsRoadMachine.TestCase
