"""A saved game read again takes the parts of its state that the last read found, where the
text has them again in their place (documents.MembersRead, engine/saved.PartsRead): they are
neither parsed nor validated again, `check` does not judge them again when nothing they are
judged by changed, and what a read accepts, refuses and gives is what reading the whole text
does."""
from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import regnum
from regnum import StateError
from regnum.agents import play_random_game
from regnum.documents import MEMBER_KEPT_FROM, MembersRead
from regnum.engine import saved
from regnum.engine.state import canonical_json

GAMES = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"]


@pytest.fixture(scope="module")
def rulesets() -> dict:
    return {name: regnum.load(name) for name in GAMES}


def _whole(rules, text, **kwargs):
    """The game read from the whole text by json.loads, nothing read before kept, nothing
    judged before: what a read must give."""
    kept, rules.moves_read = rules.moves_read, None
    passed = dict(saved._types(rules).passed)
    saved._types(rules).passed.clear()
    walk = MembersRead.walk
    MembersRead.walk = lambda self, text, scan: None
    try:
        return rules.game_from_json(text, **kwargs)
    finally:
        MembersRead.walk = walk
        rules.moves_read = kept
        saved._types(rules).passed.clear()
        saved._types(rules).passed.update(passed)


def _outcome(read):
    try:
        game = read()
    except StateError as err:
        return "refused", str(err)
    return "read", game.to_json(), game.state.to_dict() == json.loads(game.to_json())["state"]


def _kept_parts(text: str) -> dict:
    """The parts of the state a read of `text` keeps for the next one: name -> text."""
    state = json.loads(text)["state"]
    parts = {name: canonical_json(value) for name, value in state.items()}
    return {name: part for name, part in parts.items() if len(part) >= MEMBER_KEPT_FROM and part[0] in "[{"}


def _taken(monkeypatch) -> list:
    """The names of the parts each walk of a text from now on takes as read before."""
    taken: list = []
    walk = MembersRead.walk
    monkeypatch.setattr(MembersRead, "walk", lambda self, text, scan: (
        walk(self, text, scan), taken.append(set(self.taken)))[0])
    return taken


@pytest.mark.parametrize("name", GAMES)
def test_each_read_takes_exactly_the_parts_that_did_not_change(name, rulesets, monkeypatch):
    rules = rulesets[name]
    rules.moves_read = None
    game = rules.new_game(players=3, seed=11, narrate=False)
    rng = random.Random(11)
    taken = _taken(monkeypatch)
    before: dict = {}
    counts = {"taken": 0, "read": 0}
    for step in range(30):
        if game.is_over:
            break
        game.play(rng.choice(game.all_legal_moves()))
        text = game.to_json()
        again = rules.game_from_json(text, check_moves=False)
        parts = _kept_parts(text)
        expected = {part for part, written in parts.items() if before.get(part) == written}
        assert taken.pop() == expected, step
        assert taken == [], step
        counts["taken"] += len(expected)
        counts["read"] += len(parts)
        assert again.to_json() == text
        assert again == _whole(rules, text, check_moves=False) == game
        assert taken == []   # (the whole read, by json.loads, walks nothing)
        assert again.all_legal_moves() == game.all_legal_moves()
        before = parts
    assert counts["taken"] > counts["read"] // 4   # the pieces, at least, most of the time


def test_the_first_read_keeps_parts_for_the_second(rulesets, monkeypatch):
    rules = rulesets["kings_road"]
    rules.moves_read = None
    text = play_random_game(rules, 4, 3, max_moves=30).to_json()
    taken = _taken(monkeypatch)
    rules.game_from_json(text)
    rules.game_from_json(text)
    assert taken == [set(), set(_kept_parts(text))]
    assert set(rules.moves_read.parts.members) == set(_kept_parts(text)) >= {"pieces", "zones"}
    # Another game of the same ruleset read whole takes what it shares with the last read.
    other = play_random_game(rules, 4, 4, max_moves=12).to_json()
    rules.game_from_json(other)
    shared = {p for p, t in _kept_parts(other).items() if _kept_parts(text).get(p) == t}
    assert taken[-1] == shared


