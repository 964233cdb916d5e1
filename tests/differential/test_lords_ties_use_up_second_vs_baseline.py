"""Differential test of the variant "Lords: a tie for first uses up second place": the
interpreter running rulesets/variants/lords_ties_use_up_second.rules against
benchmarks/kingdom_builder_baseline.py played with ``variant="lords_ties_use_up_second"``, fed
the same moves.

The variant replaces the Lords card's ``ties shared_places`` (A2: all tied for the most take 12,
the next-lower count still takes 6) with ``ties highest_of_tied``: tied players fill the places
they share, so two tied for first take 12 each and nobody takes 6, a tie for second still pays
6 each, and ``needs 1`` stays. It differs from the base game only when a sector has a tie for
first and a third, lower, player there: so never at 2 players.

The comparison after every move is the base game's differential test's
(``test_kingdom_builder_vs_baseline.py``, loaded by path: its snapshots of both sides, its
``assert_same``, its move conversions): who is to move, the legal moves in order, supplies,
tiles, board, cards, every score; at the end, the winners. 68 games (2-4 players; uniform from
the interpreter's or the baseline's moves; the Kingdom Builder cards drawn by the seed, or
Lords, Hermits and Citizens named with the option ``goal_cards`` so that the Lords score in
every game), about 9,100 moves. In each game where the Lords' tie rule matters (8 of them),
the same moves are replayed on the base ruleset too, and the two interpreters' scores must
differ by exactly what the two tie rules pay, computed here from the sector counts. Then: it is
reached in several of these games, one seed of regnum's random policy (4 players, 23) scores
differently in the variant and the base game on both sides, and ``bench_game(...,
variant="lords_ties_use_up_second")`` gives ``play_random_game``'s (moves, scores).
"""
from __future__ import annotations

import random

import pytest

import regnum
from regnum import rng as regnum_rng
from regnum.agents import play_random_game

from base_tests import load_base_test   # tests/differential is on the path of its tests

VARIANT = "lords_ties_use_up_second"
MOVE_BOUND = 3_000
LORDS_CARDS = ["Lords", "Hermits", "Citizens"]


base = load_base_test("kingdom_builder")
baseline = base.baseline            # benchmarks/kingdom_builder_baseline.py, as `regnum bench` loads it


@pytest.fixture(scope="module")
def rules():
    return regnum.load(f"rulesets/variants/{VARIANT}.rules")


@pytest.fixture(scope="module")
def base_rules():
    return regnum.load("kingdom_builder")


def test_the_baseline_names_the_variant(rules):
    """``VARIANTS`` holds the name the variant's ``variant NAME of`` line declares."""
    assert rules.model.variant == VARIANT and rules.model.name == "kingdom_builder"
    assert VARIANT in baseline.VARIANTS
    with pytest.raises(ValueError):
        baseline.KingdomBuilder(2, seed=0, variant="no_such_variant")


# -- the two tie rules, from the sector counts (an oracle independent of both sides) -----------

def lords_gold(counts: list, rule: str) -> list:
    """One sector's Lords gold, ``counts`` the settlements of each player there. "shared" (the
    base game, A2): the most 12, the next-lower distinct count 6. "places" (the variant): a
    player's place is 1 + the players with more; place 1 takes 12, place 2 takes 6."""
    levels = sorted({c for c in counts if c > 0}, reverse=True)
    gold = []
    for c in counts:
        if c <= 0:
            gold.append(0)
        elif rule == "shared":
            gold.append((12, 6)[levels.index(c)] if levels.index(c) < 2 else 0)
        else:
            place = sum(1 for d in counts if d > c)
            gold.append((12, 6)[place] if place < 2 else 0)
    return gold


def sector_counts(b) -> list:
    """The settlements of each player in each of the four sectors (top left .. bottom right)."""
    return [[sum(1 for rc in b.settlements(p) if b.sector[baseline.cell_of(rc)] == q) for p in range(b.n)]
            for q in range(4)]


def lords_difference(b) -> list:
    """What the variant pays each player minus what the base game pays, when the Lords score."""
    if "Lords" not in b.goals:
        return [0] * b.n
    out = [0] * b.n
    for counts in sector_counts(b):
        for p, (mine, theirs) in enumerate(zip(lords_gold(counts, "places"), lords_gold(counts, "shared"))):
            out[p] += mine - theirs
    return out


