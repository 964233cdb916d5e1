"""Listing moves on an open grid, the fast way and the plain way: the cells one step away in
listed directions and the cells around one cell read as remembered tuples where a
comprehension only goes through them (opengrid.steps_seen, opengrid.around_one), a search
over a later clause kept per item of the first for the listing (conditions._kept_inner), a
lister's and a domain's tables read once (codegen.table_reads, CodeGen.domain_function), an
open zone tested for emptiness without a new list (CodeGen._open_zone_tested), unique() of
texts by a dict. Each is taken (the generated source says so) and lists exactly what the
plain code lists: the same moves, faults, coverage and steps, at every position of random
games."""
from __future__ import annotations

import re
import textwrap

import pytest

import regnum
from regnum import LimitExceeded, builtins, opengrid
from regnum.agents import play_random_game
from regnum.compiler import codegen, conditions, listers
from regnum.engine import decisions
from regnum.limits import Overflow

from listings import both, observe   # tests/unit is on the path of its tests

RULES = """
game gridlist "Grid listing"
players 2..2
board floor: open_grid
piece stone:
    owner: player
zone spot per floor: public
zone supply per player: public
zone used: public
var mark per floor: int = 0
setup:
    for p in players:
        create 12 stone(owner: p) in supply(p)
flow:
    let p = 0
    repeat until count(supply(p)) == 0:
        ask p to drop or lay
        set p = 1 - p
action drop(r in range(-1, 2), c in range(-1, 2)):
    require empty: count(spot(cell(floor, r, c))) == 0 and mark(cell(floor, r, c)) == 0
    move 1 from supply(player) to spot(cell(floor, r, c))
action lay(at in anchors(), way in ["east", "south"]):
    require touching: touches(tile(at, way))
    require clear: all(count(spot(x)) == 0 for x in tile(at, way)) and all(mark(x) == 0 for x in around(floor, tile(at, way)))
    require room: any(count(spot(x)) == 0 for x in around(floor, tile(at, way)))
    for x in tile(at, way):
        set mark(x) = 1
    move 1 from supply(player) to used
def sides(x) = [step(floor, x, d) for d in ["north", "east", "south", "west"]]
def touches(xs) = any(count(spot(n)) > 0 for x in xs for n in sides(x))
def anchors() = unique([a for x in floor where count(spot(x)) > 0 for n in around(floor, [x]) where count(spot(n)) == 0
                        for a in [n, step(floor, n, "west"), step(floor, n, "north")]])
def tile(at, way) = [at, step(floor, at, way)]
"""


def _load(tmp_path, text: str = RULES, limits=None) -> regnum.Ruleset:
    path = tmp_path / "gridlist.rules"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return regnum.load(path, limits=limits) if limits else regnum.load(path)


def _plain(tmp_path, monkeypatch, text: str = RULES, limits=None) -> regnum.Ruleset:
    """The same ruleset compiled without the fast paths of this module."""
    with monkeypatch.context() as m:
        m.setattr(conditions, "_kept_inner", lambda *args: None)
        m.setattr(codegen.CodeGen, "_open_seen", lambda self, node, scope, binds: None)
        m.setattr(codegen.CodeGen, "_open_zone_tested", lambda self, zone, source: source)
        m.setattr(codegen.CodeGen, "domain_function", lambda self, node, scope: self.function(node, scope))
        m.setattr(listers, "table_reads", lambda body, indent="    ": ([], body))
        return _load(tmp_path, text, limits)


def test_the_fast_reads_are_the_ones_written(tmp_path):
    rules = _load(tmp_path)
    lay = rules.model.actions["lay"]
    source, ns = lay.lister.source, lay.lister.__globals__
    bound = {name for name, value in ns.items() if value is opengrid.steps_seen or value is opengrid.around_one_8}
    assert "pi0 = {}" in source and "pi0[" in source          # touches(): kept per cell
    assert re.search(r"_t0 = _s_tables\['mark'\]", source)    # the table, read once
    assert re.search(r"_s_zones\.get\(_z\d+\[\(?_v\d+\)?\], \(\)\)", source)   # emptiness: no new list
    assert any(f"{name}(" in source for name in bound)          # sides(): steps_seen
    domain = lay.params[0].domain
    assert domain.__name__.startswith("_dom")   # a def reading the state's parts through locals
    code = domain.__code__
    assert {"_s_zones", "_s_grids"} <= set(code.co_varnames + code.co_cellvars)
    names = set()
    while code is not None:   # the comprehension's own code is a constant of the function's
        names |= set(code.co_names)
        code = next((k for k in code.co_consts if hasattr(k, "co_names")), None)
    assert any(ns.get(name) is opengrid.around_one_8 for name in names)   # around(floor, [x])


def _positions_compared(tmp_path, monkeypatch, seeds) -> int:
    fast, plain = _load(tmp_path), _plain(tmp_path, monkeypatch)
    assert "pi0" not in plain.model.actions["lay"].lister.source
    compared = [0]

    def check(game):
        for player in game.to_move:
            for name in ("lay", "drop"):
                for stop in (False, True):
                    for counted in (True, False):
                        new = observe(decisions._enumerate, game, fast.model.actions[name], player, stop, counted)
                        old = observe(decisions._enumerate, game, plain.model.actions[name], player, stop, counted)
                        assert new == old
                        compared[0] += new[0][0] == "moves" and len(new[0][1]) > 0
                both(game, name, player)
    for seed in seeds:
        game = play_random_game(fast, 2, seed, started=check, after_move=check)
        assert game.is_over
    return compared[0]


