"""Strict loading of saved games and logs, and move names that cannot collide (issue 7).

Each case found by a hostile user is here with the exact error: a saved game or a log is
refused with one StateError / LogError line naming the field path, a move argument of the
wrong JSON type with an IllegalMove naming the argument, a label that could collide at
`create`. From the command line each is one line and exit code 2.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import regnum
from regnum import IllegalMove, LogError, Move, RulesetError, StateError
from regnum.testing import random_playout


@pytest.fixture(scope="module")
def saved(kings_road) -> dict:
    """A 3-player King's Road game saved after 40 moves, as a dict."""
    game = random_playout(kings_road.new_game(players=3, seed=3), seed=3, max_moves=40)
    return json.loads(game.to_json())


def refusal(rules, data) -> str:
    """The one-line message of the StateError loading `data` (a dict or a text) raises."""
    with pytest.raises(StateError) as info:
        rules.game_from_json(data if isinstance(data, (str, bytes)) else json.dumps(data))
    assert isinstance(info.value, LogError)   # `except LogError` catches it too
    return str(info.value)


def changed(saved: dict, change) -> dict:
    data = json.loads(json.dumps(saved))
    change(data)
    return data


def marker_in_supply(saved: dict, seat: int) -> int:
    return saved["state"]["zones"][f"supply#{seat}"][0]


# ── saved games: the cases of the issue ──

def test_a_piece_without_its_owner_is_refused_naming_the_field(kings_road, saved):
    # Before: loaded, then "KeyError: 'owner'" while checking an invariant.
    piece = marker_in_supply(saved, 0)
    data = changed(saved, lambda d: d["state"]["pieces"][piece].pop("owner"))
    assert refusal(kings_road, data) == f"state field 'state.pieces[{piece}].owner': missing"


def test_a_piece_without_its_label_is_refused_naming_the_field(kings_road, saved):
    # Before: loaded, then "KeyError: 'label'" while listing moves.
    data = changed(saved, lambda d: d["state"]["pieces"][20].pop("label"))
    assert refusal(kings_road, data) == "state field 'state.pieces[20].label': missing"


def test_a_state_that_breaks_an_invariant_is_refused_naming_it(kings_road, saved):
    # Before: loaded with markers_conserved broken. A marker of seat 0 on the board given to seat 1.
    zones, pieces = saved["state"]["zones"], saved["state"]["pieces"]
    piece = next(i for key, ids in sorted(zones.items()) if key.startswith("region#")
                 for i in ids if pieces[i]["owner"] == 0)
    data = changed(saved, lambda d: d["state"]["pieces"][piece].update(owner=1))
    assert refusal(kings_road, data) == (
        "the state breaks invariant markers_conserved: every player owns 20 markers: supply + "
        "board + score track (rulesets/kings_road.rules:252:1)")


def test_an_array_nested_100000_deep_is_refused_before_parsing(kings_road):
    # Before: a raw RecursionError.
    assert refusal(kings_road, "[" * 100_000 + "]" * 100_000) == (
        "the saved game nests arrays and objects more than 100 deep; limit 'json_depth' is 100; "
        "raise it with --limit json_depth=N or regnum.Limits(json_depth=N)")
    inside = json.dumps({"format": "regnum-state/1", "x": "[[[[" * 50})   # brackets in a text
    assert refusal(kings_road, inside) == "state field 'ruleset': missing"


def test_the_format_is_required(kings_road, saved):
    data = changed(saved, lambda d: d.pop("format"))
    assert refusal(kings_road, data) == ("state field 'format': missing (a saved game says which "
                                         "format it follows: 'regnum-state/1')")
    data = changed(saved, lambda d: d.update(format="regnum-state/2"))
    assert refusal(kings_road, data) == ("state field 'format': Input should be 'regnum-state/1', "
                                         "not \"regnum-state/2\"")


@pytest.mark.parametrize("value, shown", [(True, "true"), (2.0, "2.0"), ("2", '"2"')])
def test_a_seat_must_be_a_whole_number(kings_road, saved, value, shown):
    piece = marker_in_supply(saved, 0)
    data = changed(saved, lambda d: d["state"]["pieces"][piece].update(owner=value))
    assert refusal(kings_road, data) == (
        f"state field 'state.pieces[{piece}].owner': a seat (0–2) is expected, not {shown}")
    data = changed(saved, lambda d: d.update(players=value))
    assert refusal(kings_road, data) == f"state field 'players': Input should be a valid integer, not {shown}"


