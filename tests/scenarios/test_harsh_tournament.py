"""Harsh Tournament (digest §5.4, §7.6, K11, KG-5): the Tournament Field's loser loses 5, not 3.

The same positions are played in the variant and in the base game. Cells are the open grid's
"(row,col)"; object 8 (the Tournament Field, 3/0/0) lies on (20,48)-(20,49), objects 2…7 far
from it, as in tests/scenarios/test_kings_gate.py. Seats: Red 0, Blue 1, Green 2, Yellow 3.
"""
from __future__ import annotations

import random

import pytest

import regnum
from regnum import Move
from regnum.testing import Scenario, assert_invariants

VARIANT = regnum.load("rulesets/variants/harsh_tournament.rules")
BASE = regnum.load("kings_gate")

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3
CHIPS = ["king", "bishop", "wizard", "guild_master", "merchant", "sorceress"]


def cells_of(n: int) -> list[tuple[int, int]]:
    """Object n on row 20, columns 6n and 6n+1 (objects 2…8 lie apart from each other)."""
    return [(20, 6 * n), (20, 6 * n + 1)]


def ring_of(n: int) -> list[str]:
    """The 10 cells around object n, in the order `rule lay` stores them (around(table, cells))."""
    inside = cells_of(n)
    out: list[str] = []
    for r, c in inside:
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                cell = (r + dr, c + dc)
                name = f"({cell[0]},{cell[1]})"
                if cell not in inside and name not in out:
                    out.append(name)
    return out


def token_filter(value: int):
    return lambda rec: rec["type"] == "token" and not rec["dragon"] and rec["value"] == value


def tournament_position(rules, tokens, last: int, held: int, scores: list[int]):
    """Objects 2…8 laid, 8 current; `tokens` = [(seat, value)] on the first cells of its ring;
    `last` holds `held` (and 2, 2, 3, 3, 5) and is to move; the others hold six from their stack."""
    sc = Scenario(rules, 4, options={"random_start": False})
    state = sc.game.state
    ring = ring_of(8)
    for p in range(4):
        sc.place(f"hand#{p}", f"stack#{p}", n=None)
    for cell, (seat, value) in zip(ring, tokens):
        sc.place(f"stack#{seat}", f"place#{cell}", where=token_filter(value))
    for p in range(4):
        if p == last:
            for v in (held, 2, 2, 3, 3, 5):
                sc.place(f"stack#{p}", f"hand#{p}", where=token_filter(v))
        else:
            sc.place(f"stack#{p}", f"hand#{p}", n=6)
    for n in range(2, 9):
        cells = [f"({r},{c})" for r, c in cells_of(n)]
        sc.place("objects", "laid", where=lambda rec, n=n: rec["number"] == n)
        sc.set_fields("laid", where=lambda rec, n=n: rec["number"] == n, cells=cells, ring=ring_of(n))
        for c in cells:
            sc.set_table("object_at", c, n)
    sc.set_fields("laid", n=None, where=lambda rec: rec["number"] < 8, scored=True)
    sc.set_var("current", next(i for i in state.zones["laid"] if state.pieces[i]["number"] == 8))
    sc.set_var("chip_supply", CHIPS)
    for p, s in enumerate(scores):
        sc.set_player_var(p, "score", s)
    sc.set_var("start_player", last)
    sc.set_var("last_placer", last)
    game = sc.start()
    # The last player's token fills the ring's last free cell: object 8 is scored at once.
    game.play(Move(last, "play", {"v": held, "at": ring[len(tokens)], "chip": None}))
    return game


def won(game) -> list[list[int]]:
    return [row["won"] for row in game.state.pvars]


# KG-5: Red 7, Blue 4, Green 4, Yellow no token; Green places the last token (his 1), so the
# tie between Blue and Green goes to Blue and Green is last.
KG5 = [(RED, 4), (RED, 1), (RED, 1), (RED, 1), (BLUE, 2), (BLUE, 1), (BLUE, 1), (GREEN, 2), (GREEN, 1)]


@pytest.mark.parametrize("rules, change", [
    pytest.param(VARIANT, -5, id="variant"),   # Green 7 → 2
    pytest.param(BASE, -3, id="base"),         # Green 7 → 4
])
def test_the_last_of_the_tournament_loses_5_instead_of_3_KG_5(rules, change):
    game = tournament_position(rules, KG5, GREEN, 1, [5, 4, 7, 1])
    assert game.scores == [8, 4, 7 + change, 1]                 # Red +3, Blue +0, Yellow untouched
    assert won(game) == [[3], [0], [change], [0]]
    assert game.state.pieces[game.state.vars["current"]]["scored"]
    assert game.to_move == [GREEN]                             # Green lays object 9 next
    assert_invariants(game)


def test_variant_and_base_differ_by_2_on_the_same_position():
    harsh = tournament_position(VARIANT, KG5, GREEN, 1, [5, 4, 7, 1])
    base = tournament_position(BASE, KG5, GREEN, 1, [5, 4, 7, 1])
    assert harsh.scores == [8, 4, 2, 1]
    assert base.scores == [8, 4, 4, 1]


@pytest.mark.parametrize("rules, before, after, change", [
    pytest.param(VARIANT, 4, 0, -4, id="variant-4"),   # 4 → 0, not −1 (K11); K33 records the net −4
    pytest.param(BASE, 4, 1, -3, id="base-4"),         # 4 → 1
    pytest.param(VARIANT, 2, 0, -2, id="variant-2"),   # KG-5 as printed: both games stop at 0
    pytest.param(BASE, 2, 0, -2, id="base-2"),
])
def test_the_floor_at_0_still_holds_K11_K33(rules, before, after, change):
    game = tournament_position(rules, KG5, GREEN, 1, [5, 4, before, 1])
    assert game.scores == [8, 4, after, 1]
    assert won(game)[GREEN] == [change]
    assert_invariants(game)


@pytest.mark.parametrize("rules", [pytest.param(VARIANT, id="variant"), pytest.param(BASE, id="base")])
def test_a_lone_player_at_the_tournament_loses_nothing_K11(rules):
    alone = [(RED, v) for v in (4, 4, 4, 1, 1, 1, 1, 1, 1)]
    game = tournament_position(rules, alone, RED, 1, [5, 4, 7, 1])
    assert game.scores == [8, 4, 7, 1]                          # first and last: no penalty


def test_a_lone_pub_ranks_its_player_last_and_costs_5_in_the_variant():
    # Red 4+4+1×6 in eight cells, Blue's Pub alone, Red's seventh 1 fills the ring: Blue is
    # ranked by the Pub (§7.2) and last.
    tokens = [(RED, v) for v in (4, 4, 1, 1, 1, 1, 1, 1)] + [(BLUE, 0)]
    harsh = tournament_position(VARIANT, tokens, RED, 1, [5, 9, 7, 1])
    base = tournament_position(BASE, tokens, RED, 1, [5, 9, 7, 1])
    assert harsh.scores == [8, 4, 7, 1]
    assert base.scores == [8, 6, 7, 1]
    assert_invariants(harsh)


def test_variant_random_games_keep_its_invariants():
    for seed in range(3):
        game = VARIANT.new_game(players=2 + seed, seed=seed, narrate=False)
        rnd = random.Random(seed)
        while not game.is_over:
            game.play(rnd.choice(game.all_legal_moves()))
            assert_invariants(game)
