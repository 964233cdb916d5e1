"""A call a lister computes once per choice of an earlier parameter (`free(at)` in a require
of `chip`, which reads `at`) is kept for the whole listing by the values it reads when it
does not read some parameter before them (`v`, the value played): met again for another
value, it is read, not computed again (listers._Writer._kept_by_values). Only a call that
charges no step: the same moves, coverage, steps and games as computing it each time, and
King's Gate's `play` among them."""
from __future__ import annotations

import re

import pytest

from regnum.agents import play_random_game, playout, random_picks
from regnum.compiler import listers

from listings import assert_alike, both, played   # tests/unit is on the path of its tests
from toy_rules import load_switched

RULES = """
game toy "Toy"
players 2..2
board map: graph
    nodes a, b, c, d, e
    edges a - b, b - c, c - d, d - e
piece stone:
    owner: player
zone site per map: public
zone pool per player: public
def free(x) = count(site(x)) == 0
def crowded(x) = count(n for n in neighbours(map, x) where count(site(n)) > 0) > 1
setup:
    for p in players:
        create 9 stone(owner: p) in pool(p)
flow:
    repeat until false:
        for p in players:
            ask p to put or lift
action put(v in [1, 2, 3], at in map, mode in ["soft", "hard"]):
    require stock: count(pool(player)) > 0 else "no stone left"
    require room: free(at) or (mode == "hard" and v == 3) else "taken"
    require calm: not crowded(at) or mode == "soft" else "too crowded"
    move 1 from pool(player) to site(at)
action lift(at in map):
    require mine: count(site(at)) > 0 and site(at)[0].owner == player else "not yours"
    move site(at)[0] to pool(player)
"""


def _loaded(tmp_path, text: str | None, kept: bool, name: str = "toy.rules"):
    return load_switched(tmp_path, text, name, [(listers, "KEPT_BY_VALUES", kept)])


def _kept(rules, action: str) -> list[str]:
    """The resets of the calls an action's lister keeps by the values they read."""
    return re.findall(r"hq\d+ = mq\d+\.get\((v\d), _UNSET\) if type\(\1\) in _m_keyed else _UNSET",
                      rules.model.actions[action].lister.source)


def test_which_calls_are_kept_by_the_values_they_read(tmp_path):
    rules = _loaded(tmp_path, RULES, True)
    source = rules.model.actions["put"].lister.source
    # `free(at)`, by `at`: kept; `crowded(at)` goes through neighbours, charging steps: per choice
    assert _kept(rules, "put") == ["v1"] and source.count("= _UNSET\n") >= 1
    assert re.search(r"if type\(v1\) in _m_keyed: mq\d+\[v1\] = hq\d+", source)
    assert _kept(_loaded(tmp_path, RULES, False, "off.rules"), "put") == []
    # a call that reads every parameter before it is kept per choice, as before
    two = RULES.replace("action put(v in [1, 2, 3], at in map,", "action put(at in map,").replace(
        ' or (mode == "hard" and v == 3)', ' or mode == "hard"')
    assert _kept(_loaded(tmp_path, two, True, "two.rules"), "put") == []


def test_kings_gate_keeps_a_free_cell_by_the_cell(tmp_path):
    rules = _loaded(tmp_path, None, True, "kings_gate")
    assert _kept(rules, "play") == ["v1"]


def test_a_listing_lists_and_charges_what_the_walk_does(tmp_path):
    """Position after position of random games, the listing against the generic walk's:
    the same moves and coverage, no more steps; without coverage the same steps as with."""
    on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
    compared = 0
    for seed in range(4):
        game = on.new_game(2, seed)
        twin = off.new_game(2, seed)
        for _ in playout(game, random_picks(seed, 2), 30):
            twin._state = game._state.copy()
            seat = game.to_move[0]
            for stop in (False, True):
                assert both(game, "put", seat, stop=stop) == both(twin, "put", seat, stop=stop)
            compared += 1
    assert compared > 50


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("coverage", [False, True])
def test_games_play_as_computing_each_time(tmp_path, seed, coverage):
    a, b = (played(_loaded(tmp_path, RULES, kept, f"kept{kept}.rules"), seed, moves=60, coverage=coverage)
            for kept in (True, False))
    assert_alike(a, b)
    assert sum(m.action == "put" for m in a._moves) > 10


def test_kings_gate_plays_as_computing_each_time(tmp_path):
    on, off = _loaded(tmp_path, None, True, "kings_gate"), _loaded(tmp_path, None, False, "kings_gate")
    for seed, players, coverage in ((2, 4, False), (5, 3, True), (9, 2, False)):
        assert_alike(play_random_game(on, players, seed, coverage=coverage),
                     play_random_game(off, players, seed, coverage=coverage))