def test_every_field_is_checked_against_the_ruleset(kings_road, saved):
    piece = marker_in_supply(saved, 1)
    zone = saved["state"]["zones"]["supply#1"]
    cases = [
        (lambda d: d["state"]["pieces"][piece].update(colour="red"),
         f"state field 'state.pieces[{piece}].colour': this ruleset has no field 'colour' here"),
        (lambda d: d["state"]["pieces"][piece].update(type="dragon"),
         f"state field 'state.pieces[{piece}].type': 'dragon' is not a piece type of this ruleset "
         "(card, marker)"),
        (lambda d: d["state"]["pieces"][piece].update(noble=0),
         f"state field 'state.pieces[{piece}].noble': true or false is expected, not 0"),
        (lambda d: d["state"]["pieces"][20].update(region="atlantis"),
         "state field 'state.pieces[20].region': a cell of board 'kingdom' is expected, not \"atlantis\""),
        (lambda d: d["state"]["pieces"][20].update(kind="joker"),
         "state field 'state.pieces[20].kind': one of dragon, knight, region_card, witch is expected, "
         "not \"joker\""),
        (lambda d: d["state"]["vars"].update(king=None),
         "state field 'state.vars.king': a value of type kingdom is expected, not null"),
        (lambda d: d["state"]["vars"].pop("round"), "state field 'state.vars.round': missing"),
        (lambda d: d["state"]["vars"].update(crown=1),
         "state field 'state.vars.crown': this ruleset has no variable 'crown' here"),
        (lambda d: d["state"]["vars"].update(round=2 ** 62),
         "state field 'state.vars.round': 4611686018427387904 is beyond the limit of numbers "
         "(±4_611_686_018_427_387_904)"),
        (lambda d: d["state"]["player_vars"].pop(),
         "state field 'state.player_vars': 2 rows for 3 players"),
        (lambda d: d["state"]["zones"].pop("out_of_game"),
         "state field 'state.zones.out_of_game': missing"),
        (lambda d: zone.insert(0, zone[0]) or d["state"]["zones"].update({"supply#1": zone}),
         f"state field 'state.zones.supply#1[1]': piece {piece} is in two zones, or twice in one"),
        (lambda d: d["state"]["zones"]["out_of_game"].append(500),
         f"state field 'state.zones.out_of_game[{len(saved['state']['zones']['out_of_game'])}]': "
         "500 is not a piece of this game (ids 0–92)"),
        (lambda d: d["state"]["pieces"][20].update(label="x#0"),
         "state field 'state.pieces[20].label': \"x#0\" is not a label (a label is a text "
         "without '#', which moves use to tell pieces apart)"),
        (lambda d: d["state"]["flow"]["main"][0].__setitem__(0, "nowhere"),
         "state field 'state.flow.main[0]': 'nowhere' at step 3 is not a place in this ruleset"),
        (lambda d: d["state"].update(moves=39),
         "state field 'state.moves': 39 moves counted, but the game lists 40"),
        (lambda d: d["state"].update(rng=-1),
         "state field 'state.rng': Input should be greater than or equal to 0, not -1"),
        (lambda d: d["moves"][3].update(player=True),
         "state field 'moves[3].player': Input should be a valid integer, not true"),
        (lambda d: d["moves"][3]["args"].update(card=2.0),
         "state field 'moves[3].args.card': 2.0 is not a whole number (regnum has no fractions)"),
        (lambda d: d.update(extra=1), "state field 'extra': Extra inputs are not permitted"),
    ]
    for change, message in cases:
        zone = list(saved["state"]["zones"]["supply#1"])
        assert refusal(kings_road, changed(saved, change)) == message


def test_a_well_typed_change_is_refused_as_not_what_the_moves_give(kings_road, saved):
    data = changed(saved, lambda d: d["state"]["vars"].update(round=d["state"]["vars"]["round"] + 1))
    shown = saved["state"]["vars"]["round"]
    assert refusal(kings_road, data) == (
        f"state field 'state.vars.round': {shown + 1} is not what the game's 40 moves give ({shown})")
    data = changed(saved, lambda d: d["state"]["player_vars"][0].update(score=39))
    assert refusal(kings_road, data).startswith(
        "state field 'state.player_vars[0].score': 39 is not what the game's 40 moves give")


