"""A value kept from the neighbours' counts (by the lines compiler/indexes.near_test writes)
lists the zones it read only when asked (memo.NearReads): those are the zones computing the
def reads, and a kept def whose body meets that value takes them as its own, so that it is
dropped when one of them changes, as it would be had the value been computed."""
from __future__ import annotations

import re

import pytest

from regnum import Move
from regnum.engine.memo import NearReads

from near_toy import HEADER, functions   # tests/unit is on the path of its tests
from toy_rules import load

RULES = HEADER + """# near_mine met inside a kept def (a parameter `player` does not vary as x does: its call is kept)
def open_to(x, player) = near_mine(x, player, none) and count(pool(1)) > 0
setup:
    for p in players:
        create 6 stone(owner: p) in pool(p)
flow:
    repeat until false:
        for p in players:
            ask p to claim or lift or mark
action claim(x in map):
    require free: count(site(x)) == 0 else "taken"
    require stock: count(pool(player)) > 0 else "no stone left"
    prefer near: near_mine(x, player, none) else "next to your own"
    move 1 from pool(player) to site(x)
action lift(x in map):
    require mine: owner_of(x) == player else "not yours"
    move site(x) to pool(player)
action mark(x in map):
    require open: open_to(x, player) else "next to your own"
    announce "{player} marks {x}"
"""


@pytest.fixture
def rules(tmp_path, monkeypatch):
    monkeypatch.setenv("REGNUM_CACHE_DIR", "off")
    return load(tmp_path, RULES, "near.rules")


_functions = functions


def _numbers(rules) -> dict:
    """def name -> the number its kept values are keyed by."""
    cg = rules.model.expressions.codegen
    return {re.match(r"_mw\d+_(\w+)", name).group(1): int(re.match(r"_mw(\d+)_", name).group(1))
            for name in cg._memos.values()}


def _computed(game, functions, key):
    """(value, steps, zones read) of `key` computed on a copy of the game's state."""
    copy = game.state.copy()
    ctx = game._ctx(copy)
    ctx.steps = 0
    value = functions[key[0]](ctx, *key[1:])
    return value, ctx.steps, copy.memo.entries[key][2]


def test_a_value_kept_from_the_counts_lists_the_zones_computing_it_reads(rules):
    game = rules.new_game(2, seed=1)
    for i, cell in enumerate(["c", "g"]):
        game.legal_moves(i % 2)
        game.play(Move(i % 2, "claim", {"x": cell}))
    game.legal_moves(0)   # claim's prefer keeps near_mine from the counts
    near = _numbers(rules)["near_mine"]
    from_counts = {key: entry for key, entry in game.state.memo.entries.items()
                   if key[0] == near and isinstance(entry[2], NearReads)}
    # Seat 0: every cell, c and g kept at the first listing (their neighbours unchanged since).
    # Seat 1 listed the cells free after c was claimed; then g was claimed, dropping f and h.
    assert sorted((key[2], key[1]) for key in from_counts) == \
        [(0, x) for x in "abcdefgh"] + [(1, x) for x in "abdeg"]
    functions = _functions(rules)
    for key, (value, steps, reads) in from_counts.items():
        again, steps_again, computed_reads = _computed(game, functions, key)
        assert (again, steps_again) == (value, steps)
        # What computing it reads, and more: the counts looked at every neighbour, where
        # `any` stops at the first that holds.
        assert set(computed_reads) <= set(reads), key
    assert sorted(from_counts[(near, "b", 0, None)][2]) == ["site#a", "site#c"]
    assert sorted(from_counts[(near, "e", 0, None)][2]) == ["site#a", "site#d", "site#f"]
    assert sorted(_computed(game, functions, (near, "d", 0, None))[2]) == ["site#c"]


def test_a_def_kept_over_such_a_value_is_dropped_when_a_neighbour_changes(rules):
    game = rules.new_game(2, seed=1)
    numbers = _numbers(rules)
    inner, outer = (numbers["near_mine"], "b", 0, None), (numbers["open_to"], "b", 0)
    for seat, action, cell in [(0, "claim", "c"), (1, "claim", "g"), (0, "mark", "b"), (1, "claim", "f")]:
        game.legal_moves(seat)
        game.play(Move(seat, action, {"x": cell}))
    # near_mine(b, 0) was kept from the counts at seat 0's second listing; seat 1's claim of f
    # dropped open_to(b, 0) (it reads pool(1)) but not it (b's neighbours a and c are as they were).
    assert isinstance(game.state.memo.entries[inner][2], NearReads) and outer not in game.state.memo.entries
    moves = game.legal_moves(0)   # open_to(b, 0) is computed again, meeting near_mine(b, 0) kept
    assert sorted(m.args["x"] for m in moves if m.action == "mark") == ["b", "d"]
    assert game.state.memo.entries[outer][0] is True
    assert sorted(game.state.memo.entries[outer][2]) == ["pool#1", "site#a", "site#c"]
    game.play(Move(0, "lift", {"x": "c"}))   # b is next to c: both values go
    assert inner not in game.state.memo.entries and outer not in game.state.memo.entries
    assert [m.args["x"] for m in game.legal_moves(1) if m.action == "mark"] == ["e", "f", "g", "h"]
    functions = _functions(rules)
    for key, (value, steps, _) in list(game.state.memo.entries.items()):
        assert _computed(game, functions, key)[:2] == (value, steps), key
