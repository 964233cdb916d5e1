"""A `range` whose bounds are known at load and which is only gone through — `first(i for
i in range(1, size + 1) where …)`, size a constant — is made once, at load, and charged and
bounded at every use as a range made there is (codegen._known_range, helpers._range_known):
the same moves, steps, faults and limits as when made at every use. A range kept as a value,
one passed to a builtin, one whose bounds a game decides, and one past KNOWN_RANGE items are
made as the game runs.
Reversi, which looks along each direction with such a range, plays the same games either
way."""
from __future__ import annotations

from pathlib import Path

import pytest

from regnum import LimitExceeded, Limits
from regnum.agents import play_random_game
from regnum.compiler import codegen

from listings import assert_alike, both   # tests/unit is on the path of its tests
from toy_rules import load_switched, sources_written

RULES = """
game toy "Toy"
players 2..2
const size = 4
var width: int = 3
var kept: list of int = []
def reach(v) = first(i for i in range(1, size + 1) where i * v > 6)
flow:
    repeat 2 times:
        ask 0 to pick
action pick(v in [1, 2, 3, 7]):
    require far: reach(v) != none else "nothing reaches past 6"
    require wide: any(i == v for i in range(width)) or v > 2 else "narrow"
    set kept = range(size)
    add count(i for i in range(2000, 7000) where i > 6990) + sum(range(-2, 3)) to score(0)
"""


def _rules(tmp_path, at_load: bool, name: str):
    return load_switched(tmp_path, RULES, name, [(codegen, "RANGES_AT_LOAD", at_load)])


def _written(tmp_path, at_load: bool, name: str) -> str:
    """The sources written as the ruleset loads and a game lists and plays a move."""
    def run():
        game = _rules(tmp_path, at_load, name).new_game(2, 0)
        game.play(game.legal_moves(0)[-1])
    return sources_written(run)


def test_a_known_range_gone_through_is_made_at_load(tmp_path):
    made = _rules(tmp_path, True, "made.rules")
    lister = made.model.actions["pick"].lister.source
    assert "_range_known(c, _range" in lister and ", 1, 5)" in lister   # range(1, size + 1)
    assert "_range(c, c.state.vars['width'])" in lister or "_range(c, _s_vars['width'])" in lister
    plain = _rules(tmp_path, False, "plain.rules")
    assert "_range_known" not in plain.model.actions["pick"].lister.source


def test_the_same_moves_steps_and_coverage(tmp_path):
    made = _rules(tmp_path, True, "made.rules").new_game(2, 0)
    plain = _rules(tmp_path, False, "plain.rules").new_game(2, 0)
    outcome, steps, hits = both(made, "pick")
    assert [dict(args)["v"] for args, _ in outcome[1]] == [2, 3, 7]
    assert hits == {"require:pick.far": 1}
    # the four choices; reach(v): the range's 4 items made, then gone through (4 each), and
    # `width`'s range (3 made, 3 gone through) for the three that reach
    assert steps == 4 + 4 * (4 + 4) + 3 * (3 + 3)
    assert both(plain, "pick") == (outcome, steps, hits)


def test_a_game_plays_alike(tmp_path):
    made = _rules(tmp_path, True, "made.rules").new_game(2, 0)
    plain = _rules(tmp_path, False, "plain.rules").new_game(2, 0)
    for game in (made, plain):
        for _ in range(2):
            game.play(game.legal_moves(0)[-1])
    assert_alike(made, plain)
    assert made.evaluate("kept") == [0, 1, 2, 3] and made.scores == [2 * 9, 0]


def test_a_value_an_argument_and_a_long_range_are_made_at_use(tmp_path):
    written = _written(tmp_path, True, "made.rules")
    assert "c.set_var('kept', c.fit(_range(c, _k" in written          # kept as a value: range(size)
    assert "in _walk(c, _range(c, 2000, 7000))" in written           # past KNOWN_RANGE
    assert "_walk_items(c, _range(c, (-2), 3))" in written           # a builtin's argument: sum(range(-2, 3))
    assert written.count("_range_known(") == 5   # reach's, at load and in each of the 4 choices of v


@pytest.mark.parametrize("at_load", [True, False])
def test_a_known_range_past_the_value_limit_fails_as_one_made(tmp_path, at_load):
    rules = _rules(tmp_path, at_load, f"limit{at_load}.rules")
    game = rules.new_game(2, 0, limits=Limits(value_size=3))
    with pytest.raises(LimitExceeded) as raised:
        game.legal_moves(0)
    assert "range(1, 5) would be a list of 4 items, past the limit of 3" in str(raised.value)
    assert "toy.rules" not in str(raised.value) and f"limit{at_load}.rules:" in str(raised.value)


def test_reversi_plays_the_same_games(tmp_path):
    reversi = Path(__file__).resolve().parents[2] / "benchmarks" / "unseen" / "reversi.rules"
    text = reversi.read_text(encoding="utf-8")
    made = load_switched(tmp_path, text, "made.rules", [(codegen, "RANGES_AT_LOAD", True)])
    plain = load_switched(tmp_path, text, "plain.rules", [(codegen, "RANGES_AT_LOAD", False)])
    assert "_range_known(c, _range" in made.model.actions["place"].lister.source
    for seed in range(2):
        a, b = play_random_game(made, 2, seed), play_random_game(plain, 2, seed)
        assert_alike(a, b)
        assert sum(a.scores) == sum(b.scores) >= 60