def test_an_illegal_move_in_a_saved_game_is_refused_naming_it(kings_road, saved):
    data = changed(saved, lambda d: d["moves"][0]["args"].update(card="atlantis"))
    assert refusal(kings_road, data).startswith(
        "state field 'moves[0]': 'atlantis' is not a choice for 'card' (choices: ")


def test_size_numbers_and_keys_are_bounded(tmp_path, saved):
    rules = regnum.load("kings_road", limits=regnum.Limits(json_bytes=1_000))
    text = json.dumps(saved)
    assert refusal(rules, text) == (
        f"the saved game is {len(text):_} bytes; limit 'json_bytes' is 1_000; raise it with "
        "--limit json_bytes=N or regnum.Limits(json_bytes=N)")
    kings_road = regnum.load("kings_road")
    assert refusal(kings_road, '{"seed": 1' + "0" * 30 + "}") == (
        "the saved game is not valid: a number of 31 digits (100000000000…)")
    assert refusal(kings_road, '{"seed": NaN}') == "the saved game is not valid: NaN is not a number a game can hold"
    assert refusal(kings_road, '{"seed": 1, "seed": 2}') == (
        "the saved game is not valid: the key 'seed' appears twice in one object")
    assert refusal(kings_road, '{"seed": ') == (
        "the saved game is not valid JSON: Expecting value at line 1 column 10")
    assert refusal(kings_road, b"\xff") == "the saved game is not UTF-8 text (invalid start byte at byte 0)"


@pytest.mark.parametrize("inside", ['[[[[{{{{]]', r'[[\"[[{{{{\\]]'])   # without and with backslashes
def test_the_reader_counts_only_brackets_outside_strings_and_refuses_long_numbers_only(inside):
    from regnum.documents import read_json
    limits = regnum.Limits(json_depth=3)
    text = '{"a": [["' + inside + '"]], "b": "x"}'
    assert ("\\" in text) == ("\\" in inside)
    assert read_json(text, "log", limits=limits) == json.loads(text)   # depth 3: the brackets inside count none
    with pytest.raises(LogError, match="nests arrays and objects more than 3 deep"):
        read_json('{"a": [[["' + inside + '"]]]}', "log", limits=limits)
    # 20 digits are a number a game may hold; 21 digits in a string are a text.
    text = '{"n": -' + "9" * 20 + ', "t": "' + inside + "1" * 30 + '"}'
    assert read_json(text, "log") == json.loads(text)
    with pytest.raises(LogError, match="a number of 22 digits"):
        read_json('{"t": "' + inside + '", "n": -' + "1" * 21 + "}", "log")


def test_a_move_s_plain_arguments_and_every_other_value_are_checked_alike():
    from regnum.documents import BadValue, json_value
    plain = {"card": "witch", "n": 3, "flag": True, "none": None}
    assert json_value(plain) is plain
    for bad, reason in [({"x": 1.5}, "1.5 is not a whole number (regnum has no fractions)"),
                        ({"x": [1, 2.0]}, "2.0 is not a whole number (regnum has no fractions)"),
                        ({"x": {1, 2}}, "a set is not a JSON value")]:
        with pytest.raises(BadValue) as info:
            json_value(bad)
        assert info.value.reason == reason
    with pytest.raises(BadValue, match="nests lists and objects more than 0 deep"):
        json_value({"x": 1}, depth=0)


@pytest.mark.parametrize("name", ["kings_road", "kings_kilt", "kingdom_builder", "kings_gate"])
def test_a_saved_game_s_text_is_its_dict_written_canonically(name):
    """to_json writes each move's text once and keeps it; the text is still exactly the
    canonical JSON of to_dict(), for the game, a copy that plays on, and a game read back."""
    from regnum.engine.state import canonical_json
    rules = regnum.load(name)
    game = random_playout(rules.new_game(players=3, seed=4), seed=4, max_moves=30)
    assert list(game.to_dict()) == ["format", "ruleset", "ruleset_hash", "variant", "players", "seed",
                                    "moves", "state"]
    assert game.to_json() == canonical_json(game.to_dict())
    copy = game.copy()
    random_playout(copy, seed=5, max_moves=10)
    assert copy.to_json() == canonical_json(copy.to_dict()) != game.to_json()
    assert copy.move_count == game.move_count + 10 and game.to_json() == canonical_json(game.to_dict())
    again = rules.game_from_json(game.to_json())
    assert again.to_json() == game.to_json()


