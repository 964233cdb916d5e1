"""A saved game's moves read in plain Python when every one is plain (engine/saved.py,
`_plain_moves`), and by the SavedGame model otherwise: the same moves, and the same refusal
with the same message, whichever way a document is read."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st
from pydantic import ValidationError

import regnum
from regnum import StateError
from regnum.agents import play_random_game
from regnum.documents import first_error
from regnum.engine import saved
from regnum.log import LogMove
from regnum.moves import Move

GAMES = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"]


def _by_the_models(rules, data: dict) -> tuple[str, list[Move]]:
    """What the models alone make of `data`: their first refusal, or the moves read."""
    try:
        record = saved.SavedGame.model_validate(data)
    except ValidationError as err:
        where, message = first_error(err)
        return f"state field '{where}': {message}", []
    return "", [Move(m.player, m.action, dict(m.args)) for m in record.moves]


def _read(rules, data: dict) -> tuple[str, list[Move]]:
    try:
        record, _ = saved.parse(rules, json.dumps(data))
    except StateError as err:
        return str(err), []
    return "", record.moves


@pytest.fixture(scope="module")
def kings_road():
    rules = regnum.load("kings_road")
    return rules, json.loads(play_random_game(rules, 3, 7, max_moves=40).to_json())


@pytest.mark.parametrize("name", GAMES)
def test_a_played_games_moves_are_read_plainly_as_the_models_read_them(name):
    rules = regnum.load(name)
    game = play_random_game(rules, 4, 2, max_moves=60)
    data = json.loads(game.to_json())
    moves = saved._plain_moves(data["moves"])
    assert moves is not None and len(moves) == 60
    played = [Move(m.player, m.action, dict(m.args)) for m in game.log.moves]
    assert moves == played == _by_the_models(rules, data)[1]
    for ours, theirs in zip(moves, _by_the_models(rules, data)[1]):
        assert type(ours.player) is int and [type(v) for v in ours.args.values()] == \
            [type(v) for v in theirs.args.values()]
    assert all(ours.args is not given["args"] for ours, given in zip(moves, data["moves"]))   # the game's own
    back = rules.game_from_json(game.to_json(), check_moves=False)
    assert back.to_json() == game.to_json()


# Each move is changed in one way; every change is one the plain reading leaves to the models.
NOT_PLAIN = [
    ("hidden", lambda m: {"player": m["player"], "hidden": True}),
    ("hidden with an action", lambda m: {**m, "hidden": True}),
    ("not hidden, said", lambda m: {**m, "hidden": False}),
    ("seat as true", lambda m: {**m, "player": True}),
    ("seat as a fraction", lambda m: {**m, "player": 1.0}),
    ("seat below 0", lambda m: {**m, "player": -1}),
    ("seat as a text", lambda m: {**m, "player": "1"}),
    ("no action", lambda m: {"player": m["player"], "args": m["args"]}),
    ("empty action", lambda m: {**m, "action": ""}),
    ("action as a number", lambda m: {**m, "action": 3}),
    ("action null", lambda m: {**m, "action": None}),
    ("no args", lambda m: {"player": m["player"], "action": m["action"]}),
    ("args as a list", lambda m: {**m, "args": [1]}),
    ("args null", lambda m: {**m, "args": None}),
    ("an argument as a list", lambda m: {**m, "args": {"card": [1, 2]}}),
    ("an argument as a map", lambda m: {**m, "args": {"card": {"x": 1}}}),
    ("an argument as a fraction", lambda m: {**m, "args": {"card": 2.5}}),
    ("an extra field", lambda m: {**m, "why": "x"}),
    ("not an object", lambda m: [m["player"], m["action"]]),
]


ACCEPTED = {"hidden", "not hidden, said", "no args", "an argument as a list", "an argument as a map"}


@pytest.mark.parametrize("how, change", NOT_PLAIN, ids=[how for how, _ in NOT_PLAIN])
def test_a_move_not_plain_is_read_by_the_models_with_their_message(kings_road, how, change):
    rules, data = kings_road
    data = json.loads(json.dumps(data))
    data["moves"][5] = change(data["moves"][5])
    assert saved._plain_moves(data["moves"]) is None
    expected = _by_the_models(rules, data)
    assert _read(rules, data) == expected
    if how in ACCEPTED:   # by the models: the move is as they read it
        assert expected[0] == "" and len(expected[1]) == len(data["moves"])
    else:
        assert expected[0].startswith("state field 'moves[5]")


def test_a_hidden_move_read_back_is_the_models_move(kings_road):
    rules, data = kings_road
    data = json.loads(json.dumps(data))
    data["moves"][2] = {"player": data["moves"][2]["player"], "hidden": True}
    record, _ = saved.parse(rules, json.dumps(data))
    assert record.moves[2] == Move(data["moves"][2]["player"], None, {})


@pytest.mark.parametrize("field, value, message", [
    ("players", "3", "state field 'players': Input should be a valid integer, not \"3\""),
    ("seed", True, "state field 'seed': Input should be a valid integer, not true"),
    ("ruleset_hash", None, "state field 'ruleset_hash': Input should be a valid string, not null"),
    ("surprise", 1, "state field 'surprise': Extra inputs are not permitted"),
])
def test_with_plain_moves_the_other_fields_are_refused_as_the_models_refuse_them(kings_road, field, value, message):
    rules, data = kings_road
    data = {**data, field: value}
    assert saved._plain_moves(data["moves"]) is not None
    assert _read(rules, data) == _by_the_models(rules, data) == (message, [])


def test_with_plain_moves_the_first_of_two_refusals_is_the_models_first(kings_road):
    rules, data = kings_road
    data = {**data, "seed": "1", "state": {**data["state"], "rng": -1}, "extra": 0}
    assert _read(rules, data)[0] == _by_the_models(rules, data)[0] == \
        "state field 'seed': Input should be a valid integer, not \"1\""
    data = {**data, "seed": 1}
    assert _read(rules, data)[0] == _by_the_models(rules, data)[0] == \
        "state field 'state.rng': Input should be greater than or equal to 0, not -1"


def test_a_seat_of_no_player_is_refused_after_the_plain_reading(kings_road):
    rules, data = kings_road
    data = json.loads(json.dumps(data))
    data["moves"][3]["player"] = 3
    with pytest.raises(StateError, match=r"^state field 'moves\[3\]\.player': seats of this game are 0–2, not 3$"):
        rules.game_from_json(json.dumps(data))


_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | st.text(max_size=3),
                       lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=2), inner, max_size=2),
                       max_leaves=4)
_MOVES = st.dictionaries(st.sampled_from(["player", "action", "args", "hidden", "x"]), _VALUES, max_size=4) | \
    st.fixed_dictionaries({"player": _VALUES, "action": _VALUES, "args": st.dictionaries(st.text(max_size=2), _VALUES, max_size=3)})


@settings(max_examples=400, deadline=None)
@given(_MOVES)
def test_whatever_the_plain_reading_takes_the_model_takes_as_the_same_move(move):
    plain = saved._plain_moves([move])
    try:
        model = LogMove.model_validate(move)
    except ValidationError:
        assert plain is None
        return
    if plain is not None:
        [ours] = plain
        assert (ours.player, ours.action, ours.args) == (model.player, model.action, model.args)
        assert [type(v) for v in ours.args.values()] == [type(v) for v in model.args.values()]
        assert not model.hidden


def test_a_saved_game_handed_over_as_python_values_is_read_as_its_text_is(kings_road):
    """A dict may hold what no JSON text does: a name of an argument that is not a text."""
    rules, data = kings_road
    data = json.loads(json.dumps(data))
    data["moves"][4]["args"] = {1: "dragon"}
    assert saved._plain_moves(data["moves"]) is None
    with pytest.raises(StateError) as refused:
        saved.parse(rules, data)
    assert str(refused.value) == _by_the_models(rules, data)[0] == \
        "state field 'moves[4].args[1].[key]': Input should be a valid string, not 1"
