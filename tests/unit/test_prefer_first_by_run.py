"""A prefer `A or …` (or `A and …`) whose first test A reads some of the parameters the
condition reads, not all, and mentions no context, judges A once per run of moves sharing
those values (compiler/prefers._Narrower._first_by_run): the moves, faults and steps of
decisions._narrow, which judges A for every move."""
from __future__ import annotations

import pytest

import regnum

from listings import preferred   # tests/unit is on the path of its tests
from toy_rules import load

RULES = """
game toy "Toy"
players 2..2
const weights = [2, 1, 0, 4]
piece chip:
    weight: int = 1
zone hand per player: public
flow:
    ask 0 to pick
setup:
    for w in weights:
        create 1 chip(weight: w) in hand(0) named "chip " + text(w)
action pick(t in hand(player), n in [1, 2, 3]):
    prefer PREFER
    pass
"""


def _rules(tmp_path, prefer: str, name: str = "toy.rules"):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REGNUM_CACHE_DIR", "off")
        return load(tmp_path, RULES.replace("PREFER", prefer), name)


def _source(rules) -> str:
    return rules.model.actions["pick"].prefers[0].narrow.source


@pytest.mark.parametrize("prefer, by_run", [
    ("light: t.weight < 2 or n == 3", True),
    ("light per t: t.weight < 2 and n > 1", True),
    ("light: n == 3 or t.weight < 2", True),          # the first test reads n alone
    ("light: t.weight + n < 4 or n == 3", False),     # reads every parameter the condition reads
    ("light: t.weight < 2", False),                    # one test: the condition itself
])
def test_which_first_tests_are_judged_once_per_run(tmp_path, prefer, by_run):
    rules = _rules(tmp_path, prefer)
    assert ("hs = " in _source(rules)) is by_run
    outcome, _, _ = preferred(rules.new_game(2), "pick")   # the same as decisions._narrow
    assert outcome[0] == "moves"


def test_the_moves_kept_are_those_narrow_keeps(tmp_path):
    rules = _rules(tmp_path, "light: t.weight < 2 or n == 3")
    outcome, _, hits = preferred(rules.new_game(2), "pick")
    kept = [(dict(args)["t"], dict(args)["n"]) for args, _ in outcome[1]]
    assert kept == [("chip 2", 3), ("chip 1", 1), ("chip 1", 2), ("chip 1", 3), ("chip 0", 1), ("chip 0", 2),
                    ("chip 0", 3), ("chip 4", 3)]
    assert hits["prefer:pick.light"] == 1


def test_a_first_test_that_fails_fails_at_the_first_move_of_its_run(tmp_path):
    # The chip of weight 4, the last, has no item in a list of three: its moves come after
    # nine others, whose first test held.
    rules = _rules(tmp_path, "light: [1, 1, 1][t.weight] > 0 or n == 3")
    assert "hs = " in _source(rules)
    outcome, _, _ = preferred(rules.new_game(2), "pick")   # the same fault as decisions._narrow
    assert outcome[:2] == ("raised", "EvalError") and outcome[2] == "no item 4 in [1, 1, 1]"


def test_kingdom_builder_judges_a_tile_once_per_run_of_its_moves():
    source = regnum.load("kingdom_builder").model.actions["move_with_tile"].prefers[0].narrow.source
    assert "hs = (_s_pieces[v0]['kind'] == 'Paddock')" in source and "if v0 is not w0:" in source
