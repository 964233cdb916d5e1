"""Property tests of King's Kilt over random seeds and 2–4 players (plain seeded loops).

The moves come from a policy that first picks the kind of move (advance, betray, pass, …) and
then one move of that kind (digest K22: uniform play almost never betrays in the top rows nor
passes). Every game is checked after every move: the 64 cards are conserved, the pyramid is
full after the coronation whenever no vacancy is pending, the game ends within the ruleset's
`ends within` bound, and no observation or move list shows a card its viewer may not see.
"""
from __future__ import annotations

import json
import random

import pytest

import regnum
from regnum.testing import assert_invariants, kind_first_move as kind_first, piece_ids as ids_in

RULES = regnum.load("kings_kilt")
CARDS = 64
MOVE_BOUND = 35 * 6 + 12                     # the ruleset's `ends within`
PLACES = [f"place#({r},{i})" for r in range(1, 7) for i in range(7 - r)]
GAMES = [(players, seed) for players in (2, 3, 4) for seed in range(12)]


def cards_everywhere(game) -> int:
    return sum(len(ids) for ids in game.state.zones.values())


def check_secrets(game, revealed_order: dict) -> None:
    state = game.state
    zones = state.zones
    hidden_of = {}
    for q in range(game.players):
        hidden_of[q] = ({i for i in zones[f"family#{q}"] if not state.pieces[i]["face_up"]}
                        | set(zones[f"influence#{q}"]))
    pile = zones["draw_pile"]
    buried = set(pile[:-1])                                 # the pile below its top card
    for seat in list(range(game.players)) + [None]:
        obs = game.observation(seat)
        seen = ids_in(obs)
        moves = set()
        if seat is not None:
            moves = {json.dumps(m.args, sort_keys=True) for m in game.legal_moves(seat)}
            assert all(m.player == seat for m in game.legal_moves(seat))
        for q in range(game.players):
            if q == seat:
                continue
            leak = seen & hidden_of[q]
            assert not leak, (seat, q, leak)
        assert not seen & buried, (seat, "the draw pile shows more than its top")
        shown = obs["zones"]["draw_pile"]
        assert shown["count"] == len(pile)
        assert (shown["top"] or {}).get("id") == (pile[-1] if pile else None)
        for q in range(game.players):
            if q == seat:
                continue
            family = obs["zones"][f"family#{q}"]
            assert family["count"] == 3
            assert [c["id"] for c in family["revealed"]] == revealed_order[q]
        if seat is not None:                    # moves name only the mover's own cards
            own = {state.pieces[i]["label"] for i in zones[f"family#{seat}"]}
            for text in moves:
                args = json.loads(text)
                if "c" in args and args["c"] not in own and not args["c"].startswith("("):
                    raise AssertionError((seat, args))


def play(players: int, seed: int, check_obs: bool):
    game = RULES.new_game(players=players, seed=seed)
    rng = random.Random(seed * 7 + players)
    revealed = {q: [] for q in range(players)}
    while not game.is_over:
        assert game.move_count < MOVE_BOUND, "the game did not end within its bound"
        move = kind_first(game, rng)
        game.play(move)
        if move.action == "turn_up":
            fam = game.state.zones[f"family#{move.player}"]
            new = [i for i in fam if game.state.pieces[i]["face_up"] and i not in revealed[move.player]]
            assert len(new) == 1 and game.state.pieces[new[0]]["label"] == move.args["c"]
            revealed[move.player] += new
        assert cards_everywhere(game) == CARDS
        vars_ = game.state.vars
        if vars_["crowned"] and vars_["vacancy"] is None:
            assert sum(len(game.state.zones[z]) for z in PLACES) == 21
        if vars_["vacancy"] is not None:
            empty = [z for z in PLACES if not game.state.zones[z]]
            if not vars_["crowned"]:
                assert f"place#{vars_['vacancy']}" in empty
            else:
                assert empty == [f"place#{vars_['vacancy']}"]
        if check_obs and not game.is_over:
            check_secrets(game, revealed)
        assert_invariants(game)
    return game, revealed


@pytest.mark.parametrize("players, seed", GAMES)
def test_random_games_conserve_cards_end_and_keep_secrets(players, seed):
    game, revealed = play(players, seed, check_obs=True)
    assert game.move_count <= MOVE_BOUND
    assert game.state.vars["crowned"] is True
    assert all(game.state.pvars[p]["passed"] for p in range(players))
    assert game.winners and all(game.scores[w] == max(game.scores) for w in game.winners)
    assert 0 <= max(game.scores) <= 10
    # At the end every family is public; the ones turned up during play come first, in order.
    for seat in [None] + list(range(players)):
        obs = game.observation(seat)["zones"]
        for q in range(players):
            if q == seat:
                continue
            shown = [c["id"] for c in obs[f"family#{q}"]["revealed"]]
            assert sorted(shown) == sorted(game.state.zones[f"family#{q}"])
            assert shown[:len(revealed[q])] == revealed[q]


def score_of(game, seat) -> int:
    points = {4: 1, 5: 2, 6: 3}
    clans = {game.state.pieces[i]["clan"] for i in game.state.zones[f"family#{seat}"]}
    total = 0
    for z in PLACES:
        r = int(z[len("place#("):].split(",")[0])
        if r >= 4 and game.state.pieces[game.state.zones[z][0]]["clan"] in clans:
            total += points[r]
    return total


@pytest.mark.parametrize("players", [2, 3, 4])
def test_final_scores_agree_with_an_independent_count(players):
    for seed in range(100, 110):
        game, _ = play(players, seed, check_obs=False)
        assert game.scores == [score_of(game, p) for p in range(players)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_and_moves_give_the_same_game(players):
    game, _ = play(players, 5, check_obs=False)
    again = regnum.replay(RULES, game.log.to_json())
    assert again.to_json() == game.to_json()
