"""A native procedure's `set T(x) = v` and `set p.f = v` hand the value to Ctx.set_table and
Ctx.set_field, which fit it (the limits checked, a text or a list counted towards the bound
on the state's size) as they do for the VM's instructions: once, not a second time before.
So a move's bound grows by what it stores, whichever way its body runs."""
from __future__ import annotations

import pytest

import regnum
from regnum import Move

from toy_rules import load   # tests/unit is on the path of its tests

RULES = """
game toy "Toy"
players 2..2
board map: graph
    nodes alpha, beta, gamma
    edges alpha - beta, beta - gamma
piece marker:
    note: str = ""
var names per map: str = "none"
var lists per map: list of int = []
zone pool: public
setup:
    create 1 marker() in pool
flow:
    repeat until false:
        for p in players:
            ask p to name or list or note or waiting
action name(h in map):
    set names(h) = "abcdefghij"
action list(h in map):
    set lists(h) = [1, 2, 3, 4]
action note():
    set pool[0].note = "twelve chars"
action waiting(h in map):
    run again(h, 0)
rule again(h, n):
    set names(h) = "abcdefghij"
    if n > 0:
        run again(h, n - 1)
"""


@pytest.fixture
def rules(tmp_path):
    return load(tmp_path, RULES)


def _grown(rules, move: Move) -> int:
    game = rules.new_game(2, seed=0, coverage=False)
    before = game._size_bound
    game.play(move)
    return game._size_bound - before


def test_a_native_body_counts_what_it_stores_once(rules):
    actions = rules.model.actions
    assert all(actions[name].native is not None for name in ("name", "list", "note"))
    assert actions["waiting"].native is None   # its rule may call itself: the VM runs them
    assert _grown(rules, Move(0, "name", {"h": "alpha"})) == len("abcdefghij") + 1
    assert _grown(rules, Move(0, "list", {"h": "beta"})) == 4 + 1
    assert _grown(rules, Move(0, "note", {})) == len("twelve chars") + 1
    # the VM's instruction counts the same text the same
    assert _grown(rules, Move(0, "waiting", {"h": "alpha"})) == len("abcdefghij") + 1


def test_a_value_past_its_limit_is_still_refused(tmp_path):
    rules = load(tmp_path, RULES.replace('"abcdefghij"', '"' + "abcdefghij" * 20 + '"'), "long.rules")
    game = rules.new_game(2, seed=0, coverage=False)
    game.limits = regnum.Limits(value_size=100)
    with pytest.raises(regnum.LimitExceeded) as refused:
        game.play(Move(0, "name", {"h": "alpha"}))
    assert "a text grew to 200 characters, past the limit of 100" in str(refused.value)
    assert game.state.tables["names"]["alpha"] == "none"