def test_a_position_built_by_hand_loads_only_when_trusted(kings_road):
    from regnum.testing import Scenario
    game = Scenario(kings_road, 3).place("supply#0", "region#dark_tower", 2).start()
    text = game.to_json()
    assert refusal(kings_road, text) == ("state field 'state.zones.region#dark_tower': [1, 2] is "
                                         "not what the game's 0 moves give ([])")
    again = kings_road.game_from_json(text, check_moves=False)
    assert again == game and again.to_json() == text
    broken = json.loads(text)
    broken["state"]["pieces"][1]["owner"] = 1
    with pytest.raises(StateError, match="^the state breaks invariant markers_conserved: "):
        kings_road.game_from_json(broken, check_moves=False)


def nested(depth: int) -> list:
    """A list nested `depth` deep, built without recursion."""
    top = inner = []
    for _ in range(depth - 1):
        inner.append([])
        inner = inner[0]
    return top


def test_python_objects_are_bounded_like_json_text(kings_road, saved):
    with pytest.raises(StateError, match="^the saved game nests arrays and objects more than 100 deep; "):
        kings_road.game_from_json(dict(saved, extra=nested(100_000)))
    with pytest.raises(LogError, match="^the log nests arrays and objects more than 100 deep; "):
        regnum.Log.from_json({"format": "regnum-log/1", "moves": nested(100_000)})
    game = kings_road.new_game(3)
    with pytest.raises(IllegalMove) as info:
        game.play(Move(0, "pick", {"card": nested(100_000)}))
    assert str(info.value) == ("illegal move P0 pick(card=…): argument 'card': nests lists and objects "
                               "more than 100 deep (rule 'move.args.card')")
    with pytest.raises(ValueError, match="^a move is "):
        Move.from_dict({"player": True, "action": "pick", "args": {}})
    assert Move.from_dict({"player": 1, "action": "pick"}) == Move(1, "pick", {})


def test_an_unchanged_saved_game_loads_and_plays_on(kings_road, saved):
    game = kings_road.game_from_json(json.dumps(saved))
    assert json.loads(game.to_json()) == saved and game.move_count == 40
    game.play(game.all_legal_moves()[0])


# ── logs ──

@pytest.fixture(scope="module")
def log(kings_road) -> dict:
    return json.loads(random_playout(kings_road.new_game(players=3, seed=3), seed=3, max_moves=10).log.to_json())


def log_refusal(rules, data) -> str:
    with pytest.raises(LogError) as info:
        regnum.replay(rules, data if isinstance(data, str) else json.dumps(data))
    assert not isinstance(info.value, StateError)
    return str(info.value)


def test_a_log_without_its_format_is_refused(kings_road, log):
    data = {k: v for k, v in log.items() if k != "format"}
    assert log_refusal(kings_road, data) == (
        "log field 'format': missing (a log says which format it follows: 'regnum-log/1')")
    assert log_refusal(kings_road, "[" * 100_000) == (
        "the log nests arrays and objects more than 100 deep; limit 'json_depth' is 100; "
        "raise it with --limit json_depth=N or regnum.Limits(json_depth=N)")


@pytest.mark.parametrize("field, value, message", [
    ("players", True, "log field 'players': Input should be a valid integer, not true"),
    ("seed", 2.0, "log field 'seed': Input should be a valid integer, not 2.0"),
    ("ruleset", 1, "log field 'ruleset': Input should be a valid string, not 1"),
])
def test_log_fields_are_strictly_typed(kings_road, log, field, value, message):
    assert log_refusal(kings_road, dict(log, **{field: value})) == message


def test_log_moves_are_strictly_typed(kings_road, log):
    data = json.loads(json.dumps(log))
    data["moves"][2]["player"] = True
    assert log_refusal(kings_road, data) == "log field 'moves[2].player': Input should be a valid integer, not true"
    data = json.loads(json.dumps(log))
    data["moves"][2]["args"] = {"card": ["a", {"b": 1.5}]}
    assert log_refusal(kings_road, data) == (
        "log field 'moves[2].args.card[1].b': 1.5 is not a whole number (regnum has no fractions)")


# ── move arguments: true is not 1, 2.0 is not 2 ──

COUNTING = """
game counting "Counting"
players 2..2
flow:
    ask 0 to give
    ask 0 to give
action give(n in range(1, 4), to in players):
    add n to score(to)
"""


@pytest.fixture
def counting(tmp_path) -> regnum.Ruleset:
    path = tmp_path / "counting.rules"
    path.write_text(textwrap.dedent(COUNTING), encoding="utf-8")
    return regnum.load(path)


