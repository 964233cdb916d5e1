"""Saved games written and read for less, to the same text and the same refusals: to_json
keeps each part of the state's text with marshal's bytes of the part and writes again only
the parts that differ (state.canonical_parts); read_json measures nesting and long numbers
in C (documents._deeper_than, _LONG_DIGITS); a move's hash and every canonical text come
from one kept encoder."""
from __future__ import annotations

import json
import random
import re
from itertools import accumulate

import pytest
from hypothesis import given, settings, strategies as st

import regnum
from regnum import StateError
from regnum.documents import _DEPTH, _NOT_BRACKET, _deeper_than, read_json
from regnum.engine.state import ZoneRef, canonical_json, canonical_parts
from regnum.moves import Move


def _plain(data) -> str:
    """The canonical text as json writes it, with nothing kept."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# ── the parts of a text kept ────────────────────────────────────────────────

def test_a_part_written_again_only_when_its_value_differs():
    kept: dict = {}
    data = {"zones": {"deck": [3, 1, 2]}, "vars": {"round": 1}, "pieces": [{"owner": 0}]}
    assert canonical_parts(data, kept) == _plain(data)
    assert sorted(kept) == ["pieces", "vars", "zones"]
    before = dict(kept)
    data["vars"]["round"] = 2   # changed in place, as a careless write would: no journal to miss
    assert canonical_parts(data, kept) == _plain(data) == \
        '{"pieces":[{"owner":0}],"vars":{"round":2},"zones":{"deck":[3,1,2]}}'
    assert kept["zones"] is before["zones"] and kept["pieces"] is before["pieces"]   # taken as they were
    assert kept["vars"] is not before["vars"] and kept["vars"][1] == '{"round":2}'


@pytest.mark.parametrize("before, after, text", [
    ({"x": 1}, {"x": True}, '{"v":{"x":true}}'),          # equal in Python, not in JSON
    ({"x": True}, {"x": 1}, '{"v":{"x":1}}'),
    ({"x": 0}, {"x": False}, '{"v":{"x":false}}'),
    ({"x": [1, 2]}, {"x": [2, 1]}, '{"v":{"x":[2,1]}}'),
    ({"x": "é"}, {"x": "e"}, '{"v":{"x":"e"}}'),
])
def test_values_equal_in_python_but_not_in_json_are_written_again(before, after, text):
    kept: dict = {}
    canonical_parts({"v": before}, kept)
    assert canonical_parts({"v": after}, kept) == text == _plain({"v": after})


def test_the_same_value_with_its_keys_in_another_order_writes_the_same_text():
    kept: dict = {}
    first = canonical_parts({"v": {"a": 1, "b": 2}}, kept)
    assert canonical_parts({"v": {"b": 2, "a": 1}}, kept) == first == '{"v":{"a":1,"b":2}}'


def test_values_marshal_cannot_write_are_written_every_time():
    kept: dict = {}
    data = {"ref": ZoneRef("hand#0"), "n": 1}
    assert canonical_parts(data, kept) == '{"n":1,"ref":"hand#0"}' == _plain(data)
    assert "ref" not in kept and "n" in kept
    data["ref"] = ZoneRef("hand#1")
    assert canonical_parts(data, kept) == '{"n":1,"ref":"hand#1"}'


def test_a_map_with_other_keys_is_written_as_json_writes_it():
    kept: dict = {}
    assert canonical_parts({2: "b", 10: "a"}, kept) == _plain({2: "b", 10: "a"}) == '{"2":"b","10":"a"}'
    assert kept == {}


def test_texts_given_by_the_caller_are_taken_as_they_are():
    kept: dict = {}
    assert canonical_parts({"b": None, "a": 1}, kept, {"b": '{"inner":[]}'}) == '{"a":1,"b":{"inner":[]}}'
    assert "b" not in kept


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(alphabet="ab\"é\\", max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("xyz"), inner, max_size=3),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["vars", "zones", "pieces", "flow"]), _json_values,
                                min_size=1), min_size=1, max_size=6))
def test_any_sequence_of_states_writes_what_json_writes(states):
    kept: dict = {}
    for data in states:
        assert canonical_parts(data, kept) == _plain(data)


@pytest.mark.parametrize("name", ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"])
def test_a_game_written_at_every_move_and_after_a_refused_move_is_its_canonical_json(name):
    rules = regnum.load(name)
    game = rules.new_game(players=3, seed=2)
    picker = random.Random(5)
    written = 0
    while not game.is_over and written < 60:
        text = game.to_json()
        assert text == _plain(game.to_dict()) == game.to_json()
        copy = game.copy()
        assert copy.to_json() == text
        moves = game.all_legal_moves()
        with pytest.raises(regnum.IllegalMove):
            game.play(Move(game.to_move[0], "no_such_action", {}))
        assert game.to_json() == text
        game.play(moves[picker.randrange(len(moves))])
        written += 1
        assert copy.to_json() == text != game.to_json()   # the copy keeps its own parts
    assert written > 10


def test_a_write_past_the_journal_shows_in_the_next_text():
    """What the fuzzer's check of a refused move relies on: the text follows the state,
    whatever wrote to it."""
    game = regnum.load("kings_road").new_game(players=2, seed=1)
    text = game.to_json()
    game.state.vars["round"] = game.state.vars["round"] + 100
    changed = game.to_json()
    assert changed != text and changed == _plain(game.to_dict())
    game.state.vars["round"] = game.state.vars["round"] - 100
    assert game.to_json() == text


# ── nesting and long numbers, measured in C ─────────────────────────────────

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.S)


def _deeper_as_before(text: str, limit: int) -> bool:
    """The measure read_json made before: the highest running count of the brackets outside
    the strings, one by one."""
    outside = "".join(text.split('"')[0::2]) if "\\" not in text else _STRING.sub("", text)
    brackets = _NOT_BRACKET.sub("", outside)
    return bool(brackets) and max(accumulate(map(_DEPTH.__getitem__, brackets))) > limit


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet='[]{}"\\a1:,é', max_size=40), st.integers(0, 20))
def test_nesting_is_measured_as_the_brackets_counted_one_by_one(text, limit):
    assert _deeper_than(text.encode("utf-8", "surrogatepass"), text, limit) == _deeper_as_before(text, limit)


@pytest.mark.parametrize("depth", [0, 1, 6, 15, 16, 17, 40])
@pytest.mark.parametrize("limit", [0, 5, 16, 17, 100])
def test_deep_texts_at_and_past_the_limit(depth, limit):
    for text in ["[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth,
                 "[" * depth + '"]]"' + "]" * depth, "[" * depth]:
        assert _deeper_than(text.encode(), text, limit) == _deeper_as_before(text, limit) \
            == (depth > limit), (text, limit)


def test_a_saved_game_too_deep_is_refused_and_one_as_deep_as_allowed_is_read():
    limits = regnum.Limits(json_depth=3)
    assert read_json('{"a":[[1]]}', "saved game", StateError, limits) == {"a": [[1]]}
    with pytest.raises(StateError, match=r"nests arrays and objects more than 3 deep"):
        read_json('{"a":[[[1]]]}', "saved game", StateError, limits)
    assert read_json('{"a":"[[[[[["}', "saved game", StateError, limits) == {"a": "[[[[[["}


def test_long_numbers_are_refused_outside_strings_and_read_inside_them():
    digits = "1" * 25
    assert read_json(f'{{"label":"{digits}","n":12}}', "log") == {"label": digits, "n": 12}
    assert read_json(b'{"n":12345678901234567890}', "log") == {"n": 12345678901234567890}
    with pytest.raises(regnum.LogError, match=r"a number of 21 digits"):
        read_json(f'{{"n":{"9" * 21}}}', "log")
    with pytest.raises(regnum.LogError, match=r"a number of 22 digits"):
        read_json(f'{{"label":"{digits}","n":-{"9" * 21}}}'.encode(), "log")


# ── one kept encoder ────────────────────────────────────────────────────────

@pytest.mark.parametrize("data", [{}, {"b": 1, "a": [1, "x"]}, {"z": {"q": None, "p": True}},
                                  {"u": "é\"\\"}, [1, {"k": "v"}], "text", 3, None])
def test_the_kept_encoder_writes_what_dumps_writes(data):
    assert canonical_json(data) == _plain(data)


def test_a_moves_hash_is_its_arguments_text_as_dumps_writes_it():
    move = Move(1, "pick", {"card": "Dragon", "at": [2, 3]})
    assert hash(move) == hash((1, "pick", json.dumps({"card": "Dragon", "at": [2, 3]}, sort_keys=True,
                                                     default=repr)))
    assert hash(move) == hash(Move(1, "pick", {"at": [2, 3], "card": "Dragon"}))
    assert len({move, Move(1, "pick", {"at": [2, 3], "card": "Dragon"}), Move(0, "pick", move.args)}) == 2


@pytest.mark.parametrize("move", [Move(0, "end_turn", {}), Move(3, "pick \"é\"", {"b": [1, {"z": None}], "a": True}),
                                  Move(True, "seat_as_truth", {}), Move(1, "x", {"k": "v"})])
def test_a_moves_text_is_its_canonical_json(move):
    from regnum.engine.game import _move_text
    assert _move_text(move) == _plain(move.to_dict())


# ── the checks of a saved game against its ruleset, made once per ruleset ───

def test_a_ruleset_that_read_a_saved_game_still_refuses_a_wrong_one():
    """The zone keys (per player count) and a table's indexes are made once per ruleset
    (saved._Types): a good game read first, then each wrong one is refused as before."""
    rules = regnum.load("kingdom_builder")
    game = rules.new_game(players=3, seed=4)
    for _ in range(6):
        game.play(game.all_legal_moves()[0])
    text = game.to_json()
    assert rules.game_from_json(text).to_json() == text
    saved = json.loads(text)

    def refusal(change) -> str:
        data = json.loads(text)
        change(data["state"])
        with pytest.raises(StateError) as refused:
            rules.game_from_json(json.dumps(data), check_moves=False)
        return str(refused.value)

    hexes = sorted(key for key in saved["state"]["zones"] if key.startswith("site#"))
    assert len(hexes) == 400
    assert refusal(lambda s: s["zones"].pop(hexes[0])) == f"state field 'state.zones.{hexes[0]}': missing"
    assert refusal(lambda s: s["zones"].update({"site#(20,0)": []})) == \
        "state field 'state.zones.site#(20,0)': this ruleset has no zone 'site#(20,0)' here"
    # a seat the game has not: the keys of a four-player game are not those of three
    assert refusal(lambda s: s["zones"].update({"supply#3": []})) == \
        "state field 'state.zones.supply#3': this ruleset has no zone 'supply#3' here"
    cell = sorted(saved["state"]["tables"]["terrain"])[0]
    assert refusal(lambda s: s["tables"]["terrain"].pop(cell)) == f"state field 'state.tables.terrain.{cell}': missing"
    assert refusal(lambda s: s["tables"]["terrain"].update({"(20,0)": "grass"})) == \
        "state field 'state.tables.terrain.(20,0)': this ruleset has no index '(20,0)' here"
    four = rules.new_game(players=4, seed=4)
    assert rules.game_from_json(four.to_json()).to_json() == four.to_json()
    assert rules.game_from_json(text).to_json() == text


def test_the_zones_of_an_open_grid_are_the_cells_each_game_uses():
    rules = regnum.load("kings_gate")
    game = rules.new_game(players=2, seed=3)
    early = game.to_json()
    for _ in range(12):
        game.play(game.all_legal_moves()[0])
    later = game.to_json()
    assert len(json.loads(later)["state"]["grids"]["table"]["cells"]) > \
        len(json.loads(early)["state"]["grids"]["table"]["cells"])
    for text in (early, later, early):
        assert rules.game_from_json(text).to_json() == text


def test_a_games_first_text_keeps_nothing_and_the_next_keeps_its_parts():
    """A game read back is often written once: its first text costs no marshal bytes."""
    game = regnum.load("kings_road").new_game(players=3, seed=6)
    first = game.to_json()
    assert game._json_parts == ({}, {})
    assert game.to_json() == first == _plain(game.to_dict())
    assert {"zones", "pieces", "flow"} <= set(game._json_parts[0])
    assert set(game._json_parts[1]) == {"players", "ruleset", "ruleset_hash", "seed", "variant"}


@pytest.mark.parametrize("args", [{}, {"card": "wizards_tower"}, {"b": 2, "a": "x\\\"é", "c": None, "d": True, "e": False},
                                  {"n": -12345678901234567890}, {"at": [1, 2]}, {"f": 1.5}, {"z": {"k": 1}},
                                  {2: "two", 1: "one"}, {"x": ZoneRef("hand#1")}])
def test_a_moves_arguments_are_written_as_the_encoder_writes_them(args):
    from regnum.engine.game import _args_text
    assert _args_text(args) == _plain(args)


def test_arguments_whose_names_do_not_compare_fail_as_the_encoder_fails():
    from regnum.engine.game import _args_text
    for write in (_args_text, _plain):
        with pytest.raises(TypeError, match="'<' not supported"):
            write({1: "one", "a": "x"})
