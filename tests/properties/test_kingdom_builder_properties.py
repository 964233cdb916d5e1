"""Property-based tests of Kingdom Builder (Hypothesis), over 2–4 players and random seeds.

The game seed draws the board (four random sections, some turned: digest A1), the three Kingdom
Builder cards and the deck order; the moves come from `random.Random(move_seed)`. Counts are
checked by hand here (not only through the ruleset's own invariants): 40 settlements per player
(supply + board), 2 tiles per location hex (on the hex, held or lost), 25 terrain cards, at most
one settlement per hex; and the ruleset's own invariants are checked after setup and after every
move. A random game takes about 0.15–0.4 s, so example counts are small.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import regnum
from regnum.testing import assert_invariants, random_playout

RULES = regnum.load("kingdom_builder")

SETTLEMENTS = 40
CARDS = 25
TERRAINS = {"grass": 5, "canyon": 5, "desert": 5, "flower_field": 5, "forest": 5}
# A player builds 3 settlements a turn (fewer only when stuck without a card, A22), so a game
# lasts at most about 14 rounds; each turn is at most 3 builds, 6 tiles and end_turn.
MOVE_BOUND = 2_000

PLAYERS = [2, 3, 4]  # every test runs for each count, with its own drawn seeds
seeds_st = st.integers(0, 2**32 - 1)
options_st = st.sampled_from([{}, {"random_start": True}, {"first_game_setup": True},
                              {"turn_sections": False, "random_start": True}])


def examples(n: int) -> settings:
    # No shrinking: a seed does not get simpler by shrinking, and a failing example is reported
    # as drawn (shrinking whole games would take minutes).
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    phases=[Phase.explicit, Phase.reuse, Phase.generate])


# ── counting by hand ─────────────────────────────────────────────────────────

def pieces(game, key: str) -> list[dict]:
    return [game.state.pieces[i] for i in game.state.zones[key]]


def check_counts(game) -> None:
    state = game.state
    zones = state.zones
    sites = [k for k in zones if k.startswith("site#")]
    assert len(sites) == 400
    # At most one settlement per hex; 40 settlements per player, in supply or on the board.
    assert all(len(zones[k]) <= 1 for k in sites)
    on_board = [0] * game.players
    for k in sites:
        for piece in pieces(game, k):
            assert piece["type"] == "settlement"
            on_board[piece["owner"]] += 1
    for p in range(game.players):
        assert all(s["owner"] == p for s in pieces(game, f"supply#{p}"))
        assert len(zones[f"supply#{p}"]) + on_board[p] == SETTLEMENTS, (p, game.move_count)
    # Two tiles per location hex: still there, held by a player, or lost (out of the game).
    locations = [h for h, kind in state.tables["location_at"].items() if kind]
    tiles = [t for h in locations for t in pieces(game, f"tiles_at#{h}")]
    tiles += [t for p in range(game.players) for t in pieces(game, f"tiles#{p}")]
    tiles += [t for t in pieces(game, "removed") if t["type"] == "tile"]
    assert sorted((t["origin"], t["kind"]) for t in tiles) == sorted(
        (h, state.tables["location_at"][h]) for h in locations for _ in range(2))
    assert all(t["type"] == "tile" for h in locations for t in pieces(game, f"tiles_at#{h}"))
    # 25 terrain cards: draw pile, discards, played, hands, or out of the game (stuck cards).
    cards = pieces(game, "draw_pile") + pieces(game, "discards") + pieces(game, "played")
    cards += [c for p in range(game.players) for c in pieces(game, f"hand#{p}")]
    cards += [c for c in pieces(game, "removed") if c["type"] == "terrain_card"]
    assert len(cards) == CARDS and all(c["type"] == "terrain_card" for c in cards)
    counted = {t: 0 for t in TERRAINS}
    for c in cards:
        counted[c["terrain"]] += 1
    assert counted == TERRAINS
    assert all(len(zones[f"hand#{p}"]) <= 1 for p in range(game.players))
    assert len(zones["played"]) <= 1


def moves_of(players: int, seed: int, move_seed: int, options: dict | None = None):
    """A random game's moves (and the finished game)."""
    game = RULES.new_game(players=players, seed=seed, options=options)
    moves = []
    random_playout(game, move_seed, max_moves=MOVE_BOUND, on_move=lambda g, m: moves.append(m))
    return game, moves