def test_the_fast_listing_is_the_plain_listing_steps_and_all(tmp_path, monkeypatch):
    assert _positions_compared(tmp_path, monkeypatch, range(6)) > 100


def test_a_search_reading_a_choice_is_not_kept(tmp_path, monkeypatch):
    """touches() reading `way` in its later clause: a value of more than the cell, not kept."""
    text = RULES.replace("def touches(xs) = any(count(spot(n)) > 0 for x in xs for n in sides(x))",
                         "def touches(xs) = any(count(spot(n)) > 0 for x in xs for n in sides(x) where n != xs[0])")
    rules = _load(tmp_path, text)
    assert "pi0" not in rules.model.actions["lay"].lister.source
    text = RULES.replace("require touching: touches(tile(at, way))",
                         "require touching: any(count(spot(n)) > 0 for x in tile(at, way) for n in sides(x) where way == \"east\" or true)")
    rules = _load(tmp_path, text)
    assert "pi0" not in rules.model.actions["lay"].lister.source


def test_a_kept_search_charges_its_steps_again_and_stops_at_the_same_limit(tmp_path, monkeypatch):
    """Past the step limit, the fast listing fails as the plain one does, in the same listing."""
    outcomes = []
    for make in (_load, lambda path, limits=None: _plain(path, monkeypatch, limits=limits)):
        rules = make(tmp_path, limits=regnum.Limits(steps=400))
        game = rules.new_game(2, seed=3)
        played = []
        try:
            for _ in range(12):
                moves = game.legal_moves(game.to_move[0])
                move = moves[len(moves) // 2]
                played.append((move.action, dict(move.args)))
                game.play(move)
        except LimitExceeded as err:
            played.append(str(err))
        outcomes.append(played)
    assert outcomes[0] == outcomes[1]
    assert isinstance(outcomes[0][-1], str) and "more than 400 steps" in outcomes[0][-1]


def test_steps_seen_and_around_one_are_the_lists_they_stand_for(tmp_path):
    game = _load(tmp_path).new_game(2, seed=1)
    board, ctx = game.model.boards["floor"], game._ctx(game.state)
    directions = ("north", "east", "south", "west")
    for cell in ("(0,0)", "(5,-3)", "(5,-3)"):   # computed, then remembered
        ctx.steps = 0
        seen = opengrid.steps_seen(board, ctx, cell, directions)
        assert type(seen) is tuple and ctx.steps == 4
        ctx.steps = 0
        assert list(seen) == [opengrid.step_one(board, ctx, cell, d) for d in directions] \
            == opengrid.step_each(board, ctx, cell, directions)
        assert ctx.steps == 4
        ctx.steps = 0
        one = opengrid.around_one_8(board, ctx, cell)
        assert ctx.steps == 1
        assert list(one) == opengrid.around(board, ctx, [cell]) == opengrid.neighbours(board, ctx, cell)
        assert ctx.steps == 2
    assert opengrid._EACH[directions]["(5,-3)"] == (5, ("(4,-3)", "(5,-2)", "(6,-3)", "(5,-4)"))
    assert opengrid.around_one_8(board, ctx, "x") == opengrid.around(board, ctx, ["x"]) == []
    four = _load(tmp_path, RULES.replace("board floor: open_grid", "board floor: open_grid\n    diagonals = false"))
    g4 = four.new_game(2, seed=1)
    b4 = g4.model.boards["floor"]
    assert list(opengrid.around_one_4(b4, ctx, "(0,0)")) == opengrid.around(b4, ctx, ["(0,0)"]) \
        == ["(-1,0)", "(0,-1)", "(0,1)", "(1,0)"]
    with pytest.raises(Exception) as plain:
        opengrid.step_one(board, ctx, "(0,0)", "up")
    with pytest.raises(type(plain.value), match=re.escape(str(plain.value))):
        opengrid.steps_seen(board, ctx, "(0,0)", ("north", "up"))


def test_remembered_cells_are_refused_again_under_a_narrower_reach(tmp_path):
    wide = _load(tmp_path).new_game(2, seed=1)
    board, ctx = wide.model.boards["floor"], wide._ctx(wide.state)
    opengrid.steps_seen(board, ctx, "(3,3)", ("north", "east"))
    opengrid.around_one_8(board, ctx, "(3,3)")
    narrow = _load(tmp_path, limits=regnum.Limits(grid_reach=3)).new_game(2, seed=1)
    nctx = narrow._ctx(narrow.state)
    for call, cell in ((lambda: opengrid.steps_seen(board, nctx, "(3,3)", ("north", "east")), "(3,4)"),
                       (lambda: opengrid.around_one_8(board, nctx, "(3,3)"), "(2,4)")):   # as the lists fail
        with pytest.raises(Overflow, match=re.escape(f"cell {cell} of open grid 'floor' lies beyond its reach of ±3")):
            call()


@pytest.mark.parametrize("items, expected", [
    (["(0,1)", "(0,0)", "(0,1)", "x"], ["(0,1)", "(0,0)", "x"]),
    ([3, 1, 3, 2, 1], [3, 1, 2]),
    ([1, True, 1.0, "1", None, None], [1, True, 1.0, "1", None]),   # not one kind: by repr, 1 and true apart
    ([[1], [1], [2]], [[1], [2]]),
    ([], []),
])
def test_unique_keeps_the_first_of_each_value_by_a_dict_or_by_repr(items, expected):
    got = builtins._unique(items)
    assert got == expected and [type(x) for x in got] == [type(x) for x in expected]
    seen, plain = set(), []
    for x in items:   # the definition: the first of each repr
        if repr(x) not in seen:
            seen.add(repr(x))
            plain.append(x)
    assert got == plain
