"""A move lister's `all(T(x) == v for x in S)`, T a variable per cell of a board, v a value
known at load and S the cells `around` or `neighbours` gives on that board, is judged by
whether any item is among T's cells where T is not v, a set made once per listing
(conditions._cells_unequal, helpers._cells_unequal), instead of reading each item's value,
candidate after candidate. Where the set cannot answer (an item among those cells, no set
made yet, an open grid whose cells not in use do not hold v) the loop as written judges.
Each listing is the plain one: the same moves, faults, coverage and steps, at every position
of random games, and King's Gate's `put_object` among them."""
from __future__ import annotations

import re

import pytest

import regnum
from regnum import LimitExceeded
from regnum.agents import play_random_game
from regnum.compiler import conditions, helpers
from regnum.compiler.helpers import _NEVER, _UNSET, _cells_unequal
from regnum.engine import decisions

from listings import assert_alike, observe   # tests/unit is on the path of its tests
from test_open_grid_listing import RULES as GRID   # `lay`: all(mark(x) == 0 for x in around(floor, tile(at, way)))
from toy_rules import load_switched

GRAPH = """
game graphcalm "Graph calm"
players 2..2
board map: graph
    nodes a, b, c, d, e, f, g, h
    edges a - b, b - c, c - d, d - e, e - f, f - g, g - h, h - a, a - e, c - g
piece stone:
    owner: player
zone site per map: public
zone pool per player: public
zone spent: public
var level per map: int = 0
setup:
    for p in players:
        create 6 stone(owner: p) in pool(p)
flow:
    repeat until count(pool(0)) == 0 and count(pool(1)) == 0:
        for p in players:
            if count(pool(p)) > 0:
                ask p to put or raise or rest
action put(x in map):
    require free: count(site(x)) == 0 else "taken"
    require calm: all(level(n) == 0 for n in neighbours(map, x)) else "a raised neighbour"
    move 1 from pool(player) to site(x)
action raise(x in map):
    require mine: count(site(x)) > 0 and site(x)[0].owner == player else "not yours"
    add 1 to level(x)
    move site(x)[0] to pool(player)
action rest():
    move 1 from pool(player) to spent
"""


def _loaded(tmp_path, text: str | None, on: bool, name: str = "toy.rules", limits=None):
    if limits is None:
        return load_switched(tmp_path, text, name, [(conditions, "CELLS_UNEQUAL", on)])
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REGNUM_CACHE_DIR", "off")
        patch.setattr(conditions, "CELLS_UNEQUAL", on)
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return regnum.load(path, limits=limits)


def _judged_by_cells(rules, action: str) -> bool:
    return "_m_cells_unequal(" in rules.model.actions[action].lister.source


def test_which_searches_are_judged_by_the_cells(tmp_path):
    grid, graph = _loaded(tmp_path, GRID, True, "grid.rules"), _loaded(tmp_path, GRAPH, True, "graph.rules")
    assert _judged_by_cells(grid, "lay") and _judged_by_cells(graph, "put")
    assert not _judged_by_cells(grid, "drop") and not _judged_by_cells(graph, "raise")
    assert re.search(r"_m_cells_unequal\(cu0, _t0, _v\d+, 0, _t1\)", grid.model.actions["lay"].lister.source)
    assert not _judged_by_cells(_loaded(tmp_path, GRID, False, "off.rules"), "lay")
    for i, (old, new) in enumerate([
            ("all(mark(x) == 0 for x in around(", "all(mark(x) == player for x in around("),   # not known at load
            ("all(mark(x) == 0 for x in around(floor, tile(at, way)))", "all(mark(x) == 0 for x in tile(at, way))"),
            ("all(mark(x) == 0 for x in around(floor, tile(at, way)))",
             "all(mark(x) == 0 for x in around(floor, tile(at, way)) where x != at)"),
            ("all(mark(x) == 0 for x in around(", "not any(mark(x) != 0 for x in around(")]):
        assert old in GRID
        assert not _judged_by_cells(_loaded(tmp_path, GRID.replace(old, new), True, f"changed{i}.rules"), "lay"), new
    assert _judged_by_cells(_loaded(tmp_path, GRID.replace("mark(x) == 0 for x in around(", "0 == mark(x) for x in around("),
                                    True, "flipped.rules"), "lay")
    assert _judged_by_cells(_loaded(tmp_path, None, True, "kings_gate"), "put_object")


def _compare_positions(on, off, actions, seeds, players: int = 2) -> int:
    """Every position of random games of `on`: each listing observed with the switch on and
    off, as a game counting coverage and one not, whole and asked whether a move exists."""
    listed = [0]

    def check(game):
        for seat in game.to_move:
            for name in actions:
                for stop in (False, True):
                    for counted in (True, False):
                        new = observe(decisions._enumerate, game, on.model.actions[name], seat, stop, counted)
                        old = observe(decisions._enumerate, game, off.model.actions[name], seat, stop, counted)
                        assert new == old
                        listed[0] += new[0][0] == "moves" and len(new[0][1]) > 0
    for seed in seeds:
        play_random_game(on, players, seed, started=check, after_move=check)
    return listed[0]


