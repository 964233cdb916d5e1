"""A value a generated lister or prefer computes at its first use and then only reads (a call
that reads no parameter, or one several requires make) is computed by an assignment
expression where it is used, so the function makes no closure per call and reads its locals
as fast locals; by a nested def, as before, where that form cannot stand: inside a lambda,
in a comprehension's source, for a value also kept in a table, and for the values such a
value reads (compiler/hoists.py). Both forms list the same moves with the same steps and
coverage, and play the same games."""
from __future__ import annotations

import pytest

from regnum.agents import play_random_game
from regnum.compiler import hoists
from regnum.compiler.helpers import _UNSET, _put

from listings import assert_alike, both, played, positions, preferred   # tests/unit is on the path of its tests
from toy_rules import load_switched

BUNDLED = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate", "rulesets/variants/harsh_tournament.rules"]

# `heap_size()` reads no parameter: one value for the listing and for each prefer. The
# `level` require reads `stock()` as a comprehension's source, where Python refuses an
# assignment expression.
RULES = """
game toy "Toy"
players 2..2
piece stone:
    owner: player
zone pool per player: public
zone heap: public
zone side: public
def heap_size() = count(heap)
def stock() = [count(pool(p)) for p in players]
setup:
    for p in players:
        create 9 stone(owner: p) in pool(p)
flow:
    repeat until count(heap) + count(side) >= 14:
        for p in players:
            ask p to put or lay
action put(n in [1, 2, 3]):
    require enough: n <= count(pool(player)) else "not enough stones"
    require low: heap_size() < 12 or n == 1 else "the heap is high"
    prefer big: n + heap_size() > 3 else "put more while the heap is low"
    move n from pool(player) to heap
action lay(n in [1, 2], where in ["left", "right"]):
    require enough: n <= count(pool(player)) else "not enough stones"
    require level: n in [y - 6 for y in stock()] or n == 1 else "not level"
    prefer wide per n: where == "left" or heap_size() > 4 else "lay to the left first"
    move n from pool(player) to side
"""


def _loaded(tmp_path, text: str | None, inline: bool, name: str = "toy.rules"):
    return load_switched(tmp_path, text, name, [(hoists, "INLINE", inline)])


def _prefer_sources(rules, action: str) -> list[str]:
    """The sources of an action's generated prefers, by group ones included (made at the first
    listing, so after a game)."""
    ns = rules.model.expressions.codegen.ns
    return [f.source for name, f in ns.items() if name.startswith(("_prefer", "_pg")) and hasattr(f, "source")
            and f"prefer {action}." in f.__code__.co_filename]


def test_kings_roads_pick_computes_its_value_where_it_is_used(tmp_path):
    source = _loaded(tmp_path, None, True, "kings_road").model.actions["pick"].lister.source
    assert "(hq0 := (min(_k10, len(" in source
    assert "def hf" not in source and "nonlocal" not in source
    old = _loaded(tmp_path, None, False, "kings_road").model.actions["pick"].lister.source
    assert "    def hf0():\n        nonlocal hq0\n        hq0 = (min(_k10, len(" in old
    assert "(hq0 if hq0 is not _UNSET else hf0())" in old and ":= (min" not in old


def test_a_value_kept_in_a_table_keeps_its_def(tmp_path):
    """King's Gate's `free(at)` kept by the cell (listers._kept_by_values) is written by its
    def; the other values of `play` where they are used."""
    source = _loaded(tmp_path, None, True, "kings_gate").model.actions["play"].lister.source
    assert "        if type(v1) in _m_keyed: mq5[v1] = hq5\n" in source
    assert source.count("def hf") == 1 and "else hf5())" in source
    assert "(hq0 := " in source and "(hq6 := " in source


def test_the_toys_forms(tmp_path):
    rules = _loaded(tmp_path, RULES, True)
    put = rules.model.actions["put"].lister.source
    assert "(hq0 := " in put and "def hf" not in put
    # a use in a comprehension's source: the whole function is written with nested defs
    lay = rules.model.actions["lay"].lister.source
    assert "for _v" in lay and "def hf0():" in lay and ":= " not in lay.split("def hf0():")[1].split("return")[0] \
        and "else hf0())" in lay
    play_random_game(rules, 2, 1, coverage=False)   # without coverage, `lay`'s prefer is also judged by group
    prefers = _prefer_sources(rules, "put") + _prefer_sources(rules, "lay")
    assert len(prefers) == 4   # each prefer, and each by group (a single parameter is one group)
    for source in prefers:
        assert "(hq0 := " in source and "def hf" not in source
    # by group, the value is kept in the listing's memo for every group
    assert sum("(hq0 := _m_put(memo, (_UNSET, 0), (len(_s_zones['heap']))))" in source for source in prefers) == 2


