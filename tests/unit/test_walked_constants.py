"""A builtin that goes through a list bound at load — `next(hollow, at)` over an enum's
members, `index(order, h)` over a constant — charges the steps it always charged (each item,
and each text's characters), counted once at load (codegen.CodeGen._walked) instead of
measured again at every call: the same moves, steps, coverage and faults as when measured,
with the count written into the code. Kalah, which sows with `next(hollow, at)`, plays the
same games either way."""
from __future__ import annotations

from pathlib import Path

import regnum
from regnum.agents import play_random_game
from regnum.compiler import codegen

from listings import assert_alike, both   # tests/unit is on the path of its tests
from toy_rules import load_switched, sources_written

RULES = """
game toy "Toy"
players 2..2
enum hollow: a, bb, ccc, dddd
const order = [dddd, a, ccc, bb]
const scores = [5, 7, 9]
const rows = [[1, 2], [3]]
var at: hollow = a
flow:
    repeat 3 times:
        ask 0 to sow
action pick(h in hollow):
    require after: next(hollow, h) != a else "the last hollow is followed by the first"
    pass
action sow():
    set at = next(hollow, at, index(order, at) + 1)
    add sum(scores) + count(unique(rows)) to score(0)
"""


def _rules(tmp_path, at_load: bool, name: str):
    return load_switched(tmp_path, RULES, name, [(codegen, "WALKED_AT_LOAD", at_load)])


def test_an_enums_members_are_charged_as_when_measured(tmp_path):
    counted = _rules(tmp_path, True, "counted.rules").new_game(2, 0)
    measured = _rules(tmp_path, False, "measured.rules").new_game(2, 0)
    outcome, steps, hits = both(counted, "pick")
    assert [dict(args)["h"] for args, _ in outcome[1]] == ["a", "bb", "ccc"]
    assert hits == {"require:pick.after": 1}
    # The four members, then each `next` through them: 4 items and 1 + 2 + 3 + 4 characters.
    assert steps == 4 + 4 * (4 + 10)
    assert both(measured, "pick") == (outcome, steps, hits)


def test_the_count_is_written_into_the_code(tmp_path):
    counted = _rules(tmp_path, True, "counted.rules")
    measured = _rules(tmp_path, False, "measured.rules")
    source = counted.model.actions["pick"].lister.source
    assert "_charged(c, 14, _k" in source and "_walk_items" not in source
    assert "_walk_items(c, _k" in measured.model.actions["pick"].lister.source


def test_the_same_moves_and_steps_as_measured(tmp_path):
    counted = _rules(tmp_path, True, "counted.rules")
    measured = _rules(tmp_path, False, "measured.rules")
    a, b = counted.new_game(2, 0), measured.new_game(2, 0)
    for game in (a, b):
        for _ in range(3):
            game.play(game.legal_moves(0)[0])
    assert_alike(a, b)
    # a → (order's a is 1, so 2 on) ccc → (ccc is 2: 3 on) bb → (bb is 3: 4 on) bb
    assert a.evaluate("at") == "bb" and a.scores == [3 * (21 + 2), 0]
    # A move: what a move of an empty `sow` charges (3), `next` (14) and `index` (4 items, 10
    # characters), `sum` of three numbers, `unique` of two lists (2 items and their 3 items).
    assert a.peak_steps == b.peak_steps == 3 + 14 + 14 + 3 + 5


def _written(tmp_path, at_load: bool, name: str) -> str:
    """The sources written as the ruleset loads and a game lists and plays a move."""
    def run():
        game = _rules(tmp_path, at_load, name).new_game(2, 0)
        game.play(game.legal_moves(0)[0])
    return sources_written(run)


def test_each_constant_is_charged_what_it_holds(tmp_path):
    """A list of numbers is charged its length, its limit checked as `_walk` checks it; a list
    of lists its items and theirs; nothing bound at load is measured at a call."""
    written = _written(tmp_path, True, "counted.rules")
    assert "(_walk(c, _k" in written          # sum(scores): 3 numbers
    assert "(_charged(c, 5, _k" in written    # unique(rows): 2 lists, 3 numbers in them
    assert "(_charged(c, 14, _k" in written   # next(hollow, …), index(order, …): 4 texts of 10 characters
    assert "_walk_items(c, _k" not in written
    assert "_walk_items(c, _k" in _written(tmp_path, False, "measured.rules")


def test_kalah_plays_the_same_games(tmp_path):
    kalah = Path(__file__).resolve().parents[2] / "benchmarks" / "unseen" / "kalah.rules"
    text = kalah.read_text(encoding="utf-8")
    counted = load_switched(tmp_path, text, "counted.rules", [(codegen, "WALKED_AT_LOAD", True)])
    measured = load_switched(tmp_path, text, "measured.rules", [(codegen, "WALKED_AT_LOAD", False)])
    for seed in range(4):
        a = play_random_game(counted, 2, seed)
        b = play_random_game(measured, 2, seed)
        assert_alike(a, b)
        assert a.scores == b.scores and sum(a.scores) == 48
    assert "_walk_items" not in "".join(getattr(f, "source", "") for f in
                                        regnum.load(kalah).model.expressions.codegen.ns.values())