@pytest.mark.parametrize("text, actions", [(GRID, ("lay", "drop")), (GRAPH, ("put", "raise"))])
def test_every_listing_is_the_plain_one_steps_and_all(tmp_path, text, actions, monkeypatch):
    made = []   # what each call gave: the set is made, and answers, in these games

    def counted(*args):
        made.append(_cells_unequal(*args))
        return made[-1]
    monkeypatch.setitem(helpers.RUNTIME, "_m_cells_unequal", counted)
    on, off = _loaded(tmp_path, text, True, "on.rules"), _loaded(tmp_path, text, False, "off.rules")
    assert _compare_positions(on, off, actions, range(5)) > 60
    assert sum(type(m) is set and len(m) > 0 for m in made) > 20   # some cells where T is not v


def test_an_open_grid_whose_cells_not_in_use_hold_another_value_is_judged_as_written(tmp_path):
    text = GRID.replace("var mark per floor: int = 0", "var mark per floor: int = 1") \
        .replace("mark(x) == 0 for x in around(", "mark(x) == 1 for x in around(") \
        .replace("and mark(cell(floor, r, c)) == 0", "and mark(cell(floor, r, c)) == 1")
    on, off = _loaded(tmp_path, text, True, "one.rules"), _loaded(tmp_path, text, False, "one_off.rules")
    assert _judged_by_cells(on, "lay")
    assert _compare_positions(on, off, ("lay", "drop"), range(3)) > 20
    never = GRID.replace("var mark per floor: int = 0", "var mark per floor: int = 2") \
        .replace("and mark(cell(floor, r, c)) == 0", "and mark(cell(floor, r, c)) == 2") \
        .replace("create 12 stone", "create 4 stone")   # no `lay` ever: the drops fill at most 8 of 9 cells
    on, off = _loaded(tmp_path, never, True, "never.rules"), _loaded(tmp_path, never, False, "never_off.rules")
    assert _judged_by_cells(on, "lay") and _compare_positions(on, off, ("lay", "drop"), range(2)) > 10


@pytest.mark.parametrize("text, players", [(GRID, 2), (GRAPH, 2)])
@pytest.mark.parametrize("coverage", [False, True])
def test_games_play_as_judging_each_item(tmp_path, text, players, coverage):
    on, off = _loaded(tmp_path, text, True, "on.rules"), _loaded(tmp_path, text, False, "off.rules")
    for seed in range(3):
        a = play_random_game(on, players, seed, coverage=coverage)
        assert_alike(a, play_random_game(off, players, seed, coverage=coverage))
        assert a.is_over


@pytest.mark.parametrize("name", ["kings_gate", "harsh_tournament"])
def test_kings_gate_plays_as_judging_each_item(tmp_path, name):
    on, off = _loaded(tmp_path, None, True, name), _loaded(tmp_path, None, False, name)
    assert _judged_by_cells(on, "put_object") and not _judged_by_cells(off, "put_object")
    for seed, players, coverage in ((1, 4, False), (4, 3, True), (7, 2, False)):
        a = play_random_game(on, players, seed, coverage=coverage, narrate=True)
        b = play_random_game(off, players, seed, coverage=coverage, narrate=True)
        assert_alike(a, b)
        assert a.events == b.events and sum(m.action == "put_object" for m in a._moves) >= 5


STEPS = 1400   # the first listings of `lay` charge 1,035 steps, the third 1,442


def test_a_step_limit_stops_both_in_the_same_listing(tmp_path):
    outcomes = []
    for on in (True, False):
        rules = _loaded(tmp_path, GRID, on, "limit.rules", limits=regnum.Limits(steps=STEPS))
        game = rules.new_game(2, seed=3)
        played = []
        try:
            for _ in range(24):
                moves = game.legal_moves(game.to_move[0])
                move = moves[len(moves) // 2]
                played.append((move.action, dict(move.args), game.peak_steps))
                game.play(move)
        except LimitExceeded as err:
            played.append(str(err))
        outcomes.append(played)
    assert outcomes[0] == outcomes[1]
    assert isinstance(outcomes[0][-1], str) and f"more than {STEPS} steps" in outcomes[0][-1]
    assert any(action == "lay" for action, *_ in outcomes[0][:-1])


def test_the_cells_are_made_once_the_loop_would_have_judged_half_the_table():
    table = {"a": 0, "b": 3, "c": 0, "d": 1, "e": 0, "f": 0, "g": 0, "h": 0}
    memo: dict = {}
    assert _cells_unequal(memo, table, ["a", "c"], 0) is None            # 2 judged of 8 cells
    assert _cells_unequal(memo, table, ["e"], 0) is None                 # 3
    assert _cells_unequal(memo, table, ["f"], 0) == {"b", "d"}           # 4: half the table
    assert memo[0] == {"b", "d"}
    assert _cells_unequal({}, table, list("abcdefgh"), 0) == {"b", "d"}  # a listing judging many at once
    assert _cells_unequal({}, table, list("abcd"), True) == set(table) - {"d"}   # `==`: 1 == True
    open_grid = {"(0,0)": 0, "(0,1)": 2}
    assert _cells_unequal({}, open_grid, ["(5,5)"], 0, 0) == {"(0,1)"}   # cells not in use hold 0
    assert _cells_unequal({}, open_grid, ["(5,5)"], 0, 1) is _NEVER      # … or not: judged as written
    assert _NEVER.isdisjoint([]) is False and _cells_unequal({}, {}, [], 0, _UNSET) == set()
