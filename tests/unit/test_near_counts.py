"""A prefer that is one call of a kept def `any(D(n) == player [and n != lifted] for n in
neighbours(B, h))` reads, for a value not kept yet, how many of h's neighbours D gives the
player, counted from D's index (compiler/indexes.near_test, engine/memo.near): the same moves
kept, the same steps and step limit, and the same values kept, never stale, as computing the
def; where the counts cannot answer (D charges steps, another shape), the def is computed."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import regnum
from regnum import Move
from regnum.engine.memo import EMPTY

from near_toy import HEADER, compiled, functions, limit_messages, stepped   # tests/unit is on the path of its tests

RULES = HEADER + """setup:
    for p in players:
        create 6 stone(owner: p) in pool(p)
flow:
    repeat until false:
        for p in players:
            ask p to claim or lift
action claim(x in map):
    require free: count(site(x)) == 0 else "taken"
    require stock: count(pool(player)) > 0 else "no stone left"
    prefer near: near_mine(x, player, none) else "next to your own"
    move 1 from pool(player) to site(x)
action lift(x in map):
    require mine: owner_of(x) == player else "not yours"
    move site(x) to pool(player)
"""


def _compiled(tmp_path, text: str, name: str, kept: bool = True):
    """(the ruleset, the source of claim's prefer)."""
    return compiled(tmp_path, text, name, "claim", kept)


def _listing(game, seat: int) -> tuple[list, int]:
    game.peak_steps = 0
    moves = [(m.action, m.args["x"]) for m in game.legal_moves(seat)]
    return moves, game.peak_steps


_functions = functions


def _assert_fresh(game, functions) -> int:
    """Every value the state keeps is what computing it gives, with the same steps."""
    checked = 0
    for key, (value, steps, _) in list(game.state.memo.entries.items()):
        ctx = game._ctx(game.state.copy())
        ctx.steps = 0
        assert (functions[key[0]](ctx, *key[1:]), ctx.steps) == (value, steps), key
        checked += 1
    return checked


def test_the_counts_keep_the_moves_and_charge_the_steps_of_the_def(tmp_path):
    (on, source), (off, plain) = _compiled(tmp_path, RULES, "on.rules"), _compiled(tmp_path, RULES, "off.rules", False)
    assert "_m_near(" in source and "_m_near" not in plain
    assert "acc += _mh[1]" in source   # a value kept is read as before
    games = [rules.new_game(2, seed=1) for rules in (on, off)]
    script = ["c", "g", "d", "h", "b", "f"]
    seen = []
    for i, cell in enumerate(script):
        seat = i % 2
        listed = [_listing(game, seat) for game in games]
        assert listed[0] == listed[1]
        seen.append(listed[0])
        for game in games:
            game.play(Move(seat, "claim", {"x": cell}))
    claims = [sorted(x for action, x in moves if action == "claim") for moves, _ in seen]
    assert claims[0] == list("abcdefgh") and claims[1] == list("abdefgh")   # nothing owned yet
    assert claims[2] == ["b", "d"] and claims[3] == ["f", "h"]              # next to c; next to g
    assert seen[2][1] > 0
    assert games[0].to_dict() == games[1].to_dict()


def test_the_values_it_keeps_are_those_computing_keeps(tmp_path):
    rules, _ = _compiled(tmp_path, RULES, "on.rules")
    game = rules.new_game(2, seed=1)
    functions = _functions(rules)
    for i, cell in enumerate(["c", "g", "d", "h"]):
        game.legal_moves(i % 2)
        game.play(Move(i % 2, "claim", {"x": cell}))
        assert game.state.memo is not EMPTY
        _assert_fresh(game, functions)
    game.legal_moves(0)
    kept = {key[1]: value for key, (value, _, _) in game.state.memo.entries.items()
            if key[2] == 0 and key[1] in "abef"}
    assert kept == {"a": False, "b": True, "e": True, "f": False}   # the free cells: next to c or d?
    game.play(Move(0, "lift", {"x": "c"}))   # c was 0's: b's and d's values go
    assert _assert_fresh(game, functions) >= 1
    keys = {(key[1], key[2]) for key in game.state.memo.entries}
    assert ("b", 0) not in keys


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from("abcdefgh")), max_size=24))
def test_any_game_lists_and_keeps_what_computing_the_def_gives(tmp_path_factory, plays):
    folder = tmp_path_factory.mktemp("near")
    (on, _), (off, _) = _compiled(folder, RULES, "on.rules"), _compiled(folder, RULES, "off.rules", False)
    games = [rules.new_game(2, seed=2) for rules in (on, off)]
    functions = _functions(on)
    for claim, cell in plays:
        seat = games[0].to_move[0]
        listed = [_listing(game, seat) for game in games]
        assert listed[0] == listed[1]
        move = Move(seat, "claim" if claim else "lift", {"x": cell})
        outcomes = []
        for game in games:
            try:
                game.play(move)
                outcomes.append("played")
            except regnum.IllegalMove as refused:
                outcomes.append(refused.rule)
        assert outcomes[0] == outcomes[1]
        assert games[0].to_dict() == games[1].to_dict()
        _assert_fresh(games[0], functions)


