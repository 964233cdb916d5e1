"""A game made with coverage=False counts no coverage (`game.hits` is None) and plays exactly
the game it plays with coverage on: the same moves, states, narration, steps, refusals and
faults. Simulations and the benchmark play that way; the fuzzer counts coverage."""
from __future__ import annotations

import pytest

import regnum
from regnum import IllegalMove, LimitExceeded, Move, RulesetError
from regnum.agents import play_random_game
from regnum.simulate import simulate
from toy_rules import load   # tests/unit is on the path of its tests

RULESETS = ["kings_road", "rulesets/variants/permanent_nobles.rules", "kingdom_builder", "kings_kilt",
            "kings_gate"]


def _played(game):
    return game.to_json(), list(game.events), game.to_move, game.move_count, game.peak_steps, game.log


@pytest.mark.parametrize("name", RULESETS)
def test_a_game_without_coverage_is_the_same_game(name):
    rules = regnum.load(name)
    for players, seed in [(2, 3), (4, 1)]:
        counted = play_random_game(rules, players, seed, max_moves=400, narrate=True)
        uncounted = play_random_game(rules, players, seed, max_moves=400, narrate=True, coverage=False)
        assert _played(uncounted) == _played(counted)
        assert uncounted.hits is None
        assert counted.hits[f"action:{counted.log.moves[0].action}"] > 0
        # A copy keeps counting nothing, and goes on as the original would.
        copy = uncounted.copy()
        assert copy.hits is None
        if not copy.is_over:
            move = copy.all_legal_moves()[0]
            copy.play(move)
            counted.play(move)
            assert _played(copy) == _played(counted)


def test_a_refused_move_and_a_fault_without_coverage_change_nothing_and_say_the_same(tmp_path):
    rules = load(tmp_path, """
game tally "Tally"
players 2..2
var total: int = 0
flow:
    repeat until false:
        ask 0 to give
action give(k in [2, 1, 0]):
    require small: k < 2 else "at most one"
    if k == 1:
        add 1 to total
    else:
        add 10 // k to total
""")
    messages = []
    for coverage in (True, False):
        game = rules.new_game(2, coverage=coverage)
        before = game.to_json()
        with pytest.raises(IllegalMove) as refused:
            game.play(Move(0, "give", {"k": 2}))
        with pytest.raises(RulesetError) as failed:
            game.play(Move(0, "give", {"k": 0}))   # 10 // 0
        assert game.to_json() == before
        game.play(Move(0, "give", {"k": 1}))
        messages.append((str(refused.value), str(failed.value), game.to_json()))
        assert (game.hits is None) is (not coverage)
        if coverage:
            assert game.hits == {"require:give.small": 1, "action:give": 1, "branch:action:give@10": 1}
    assert messages[0] == messages[1]


def test_limits_hold_without_coverage(tmp_path):
    rules = load(tmp_path, """
game loop "Loop"
players 2..2
var total: int = 0
flow:
    ask 0 to spin
action spin():
    repeat 50 times:
        add 1 to total
""")
    for coverage in (True, False):
        game = rules.new_game(2, limits=regnum.Limits(steps=20), coverage=coverage)
        before = game.to_json()
        with pytest.raises(LimitExceeded, match="more than 20 steps"):
            game.play(game.all_legal_moves()[0])
        assert game.to_json() == before


def test_coverage_is_a_yes_or_no():
    with pytest.raises(ValueError, match="coverage is true or false, not 'no'"):
        regnum.load("kings_road").new_game(3, coverage="no")


def test_a_simulation_counts_no_coverage_and_reports_the_same_results():
    rules = regnum.load("kings_kilt")
    results = simulate("kings_kilt", players=3, games=4, seed=5, jobs=1, rules=rules)
    assert [result.seed for result in results.games] == [5, 6, 7, 8]
    for result in results.games:
        game = play_random_game(rules, 3, result.seed)
        assert (result.moves, list(result.scores)) == (game.move_count, game.scores)
