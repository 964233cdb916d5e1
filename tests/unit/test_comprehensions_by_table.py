"""A comprehension over a fixed board's cells whose test starts `T(x) == v and …` (its `where`,
or the element of an `any`), T a table of the board, goes only through the cells where T is v,
read from the table's index (codegen._table_narrowed, State.cells_with): the same values,
steps, faults and step limit as going through every cell, in whole games, while the setup
still writes the table, and in Kingdom Builder; the other shapes go through every cell."""
from __future__ import annotations

import pytest

import regnum
from regnum import LimitExceeded, Limits
from regnum.engine.runtime import RuntimeFault
from regnum.agents import play_random_game, playout, random_picks
from regnum.compiler.codegen import CodeGen
from regnum.engine.state import canonical_json

from toy_rules import load   # tests/unit is on the path of its tests


RULES = """
game toy "Toy"
players 2..2
enum colour_kind: red, blue, green
board land: hex_grid
    rows = 4
    cols = 5
    layout = "odd_r"
piece stone:
    owner: player
zone site per land: public
zone pool per player: public
const xs = [1, 0, 2]
var colour per land: colour_kind = red
var seen: list of int = []
var at_setup: int = 0
def free(h) = count(site(h)) == 0
def any_free_of(t) = any(colour(h) == t and free(h) for h in land)
def count_free_of(t) = count(h for h in land where colour(h) == t and free(h))
def cells_of(t) = [h for h in land where t == colour(h)]
def all_free_of(t) = all(colour(h) == t and free(h) for h in land)
def first_free_of(t) = first(h for h in land where colour(h) == t and free(h))
def any_other(t) = any(free(h) and colour(h) == t for h in land)
setup:
    for h in land:
        set colour(h) = [red, blue, green][(h.row + 2 * h.col) % 3]
    set at_setup = count_free_of(blue)
    for p in players:
        create 5 stone(owner: p) in pool(p)
flow:
    repeat until false:
        for p in players:
            set seen = seen + [count_free_of(red), count_free_of(blue), count(cells_of(green)),
                               if any_free_of(green) then 1 else 0, if all_free_of(red) then 1 else 0,
                               count(cells_of(red)) - count_free_of(red)]
            ask p to claim or lift
action claim(x in land):
    require free: free(x) else "taken"
    require stock: count(pool(player)) > 0 else "no stone left"
    require open: any_free_of(colour(x)) and first_free_of(colour(x)) != none and any_other(colour(x))
    move 1 from pool(player) to site(x)
action lift(x in land):
    require mine: count(site(x)) > 0 and site(x)[0].owner == player else "not yours"
    move site(x) to pool(player)
"""

# Where the comprehensions of any_free_of, count_free_of, cells_of and first_free_of are
# written: claim's require (its lister, and the expression the walk and explain() judge), the
# setup's count and the flow's five; not all_free_of's, nor any_other's, whose first test is
# not the table's.
NARROWINGS = {"<regnum moves claim>": 2, "<regnum expression>": 2, "<regnum set>": 1 + 6}


def _loaded(tmp_path, text: str | None, narrowed: bool, name: str = "toy.rules", sources: list | None = None):
    """The ruleset (`text`, or the bundled ruleset `name`), loaded without the disk cache, its
    comprehensions narrowed or not; the (file name, source) of everything generated for it
    added to `sources`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REGNUM_CACHE_DIR", "off")
        if not narrowed:
            patch.setattr(CodeGen, "_table_narrowed", lambda *args: None)
        if sources is not None:
            compiled = CodeGen.compiled

            def noted(self, source, filename, mode="exec"):
                sources.append((filename, source))
                return compiled(self, source, filename, mode)
            patch.setattr(CodeGen, "compiled", noted)
        return load(tmp_path, text, name) if text is not None else regnum.load(name)


def _narrowings(sources: list) -> dict:
    """file name -> how many comprehensions of its source go through a table's index."""
    counted: dict = {}
    for filename, source in sources:
        if "_cells_where(" in source:
            counted[filename] = counted.get(filename, 0) + source.count("_cells_where(")
    return counted


def test_which_comprehensions_go_through_the_table_index(tmp_path):
    narrowed, plain = [], []
    _loaded(tmp_path, RULES, True, sources=narrowed)
    _loaded(tmp_path, RULES, False, "plain.rules", sources=plain)
    assert _narrowings(narrowed) == NARROWINGS
    assert _narrowings(plain) == {}


