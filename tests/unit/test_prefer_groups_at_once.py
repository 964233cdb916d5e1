"""A prefer judged group by group as the moves are listed (prefers.group_narrower) whose test
of each choice the counts of neighbours answer — `K(x, player, y)`, or `A or K(x, player,
y)` with A judged once a group, K of near_lifted's shape, x the choice and y the same for
the group — judges the whole group at once: each choice's count and neighbours read once a
listing for the group's list of choices (engine/memo.near_rows), the steps charged
together (prefers._Narrower._near_group). The same moves, steps and step limit as judging
choice by choice, listing by listing and in whole games (Kingdom Builder's Barn and Harbor
among them); other shapes are judged choice by choice."""
from __future__ import annotations

import re

import pytest

import regnum
from regnum import Move
from regnum.agents import play_random_game, playout, random_picks
from regnum.compiler import listers, prefers
from regnum.engine import decisions, memo as kept

from listings import assert_alike   # tests/unit is on the path of its tests
from near_toy import HEADER, limit_messages, listing, loaded   # tests/unit is on the path of its tests
from test_preferring_listers import _compared

RULES = HEADER + """setup:
    for p in players:
        create 3 stone(owner: p) in pool(p)
flow:
    repeat until false:
        for p in players:
            ask p to claim or shift or hop or swap
action claim(x in map):
    require free: count(site(x)) == 0 else "taken"
    require stock: count(pool(player)) > 0 else "no stone left"
    move 1 from pool(player) to site(x)
action shift(from in map, to in map):
    require mine: owner_of(from) == player else "not yours"
    require free: count(site(to)) == 0 else "taken"
    prefer near per from: near_mine(to, player, from) else "next to your own, the moved one aside"
    move site(from) to site(to)
action hop(from in map, to in map):
    require mine: owner_of(from) == player else "not yours"
    require free: count(site(to)) == 0 else "taken"
    prefer near per from: from == a or near_mine(to, player, from) else "next to your own, but from a"
    move site(from) to site(to)
action swap(from in map, to in map):
    require taken: count(site(from)) > 0 else "nothing there"
    require free: count(site(to)) == 0 else "taken"
    prefer near per from: near_mine(to, player, from) else "next to your own, the moved one aside"
    move site(from) to site(to)
"""

NODES = list("abcdefgh")


def _loaded(tmp_path, text: str | None, at_once: bool, name: str = "toy.rules", kept_values: bool = True):
    """The ruleset (`text`, or the bundled ruleset `name`), its groups judged at once where
    they can be or choice by choice, with kept values of defs or without (no counts then)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(prefers, "AT_ONCE", at_once)
        if text is None:
            patch.setenv("REGNUM_CACHE_DIR", "off")
            rules = regnum.load(name)
        else:
            rules = loaded(tmp_path, text, name, kept_values)
        for action in rules.model.actions.values():   # made at their first use: made here
            if action.prefers:
                decisions.preferring(action)
        return rules


def _group_source(rules, action: str) -> str:
    """The source of the function judging the groups of an action's prefer."""
    fused = decisions.preferring(rules.model.actions[action])
    name = re.search(r"(_pg\d+)\(c, pl, ", fused.source).group(1)
    return rules.model.expressions.codegen.ns[name].source


def _at_once(rules, action: str) -> bool:
    return "_m_near_rows(memo, choices, _nl" in _group_source(rules, action)


def test_which_groups_are_judged_at_once(tmp_path):
    rules = _loaded(tmp_path, RULES, True)
    assert _at_once(rules, "shift") and "hs = " not in _group_source(rules, "shift")
    # `from == a` judged once a group, as the loop judges it at its first choice
    hop = _group_source(rules, "hop")
    assert _at_once(rules, "hop") and re.search(r"hs = [^\n]*\n\s+if not hs and _nl\d+ is not None:", hop)
    # the listing passes its memo, where the choices' counts are kept for the next group
    assert re.search(r"_pg\d+\(c, pl, pmemo, v0, ok1\)", decisions.preferring(rules.model.actions["shift"]).source)
    assert not _at_once(_loaded(tmp_path, RULES, False, "one_by_one.rules"), "shift")
    assert not _at_once(_loaded(tmp_path, RULES, True, "unkept.rules", kept_values=False), "shift")
    # the left-out cell is the choice itself; the counted cell is not the choice
    for call in ("near_mine(to, player, to)", "near_mine(from, player, to)"):
        text = RULES.replace("prefer near per from: near_mine(to, player, from)", f"prefer near per from: {call}")
        assert not _at_once(_loaded(tmp_path, text, True, "shape.rules"), "shift")
    # a guard that reads the choice is no test of the group
    text = RULES.replace("from == a or near_mine", "to == a or near_mine")
    assert not _at_once(_loaded(tmp_path, text, True, "guard.rules"), "hop")


def test_kingdom_builder_judges_the_groups_of_its_moved_settlements_at_once(tmp_path):
    rules = _loaded(tmp_path, None, True, "kingdom_builder")
    assert _at_once(rules, "move_with_tile") and "'Paddock'" in _group_source(rules, "move_with_tile")
    assert not _at_once(rules, "build") and not _at_once(rules, "build_with_tile")


