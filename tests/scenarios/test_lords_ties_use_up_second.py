"""Lords, a tie for first uses up second place (rulesets/variants/lords_ties_use_up_second.rules):
the variant as a diff of Kingdom Builder, digest §2.3 (Lords) and ruling A2.

Each position is scored by both rulesets: the game ends by its own flow (every terrain card out
of the game, the last round declared, each player takes a turn without a card, A22) and the
final scoring pays the three Kingdom Builder cards named. The boards are B1 of the digest (§11)
named section by section; seats: Red = 0, Blue = 1, Green = 2, Yellow = 3. No settlement below
touches water, a mountain or a castle, so Fishermen, Miners and the castles pay nothing and the
gold is the Lords' alone.
"""
from __future__ import annotations

import random
import re

import pytest

import regnum
from regnum.testing import Scenario, assert_invariants

VARIANT = "rulesets/variants/lords_ties_use_up_second.rules"
RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3
B1_SECTIONS = {"sections": ["Tavern", "Paddock", "Oasis", "Farm"]}
CARDS = ["Lords", "Fishermen", "Miners"]


@pytest.fixture(scope="module")
def variant() -> regnum.Ruleset:
    return regnum.load(VARIANT)


@pytest.fixture(scope="module")
def base() -> regnum.Ruleset:
    return regnum.load("kingdom_builder")


def final(rules, players: int, settlements: dict[int, list[str]]):
    """The game ended by its own flow at this position and scored with CARDS."""
    sc = Scenario(rules, players, options={**B1_SECTIONS, "goal_cards": CARDS})
    for seat, hexes in settlements.items():
        for h in hexes:
            sc.place(f"supply#{seat}", f"site#{h}")
    sc.place("draw_pile", "removed", n=None)
    for seat in range(players):
        sc.place(f"hand#{seat}", "removed")
    sc.set_var("game_ending", True)
    game = sc.start()
    assert game.is_over
    assert_invariants(game)
    # Only the Lords pay: every other card and the castles give 0 to everybody.
    for seat in range(players):
        others = [int(m.group(1)) for e in game.events
                  if (m := re.fullmatch(rf"P?{seat}: (\d+) gold for (?:the )?\w+", str(e)))]
        assert others == [0, 0, 0], (seat, others)
    return game


# Digest KB-8. Top left: Red 6, Blue 6, Green 2. Top right: Red 1. Bottom left: Blue 4,
# Green 4, Yellow 3. Bottom right: nobody.
KB8 = {
    RED: ["(8,5)", "(8,6)", "(8,7)", "(8,8)", "(8,9)", "(9,5)", "(9,17)"],
    BLUE: ["(0,0)", "(0,1)", "(1,0)", "(1,1)", "(5,0)", "(6,0)", "(10,6)", "(10,7)", "(10,8)", "(10,9)"],
    GREEN: ["(4,5)", "(4,6)", "(14,5)", "(14,6)", "(14,7)", "(14,8)"],
    YELLOW: ["(12,4)", "(12,5)", "(13,4)"],
}


def test_KB8_a_tie_for_first_pays_no_second_place(variant):
    game = final(variant, 4, KB8)
    # Top left: Red 12, Blue 12, Green nothing (the two leaders fill first and second place).
    # Top right: Red 12. Bottom left: Blue 12, Green 12, Yellow nothing.
    assert game.scores == [24, 24, 12, 0]
    assert game.winners == [RED, BLUE]


def test_KB8_in_the_base_game_the_next_count_still_takes_6(base):
    game = final(base, 4, KB8)
    # A2: Green 6 in the top left, Yellow 6 in the bottom left.
    assert game.scores == [24, 24, 18, 6]
    assert game.winners == [RED, BLUE]


# Three players. Top left: Red 2, Blue 2, Green 1. Top right: Green 2, Red 1.
WINNER_CHANGES = {
    RED: ["(8,5)", "(8,6)", "(9,17)"],
    BLUE: ["(0,0)", "(0,1)"],
    GREEN: ["(4,5)", "(8,18)", "(9,18)"],
}


def test_the_third_player_of_a_tied_sector_no_longer_shares_the_win(variant, base):
    # Variant: top left Red 12, Blue 12, Green 0; top right Green 12, Red 6.
    game = final(variant, 3, WINNER_CHANGES)
    assert game.scores == [18, 12, 12]
    assert game.winners == [RED]
    # Base: Green takes 6 in the top left as the next-lower count, and ties Red for the win.
    game = final(base, 3, WINNER_CHANGES)
    assert game.scores == [18, 12, 18]
    assert game.winners == [RED, GREEN]


# Four players. Top left: Red 3, Blue 1, Green 1 (a tie for second). Top right: Blue 2 alone.
TIE_FOR_SECOND = {RED: ["(8,5)", "(8,6)", "(8,7)"], BLUE: ["(0,0)", "(9,17)", "(9,18)"],
                  GREEN: ["(4,5)"], YELLOW: []}


@pytest.mark.parametrize("which", ["variant", "base"])
def test_a_tie_for_second_and_a_lone_player_pay_as_in_the_base_game(which, variant, base):
    game = final(variant if which == "variant" else base, 4, TIE_FOR_SECOND)
    # Top left: Red 12, Blue 6, Green 6. Top right: Blue 12 only. Yellow has no settlement.
    assert game.scores == [12, 18, 6, 0]
    assert game.winners == [BLUE]


def test_variant_random_games_keep_their_invariants(variant):
    for seed in range(2):
        game = variant.new_game(players=3 + seed, seed=seed, narrate=False,
                                options={"goal_cards": CARDS})
        rnd = random.Random(seed)
        while not game.is_over:
            game.play(rnd.choice(game.all_legal_moves()))
            assert_invariants(game)
