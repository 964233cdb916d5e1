"""A `score` statement calls its scoring's function with the arguments as they are (the
native procedure's source names the function; the VM's instruction holds it): no lookup by
name, no environment made of the arguments, the payments written into the scores directly.
The scoring's entries come from one generated function when Python can compile it, else
from the closures of the source, needs, pays, places and measure; both give the same
rankings, payments, coverage and errors."""
from __future__ import annotations

import re

import pytest

import regnum
from regnum.compiler import native

from listings import assert_alike, played   # tests/unit is on the path of its tests
from toy_rules import load, load_switched

# Three seats holding 4, 4 and none: scored by the flow (the VM's instruction, `as R` bound)
# and by a rule the compiler makes native (a Python function), with a tie-break key,
# a threshold, places and each block policy.
RULES = """
game toy "Toy"
players 3..3
var held per player: int = [4, 4, 0][player]
var chips per player: int = 0
var seen: list of int = []
flow:
    score area(1) as result
    set seen = [e.player * 100 + e.place * 10 + e.points for e in result]
    run award(2)
    ask 0 to wait
rule award(extra):
    score area(extra)
    score keyed()
    add 1 to chips(0)
action wait():
    pass
scoring area(bonus):
    majority held(p) for p in players
    pays [10 + bonus, 6, 3]
    places 3
    needs 1
    ties {policy}
scoring keyed():
    majority held(p) for p in players
    pays [5, 2, 1]
    ties by lowest p
"""

# (seen by the flow's `as result`, the scores after the three scorings), for each policy:
# area(1) pays [11, 6, 3], area(2) [12, 6, 3], to P0 and P1 tied (P2 holds none: `needs 1`
# leaves P2 out of the ranking); keyed pays P0 5 and P1 2 (the lowest seat first), P2 1.
EXPECTED = {
    "take_lowest": ([0 + 10 + 6, 100 + 10 + 6], [6 + 6 + 5, 6 + 6 + 2, 1]),
    "take_highest": ([0 + 10 + 11, 100 + 10 + 11], [11 + 12 + 5, 11 + 12 + 2, 1]),
    "share_rank": ([0 + 10 + 11, 100 + 10 + 11], [11 + 12 + 5, 11 + 12 + 2, 1]),
    "split_evenly": ([0 + 10 + 8, 100 + 10 + 8], [8 + 9 + 5, 8 + 9 + 2, 1]),
}
NARRATED = {   # what the game narrates of its three scorings, in order
    "take_lowest": ["  area pays P0 +6, P1 +6", "  area pays P0 +6, P1 +6", "  keyed pays P0 +5, P1 +2, P2 +1"],
    "split_evenly": ["  area pays P0 +8, P1 +8", "  area pays P0 +9, P1 +9", "  keyed pays P0 +5, P1 +2, P2 +1"],
}


def _gather(rules, scoring: str):
    """The generated function a scoring reads its entries from (None: the closures)."""
    run = rules.model.scorings[scoring].run
    return dict(zip(run.__code__.co_freevars, run.__closure__))["gather"].cell_contents


def _both(tmp_path, text: str | None, name: str):
    """The ruleset loaded with its scorings' entries from the generated function, and from the
    closures."""
    generated = load_switched(tmp_path, text, name, [])
    closures = load_switched(tmp_path, text, name, [(native.NativeCompiler, "scoring_entries",
                                                     lambda self, decl: None)])
    for scoring in generated.model.scorings:
        assert _gather(generated, scoring) is not None and _gather(closures, scoring) is None
    return generated, closures


@pytest.mark.parametrize("policy", sorted(EXPECTED))
def test_each_policy_pays_the_same_by_the_flow_and_by_a_native_rule(tmp_path, policy):
    seen, scores = EXPECTED[policy]
    for rules in _both(tmp_path, RULES.replace("{policy}", policy), f"{policy}.rules"):
        game = rules.new_game(players=3, seed=0, coverage=True)
        assert "rule:award" in rules.model.natives
        assert game.state.vars["seen"] == seen
        assert game.scores == scores
        assert [game.state.pvars[p]["chips"] for p in range(3)] == [1, 0, 0]
        assert (game.hits["scoring:area"], game.hits["scoring:keyed"]) == (2, 1)
        # P0 and P1 tie in each scoring: the block policy decides twice, the key once.
        assert game.hits[f"tiebreak:area.{policy}"] == 2
        assert game.hits["tiebreak:keyed.by lowest p"] == 1
        if policy in NARRATED:
            assert [e for e in game.events if " pays " in e] == NARRATED[policy]


