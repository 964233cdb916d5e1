"""Differential test: the interpreter running rulesets/kings_road.rules against the hand-written
benchmarks/kings_road_baseline.py, fed the same (player, card) moves.

After every move both must agree on who is to move, every player's legal cards, the scores,
the King, the supplies, the markers and Nobles on the board and whether the game is over; at
the end, on the winners. Moves are drawn uniformly from the interpreter's legal moves with
random.Random(seed); a second pass draws them from the baseline's moves instead, and a third
favours a few regions and the special cards (ties, empty supplies, several Witches).
"""
from __future__ import annotations

import random

import pytest

import regnum
from regnum.benchmark import load_baseline
from regnum import Move

SEEDS = range(120)
MOVE_BOUND = 3_000


baseline = load_baseline("kings_road")   # benchmarks/kings_road_baseline.py, as `regnum bench` loads it
REGIONS = baseline.REGIONS


@pytest.fixture(scope="module")
def rules():
    return regnum.load("kings_road")


def snapshot_interpreter(game) -> dict:
    state = game.state
    n = game.players
    legal: dict = {p: set() for p in range(n)}
    for move in game.all_legal_moves():
        assert move.action == "pick"
        legal[move.player].add(move.args["card"])
    board, nobles = {}, {}
    for r in REGIONS:
        for i in state.zones[f"region#{r}"]:
            piece = state.pieces[i]
            if piece["noble"]:
                assert r not in nobles, f"two Nobles in {r}"
                nobles[r] = piece["owner"]
            else:
                board[(piece["owner"], r)] = board.get((piece["owner"], r), 0) + 1
    return {
        "to_move": game.to_move,
        "legal": legal,
        "scores": game.scores,
        "king": state.vars["king"],
        "supply": [len(state.zones[f"supply#{p}"]) for p in range(n)],
        "board": board,
        "nobles": nobles,
        "over": game.is_over,
    }


def snapshot_baseline(b) -> dict:
    n = b.n
    legal: dict = {p: set() for p in range(n)}
    for player, card in b.legal_moves():
        legal[player].add(card)
    board = {(p, r): b.markers(p, r) for p in range(n) for r in REGIONS if b.markers(p, r)}
    nobles = {r: b.noble(r) for r in REGIONS if b.noble(r) is not None}
    return {
        "to_move": b.to_move,
        "legal": legal,
        "scores": b.scores,
        "king": b.king,
        "supply": [b.supply(p) for p in range(n)],
        "board": board,
        "nobles": nobles,
        "over": b.is_over,
    }


def assert_same(game, b, history) -> None:
    mine, theirs = snapshot_interpreter(game), snapshot_baseline(b)
    if mine != theirs:
        diffs = {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs[k]}
        last = ", ".join(f"P{p}:{c}" for p, c in history[-12:])
        raise AssertionError(f"after {len(history)} moves (last: {last}) the interpreter and the "
                             f"baseline differ (interpreter, baseline): {diffs}")


def play_both(rules, players: int, seed: int, drive: str) -> tuple:
    game = rules.new_game(players=players, seed=seed, narrate=False)
    b = baseline.KingsRoad(players)
    rng = random.Random(seed)
    history: list = []
    assert_same(game, b, history)
    favourites = rng.sample(REGIONS, rng.choice([1, 2, 3]))
    while not game.is_over and len(history) < MOVE_BOUND:
        if drive == "interpreter":
            move = rng.choice(game.all_legal_moves())
            player, card = move.player, move.args["card"]
        elif drive == "biased":
            # Few regions and many special cards: crowded ties, empty supplies, Witch rounds.
            moves = game.all_legal_moves()
            liked = [m for m in moves
                     if m.args["card"] in favourites or m.args["card"] in ("witch", "dragon", "knight")]
            move = rng.choice(liked if liked and rng.random() < 0.9 else moves)
            player, card = move.player, move.args["card"]
        else:
            player, card = rng.choice(b.legal_moves())
            move = Move(player, "pick", {"card": card})
        game.play(move)
        b.play(player, card)
        history.append((player, card))
        assert_same(game, b, history)
    return game, b


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_agree_move_by_move(rules, players, seed):
    game, b = play_both(rules, players, seed, "interpreter")
    assert game.is_over and b.is_over, "the game did not end within the move bound"
    assert game.winners == b.winners
    assert game.scores == b.scores


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(1000, 1010))
def test_moves_drawn_from_the_baseline_are_legal_in_the_interpreter(rules, players, seed):
    game, b = play_both(rules, players, seed, "baseline")
    assert game.winners == b.winners


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(2000, 2025))
def test_biased_games_agree_move_by_move(rules, players, seed):
    game, b = play_both(rules, players, seed, "biased")
    assert game.is_over == b.is_over and game.winners == b.winners


def test_baselines_own_worked_examples_pass():
    """The oracle itself checks the digest's worked examples (its --check mode)."""
    baseline._self_check()
