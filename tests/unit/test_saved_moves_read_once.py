"""A saved game read again after more moves reads only the moves it has not read
(engine/saved.MovesRead): the text it reads is the rest after the moves of the last saved game
the ruleset read, and what it accepts, refuses and gives is what reading the whole text does."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import regnum
from regnum import StateError
from regnum.agents import play_random_game
from regnum.engine import saved
from regnum.engine.game import _move_text

GAMES = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"]


@pytest.fixture(scope="module")
def rulesets() -> dict:
    return {name: regnum.load(name) for name in GAMES}


def _whole(rules, text, **kwargs):
    """The game read from the whole text (nothing read before kept): what a read must give."""
    kept, rules.moves_read = rules.moves_read, None
    try:
        return rules.game_from_json(text, **kwargs)
    finally:
        rules.moves_read = kept


def _outcome(read):
    try:
        game = read()
    except StateError as err:
        return "refused", str(err)
    return "read", game.to_json(), [m.to_dict() for m in game._moves]


def _parsed(monkeypatch) -> list:
    """The texts the reader parses, from now on."""
    texts: list = []
    real = saved.read_document

    def reading(data, *args):
        texts.append(data)
        return real(data, *args)
    monkeypatch.setattr(saved, "read_document", reading)
    return texts


@pytest.mark.parametrize("name", GAMES)
def test_each_read_of_a_growing_game_parses_only_its_new_move(name, rulesets, monkeypatch):
    rules = rulesets[name]
    rules.moves_read = None
    game = rules.new_game(players=3, seed=7, narrate=False)
    rng = random.Random(7)
    parsed = _parsed(monkeypatch)
    for step in range(25):
        game.play(rng.choice(game.all_legal_moves()))
        text = game.to_json()
        again = rules.game_from_json(text, check_moves=False)
        # Each move's text taken from the read (none on the first, read whole).
        assert again._move_texts == ([_move_text(m) for m in game._moves] if step else [])
        assert again.to_json() == text
        assert again._moves == game._moves and again._moves is not game._moves
        assert again.all_legal_moves() == game.all_legal_moves()
        read = parsed.pop()
        if step == 0:   # the first read is whole; it keeps its moves, without their texts
            assert read == text and rules.moves_read.texts is None
            assert rules.moves_read.moves == tuple(game._moves)
        else:   # the moves read before are left out: the text read begins with the new one
            assert read.startswith('{"format":"regnum-state/1","moves":[' + _move_text(game._moves[-1]) + "]")
            assert read.count('{"action":') == 1
            assert len(read) == len(text) - len(",".join(_move_text(m) for m in game._moves[:-1])) - 1
            assert rules.moves_read.prefix == text[:text.index("]")]
        assert again._move_texts == [_move_text(m) for m in game._moves]
        assert parsed == []


def test_the_same_text_read_twice_parses_no_move_the_second_time(rulesets, monkeypatch):
    rules = rulesets["kings_road"]
    game = play_random_game(rules, 4, 3, max_moves=30)
    text = game.to_json()
    _whole(rules, text)
    rules.game_from_json(text)   # the first read keeps the moves; the second makes their texts
    parsed = _parsed(monkeypatch)
    again = rules.game_from_json(text)
    assert parsed == ['{"format":"regnum-state/1","moves":[' + text[text.index("]"):]]
    assert again.to_json() == text and again._moves == game._moves


def test_a_game_read_owns_its_list_of_moves(rulesets):
    rules = rulesets["kings_kilt"]
    game = play_random_game(rules, 2, 5, max_moves=12)
    text = game.to_json()
    rules.game_from_json(text)
    first = rules.game_from_json(text)
    kept = rules.moves_read
    first.play(first.all_legal_moves()[0])
    assert rules.moves_read is kept and len(kept.moves) == 12 and len(kept.texts) == 12
    second = rules.game_from_json(text)
    assert second.move_count == 12 and second.to_json() == text


def test_another_game_is_read_whole_and_kept_in_its_place(rulesets, monkeypatch):
    rules = rulesets["kings_road"]
    one = play_random_game(rules, 4, 1, max_moves=20).to_json()
    other = play_random_game(rules, 4, 2, max_moves=21).to_json()
    rules.game_from_json(one)
    rules.game_from_json(one)
    parsed = _parsed(monkeypatch)
    assert rules.game_from_json(other).to_json() == other
    assert parsed == [other]
    assert len(rules.moves_read.moves) == 21 and rules.moves_read.texts is None


# What may follow the moves read before, and must be read as the whole text is: accepted
# alike, or refused with the same message (which names its place in the whole text).
ENDINGS = {
    "no new move": lambda rest: "]" + rest,
    "a comma, then the end": lambda rest: ",]" + rest,
    "a comma, a space, the end": lambda rest: ", ]" + rest,
    "two commas": lambda rest: ",," + rest[1:],
    "a space first": lambda rest: " ," + rest[1:],
    "a seat too high": lambda rest: rest.replace('"player":', '"player":9', 1),
    "a list as an argument": lambda rest: rest.replace('"args":{', '"args":{"x":[1],', 1),
    "a key twice": lambda rest: rest.replace('"player":', '"player":0,"player":', 1),
    "a fraction": lambda rest: rest.replace('"seed":', '"seed":1.5,"x":', 1),
    "a number of 30 digits": lambda rest: rest.replace('"seed":', '"seed":' + "9" * 30 + ',"x":', 1),
    "not JSON": lambda rest: rest[:-1],
    "nothing after": lambda rest: "",
}


@pytest.mark.parametrize("how", sorted(ENDINGS))
def test_what_follows_the_moves_read_is_judged_as_in_the_whole_text(how, rulesets):
    rules = rulesets["kings_road"]
    game = play_random_game(rules, 3, 4, max_moves=40)
    text = game.to_json()
    before = play_random_game(rules, 3, 4, max_moves=39).to_json()
    prefix = before[:before.index("]")]
    assert text.startswith(prefix)
    edited = prefix + ENDINGS[how](text[len(prefix) + 1:] if how != "no new move" else text[text.index("]") + 1:])
    rules.game_from_json(before)
    rules.game_from_json(before)   # the moves of `before` read, their texts made
    assert rules.moves_read.prefix == prefix
    assert _outcome(lambda: rules.game_from_json(edited, check_moves=False)) == \
        _outcome(lambda: _whole(rules, edited, check_moves=False))


def test_the_refusals_are_those_of_the_whole_text(rulesets):
    rules = rulesets["kings_road"]
    text = play_random_game(rules, 3, 4, max_moves=40).to_json()
    before = play_random_game(rules, 3, 4, max_moves=39).to_json()
    prefix = before[:before.index("]")]
    rules.game_from_json(before)
    rules.game_from_json(before)

    def refusal(edited):
        with pytest.raises(StateError) as err:
            rules.game_from_json(edited, check_moves=False)
        return str(err.value)
    # The place of the stray comma's refusal in the whole text, not in the rest read.
    assert refusal(prefix + ",]" + text[text.index("]") + 1:]) == \
        f"the saved game is not valid JSON: Expecting value at line 1 column {len(prefix) + 2}"
    assert refusal(prefix + "]" + text[text.index("]") + 1:]) == \
        "state field 'state.moves': 40 moves counted, but the game lists 39"
    new = text[len(prefix):]
    seat = new[new.index('"player":') + 9]
    assert refusal(prefix + new.replace('"player":', '"player":7', 1)) == \
        f"state field 'moves[39].player': seats of this game are 0–2, not 7{seat}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(min_value=0, max_value=400), junk=st.sampled_from(
    ["", ",", "]", "[", "{", "}", '"', "0", "1e5", " ", "null", '"player":1', '{"action":"pick"}']),
    drop=st.integers(min_value=0, max_value=3))
def test_any_edit_after_the_moves_read_is_judged_as_the_whole_text(rulesets, cut, junk, drop):
    rules = rulesets["kings_road"]
    text = play_random_game(rules, 2, 6, max_moves=31).to_json()
    before = play_random_game(rules, 2, 6, max_moves=30).to_json()
    prefix = before[:before.index("]")]
    at = min(len(prefix) + cut, len(text))
    edited = text[:at] + junk + text[at + drop:]
    rules.game_from_json(before)
    rules.game_from_json(before)
    assert _outcome(lambda: rules.game_from_json(edited, check_moves=False)) == \
        _outcome(lambda: _whole(rules, edited, check_moves=False))


def test_a_game_read_without_coverage_counts_nothing_and_offers_the_same_moves(rulesets):
    rules = rulesets["kingdom_builder"]
    game = play_random_game(rules, 3, 2, max_moves=25)
    text = game.to_json()
    counted = rules.game_from_json(text, check_moves=False)
    plain = rules.game_from_json(text, check_moves=False, coverage=False)
    assert counted.hits == {} and plain.hits is None
    assert plain.all_legal_moves() == counted.all_legal_moves() == game.all_legal_moves()
    assert counted.hits and plain.hits is None   # the listing counted in one only
    assert plain.to_json() == text


def test_the_size_limit_is_that_of_the_whole_text():
    """The rest read after the moves is shorter than the text: the text's own size is bounded."""
    probe = regnum.load("kings_kilt")
    text = play_random_game(probe, 2, 8, max_moves=20).to_json()
    before = play_random_game(probe, 2, 8, max_moves=19).to_json()
    rules = regnum.load("kings_kilt", limits=regnum.Limits(json_bytes=len(text) - 1))
    rules.game_from_json(before)
    rules.game_from_json(before)
    assert rules.moves_read.prefix == before[:before.index("]")]
    with pytest.raises(StateError) as err:
        rules.game_from_json(text)
    assert str(err.value) == (f"the saved game is {len(text):_} bytes; limit 'json_bytes' is "
                              f"{len(text) - 1:_}; raise it with --limit json_bytes=N or regnum.Limits(json_bytes=N)")