def _read_twice_then(rules, before: str, edited: str):
    """`edited` read right after `before` was read twice (its moves and parts kept), and read
    whole: the two outcomes."""
    rules.moves_read = None
    rules.game_from_json(before, check_moves=False)
    rules.game_from_json(before, check_moves=False)
    return (_outcome(lambda: rules.game_from_json(edited, check_moves=False)),
            _outcome(lambda: _whole(rules, edited, check_moves=False)))


def _texts(rules, moves=40, seed=4, players=3):
    before = play_random_game(rules, players, seed, max_moves=moves - 1).to_json()
    text = play_random_game(rules, players, seed, max_moves=moves).to_json()
    return before, text


# Texts the reader must read as the whole text is, though parts of them are the very texts kept.
EDITS = {
    "a space after a colon": lambda t: t.replace('"pieces":', '"pieces": ', 1),
    "a space before the state": lambda t: t.replace('"state":{', '"state": {', 1),
    "the state's parts in another order": lambda t: _reordered(t),
    "a key written with an escape": lambda t: t.replace('"pieces":', '"pi\\u0065ces":', 1),
    "the pieces twice": lambda t: _twice(t, "pieces"),
    "the state twice": lambda t: t[:-1] + ',"state":{}}',
    "the pieces' text as the zones": lambda t: _swapped(t, "zones", "pieces"),
    "a label changed inside the pieces": lambda t: t.replace('"label":"', '"label":"x', 1),
    "a field's value out of range": lambda t: t.replace('"owner":0', '"owner":9', 1),
    "the pieces cut short": lambda t: t.replace(_part(t, "pieces"), _part(t, "pieces")[:-2] + "]", 1),
    "a NaN after the pieces": lambda t: t.replace(_part(t, "pieces") + ",", _part(t, "pieces") + ',"x":NaN,', 1),
    "a semicolon between two parts": lambda t: t.replace(',"pieces":', ';"pieces":', 1),
    "a semicolon between two fields": lambda t: t.replace(',"seed":', ';"seed":', 1),
    "an equals sign for a colon": lambda t: t.replace('"pieces":', '"pieces"=', 1),
    "a number as a key": lambda t: t.replace(',"rng":', ',7:', 1),
    "a space after the end": lambda t: t + " ",
    "a letter after the end": lambda t: t + "x",
    "an object after the end": lambda t: t + "{}",
    "a space first": lambda t: " " + t,
}


def _part(text: str, name: str) -> str:
    return canonical_json(json.loads(text)["state"][name])


def _reordered(text: str) -> str:
    state = json.loads(text)["state"]
    whole = canonical_json(state)
    parts = ",".join(f"{json.dumps(k)}:{canonical_json(state[k])}" for k in reversed(sorted(state)))
    assert whole in text
    return text.replace(whole, "{" + parts + "}", 1)


def _twice(text: str, name: str) -> str:
    part = _part(text, name)
    return text.replace(f'"{name}":{part}', f'"{name}":{part},"{name}":{part}', 1)


def _swapped(text: str, into: str, what: str) -> str:
    return text.replace(f'"{into}":{_part(text, into)}', f'"{into}":{_part(text, what)}', 1)


@pytest.mark.parametrize("how", sorted(EDITS))
def test_a_text_laid_out_otherwise_is_read_as_the_whole_text(how, rulesets):
    rules = rulesets["kings_road"]
    before, text = _texts(rules)
    edited = EDITS[how](text)
    assert edited != text
    ours, whole = _read_twice_then(rules, before, edited)
    assert ours == whole