def test_the_native_rule_calls_the_scorings_function(tmp_path):
    rules = load(tmp_path, RULES.replace("{policy}", "take_lowest"))
    award = rules.model.natives["rule:award"]
    names = award.__code__.co_names
    called = [n for n in names if re.fullmatch(r"_sc\d+", n)]
    assert len(called) == 2
    assert [award.__globals__[n] for n in called] == [rules.model.scorings["area"].run,
                                                      rules.model.scorings["keyed"].run]
    assert "score" not in names   # no c.score(name, …)


def test_kings_roads_region_scoring_is_called_with_the_region():
    rules = regnum.load("kings_road")
    score_region = rules.model.natives["rule:score_region"]
    [called] = [n for n in score_region.__code__.co_names if re.fullmatch(r"_sc\d+", n)]
    assert score_region.__globals__[called] is rules.model.scorings["region_majority"].run
    assert rules.model.scorings["region_majority"].params == ("r",)


def test_the_paid_scores_are_undone_with_a_refused_move(tmp_path):
    # The payments are journal entries like any write: a fault after them leaves the state as
    # it was before the move.
    text = RULES.replace("{policy}", "take_lowest").replace("    ask 0 to wait\n", "    ask 0 to wait\n    score area(1)\n") \
        .replace("action wait():\n    pass", "action wait():\n    score area(1)\n    add 1 to chips(5)")
    game = load(tmp_path, text).new_game(players=3, seed=0)
    before = game.to_dict()
    [move] = game.legal_moves(0)
    with pytest.raises(regnum.RulesetError) as err:
        game.play(move)
    [diagnostic] = err.value.diagnostics
    assert (diagnostic.code, diagnostic.message) == ("E902", "5 is not a seat of this game (seats are 0–2)")
    assert game.to_dict() == before   # the scores the move's scoring paid were taken back
    assert game.to_dict() == before


@pytest.mark.parametrize("kind", ["flow", "rule"])
def test_a_failing_measure_is_located_at_the_score(tmp_path, kind):
    text = RULES.replace("{policy}", "take_lowest").replace("majority held(p) for p in players\n    pays [10",
                                                            "majority [4, 4][p] for p in players\n    pays [10")
    if kind == "rule":   # the flow's own scoring left out: the native rule's fails first
        text = text.replace("    score area(1) as result\n    set seen = [e.player * 100 + e.place * 10 + e.points for e in result]\n", "")
    for rules in _both(tmp_path, text, f"{kind}.rules"):
        with pytest.raises(regnum.RulesetError) as err:
            rules.new_game(players=3, seed=0)
        [diagnostic] = err.value.diagnostics
        lines = text.split("\n")   # as written in the file (load dedents nothing here)
        line = lines.index("    score area(1) as result" if kind == "flow" else "    score area(extra)") + 1
        assert (diagnostic.code, diagnostic.span.line) == ("E902", line)
        assert "no item 2 in [4, 4]" in diagnostic.message


@pytest.mark.parametrize("name", ["kings_road", "kings_gate", "kingdom_builder",
                                  "rulesets/variants/lords_ties_use_up_second.rules"])
def test_bundled_games_are_the_same_from_either_entries(tmp_path, name):
    generated, closures = _both(tmp_path, None, name)
    moves = 400 if name == "kings_road" else 70
    for seed, coverage in [(1, False), (2, True)]:
        a = played(generated, seed, 4, moves, coverage)
        b = played(closures, seed, 4, moves, coverage)
        assert_alike(a, b)
        if coverage and name == "kings_road":
            assert a.hits["scoring:region_majority"] > 0