def part_played(players: int, seed: int, moves: list, cut: float, options: dict | None = None):
    """(k, a new game with the first k = cut·len(moves) of `moves` played)."""
    k = int(cut * len(moves))
    game = RULES.new_game(players=players, seed=seed, options=options)
    for move in moves[:k]:
        game.play(move)
    return k, game


# ── after every move ──────────────────────────────────────────────────────────

@pytest.mark.parametrize("players", PLAYERS)
@examples(10)
@given(seed=seeds_st, move_seed=seeds_st, options=options_st)
def test_every_move_conserves_settlements_tiles_cards_and_the_game_ends(players, seed, move_seed, options):
    game = RULES.new_game(players=players, seed=seed, options=options)
    check_counts(game)
    assert_invariants(game)
    rng = random.Random(move_seed)
    while not game.is_over:
        assert game.move_count < MOVE_BOUND, "the game did not end within the move bound"
        moves = game.all_legal_moves()
        assert moves, "a game that is not over must offer a legal move"
        assert len(game.to_move) == 1 and {m.player for m in moves} == set(game.to_move)
        game.play(rng.choice(moves))
        check_counts(game)
        assert_invariants(game)
        if not game.is_over:
            assert game.scores == [0] * players  # gold only in the final scoring (§9)
    # The end (§8): somebody's supply is empty, every player had the same number of turns
    # counted from the start player, and the winners have the most gold.
    supplies = [len(game.state.zones[f"supply#{p}"]) for p in range(players)]
    assert 0 in supplies and game.state.vars["game_ending"] is True
    assert game.state.vars["turn"] % players == 0
    assert all(s >= 0 for s in game.scores)
    assert game.winners and all(game.scores[w] == max(game.scores) for w in game.winners)
    assert game.winners == [p for p in range(players) if game.scores[p] == max(game.scores)]
    assert game.to_move == [] and game.all_legal_moves() == []


# ── determinism, serialisation, replay ───────────────────────────────────────

@pytest.mark.parametrize("players", PLAYERS)
@examples(4)
@given(seed=seeds_st, move_seed=seeds_st, options=options_st)
def test_same_seed_and_moves_give_the_same_game(players, seed, move_seed, options):
    first, moves = moves_of(players, seed, move_seed, options)
    assert first.is_over
    second = RULES.new_game(players=players, seed=seed, options=options)
    for move in moves:
        second.play(move)
    assert second == first and second.to_json() == first.to_json()
    assert second.scores == first.scores and second.winners == first.winners
    # The random playout itself is a function of its seeds.
    assert moves_of(players, seed, move_seed, options)[0].to_json() == first.to_json()


@pytest.mark.parametrize("players", PLAYERS)
@examples(4)
@given(seed=seeds_st, move_seed=seeds_st, options=options_st, cut=st.floats(0, 1))
def test_json_round_trip_and_the_restored_game_continues_identically(players, seed, move_seed, options, cut):
    full, moves = moves_of(players, seed, move_seed, options)
    k, game = part_played(players, seed, moves, cut, options)
    text = game.to_json()
    restored = RULES.game_from_json(text)
    assert restored == game
    assert restored.to_json() == text and json.loads(restored.to_json()) == json.loads(text)
    assert restored.to_move == game.to_move and restored.all_legal_moves() == game.all_legal_moves()
    for move in moves[k:]:
        restored.play(move)
    assert restored == full
    assert restored.scores == full.scores and restored.winners == full.winners
    assert RULES.game_from_json(full.to_json()) == full


@pytest.mark.parametrize("players", PLAYERS)
@examples(4)
@given(seed=seeds_st, move_seed=seeds_st, options=options_st, cut=st.floats(0, 1))
def test_replaying_the_log_reproduces_the_game(players, seed, move_seed, options, cut):
    full, moves = moves_of(players, seed, move_seed, options)
    k, game = part_played(players, seed, moves, cut, options)
    for g in (game, full):
        assert regnum.replay(RULES, g.log) == g
        assert regnum.replay(RULES, g.log.to_json()).to_json() == g.to_json()
    assert full.log.result is not None and full.log.result.winners == full.winners
    assert full.log.result.scores == full.scores
    assert full.log.options == full.options and full.options["random_start"] == options.get("random_start", False)
