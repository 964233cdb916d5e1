"""Hostile saved games and logs (issue 7): every mutation is refused cleanly or harmless.

Saved King's Road and Kingdom Builder games (`Game.to_json()`, taken at several points of
random games) and their logs get one change — a value replaced by another of the same or
another JSON type, a key deleted, a list item duplicated, two items swapped, a value nested
deep — and are loaded again. Each must be either refused with StateError (LogError for a
log; a log whose moves are refused raises IllegalMove with the move's index, as documented)
or accepted as a game that is valid: its invariants hold, every seat to move has its legal
moves listed, and random moves play on without any exception. Nothing else may come out.
"""
from __future__ import annotations

import copy
import json
import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import regnum
from regnum.testing import random_playout

RULES = {name: regnum.load(name) for name in ("kings_road", "kingdom_builder")}
# (ruleset, players, seed, moves played before saving): the start, the middle and the end
POINTS = {
    "kings_road": [(3, 1, 0), (4, 2, 25), (2, 3, 70), (3, 4, 10_000)],
    "kingdom_builder": [(2, 1, 2), (3, 2, 20), (2, 3, 45)],
}
OPS = ["change", "delete", "duplicate", "swap", "nest"]


def examples(n: int) -> settings:
    return settings(max_examples=n, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@lru_cache(maxsize=None)
def saved(name: str) -> tuple:
    """(saved game JSON, log JSON) at each point of a few random games."""
    out = []
    for players, seed, stop in POINTS[name]:
        game = random_playout(RULES[name].new_game(players=players, seed=seed), seed, max_moves=stop)
        out.append((game.to_json(), game.log.to_json()))
    return tuple(out)


def places(node, prefix=()) -> list:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(places(value, prefix + (key,)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(places(value, prefix + (i,)))
    return out


scalars = st.one_of(st.integers(-3, 130), st.integers(-2 ** 70, 2 ** 70), st.booleans(), st.none(),
                    st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from(["", "x", "#", "hand#0", "supply#1", "marker", "settlement",
                                     "(3,4)", "flow", "$asked", "pick", "regnum-state/1"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.sampled_from(["owner", "label", "type", "$zone", "x"]),
                                             inner, max_size=2), max_leaves=5)


def mutate(data, doc):
    """Apply one hostile change to `doc` in place; returns how to write it as JSON text (the
    draws say what was changed: Hypothesis prints them on failure)."""
    op = data.draw(st.sampled_from(OPS), label="op")
    spots = [p for p in places(doc) if p]
    if op in ("duplicate", "swap"):
        spots = [p for p in spots if type(p[-1]) is int] or spots
    path = data.draw(st.sampled_from(spots), label="path")
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    value = parent[last]
    if op == "change":
        same = {bool: st.booleans(), int: st.integers(-2, 120), str: st.sampled_from(sorted(_strings(doc)))}
        kind = type(value)
        parent[last] = data.draw(same[kind] if kind in same and data.draw(st.booleans()) else json_values,
                                 label="new value")
    elif op == "delete":
        del parent[last]
    elif op == "duplicate":
        if isinstance(parent, list):
            parent.insert(last, copy.deepcopy(value))
        else:
            parent[last] = [value, copy.deepcopy(value)]
    elif op == "swap":
        if isinstance(parent, list) and len(parent) > 1:
            other = data.draw(st.integers(0, len(parent) - 1), label="other")
            parent[last], parent[other] = parent[other], parent[last]
        elif isinstance(parent, dict) and len(parent) > 1:
            other = data.draw(st.sampled_from(sorted(parent, key=str)), label="other")
            parent[last], parent[other] = parent[other], parent[last]
    else:  # written into the text: json itself recurses on deep values
        depth = data.draw(st.sampled_from([2, 99, 101, 5_000, 100_000]), label="depth")
        parent[last] = NEST
        deep = "[" * depth + json.dumps(value) + "]" * depth
        return lambda: json.dumps(doc).replace(json.dumps(NEST), deep)
    return lambda: json.dumps(doc)


NEST = "\u0000nest here\u0000"


def _strings(doc) -> set:
    found, stack = {"x"}, [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.update(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif type(node) is str:
            found.add(node)
    return found


def plays_on(game, rnd: random.Random, moves: int = 4) -> None:
    """An accepted game is a valid one: invariants, legal moves, and moves that play."""
    assert game.check_invariants() == []
    for _ in range(moves):
        if game.is_over:
            return
        for seat in game.to_move:
            assert game.legal_moves(seat), f"P{seat} is to move but has no legal move"
        game.play(rnd.choice(game.all_legal_moves()))
        assert game.check_invariants() == []


def load_mutated_state(name: str, data) -> None:
    text, _ = data.draw(st.sampled_from(saved(name)), label="saved game")
    doc = json.loads(text)
    text = mutate(data, doc)()
    try:
        game = RULES[name].game_from_json(text)
    except regnum.StateError as err:
        event("refused: " + str(err).split(":")[0][:40])
        return
    event("accepted")
    plays_on(game, random.Random(data.draw(st.integers(0, 1000), label="move seed")))


@examples(120)
@given(data=st.data())
def test_mutated_kings_road_states_are_refused_or_valid(data):
    load_mutated_state("kings_road", data)


@examples(50)
@given(data=st.data())
def test_mutated_kingdom_builder_states_are_refused_or_valid(data):
    load_mutated_state("kingdom_builder", data)


@examples(80)
@given(data=st.data(), name=st.sampled_from(sorted(RULES)))
def test_mutated_logs_are_refused_or_replay(data, name):
    _, text = data.draw(st.sampled_from(saved(name)), label="log")
    doc = json.loads(text)
    text = mutate(data, doc)()
    try:
        game = regnum.replay(RULES[name], text)
    except (regnum.LogError, regnum.IllegalMove) as err:
        assert not isinstance(err, regnum.StateError)   # a log is not a saved game
        event(f"refused: {type(err).__name__}")
        return
    event("accepted")
    plays_on(game, random.Random(0))


@pytest.mark.parametrize("name", sorted(RULES))
def test_every_unchanged_saved_game_loads(name):
    for text, log in saved(name):
        game = RULES[name].game_from_json(text)
        assert game.to_json() == text
        assert regnum.replay(RULES[name], log).to_json() == text