def test_the_refusals_name_what_the_whole_text_names(rulesets):
    rules = rulesets["kings_road"]
    before, text = _texts(rules)
    assert _read_twice_then(rules, before, _twice(text, "pieces"))[0] == \
        ("refused", "the saved game is not valid: the key 'pieces' appears twice in one object")
    assert _read_twice_then(rules, before, _swapped(text, "zones", "pieces"))[0][1].startswith(
        "state field 'state.zones': Input should be a valid dictionary, not [{")
    refused = _read_twice_then(rules, before, text.replace('"owner":0', '"owner":9', 1))[0]
    assert refused[0] == "refused" and "a seat (0–2) is expected, not 9" in refused[1]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.floats(min_value=0, max_value=1), junk=st.sampled_from(
    ["", ",", "]", "[", "{", "}", '"', "0", "-1", "1.5", " ", "null", "true", '"x":1,', "\\u0041"]),
    drop=st.integers(min_value=0, max_value=3), name=st.sampled_from(["kings_road", "kings_gate"]))
def test_any_edit_of_the_state_is_judged_as_the_whole_text(rulesets, where, junk, drop, name):
    rules = rulesets[name]
    before, text = _texts(rules, moves=25, seed=6)
    start = text.index('"state":{')
    at = start + int(where * (len(text) - start))
    edited = text[:at] + junk + text[at + drop:]
    ours, whole = _read_twice_then(rules, before, edited)
    assert ours == whole


def test_a_part_judged_before_is_not_judged_again_unless_what_judges_it_changed(rulesets, monkeypatch):
    rules = rulesets["kings_gate"]
    text = play_random_game(rules, 3, 2, max_moves=30).to_json()
    record, _ = saved.parse(rules, text)
    types = saved._types(rules)
    types.passed.clear()
    judged: list = []
    real = types.field_acceptors

    def acceptors(piece_type):
        judged.append(piece_type)
        return real(piece_type)
    monkeypatch.setattr(types, "field_acceptors", acceptors)
    saved.check(rules, record)
    first = len(judged)
    assert first == len(record.state.pieces)
    saved.check(rules, record)   # the same objects, the same seats: nothing judged again
    assert len(judged) == first
    # Other seats (the rows of the seats' variables and the moves cut to match): the pieces
    # judged again, and refused as a fresh check refuses them.
    moves = record.moves[:next(i for i, m in enumerate(record.moves) if m.player == 2)]
    update = {"player_vars": record.state.player_vars[:2], "moves": len(moves)}
    fewer = dataclasses.replace(record, players=2, moves=moves, state=record.state.model_copy(update=update))
    with pytest.raises(StateError) as again:
        saved.check(rules, fewer)
    types.passed.clear()
    with pytest.raises(StateError) as fresh:
        saved.check(rules, fewer)
    assert str(again.value) == str(fresh.value)
    assert str(fresh.value).startswith("state field 'state.pieces[") and "a seat (0–1) is expected, not 2" in str(fresh.value)
    # Pieces read again (equal, but other objects): judged again.
    record_again, _ = saved.parse(rules, text.replace('"state":{', '"state": {', 1))
    judged.clear()
    saved.check(rules, record_again)
    assert len(judged) == len(record.state.pieces)


def test_the_tables_are_judged_by_the_pieces_only_when_they_may_name_one(rulesets):
    assert saved._types(rulesets["kingdom_builder"]).tables_name_pieces is False
    assert saved._types(rulesets["kings_gate"]).tables_name_pieces is False
    assert saved._types(rulesets["kings_gate"]).open_tables is True
    assert saved._types(rulesets["kingdom_builder"]).open_tables is False


@pytest.mark.parametrize("name", GAMES)
def test_a_game_read_and_played_leaves_the_parts_kept_as_they_were(name, rulesets):
    """A server reads a game at every move and plays on it: the values kept for the next read
    are shared with the game read, which copies what it changes."""
    rules = rulesets[name]
    rules.moves_read = None
    game = rules.new_game(players=3, seed=5, narrate=False)
    rng = random.Random(5)
    for _ in range(40):
        game.play(rng.choice(game.all_legal_moves()))
        text = game.to_json()
        served = rules.game_from_json(text, check_moves=False)
        for _ in range(3):   # moves the saved game never sees
            if served.is_over:
                break
            served.play(rng.choice(served.all_legal_moves()))
        for part in rules.moves_read.parts.members.values():
            assert canonical_json(part.value) == part.text
        assert served.to_json() != text or served.is_over
    assert rules.game_from_json(game.to_json(), check_moves=False) == game