def _rows_met(patch) -> list:
    """What near_rows gives, call by call, for the rulesets loaded while `patch` holds."""
    met = []
    near_rows = kept.near_rows

    def counted(memo, choices, counts, adjacency):
        found = near_rows(memo, choices, counts, adjacency)
        met.append(found)
        return found
    patch.setattr(listers, "_HELPERS", None)   # the generated code's helpers, bound afresh
    patch.setattr(kept, "near_rows", counted)
    return met


def test_listings_keep_and_charge_what_judging_choice_by_choice_does(tmp_path):
    """Position after position of random games: the listing judged by group at once against
    the plain way (lister, then narrowing) and against the groups judged choice by choice:
    the same moves and steps."""
    with pytest.MonkeyPatch.context() as patch:
        met = _rows_met(patch)
        rules = _loaded(tmp_path, RULES, True)
        one_by_one = _loaded(tmp_path, RULES, False, "one_by_one.rules")
        for seed in range(4):
            games = [r.new_game(2, seed, coverage=False) for r in (rules, one_by_one)]
            for _ in playout(games[0], random_picks(seed, 2), 40):
                seat = games[0].to_move[0]
                games[1] = _replayed(one_by_one, games[0], seed)
                for action in ("shift", "hop", "swap"):
                    assert _compared(games[0], action, seat) == _compared(games[1], action, seat)
    assert len(met) > 30 and all(found is not None for found in met)
    # a group meets the rows the group before it made, for the very same choices
    assert len({id(found) for found in met}) < len(met)


def _replayed(rules, game, seed: int):
    """`game`'s moves played again on `rules` (the other form of the same ruleset)."""
    again = rules.new_game(2, seed, coverage=False)
    for move in game._moves:
        again.play(Move(move.player, move.action, dict(move.args)))
    return again


@pytest.mark.parametrize("seed", range(3))
def test_games_play_as_games_judged_choice_by_choice(tmp_path, seed):
    games = []
    for at_once in (True, False):
        rules = _loaded(tmp_path, RULES, at_once, f"at_once{at_once}.rules")
        game = rules.new_game(2, seed, coverage=False)
        for _ in playout(game, random_picks(seed, 2), 80):
            pass
        games.append(game)
    a, b = games
    assert_alike(a, b)
    assert {"shift", "hop", "swap"} <= {m.action for m in a._moves}


def test_kingdom_builder_plays_as_judged_choice_by_choice(tmp_path):
    one_by_one = _loaded(tmp_path, None, False, "kingdom_builder")
    with pytest.MonkeyPatch.context() as patch:
        met = _rows_met(patch)   # the preferring listers are made as the games first list
        at_once = _loaded(tmp_path, None, True, "kingdom_builder")
        for seed, players in ((3, 4), (9, 4), (5, 2)):
            a = play_random_game(at_once, players, seed, coverage=False)
            b = play_random_game(one_by_one, players, seed, coverage=False)
            assert_alike(a, b)
    assert len(met) > 50


def _placed(rules):
    game = rules.new_game(2, seed=1, coverage=False)
    for seat, cell in [(0, "c"), (1, "g"), (0, "e"), (1, "h"), (0, "b"), (1, "f")]:
        game.play(Move(seat, "claim", {"x": cell}))
    return game


def test_the_step_limit_is_met_where_judging_choice_by_choice_meets_it(tmp_path):
    on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
    moves, needed = listing(_placed(off), 0)
    assert listing(_placed(on), 0) == (moves, needed)
    # b, c and e are seat 0's; d and a are free: moving c, both are next to e still
    # (a by the chord); moving b, only a is next to another of its own (d next to c, and e)
    shifts = sorted((dict(args)["from"], dict(args)["to"]) for action, args in moves if action == "shift")
    assert shifts == [("b", "a"), ("b", "d"), ("c", "a"), ("c", "d"), ("e", "a"), ("e", "d")]
    messages = limit_messages((on, off), _placed, listing, 0, needed)
    assert messages[0] == messages[1] and f"more than {needed - 1} steps" in messages[0]


def test_the_rows_of_a_group_are_kept_for_the_same_choices_and_counts():
    adjacency = {"a": ("b", "c"), "b": ("a",), "c": ("a",)}
    counts = {"a": 2, "c": 1}
    memo: dict = {}
    choices = ["a", "b", "c"]
    rows = kept.near_rows(memo, choices, counts, adjacency)
    assert rows == (4, [("a", 2, ("b", "c")), ("b", 0, ("a",)), ("c", 1, ("a",))])
    assert kept.near_rows(memo, choices, counts, adjacency) is rows
    assert kept.near_rows(memo, list(choices), counts, adjacency) is not rows   # another list
    assert kept.near_rows(memo, choices, dict(counts), adjacency) is not rows   # other counts
    assert kept.near_rows(memo, ["a", ["b"]], counts, adjacency) is None   # no key: choice by choice