@pytest.mark.parametrize("args, reason, rule", [
    ({"n": True, "to": 0}, "argument 'n' must be a whole number (1), not true", "give.n"),
    ({"n": 1, "to": False}, "argument 'to' must be a whole number (0), not false", "give.to"),
    ({"n": 2.0, "to": 0}, "argument 'n': 2.0 is not a whole number (regnum has no fractions)", "move.args.n"),
    ({"n": 1, "to": [1.0]}, "argument 'to[0]': 1.0 is not a whole number (regnum has no fractions)",
     "move.args.to"),
])
def test_a_move_argument_of_another_json_type_is_illegal(counting, args, reason, rule):
    game = counting.new_game(2)
    before = game.to_json()
    with pytest.raises(IllegalMove) as info:
        game.play(Move(0, "give", args))
    assert (info.value.reason, info.value.rule) == (reason, rule)
    assert game.to_json() == before
    game.play(Move(0, "give", {"n": 1, "to": 0}))
    assert json.loads(game.log.to_json())["moves"] == [{"player": 0, "action": "give", "args": {"n": 1, "to": 0}}]


def test_a_log_move_argument_of_another_json_type_is_refused_with_its_index(counting):
    game = counting.new_game(2)
    game.play(Move(0, "give", {"n": 1, "to": 0}))
    log = json.loads(game.log.to_json())
    log["moves"].append({"player": 0, "action": "give", "args": {"n": True, "to": 1}})
    with pytest.raises(IllegalMove) as info:
        regnum.replay(counting, log)
    assert info.value.index == 1
    assert info.value.reason == "move #1: argument 'n' must be a whole number (1), not true"


# ── labels: '#' is kept for telling pieces apart ──

LABELS = """
game labels "Labels"
players 2..2
piece chip:
    value: int
zone pool: public
zone bank: public
setup:
    create 1 chip(value: 1) in pool named "x"
    create 1 chip(value: 2) in pool named "x"
    create 1 chip(value: 3) in pool named "{LABEL}"
flow:
    ask 0 to take
action take(c in pool):
    move c to bank
"""


def labels(tmp_path, label: str) -> regnum.Ruleset:
    path = tmp_path / "labels.rules"
    path.write_text(textwrap.dedent(LABELS).replace("{LABEL}", label), encoding="utf-8")
    return regnum.load(path)


def test_a_label_with_a_hash_is_refused_at_create(tmp_path):
    # Before: x, x and x#0 gave the moves x#0 and x#1 (x#0 naming two pieces): one could not be chosen.
    rules = labels(tmp_path, "x#0")
    with pytest.raises(RulesetError) as info:
        rules.new_game(2)
    [diagnostic] = info.value.diagnostics
    assert (diagnostic.code, diagnostic.span.line) == ("E902", 11)
    assert diagnostic.message == ("create: the label 'x#0' contains '#', which moves use to tell "
                                  "pieces with the same label apart; choose a label without it")


def test_pieces_that_share_a_label_get_names_that_cannot_collide(tmp_path):
    game = labels(tmp_path, "x0").new_game(2)
    moves = [m.args["c"] for m in game.all_legal_moves()]
    assert moves == ["x#0", "x#1", "x0"]
    for name in moves:
        copy = game.copy()
        copy.play(Move(0, "take", {"c": name}))
        assert [p["label"] for p in copy.observation(0)["zones"]["bank"]] == [name.partition("#")[0]]


# ── the command line: one line, exit code 2 ──

def run(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "regnum", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def test_the_cli_refuses_a_bad_saved_game_or_log_with_one_line_and_exit_2(tmp_path, saved):
    piece = marker_in_supply(saved, 0)
    (tmp_path / "saved.json").write_text(json.dumps(changed(saved, lambda d: d["state"]["pieces"][piece].pop("owner"))))
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "good.json").write_text(json.dumps(saved))
    result = run("replay", "saved.json", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (
        2, "", f"saved.json: invalid saved game: state field 'state.pieces[{piece}].owner': missing\n")
    result = run("replay", "deep.json", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == ("deep.json: invalid log: the log nests arrays and objects more than 100 "
                             "deep; limit 'json_depth' is 100; raise it with --limit json_depth=N or "
                             "regnum.Limits(json_depth=N)\n")
    result = run("replay", "good.json", "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["moves"] == 40
