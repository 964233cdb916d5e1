"""A saved game's values asked of a predicate made once per declared type (engine/saved.py,
`_Types.accepts`), and of `_Types.check`, which says why, only when the predicate refuses:
the predicate takes exactly what `check` takes, for every type the four games declare; and a
state refused is refused with the same message as before."""
from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

import regnum
from regnum import StateError
from regnum.agents import play_random_game
from regnum.engine import saved

GAMES = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"]


def _setting(name: str):
    rules = regnum.load(name)
    game = play_random_game(rules, 3, 5, max_moves=50)
    record, _ = saved.parse(rules, game.to_json())
    types = saved._types(rules)
    refs = list(types.vars.values()) + list(types.pvars.values()) + list(types.tables.values()) + \
        [ref for fields in types.fields.values() for ref in fields.values()]
    cells = sorted({c for board in types.cells.values() for c in board})
    members = sorted({m for members in types.enums.values() for m in members})
    return rules, types, record.state.pieces, refs, cells, members


SETTINGS = {name: _setting(name) for name in GAMES}


def _values(cells: list, members: list, pieces: int, number: int):
    atoms = st.one_of(
        st.none(), st.booleans(), st.integers(-3, pieces + 3), st.sampled_from([number - 1, number, -number, 1 - number]),
        st.sampled_from(cells or ["x"]), st.sampled_from(members or ["x"]), st.text(max_size=4),
        st.sampled_from(["(0,0)", "(3,-2)", "(0,1)x", "(99999,0)", "(-1,-6)", "(a,b)"]), st.floats(allow_nan=False))
    return st.recursive(atoms, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=2),
                        max_leaves=5)


def _taken_by_check(types, ref, value, pieces, players: int) -> bool:
    try:
        types.check(ref, value, "v", pieces, players)
    except StateError:
        return False
    return True


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_predicate_takes_exactly_what_check_takes(name, data):
    rules, types, pieces, refs, cells, members = SETTINGS[name]
    ref = data.draw(st.sampled_from(refs))
    value = data.draw(_values(cells, members, len(pieces), types.number))
    players = data.draw(st.integers(2, 4))
    assert types.accepts(ref)(value, pieces, players) == _taken_by_check(types, ref, value, pieces, players)


def _ref(name: str, optional: bool, listed: bool = False):
    ref = SimpleNamespace(name=name, item=None, optional=optional)
    return SimpleNamespace(name="list", item=ref, optional=optional) if listed else ref


# The kinds of type no field of the four games has: a piece of a type, any piece, a type the
# checker lets through (any JSON value), each with and without `?`, and in a list.
OTHER_REFS = [_ref(name, optional, listed) for name in ("object", "piece", "anything")
              for optional in (False, True) for listed in (False, True)]


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_the_predicate_takes_exactly_what_check_takes_for_the_other_kinds_of_type(data):
    rules, types, pieces, refs, cells, members = SETTINGS["kings_gate"]
    ref = data.draw(st.sampled_from(OTHER_REFS))
    value = data.draw(_values(cells, members, len(pieces), types.number))
    assert types.accepts(ref)(value, pieces, 3) == _taken_by_check(types, ref, value, pieces, 3)


def test_a_piece_of_another_type_and_a_null_where_none_may_be_are_refused():
    _, types, pieces, _, _, _ = SETTINGS["kings_gate"]
    other = next(i for i, piece in enumerate(pieces) if piece.type != "object")
    first = next(i for i, piece in enumerate(pieces) if piece.type == "object")
    assert types.accepts(OTHER_REFS[0])(first, pieces, 3) and not types.accepts(OTHER_REFS[0])(other, pieces, 3)
    assert not types.accepts(_ref("anything", False))(None, pieces, 3)
    assert types.accepts(_ref("anything", True))(None, pieces, 3)
    assert types.accepts(_ref("anything", False))({"a": [1, None]}, pieces, 3)
    assert not types.accepts(_ref("anything", False))({"a": [1.5]}, pieces, 3)


def test_every_declared_type_has_one_predicate_kept():
    _, types, _, refs, _, _ = SETTINGS["kings_gate"]
    assert all(types.accepts(ref) is types.accepts(ref) for ref in refs)
    assert types.field_acceptors("object") is types.field_acceptors("object")


def test_a_text_that_is_a_cell_is_remembered_and_the_memory_bounded():
    _, types, _, _, _, _ = SETTINGS["kings_gate"]
    types._cells.clear()
    assert types.is_cell("(2,-3)") and "(2,-3)" in types._cells
    assert not types.is_cell("(2,-3) ") and not types.is_cell(f"(0,{types.reach + 1})")
    assert types._cells == {"(2,-3)"}
    for i in range(saved._CELLS_KEPT + 5):
        assert types.is_cell(f"({i % 50},{i // 50})")
    assert len(types._cells) <= saved._CELLS_KEPT


def _replace_a_placed_piece(state: dict, new: int) -> None:
    ids = next(ids for ids in state["zones"].values() if ids)
    ids[0] = new


@pytest.fixture(scope="module")
def kings_gate_text():
    rules = regnum.load("kings_gate")
    return rules, play_random_game(rules, 3, 5, max_moves=50).to_json()


@pytest.mark.parametrize("change, message", [
    (lambda s: s["pieces"][1].__setitem__("number", True), "state field 'state.pieces[1].number': a whole number is expected, not true"),
    (lambda s: s["pieces"][1].__setitem__("cells", ["(0,0)", "(0,0"]), "state field 'state.pieces[1].cells[1]': a cell (row,col) of open grid 'table' within ±1000000 is expected, not \"(0,0\""),
    (lambda s: s["pieces"][2].__setitem__("scored", None), "state field 'state.pieces[2].scored': a value of type bool is expected, not null"),
    (lambda s: s["pieces"][2].pop("ring"), "state field 'state.pieces[2].ring': missing"),
    (lambda s: s["zones"][next(iter(s["zones"]))].append(0),
     "state field 'state.zones.objects[0]': piece 0 is in two zones, or twice in one"),
    (lambda s: s["zones"][next(k for k, v in s["zones"].items() if v)].pop(),
     "state field 'state.pieces[11]': this piece is in no zone"),
    (lambda s: s["zones"][next(iter(s["zones"]))].append(len(s["pieces"])),
     "state field 'state.zones.hand#0[6]': 76 is not a piece of this game (ids 0–75)"),
    # as many ids as pieces, one of them not a piece
    (lambda s: _replace_a_placed_piece(s, len(s["pieces"])),
     "state field 'state.zones.hand#0[0]': 76 is not a piece of this game (ids 0–75)"),
    (lambda s: _replace_a_placed_piece(s, -1),
     "state field 'state.zones.hand#0[0]': -1 is not a piece of this game (ids 0–75)"),
])
def test_a_state_refused_names_the_first_wrong_value_as_before(kings_gate_text, change, message):
    rules, text = kings_gate_text
    data = json.loads(text)
    change(data["state"])
    with pytest.raises(StateError) as refused:
        rules.game_from_json(json.dumps(data), check_moves=False)
    assert str(refused.value) == message