def test_the_tie_rules_of_the_oracle():
    """KB-8's sectors, and a tie for second, under both rules."""
    assert lords_gold([6, 6, 2, 0], "shared") == [12, 12, 6, 0]
    assert lords_gold([6, 6, 2, 0], "places") == [12, 12, 0, 0]
    assert lords_gold([0, 4, 4, 3], "shared") == [0, 12, 12, 6]
    assert lords_gold([0, 4, 4, 3], "places") == [0, 12, 12, 0]
    assert lords_gold([5, 3, 3, 1], "shared") == lords_gold([5, 3, 3, 1], "places") == [12, 6, 6, 0]
    assert lords_gold([1, 0, 0, 0], "shared") == lords_gold([1, 0, 0, 0], "places") == [12, 0, 0, 0]


# -- move by move --------------------------------------------------------------------------------

def baseline_from_interpreter(game):
    """The base test's baseline_from_interpreter (the interpreter's setup read back, its
    generator for the reshuffles), playing the variant."""
    b = base.baseline_from_interpreter(game)   # checks the boards agree
    state = game.state
    generator = {"state": state.rng}

    def shuffle(items: list) -> None:
        generator["state"] = regnum_rng.shuffle(generator["state"], items)

    deck = list(b._pile) + [c for c in reversed(b.hand[1:])] + [b.played]   # top last, as dealt
    return baseline.KingdomBuilder(game.players, sections=b.sections, turned=b.turned, goals=b.goals,
                                   deck=deck, shuffle=shuffle, variant=VARIANT)


def play_both(rules, base_rules, players: int, seed: int, drive: str, goals=None) -> tuple:
    """Both sides on the same moves, compared after each; when the variant's tie rule changes
    the Lords' gold, the same moves replayed on the base ruleset must score exactly that much
    differently. Returns (game, baseline, history, variant minus base gold per player)."""
    options = {"goal_cards": goals} if goals else None
    game = rules.new_game(players=players, seed=seed, narrate=False, options=options)
    b = baseline_from_interpreter(game)
    rng = random.Random(seed)
    history: list = []
    base.assert_same(game, b, history)
    while not game.is_over and len(history) < MOVE_BOUND:
        if drive == "interpreter":
            move = rng.choice(game.all_legal_moves())
        else:
            move = base.to_interpreter_move(rng.choice(b.legal_moves()))
        base.step_both(game, b, history, move)
    assert game.is_over and b.is_over, "the game did not end within the move bound"
    assert game.winners == b.winners
    assert game.scores == b.scores
    difference = lords_difference(b)
    if any(difference):
        plain = base_rules.new_game(players=players, seed=seed, narrate=False, options=options)
        for move in history:
            plain.play(base.to_interpreter_move(move))
        assert plain.is_over
        assert [v - w for v, w in zip(game.scores, plain.scores)] == difference
    return game, b, history, difference


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_random_games_agree_move_by_move(rules, base_rules, players, seed):
    play_both(rules, base_rules, players, seed, "interpreter")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(1000, 1002))
def test_moves_drawn_from_the_baseline_are_legal_in_the_interpreter(rules, base_rules, players, seed):
    play_both(rules, base_rules, players, seed, "baseline")


LORDS_SEEDS = {2: range(4), 3: range(20), 4: range(20)}


@pytest.mark.parametrize("players, seed", [(n, s) for n, seeds in LORDS_SEEDS.items() for s in seeds])
def test_games_scoring_the_lords_agree_move_by_move(rules, base_rules, players, seed):
    """The option goal_cards=Lords,Hermits,Citizens: the Lords score in every game."""
    play_both(rules, base_rules, players, seed, "interpreter", goals=LORDS_CARDS)


def test_a_tie_for_first_is_paid_the_variants_way_in_both(rules, base_rules):
    """4 players, seed 1, the Lords named, uniform picks: a sector's tie for first leaves its
    third player without the 6 the base game pays, in the interpreter and in the baseline alike
    (and the base ruleset, on the same moves, pays it)."""
    game, b, history, difference = play_both(rules, base_rules, 4, 1, "interpreter", goals=LORDS_CARDS)
    assert sorted(difference) == [-6, 0, 0, 0]
    assert any(lords_gold(c, "places") != lords_gold(c, "shared") for c in sector_counts(b))