def test_the_step_limit_is_met_as_computing_the_def_meets_it(tmp_path):
    (on, _), (off, _) = _compiled(tmp_path, RULES, "on.rules"), _compiled(tmp_path, RULES, "off.rules", False)

    def placed(rules):
        game = rules.new_game(2, seed=1)
        game.play(Move(0, "claim", {"x": "c"}))
        return game
    _, needed = _listing(placed(off), 1)
    messages = limit_messages((on, off), placed, _listing, 1, needed)
    assert messages[0] == messages[1] and f"more than {needed - 1} steps" in messages[0]


STEPPED = stepped(RULES)


def test_a_def_that_charges_steps_at_a_cell_is_computed(tmp_path):
    (on, source), (off, _) = _compiled(tmp_path, STEPPED, "on.rules"), _compiled(tmp_path, STEPPED, "off.rules", False)
    assert "_m_near(" in source
    games = [rules.new_game(2, seed=1) for rules in (on, off)]
    for i, cell in enumerate(["c", "g", "d", "h"]):
        listed = [_listing(game, i % 2) for game in games]
        assert listed[0] == listed[1]
        for game in games:
            game.play(Move(i % 2, "claim", {"x": cell}))
    index = [i for i in games[0].state.memo.indexes.values() if i is not None][0]
    assert index.total > 0   # the counts stand no more: each value computed, charging its steps


@pytest.mark.parametrize("prefer, counted", [
    ("near_mine(x, player, none)", True),
    ("near_mine(x, 1, none)", False),             # the same value for every listing only if the player's
    ("near_mine(x, player, \"a\")", False),       # a neighbour left out
    ("near_mine(x, player, none) or x == \"a\"", False),
])
def test_only_the_call_with_the_player_and_none_is_counted(tmp_path, prefer, counted):
    _, source = _compiled(tmp_path, RULES.replace("near_mine(x, player, none) else", f"{prefer} else"), "shape.rules")
    assert ("_m_near(" in source) is counted


@pytest.mark.parametrize("definition, counted", [
    ("any(owner_of(n) == p for n in neighbours(map, x))", True),
    ("any(p == owner_of(n) and lifted != n for n in neighbours(map, x))", True),
    ("any(owner_of(n) == p or n != lifted for n in neighbours(map, x))", False),
    ("any(owner_of(n) == p for n in [x])", False),
    ("all(owner_of(n) == p for n in neighbours(map, x))", False),
])
def test_only_a_def_of_that_shape_is_counted(tmp_path, definition, counted):
    params = "(x, p)" if "lifted" not in definition else "(x, p, lifted)"
    text = RULES.replace("def near_mine(x, p, lifted) = any(owner_of(n) == p and n != lifted for n in neighbours(map, x))",
                         f"def near_mine{params} = {definition}")
    if "lifted" not in definition:
        text = text.replace("near_mine(x, player, none)", "near_mine(x, player)")
    _, source = _compiled(tmp_path, text, "shape.rules")
    assert ("_m_near(" in source) is counted


def test_kingdom_builder_counts_its_build_prefers():
    rules = regnum.load("kingdom_builder")
    for action in ("build", "build_with_tile"):
        assert "_m_near(" in rules.model.actions[action].prefers[0].narrow.source