def test_a_game_read_from_a_dict_stays_apart_from_it(rulesets):
    rules = rulesets["kings_road"]
    text = play_random_game(rules, 4, 9, max_moves=20).to_json()
    data = json.loads(text)
    game = rules.game_from_json(data, check_moves=False)
    key = next(k for k, ids in data["state"]["zones"].items() if ids)
    data["state"]["zones"][key].append(10**6)
    data["state"]["pieces"][0]["label"] = "changed"
    assert game.to_json() == text


HOLDERS = """\
game holders "Holders"
players 2..2
enum crop: wheat, rye, barley, oats, millet, maize, sorghum
piece stone:
    owner: player
zone pool per player: public
zone field: public
var holder per crop: stone? = none
setup:
    for p in players:
        create 3 stone(owner: p) in pool(p) named "stone " + text(p)
flow:
    repeat until false:
        for p in players:
            ask p to hold
action hold(c in crop, s in pool(player)):
    set holder(c) = s
    move s to field
"""


def test_a_table_that_names_pieces_is_judged_again_when_the_pieces_change(tmp_path):
    """A table of pieces taken as read is judged again with other pieces: a piece gone from
    the pieces is refused where the table names it, as in the whole text."""
    from toy_rules import load
    rules = load(tmp_path, HOLDERS, "holders.rules")
    assert saved._types(rules).tables_name_pieces is True
    game = rules.new_game(players=2, seed=1, narrate=False)
    for _ in range(6):   # seat 0 holds wheat, seat 1 rye: its third stone, the last piece
        seat = game.to_move[0]
        game.play(next(m for m in game.legal_moves(seat) if m.args["c"] == ["wheat", "rye"][seat]))
    text = game.to_json()
    held = json.loads(text)["state"]["tables"]["holder"]
    last = max(piece for piece in held.values() if piece is not None)
    data = json.loads(text)
    # The last piece held taken out of the pieces and its zone: only the table still names it.
    assert last == len(data["state"]["pieces"]) - 1
    pieces = canonical_json(data["state"]["pieces"])
    fewer = canonical_json(data["state"]["pieces"][:-1])
    zone = next(k for k, ids in data["state"]["zones"].items() if last in ids)
    ids = data["state"]["zones"][zone]
    edited = text.replace(pieces, fewer, 1).replace(f'"{zone}":{canonical_json(ids)}',
                                                   f'"{zone}":{canonical_json([i for i in ids if i != last])}', 1)
    ours, whole = _read_twice_then(rules, text, edited)
    assert ours == whole
    assert whole == ("refused", f"state field 'state.tables.holder.{next(k for k, v in held.items() if v == last)}': "
                                f"a piece (an id 0–{last - 1}) is expected, not {last}")


def test_a_table_of_an_open_grid_is_judged_again_when_the_cells_in_use_change(rulesets):
    """King's Gate's `object_at` is kept per cell of its open grid: taken as read, it is judged
    again when the grid's cells in use are other ones, as the whole text is."""
    rules = rulesets["kings_gate"]
    text = play_random_game(rules, 3, 2, max_moves=30).to_json()
    grids = json.loads(text)["state"]["grids"]
    cell = grids["table"]["cells"][-1]
    fewer = {**grids, "table": {**grids["table"], "cells": grids["table"]["cells"][:-1]}}
    edited = text.replace('"grids":' + canonical_json(grids), '"grids":' + canonical_json(fewer), 1)
    assert edited != text and len(_part(text, "tables")) >= MEMBER_KEPT_FROM
    ours, whole = _read_twice_then(rules, text, edited)
    assert ours == whole
    assert whole == ("refused", f"state field 'state.tables.object_at.{cell}': this ruleset has no index '{cell}' here")