@pytest.mark.parametrize("name", ["put", "lay"])
def test_listings_are_the_walks_and_the_nested_forms(tmp_path, name):
    """Position after position, a listing (asked whole, or only whether a move exists) and
    the preferred moves, against the generic walk's and against the nested defs' form."""
    new, old = _loaded(tmp_path, RULES, True, "new.rules"), _loaded(tmp_path, RULES, False, "old.rules")
    compared = 0
    for game, seat in positions(new, range(10), players=2, moves=30):
        twin = old.new_game(2, 0)
        twin._state = game._state.copy()
        for stop in (False, True):
            assert both(game, name, seat, stop=stop) == both(twin, name, seat, stop=stop)
        assert preferred(game, name, seat) == preferred(twin, name, seat)
        compared += 1
    assert compared > 60


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("coverage", [False, True])
def test_the_toys_games_are_the_nested_forms(tmp_path, seed, coverage):
    a, b = (played(_loaded(tmp_path, RULES, inline, f"inline{inline}.rules"), seed, moves=60, coverage=coverage)
            for inline in (True, False))
    assert_alike(a, b)
    assert {m.action for m in a._moves} == {"put", "lay"}


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_games_are_the_nested_forms(tmp_path, name):
    new, old = _loaded(tmp_path, None, True, name), _loaded(tmp_path, None, False, name)
    for seed, players, coverage in ((3, 4, False), (8, 2, True)):
        assert_alike(play_random_game(new, players, seed, coverage=coverage),
                     play_random_game(old, players, seed, coverage=coverage))


class _Compiler:
    """What Hoists.compile needs of a code generator: compiled() and a namespace."""

    def __init__(self):
        self.ns = {"_UNSET": _UNSET, "_m_put": _put}
        self.sources = []

    def compiled(self, source, filename, mode="exec"):
        self.sources.append(source)
        return compile(source, filename, mode)


def _function(h: hoists.Hoists, body: str) -> str:
    return f"def fn(x):\n    hq0 = _UNSET\n    hq1 = _UNSET\n    {hoists.DEFS}\n{body}"


def test_nested_uses_are_written_innermost_first():
    h = hoists.Hoists()
    inner = h.use(0, "x + 1")
    outer = h.use(1, f"[{inner}, {inner}]")
    g = _Compiler()
    source = h.compile(g, _function(h, f"    return {outer}, hq0\n"), "<test>")
    assert source == ("def fn(x):\n    hq0 = _UNSET\n    hq1 = _UNSET\n"
                      "    return (hq1 if hq1 is not _UNSET else (hq1 := [(hq0 if hq0 is not _UNSET else "
                      "(hq0 := x + 1)), (hq0 if hq0 is not _UNSET else (hq0 := x + 1))])), hq0\n")
    assert g.ns["fn"](4) == ([5, 5], 5)


def test_a_kept_value_and_what_it_reads_are_nested():
    h = hoists.Hoists()
    inner = h.use(0, "x + 1")
    outer = h.use(1, f"[{inner}]", kept="memo[x] = hq1")
    g = _Compiler()
    source = h.compile(g, "def fn(x, memo):\n    hq0 = _UNSET\n    hq1 = _UNSET\n"
                          f"    {hoists.DEFS}\n    return {outer}, {inner}\n", "<test>")
    assert source == ("def fn(x, memo):\n    hq0 = _UNSET\n    hq1 = _UNSET\n"
                      "    def hf0():\n        nonlocal hq0\n        hq0 = x + 1\n        return hq0\n"
                      "    def hf1():\n        nonlocal hq1\n        hq1 = [(hq0 if hq0 is not _UNSET else hf0())]\n"
                      "        memo[x] = hq1\n        return hq1\n"
                      "    return (hq1 if hq1 is not _UNSET else hf1()), (hq0 if hq0 is not _UNSET else hf0())\n")
    memo = {}
    assert g.ns["fn"](2, memo) == ([3], 3) and memo == {2: [3]}


def test_a_use_in_a_lambda_or_a_comprehensions_source_is_nested():
    for body in ("    return (lambda: {use})()\n", "    return [y for y in {use}]\n"):
        h = hoists.Hoists()
        use = h.use(0, "[x, x]")
        g = _Compiler()
        source = h.compile(g, _function(h, body.format(use=use)), "<test>")
        assert "    def hf0():\n        nonlocal hq0\n        hq0 = [x, x]\n" in source
        assert ":=" not in source and "\x01" not in source and "\x03" not in source
        assert g.ns["fn"](7) == [7, 7]
    assert len(g.sources) == 2   # the comprehension's source: compiled once each way


def test_a_put_value_is_written_into_its_table():
    h = hoists.Hoists()
    g = _Compiler()
    use = h.use(0, "x * 2", put="memo, x if x > 0 else _UNSET")
    h.compile(g, f"def fn(x, memo):\n    hq0 = _UNSET\n    {hoists.DEFS}\n    return {use}\n", "<test>")
    memo = {}
    assert g.ns["fn"](3, memo) == 6 and g.ns["fn"](-1, memo) == -2 and memo == {3: 6}


def test_without_uses_only_the_defs_line_goes():
    h = hoists.Hoists()
    g = _Compiler()
    assert h.compile(g, f"def fn(x):\n    {hoists.DEFS}\n    return x\n", "<test>") == "def fn(x):\n    return x\n"
