"""Permanent Nobles (digest §8, worked example E16): the variant as a diff of King's Road."""
from __future__ import annotations

import random

import regnum
from regnum import Move
from regnum.testing import Scenario, assert_invariants

VARIANT = "rulesets/variants/permanent_nobles.rules"
ELSEWHERE = ["zin_kais_deep", "wizards_tower", "savage_hills"]   # regions not scored this round


def nobles_in(game, region: str) -> list[int]:
    state = game.state
    return sorted(state.pieces[i]["owner"] for i in state.zones[f"region#{region}"]
                  if state.pieces[i]["noble"])


def play_round(game, picks: dict[int, list[str]]) -> None:
    for slot in range(3):
        for seat, cards in picks.items():
            game.play(Move(seat, "pick", {"card": cards[slot]}))


def e16_position(rules):
    # B (seat 1) holds a Noble in Dark Tower; A (seat 0) has 2 markers there.
    return (Scenario(rules, players=4)
            .set_var("king", "dark_tower")
            .place("supply#1", "region#dark_tower")
            .set_fields("region#dark_tower", where=lambda m: m["owner"] == 1, noble=True)
            .place("supply#0", "region#dark_tower", n=2)
            .start())


def test_e16_sole_leader_adds_a_noble_and_both_nobles_pay_their_chains():
    rules = regnum.load(VARIANT)
    game = e16_position(rules)
    play_round(game, {seat: ELSEWHERE for seat in range(4)})
    # A: 5 (1st) + chain 1; B: 4 (2nd, the Noble counts one marker) + chain 1.
    assert game.scores == [6, 5, 0, 0]
    assert nobles_in(game, "dark_tower") == [0, 1]
    assert_invariants(game)


def test_e16_in_the_base_game_the_old_noble_goes_home():
    game = e16_position(regnum.load("kings_road"))
    play_round(game, {seat: ELSEWHERE for seat in range(4)})
    assert game.scores == [6, 4, 0, 0]              # only the new Noble pays its chain
    assert nobles_in(game, "dark_tower") == [0]
    assert len(game.state.zones["supply#1"]) == 19 - 3  # B's old Noble is back; 3 markers played


def test_e16_a_sole_leader_with_a_noble_there_adds_nothing():
    rules = regnum.load(VARIANT)
    game = e16_position(rules)
    play_round(game, {seat: ELSEWHERE for seat in range(4)})
    # Nine rounds later the King is back in Dark Tower; A leads there again.
    from regnum.testing import place, set_var
    set_var(game, "king", "dark_tower")
    place(game, "supply#0", "region#dark_tower", n=3)
    play_round(game, {seat: ELSEWHERE for seat in range(4)})
    assert nobles_in(game, "dark_tower") == [0, 1]
    # A: 4 markers + Noble = 5 → 1st (5) + chain 1; B: Noble only → 2nd (4) + chain 1.
    assert game.scores == [6 + 6, 5 + 5, 0, 0]


def test_variant_random_games_keep_its_invariants():
    rules = regnum.load(VARIANT)
    for seed in range(5):
        game = rules.new_game(players=2 + seed % 4, seed=seed, narrate=False)
        rnd = random.Random(seed)
        while not game.is_over:
            game.play(rnd.choice(game.all_legal_moves()))
            assert_invariants(game)
