"""A comparison or a membership test written as a statement sets `ok` to its own value, a
truth value, without `not not` (conditions.truth_lines): kept values of such searches are
still truth values, and the games are those the tests record (test_native_shapes)."""
from __future__ import annotations

import re

import regnum
import regnum.agents as agents


def test_a_comparison_sets_ok_to_a_truth_value_and_kept_values_stay_truth_values():
    rules = regnum.load("kingdom_builder")
    game = agents.play_random_game(rules, 4, 0, coverage=False)
    entries = game.state.memo.entries
    assert len(entries) > 100
    assert {type(value) for value, _, _ in entries.values()} == {bool}
    source = rules.model.actions["build_with_tile"].lister.source
    assert re.search(r"\n +ok = _in_fixed\(c, ", source) and "ok = not not (_in_fixed(" not in source
    assert re.search(r"\n +ok = \(fv0 != 'Tavern'\)", source)


def test_a_value_that_is_not_a_comparison_keeps_its_conversion(tmp_path):
    from toy_rules import load   # tests/unit is on the path of its tests
    rules = load(tmp_path, """
    game toy "Toy"
    players 2..2
    var open_now: bool = true
    flow:
        repeat until false:
            ask 0 to pick
    action pick(k in [0, 1, 2], j in [0, 1]):
        prefer open: open_now else "closed"
        prefer high: k > j else "low"
        pass
    """)
    first, second = (clause.narrow.source for clause in rules.model.actions["pick"].prefers)
    assert "ok = not not (_s_vars['open_now'])" in first   # a variable: made a truth value
    assert "ok = (v0 > v1)" in second and "not not" not in second
    game = rules.new_game(2)
    assert [(m.args["k"], m.args["j"]) for m in game.legal_moves(0)] == [(1, 0), (2, 0), (2, 1)]
