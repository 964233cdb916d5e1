"""What the code generator writes for some shapes of ruleset code, and that it lists exactly
the moves, coverage, steps and faults of the generic walk (listings.both) and the values the
definition gives: a last loop over a few literals written out once per value with the value
known (steps in that direction read from the board's table, constant items computed at
load), a small def with a repeated argument inlined through an assignment expression (never
in a comprehension's source, where Python refuses one), domains written into the lister and
kept per value by `get`, lists of distinct texts not de-duplicated again, zone keys read from
a plain dict, `none` compared by identity and whole-number constants folded."""
from __future__ import annotations

import re
import textwrap

from regnum.engine import decisions

from listings import both, observe   # tests/unit is on the path of its tests
from toy_rules import load

RULES = """
game toy "Toy"
players 2..2
board pyr: pyramid
    rows = 3
piece stone:
    owner: player
zone spot per pyr: public
const side = {"up_left": "left", "up_right": "right"}
const top = 3
const under = 1
setup:
    create 1 stone(owner: 0) in spot(cell(pyr, 1, 0))
    create 1 stone(owner: 0) in spot(cell(pyr, 1, 1))
    create 1 stone(owner: 0) in spot(cell(pyr, 1, 2))
    create 1 stone(owner: 0) in spot(cell(pyr, 2, 0))
flow:
    repeat until false:
        ask 0 to climb or odd or peek or pick or twin or link or echo
def filled(s) = s != none and count(spot(s)) > 0
def twice(x) = [x, x]
action climb(from in [s for s in pyr where filled(s)], way in ["up_left", "up_right"]):
    require low: from.row <= top - under
    require room: not filled(step(pyr, from, way))
    require support: filled(step(pyr, from, side[way]))
    pass
action odd(from in [s for s in pyr where filled(s)], way in ["up_left", "up_right", "sideways"]):
    require left_side: side[way] == "left" or from == none
    pass
action peek(t in ["(1,0)", "(9,9)"]):
    require empty: count(spot(t)) == 0
    pass
action pick(v in [none, 0, 2]):
    require some: v != none
    pass
action twin(v in [y for y in twice(count(spot(cell(pyr, 1, 0))))]):
    pass
action link(k in [1, 2], a in [s for s in pyr where filled(s)], b in [n for n in neighbours(pyr, a) where filled(n)]):
    pass
action echo(a in [s for s in pyr where filled(s)], b in [n for n in [a, a]]):
    pass
"""


def _game(tmp_path):
    rules = load(tmp_path, textwrap.dedent(RULES))
    assert all(a.lister is not None for a in rules.model.actions.values())
    return rules.new_game(2)


def _source(game, action: str) -> str:
    return game.model.actions[action].lister.source


def _moves(outcome) -> list:
    kind, found = outcome
    assert kind == "moves"
    return [dict(args) for args, _ in found]


def _walk_steps(game, action: str) -> int:
    return observe(decisions._enumerate_generic, game, game.model.actions[action], 0)[1]


def test_a_last_loop_over_literals_is_written_per_value_with_steps_and_items_known(tmp_path):
    game = _game(tmp_path)
    source = _source(game, "climb")
    # One loop per value, each with what the value decides computed at load: the steps in
    # that direction and to the side read from the board's tables, `side[way]` gone.
    assert "for v1 in ('up_left',):" in source and "for v1 in ('up_right',):" in source
    assert "for v1 in it1" not in source and "_index(" not in source and "_bf" not in source
    # `filled(step(…))`: the def written out, its argument computed once into a local.
    assert ":=" in source and "_filled(" not in source
    assert "<= 2)" in source   # top - under, folded
    outcome, steps, hits = both(game, "climb")
    assert _moves(outcome) == [{"from": "(1,1)", "way": "up_right"}, {"from": "(1,2)", "way": "up_left"}]
    assert hits == {"require:climb.room": 2, "require:climb.support": 4}
    assert steps == _walk_steps(game, "climb")


def test_a_constant_item_that_does_not_exist_still_fails_where_the_game_reads_it(tmp_path):
    game = _game(tmp_path)
    source = _source(game, "odd")
    assert "for v1 in ('sideways',):" in source
    assert source.count("_index(") == 1   # only the value with no item is looked up as the game runs
    outcome, _, _ = both(game, "odd")
    assert outcome == ("raised", "EvalError", "no item 'sideways' in {'up_left': 'left', 'up_right': 'righ…")


def test_a_zone_key_is_read_from_a_plain_dict_and_a_missing_one_fails_as_before(tmp_path):
    game = _game(tmp_path)
    assert re.search(r"_zk\d+\.get\(\(?v0\)?\) or _z\d+\[\(?v0\)?\]", _source(game, "peek"))
    outcome, _, _ = both(game, "peek")
    assert outcome == ("raised", "EvalError", "spot('(9,9)') is not a zone")


def test_none_is_compared_by_identity(tmp_path):
    game = _game(tmp_path)
    assert "is not None" in _source(game, "pick") and "!= None" not in _source(game, "pick")
    outcome, _, hits = both(game, "pick")
    assert _moves(outcome) == [{"v": 0}, {"v": 2}]   # 0 is not none
    assert hits == {"require:pick.some": 1}


def test_no_assignment_expression_in_a_comprehensions_source(tmp_path):
    game = _game(tmp_path)   # compiled at all: Python refuses `:=` in a comprehension's source
    assert ":=" not in _source(game, "twin") and "_twice(" in _source(game, "twin")
    outcome, _, _ = both(game, "twin")
    assert _moves(outcome) == [{"v": 1}]


def test_domains_are_written_into_the_lister_and_kept_per_value(tmp_path):
    game = _game(tmp_path)
    source = _source(game, "link")
    assert "_dom" not in source and "e['a']" not in source
    assert "f2 = m2.get(k)" in source and "_m_KeyError" not in source
    # The cells of a board and their neighbours are distinct: not de-duplicated again.
    assert "_m_unique" not in source
    outcome, steps, _ = both(game, "link")
    pairs = [("(1,0)", "(1,1)"), ("(1,0)", "(2,0)"), ("(1,1)", "(1,0)"), ("(1,1)", "(1,2)"), ("(1,1)", "(2,0)"),
             ("(1,2)", "(1,1)"), ("(2,0)", "(1,0)"), ("(2,0)", "(1,1)")]
    assert _moves(outcome) == [{"k": k, "a": a, "b": b} for k in (1, 2) for a, b in pairs]
    assert steps == _walk_steps(game, "link")


def test_a_domain_that_may_repeat_a_value_is_still_de_duplicated(tmp_path):
    game = _game(tmp_path)
    assert "_m_unique(d)" in _source(game, "echo")
    outcome, _, _ = both(game, "echo")
    assert _moves(outcome) == [{"a": a, "b": a} for a in ("(1,0)", "(1,1)", "(1,2)", "(2,0)")]