def replay_on_baseline(players: int, seed: int, goals) -> list:
    """The variant minus base Lords gold of a game the move-by-move tests play (uniform picks
    from the same list, in the same order; the baseline's own setup of a seed is the
    interpreter's, which the test below checks with the cards named)."""
    b = baseline.KingdomBuilder(players, seed=seed, goals=goals, variant=VARIANT)
    rng = random.Random(seed)
    while not b.is_over:
        b.play(*rng.choice(b.legal_moves()))
    return lords_difference(b)


def test_the_changed_rule_is_reached():
    """In several of the games played move by move above, a tie for first in a sector leaves
    a lower player there without 6 gold: the changed rule is reached (and, by play_both,
    compared with the base ruleset's score). 8 games today: 3 players, seeds 4, 6, 12, 14 and
    4 players, seeds 1, 6, 14 with the Lords named; 4 players, seed 4 with the cards drawn."""
    reached = []
    for players, seeds in LORDS_SEEDS.items():
        for seed in seeds:
            if any(replay_on_baseline(players, seed, LORDS_CARDS)):
                reached.append((players, seed))
    for players in (2, 3, 4):
        for seed in range(6):
            if any(replay_on_baseline(players, seed, None)):
                reached.append((players, seed))
    assert len(reached) >= 6, reached
    assert all(players > 2 for players, _ in reached)   # two players never differ


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 23])
def test_a_seed_with_the_lords_named_gives_the_same_setup_on_both_sides(rules, players, seed):
    """With goal_cards named the setup draws no goals: the baseline's own setup of the seed
    (the cards given) is the interpreter's, and so is the generator's state."""
    game = rules.new_game(players=players, seed=seed, narrate=False, options={"goal_cards": LORDS_CARDS})
    mine = base.baseline_from_interpreter(game)
    theirs = baseline.KingdomBuilder(players, seed=seed, goals=LORDS_CARDS, variant=VARIANT)
    assert (theirs.sections, theirs.turned, theirs.goals) == (mine.sections, mine.turned, mine.goals)
    assert base.snapshot_baseline(theirs) == base.snapshot_baseline(mine)
    assert theirs.shuffle.__self__.state == game.state.rng


def test_the_variant_and_the_base_game_score_differently(rules, base_rules):
    """4 players, seed 23, regnum's random policy (the cards drawn: Merchants, Lords, Citizens;
    the tie rule changes no legal move, so the same game in both): the base game gives seat 2
    46 gold and the win, the variant takes 6 of it away (a tie for first where seat 2 is third)
    and seat 1 wins with 42."""
    ties = play_random_game(rules, 4, 23, coverage=False)
    plain = play_random_game(base_rules, 4, 23, coverage=False)
    assert list(ties.state.vars["goals"]) == ["Merchants", "Lords", "Citizens"]
    assert (ties.move_count, ties.scores, ties.winners) == (150, [34, 42, 40, 41], [1])
    assert (plain.move_count, plain.scores, plain.winners) == (150, [34, 42, 46, 41], [2])
    assert baseline.bench_game(4, 23, 10_000, variant=VARIANT) == (150, [34, 42, 40, 41])
    assert baseline.bench_game(4, 23, 10_000) == (150, [34, 42, 46, 41])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bench_game_plays_regnums_random_game(rules, players):
    """``regnum bench``'s check on the variant: the same (moves, final scores) as
    play_random_game, also when ``max_moves`` stops the game early."""
    for seed in list(range(12)) + [23, 26, 164]:
        game = play_random_game(rules, players, seed, coverage=False)
        assert game.is_over
        moves, scores = baseline.bench_game(players, seed, 10_000, variant=VARIANT)
        assert (moves, list(scores)) == (game.move_count, list(game.scores)), seed
    stopped = play_random_game(rules, players, 5, max_moves=40, coverage=False)
    assert baseline.bench_game(players, 5, 40, variant=VARIANT) == (40, list(stopped.scores))
