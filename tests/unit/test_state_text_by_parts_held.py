"""A game's text kept part by part by the parts as the state holds them (state.state_text):
a part unchanged since the last text is neither frozen nor written again, and the text is
always the state's canonical JSON, whatever wrote to the state and whatever it holds (zone
references, tables, maps with other keys, maps that look like tags)."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

import regnum
from regnum.engine import state as state_module
from regnum.engine.state import State, Table, ZoneRef, state_text
from regnum.moves import Move


def _plain(data) -> str:
    """The canonical text as json writes it, with nothing kept."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _state(**parts) -> State:
    state = State()
    for name, value in parts.items():
        setattr(state, name, value)
    return state


def test_an_unchanged_part_is_taken_as_kept_without_being_frozen(monkeypatch):
    state = _state(vars={"round": 1}, pvars=[{"score": 0}], zones={"deck": [0]}, pieces=[{"type": "card"}])
    kept: dict = {}
    first = state_text(state, kept)
    assert first == _plain(state.to_dict())
    frozen = []
    real = state_module._freeze
    monkeypatch.setattr(state_module, "_freeze", lambda value: frozen.append(value) or real(value))
    assert state_text(state, kept) == first and frozen == []   # nothing frozen: every part as kept
    state.vars["round"] = 2   # written in place, as a careless write would: no journal to miss
    text = state_text(state, kept)
    assert frozen == [{"round": 2}]   # only the part that changed
    assert text == _plain(state.to_dict())


def test_a_table_changed_in_place_is_written_again():
    state = _state(tables={"terrain": Table("terrain", {"a1": "forest", "a2": "water"})})
    kept: dict = {}
    assert state_text(state, kept) == _plain(state.to_dict())
    state.tables["terrain"]["a2"] = "desert"
    text = state_text(state, kept)
    assert '"tables":{"terrain":{"a1":"forest","a2":"desert"}}' in text and text == _plain(state.to_dict())


@pytest.mark.parametrize("before, after", [
    ({"x": 1}, {"x": True}),   # equal in Python, not in JSON
    ({"x": 0}, {"x": False}),
    ({"x": [1, 2]}, {"x": [2, 1]}),
    ({1: "a"}, {"1": "a"}),   # a map with a whole number as key is written as a tagged list
    ({"$zone": "hand#0"}, {"x": ZoneRef("hand#0")}),
])
def test_values_equal_in_python_but_not_in_json_are_written_again(before, after):
    state = _state(vars={"v": before})
    kept: dict = {}
    assert state_text(state, kept) == _plain(state.to_dict())
    state.vars = {"v": after}
    assert state_text(state, kept) == _plain(state.to_dict())


def test_a_part_kept_by_its_frozen_form_is_never_taken_for_a_part_as_held():
    """A variable holding a zone reference is frozen to {"$zone": …}, the very value a map
    written by the rules may hold as it is; written as JSON the two differ (the map is
    tagged, lest it be read back as a reference), so their bytes must never be compared."""
    state = _state(vars={"v": ZoneRef("hand#0")})
    kept: dict = {}
    assert state_text(state, kept) == '{"flow":{"main":[],"threads":null},"moves":0,"pieces":[],' \
        '"player_vars":[],"revealed":[],"rng":0,"tables":{},"vars":{"v":{"$zone":"hand#0"}},"zones":{}}'
    # Made at run time, as the rules make a value (a text of a literal is shared with the
    # code, and marshal marks a shared object apart): the very bytes of the frozen form.
    state.vars = {"v": {"$zone": "".join(["hand", "#0"])}}
    text = state_text(state, kept)
    assert '"vars":{"v":{"$map":[["$zone","hand#0"]]}}' in text and text == _plain(state.to_dict())
    state.vars = {"v": ZoneRef("hand#0")}
    assert '"vars":{"v":{"$zone":"hand#0"}}' in state_text(state, kept)


_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(alphabet="ab$\"é", max_size=3)
    | st.builds(ZoneRef, st.sampled_from(["hand#0", "deck"])),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["x", "y", "$zone", "$map"]), inner, max_size=2)
    | st.dictionaries(st.integers(0, 2), inner, max_size=2),
    max_leaves=10)

_parts = st.fixed_dictionaries({}, optional={
    "vars": st.dictionaries(st.sampled_from("abc"), _values, max_size=3),
    "pvars": st.lists(st.dictionaries(st.sampled_from("pq"), _values, max_size=2), max_size=2),
    "tables": st.dictionaries(st.sampled_from(["t", "u"]), st.dictionaries(st.sampled_from(["a1", "b2"]), _values,
                                                                         max_size=2), max_size=2),
    "zones": st.dictionaries(st.sampled_from(["deck", "hand#0"]), st.lists(st.integers(0, 3), max_size=3), max_size=2),
    "flow": st.fixed_dictionaries({"main": st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.dictionaries(
        st.sampled_from(["c", "$asked"]), _values, max_size=2)).map(list), max_size=2), "threads": st.none()}),
    "rng": st.integers(0, 2 ** 40),
    "once": st.lists(st.sampled_from(["t1", "t2"]), max_size=2).map(tuple),
    "grids": st.dictionaries(st.just("table"), st.fixed_dictionaries(
        {"cells": st.lists(st.sampled_from(["(0,0)", "(0,1)"]), max_size=2),
         "start": st.dictionaries(st.just("object_at"), _values, max_size=1)}), max_size=1),
})


@settings(max_examples=400, deadline=None)
@given(st.lists(_parts, min_size=1, max_size=6))
def test_any_sequence_of_states_writes_what_json_writes(sequence):
    kept: dict = {}
    for parts in sequence:
        if "tables" in parts:
            parts["tables"] = {name: Table(name, values) for name, values in parts["tables"].items()}
        state = _state(**parts)
        assert state_text(state, kept) == _plain(state.to_dict())


@pytest.mark.parametrize("name", ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"])
def test_a_game_written_at_every_move_is_its_canonical_json(name):
    rules = regnum.load(name)
    game = rules.new_game(players=4, seed=7)
    picker = random.Random(7)
    kept: dict = {}
    while not game.is_over:
        state = game.state
        assert state_text(state, kept) == _plain(state.to_dict()) == state_text(state, kept)
        with pytest.raises(regnum.IllegalMove):
            game.play(Move(game.to_move[0], "no_such_action", {}))
        assert game.to_json() == _plain(game.to_dict())
        moves = game.all_legal_moves()
        game.play(moves[picker.randrange(len(moves))])
    assert state_text(game.state, kept) == _plain(game.state.to_dict())
    assert {"flow", "moves", "pieces", "player_vars", "revealed", "rng", "tables", "vars", "zones"} <= set(kept)
