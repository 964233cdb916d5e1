"""A prefer that is one call of a kept def (`prefer near: near_mine(h, player)`) looks the value
up for every move and adds the steps of the values it meets in a local, charged once after
the loop (prefers.py, CodeGen.kept_lines): the same moves kept, the same steps and the same
step limit as each value charged where it is met, or computed without kept values."""
from __future__ import annotations

import pytest

import regnum
from regnum import LimitExceeded, Move
from regnum.compiler import memo

from toy_rules import load   # tests/unit is on the path of its tests

RULES = """
game toy "Toy"
players 2..2
board map: graph
    nodes a, b, c, d, e, f, g, h
    edges a - b, b - c, c - d, d - e, e - f, f - g, g - h, h - a, a - e
piece stone:
    owner: player
zone site per map: public
zone pool per player: public
def owner_of(x) = if count(site(x)) == 0 then none else site(x)[0].owner
def near_mine(x, p) = any(owner_of(n) == p for n in neighbours(map, x))
setup:
    for p in players:
        create 6 stone(owner: p) in pool(p)
flow:
    repeat until false:
        for p in players:
            ask p to claim
action claim(x in map):
    require free: count(site(x)) == 0 else "taken"
    prefer near: near_mine(x, player) else "next to your own"
    move 1 from pool(player) to site(x)
"""


def _rules(tmp_path, name: str, kept: bool = True):
    if kept:
        return load(tmp_path, RULES, name)
    with memo.disabled():
        return load(tmp_path, RULES, name)


def _listing_steps(game, player: int) -> tuple[list, int]:
    game.peak_steps = 0
    moves = [m.args["x"] for m in game.legal_moves(player)]
    return moves, game.peak_steps


def test_the_prefer_adds_up_the_steps_of_the_values_it_meets(tmp_path):
    kept = _rules(tmp_path, "kept.rules")
    plain = _rules(tmp_path, "plain.rules", kept=False)
    assert "acc += _mh[1]" in kept.model.actions["claim"].prefers[0].narrow.source
    assert kept.model.expressions.codegen._memos != {} and plain.model.expressions.codegen._memos == {}
    games = [kept.new_game(2, seed=3), plain.new_game(2, seed=3)]
    seen = []
    for x, player in [("a", 0), ("c", 1), ("b", 0), ("d", 1), ("h", 0), (None, 1)]:
        listed = [_listing_steps(game, player) for game in games]
        assert listed[0] == listed[1]
        seen.append(listed[0])
        if x is not None:
            for game in games:
                game.play(Move(player, "claim", {"x": x}))
    # Nobody's stone yet, then next to a (b, e, h), to c (d), to a or b (e, h), to d (e).
    assert seen == [(["a", "b", "c", "d", "e", "f", "g", "h"], 26), (["b", "c", "d", "e", "f", "g", "h"], 23),
                    (["b", "e", "h"], 21), (["d"], 19), (["e", "h"], 17), (["e"], 15)]
    assert games[0].to_dict()["state"] == games[1].to_dict()["state"]


def test_a_step_limit_crossed_among_the_values_met_stops_the_listing(tmp_path):
    """The limit the prefer's values pass is found after the loop, or at a value not kept yet,
    as it was found at the value that passed it: the listing fails with the same message,
    kept values or not; one step more and it lists."""
    messages = []
    for name, kept in [("kept.rules", True), ("plain.rules", False)]:
        game = _rules(tmp_path, name, kept).new_game(2, seed=3)
        for x, player in [("a", 0), ("c", 1)]:
            game.legal_moves(player)   # seat 0's values kept, with kept values
            game.play(Move(player, "claim", {"x": x}))
        again = game.copy()
        game.limits = regnum.Limits(steps=20)   # the listing takes 21 (above)
        with pytest.raises(LimitExceeded) as caught:
            game.legal_moves(0)
        messages.append(str(caught.value).replace(name, "X"))
        again.limits = regnum.Limits(steps=21)
        assert [m.args["x"] for m in again.legal_moves(0)] == ["b", "e", "h"]
    assert messages[0] == messages[1]
    assert "more than 20 steps" in messages[0]
