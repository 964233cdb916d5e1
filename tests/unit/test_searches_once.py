"""A search nested in a comprehension's items whose source is a def reading none of the
comprehension's names (`[count(h for h in mine(p) where h == r) for r in map]`) is computed
once per evaluation (codegen._lazy_sources), at its first use: the same values, the same
steps and the same step limit as computing it for every item, and never computed where the
items never reach it."""
from __future__ import annotations

import re

import pytest

import regnum
from regnum import LimitExceeded, Move
from regnum.engine.runtime import RuntimeFault

from toy_rules import load   # tests/unit is on the path of its tests

RULES = """
game toy "Toy"
players 2..2
board map: graph
    nodes a, b, c, d, e
    edges a - b, b - c, c - d, d - e
piece stone:
    owner: player
zone site per map: public
var seen: list of int = []
var most: int = 0
def owner_of(h) = if count(site(h)) == 0 then none else site(h)[0].owner
def mine(p) = [h for h in map where owner_of(h) == p]
setup:
    create 1 stone(owner: 0) in site(a)
    create 1 stone(owner: 0) in site(c)
    create 1 stone(owner: 1) in site(d)
flow:
    repeat until false:
        ask 0 to look
action look(p in players):
    set seen = [count(h for h in SOURCE where h == r or adjacent(map, h, r)) for r in map]
    set most = max([count(h for h in SOURCE where h != r) for r in map] + [0])
"""

WRITTEN_OUT = "[x for x in map where owner_of(x) == p]"


def _game(tmp_path, source: str, name: str, limits: regnum.Limits | None = None):
    rules = load(tmp_path, RULES.replace("SOURCE", source), name)
    return rules, rules.new_game(2, limits=limits)


def _steps_of_a_look(game, p: int) -> int:
    game.peak_steps = 0
    game.play(Move(0, "look", {"p": p}))
    return game.peak_steps


def test_the_search_gives_the_values_and_charges_the_steps_of_one_made_per_item(tmp_path):
    rules, once = _game(tmp_path, "mine(p)", "once.rules")
    _, every = _game(tmp_path, WRITTEN_OUT, "every.rules")
    for p, seen, most in [(0, [1, 2, 1, 1, 0], 2), (1, [0, 0, 1, 1, 1], 1)]:
        steps = _steps_of_a_look(once, p)
        assert steps == _steps_of_a_look(every, p)
        assert steps > 0
        for game in (once, every):
            assert game.state.vars["seen"] == seen and game.state.vars["most"] == most


def test_the_search_is_written_once_per_evaluation(tmp_path):
    """The def's search is held by one `_m_once` per comprehension (in the action's native
    body, and in the VM's statements of it); written out in the comprehension (not a def's
    call) it stays as it was."""
    spied: list[tuple[str, str]] = []
    from regnum.compiler import codegen
    original = codegen.CodeGen.compiled

    def spy(self, source, filename, mode="exec"):
        spied.append((filename, source))
        return original(self, source, filename, mode)
    codegen.CodeGen.compiled = spy
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("REGNUM_CACHE_DIR", "off")
            _game(tmp_path, "mine(p)", "once.rules")
            once = list(spied)
            spied.clear()
            _game(tmp_path, WRITTEN_OUT, "every.rules")
            every = list(spied)
    finally:
        codegen.CodeGen.compiled = original
    native = [source for filename, source in once if filename == "<regnum native _n0_look>"]
    assert len(native) == 1 and len(re.findall(r"_m_once\(c, lambda: \(\[", native[0])) == 2
    assert sum(len(re.findall(r"_m_once\(", source)) for _, source in once) == 4
    assert not any("_m_once" in source for _, source in every)


def test_past_the_step_limit_it_fails_as_when_made_per_item(tmp_path):
    """Each later use charges the steps of the first: a limit the search passes only at its
    third use stops the move as it stopped it when the search was made every time."""
    _, probe = _game(tmp_path, "mine(p)", "probe.rules")
    limit = _steps_of_a_look(probe, 0) - 1
    messages = []
    for source, name in [("mine(p)", "once.rules"), (WRITTEN_OUT, "every.rules")]:
        _, game = _game(tmp_path, source, name, regnum.Limits(steps=limit))
        before = game.to_json()
        with pytest.raises(LimitExceeded) as caught:
            game.play(Move(0, "look", {"p": 0}))
        assert game.to_json() == before
        messages.append(str(caught.value).replace(name, "X"))
    assert messages[0] == messages[1]
    assert f"more than {limit} steps" in messages[0]


def test_a_search_its_items_never_reach_is_never_made(tmp_path):
    """Guarded by `or`, or in a comprehension over nothing, a failing search is not computed;
    reached, it fails where it failed."""
    rules = load(tmp_path, """
    game toy "Toy"
    players 2..2
    board map: graph
        nodes a, b
        edges a - b
    var out: list of int = []
    const empty = []
    def broken(p) = [[1][p + 5]]
    flow:
        repeat until false:
            ask 0 to look or reach
    action look(p in players):
        set out = [r for r in [1, 2, 3] where r > 0 or count(x for x in broken(p) where x == r) > 0]
        set out = out + [count(x for x in broken(p) where x == r) for r in empty]
    action reach(p in players):
        set out = [count(x for x in broken(p) where x == r) for r in [1, 2]]
    """)
    game = rules.new_game(2)
    game.play(Move(0, "look", {"p": 0}))
    assert game.state.vars["out"] == [1, 2, 3]
    before = game.to_json()
    with pytest.raises(RuntimeFault) as caught:
        game.play(Move(0, "reach", {"p": 0}))
    assert "no item 5" in str(caught.value)
    assert game.to_json() == before