@pytest.mark.parametrize("seed", range(4))
def test_games_equal_games_through_every_cell(tmp_path, seed):
    narrowed = _loaded(tmp_path, RULES, True)
    plain = _loaded(tmp_path, RULES, False, "plain.rules")
    for coverage in (True, False):
        games = []
        for rules in (narrowed, plain):
            game = rules.new_game(2, seed, coverage=coverage)
            for _ in playout(game, random_picks(seed, 2), 40):
                pass
            games.append(game)
        a, b = games
        assert [m.to_dict() for m in a._moves] == [m.to_dict() for m in b._moves]
        assert canonical_json(a.to_dict()) == canonical_json(b.to_dict())
        assert a.hits == b.hits and a.peak_steps == b.peak_steps
    # The setup counted while it still wrote the table (its index is not read then): the
    # blue cells (r, c), (r + 2c) % 3 == 1, all free.
    assert a.state.vars["at_setup"] == 6
    assert a.state.vars["seen"][:6] == [7, 6, 7, 1, 0, 0]   # red, blue, green (r + 2c) % 3 == 0, 1, 2


def test_a_fault_after_the_first_part_is_met_at_the_same_cell(tmp_path):
    """xs[h.col] fails at the first red cell of column 3 or more: the cells skipped are
    not red, so both ways meet the same fault, with the same message."""
    text = RULES.replace("any_free_of(colour(x)) and first_free_of",
                         "count(h for h in land where colour(h) == red and xs[h.col] > 0) > 0 and first_free_of")
    messages = []
    for narrowed in (True, False):
        rules = _loaded(tmp_path, text, narrowed, f"fault{narrowed}.rules")
        game = rules.new_game(2, 0, coverage=False)
        with pytest.raises(RuntimeFault) as fault:
            game.legal_moves(0)
        messages.append(str(fault.value).replace("faultFalse", "faultTrue"))
    assert messages[0] == messages[1]
    assert "no item 3 in [1, 0, 2] (while listing the moves of 'claim')" in messages[0]


def test_the_step_limit_is_met_where_going_through_every_cell_meets_it(tmp_path):
    narrowed = _loaded(tmp_path, RULES, True)
    needed = narrowed.new_game(2, 0, coverage=False)
    needed.legal_moves(0)
    needed = needed.peak_steps
    messages = []
    for narrowed in (True, False):
        rules = _loaded(tmp_path, RULES, narrowed, f"limit{narrowed}.rules")
        for limit, passes in ((needed, True), (needed - 1, False)):
            game = rules.new_game(2, 0, coverage=False)
            game.limits = Limits(steps=limit)
            if passes:
                assert len(game.legal_moves(0)) == 20
            else:
                with pytest.raises(LimitExceeded) as refused:
                    game.legal_moves(0)
                messages.append(str(refused.value).replace("limitFalse", "limitTrue"))
    assert len(messages) == 2 and messages[0] == messages[1]
    assert f"more than {needed - 1} steps without a decision" in messages[0]


def test_kingdom_builder_looks_for_a_free_hex_of_the_card_through_the_index(tmp_path):
    sources = []
    _loaded(tmp_path, None, True, "kingdom_builder", sources)
    # replace_stuck_card's any_free_hex_of(card_terrain()) and final_scoring's castles next to
    # one's own, each as a native procedure and as the VM's instruction (`check`, `let`); an
    # invariant's count of the locations.
    assert _narrowings(sources) == {"<regnum native _n47_replace_stuck_card>": 1, "<regnum check>": 1,
                                    "<regnum native _n55_final_scoring>": 1, "<regnum let>": 1,
                                    "<regnum expression>": 1}


def test_kingdom_builder_games_equal_games_through_every_hex(tmp_path):
    narrowed, plain = (_loaded(tmp_path, None, on, "kingdom_builder") for on in (True, False))
    for seed in (0, 1):
        for coverage in (True, False):
            a = play_random_game(narrowed, 4, seed, coverage=coverage)
            b = play_random_game(plain, 4, seed, coverage=coverage)
            assert canonical_json(a.to_dict()) == canonical_json(b.to_dict())
            assert a.hits == b.hits and a.peak_steps == b.peak_steps
