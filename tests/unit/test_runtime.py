"""Clean errors for bad input at the API (DESIGN §5): illegal moves, bad logs and states,
runaway rulesets and bad player counts. None of them may hang or leak a Python exception
other than the documented ones, and a refused move leaves the state byte-identical."""
from __future__ import annotations

import json
import textwrap
import time

import pytest

import regnum
from regnum import IllegalMove, LimitExceeded, LogError, Move, RulesetError
from regnum.testing import random_playout


def pick(card: str, player: int = 1) -> Move:
    return Move(player, "pick", {"card": card})


@pytest.fixture
def midround(kings_road):
    """3 players; P0 has picked all three cards, P1 and P2 still pick."""
    game = kings_road.new_game(players=3, seed=0)
    for card in ("dark_tower", "savage_hills", "kings_altar"):
        game.play(pick(card, 0))
    assert game.to_move == [1, 2]
    return game


def refused(game, move: Move) -> IllegalMove:
    """The IllegalMove `game.play(move)` raises; asserts that the state did not change."""
    before = game.to_json()
    to_move, legal = game.to_move, game.all_legal_moves()
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    assert game.to_json() == before
    assert game.to_move == to_move and game.all_legal_moves() == legal
    err = info.value
    assert err.move == move and err.reason and err.rule
    assert err.rule in str(err)
    return err


# ── illegal moves ─────────────────────────────────────────────────────────────

@pytest.mark.parametrize("player", [0, 3, 7, -1])
def test_wrong_player(midround, player):
    err = refused(midround, pick("zin_kais_deep", player))
    assert err.rule == "flow"
    assert f"P{player} is not to move" in err.reason and "P1, P2" in err.reason


def test_a_move_after_the_end(kings_road):
    game = random_playout(kings_road.new_game(players=2, seed=3), seed=3)
    assert game.is_over
    err = refused(game, pick("zin_kais_deep", 0))
    assert err.rule == "flow" and "game is over" in err.reason


@pytest.mark.parametrize("action", ["build", "", "PICK"])
def test_unknown_action(midround, action):
    err = refused(midround, Move(1, action, {"card": "zin_kais_deep"}))
    assert err.rule == "flow"
    assert repr(action) in err.reason and "pick" in err.reason


@pytest.mark.parametrize("card", ["atlantis", "Dark Tower", 5, None, ["dark_tower"], {"a": 1}])
def test_unknown_card(midround, card):
    err = refused(midround, Move(1, "pick", {"card": card}))
    assert err.rule == "pick.card"
    assert "kings_road.rules:" in err.location
    assert "not a choice for 'card'" in err.reason and "dark_tower" in err.reason


def test_card_not_in_hand_any_more(kings_road):
    game = kings_road.new_game(players=2, seed=0)
    game.play(pick("dark_tower", 0))
    err = refused(game, pick("dark_tower", 0))
    assert err.rule == "pick.card"


def test_missing_argument(midround):
    err = refused(midround, Move(1, "pick", {}))
    assert err.rule == "pick" and "missing argument 'card'" in err.reason
    assert "kings_road.rules:" in err.location


def test_unexpected_argument(midround):
    err = refused(midround, Move(1, "pick", {"card": "zin_kais_deep", "slot": 2}))
    assert err.rule == "pick" and "'slot'" in err.reason


def test_rule_refusals_name_the_rule_and_its_line(midround):
    err = refused(midround, pick("knight"))
    assert err.rule == "pick.knight_last"
    path, line, col = err.location.rsplit(":", 2)
    assert path.endswith("kings_road.rules") and int(line) > 0 and int(col) > 0
    text = open(regnum.load("kings_road").path, encoding="utf-8").read().splitlines()[int(line) - 1]
    assert "knight_last" in text


def test_play_takes_a_move():
    game = regnum.load("kings_road").new_game(players=2)
    with pytest.raises(TypeError):
        game.play(("0", "pick", {"card": "dark_tower"}))


def test_args_that_are_not_an_object(midround):
    err = refused(midround, Move(1, "pick", None))
    assert "args" in err.reason


@pytest.mark.parametrize("player", [1.0, True])
def test_seat_must_be_an_int(midround, player):
    refused(midround, pick("zin_kais_deep", player))


# ── logs ──────────────────────────────────────────────────────────────────────

@pytest.fixture(scope="module")
def played(kings_road):
    """A finished 3-player game and its log as a dict."""
    game = random_playout(kings_road.new_game(players=3, seed=11), seed=11)
    assert game.is_over
    return game, json.loads(game.log.to_json())


def log_error(rules, log) -> str:
    with pytest.raises(LogError) as info:
        regnum.replay(rules, log)
    return str(info.value)


def test_a_good_log_replays(kings_road, played):
    game, log = played
    assert regnum.replay(kings_road, log).to_json() == game.to_json()
    assert regnum.replay(kings_road, json.dumps(log)).to_json() == game.to_json()
    assert regnum.replay(kings_road, game.log).to_json() == game.to_json()


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2]", "null", "12", '"log"'])
def test_malformed_log_json(kings_road, text):
    message = log_error(kings_road, text)
    assert "JSON" in message or "object" in message


@pytest.mark.parametrize("field", ["ruleset", "players", "seed", "ruleset_hash"])
def test_log_missing_field(kings_road, played, field):
    log = {k: v for k, v in played[1].items() if k != field}
    message = log_error(kings_road, log)
    assert f"'{field}'" in message


@pytest.mark.parametrize("field, value, named", [
    ("players", "three", "players"),
    ("players", 9, "players"),
    ("players", 1, "players"),
    ("seed", "x", "seed"),
    ("format", "regnum-log/9", "format"),
    ("moves", {"a": 1}, "moves"),
    ("surplus", 1, "surplus"),
])
def test_log_bad_field(kings_road, played, field, value, named):
    message = log_error(kings_road, dict(played[1], **{field: value}))
    assert f"'{named}" in message


@pytest.mark.parametrize("index, change, named", [
    (3, {"player": -1}, "moves[3].player"),
    (4, {"player": "P1"}, "moves[4].player"),
    (5, {"action": ""}, "moves[5].action"),
    (6, {"args": ["card"]}, "moves[6].args"),
    (7, {"extra": True}, "moves[7].extra"),
])
def test_log_bad_move_record(kings_road, played, index, change, named):
    log = json.loads(json.dumps(played[1]))
    log["moves"][index].update(change)
    assert f"'{named}'" in log_error(kings_road, log)


def test_log_move_without_action(kings_road, played):
    log = json.loads(json.dumps(played[1]))
    del log["moves"][2]["action"]
    assert "'moves[2].action'" in log_error(kings_road, log)


def test_log_of_another_ruleset(kings_road, played):
    message = log_error(kings_road, dict(played[1], ruleset="kingdom_builder"))
    assert "'ruleset'" in message and "kingdom_builder" in message


def test_log_of_a_variant_is_refused_by_the_base_ruleset_and_vice_versa(kings_road):
    variant = regnum.load("rulesets/variants/permanent_nobles.rules")
    game = random_playout(variant.new_game(players=3, seed=5), seed=5)
    with pytest.raises(LogError, match="'variant'"):
        regnum.replay(kings_road, game.log.to_json())
    base_game = random_playout(kings_road.new_game(players=3, seed=5), seed=5)
    with pytest.raises(LogError, match="'variant'"):
        regnum.replay(variant, base_game.log.to_json())


def test_log_whose_result_does_not_match_the_replay(kings_road, played):
    log = json.loads(json.dumps(played[1]))
    log["result"]["scores"] = [s + 1 for s in log["result"]["scores"]]
    assert "'result'" in log_error(kings_road, log)


@pytest.mark.parametrize("k", [0, 7, 25])
def test_illegal_move_in_a_log_reports_its_index(kings_road, played, k):
    log = json.loads(json.dumps(played[1]))
    log["moves"][k]["args"] = {"card": "atlantis"}
    with pytest.raises(IllegalMove) as info:
        regnum.replay(kings_road, log)
    assert info.value.index == k
    assert info.value.rule == "pick.card"
    assert f"#{k}" in str(info.value)


def test_move_by_a_seat_not_to_move_in_a_log_reports_its_index(kings_road):
    game = kings_road.new_game(players=3, seed=0)
    for card in ("dark_tower", "savage_hills", "kings_altar"):
        game.play(pick(card, 0))
    game.play(pick("dark_tower", 1))
    log = json.loads(game.log.to_json())
    log["moves"].append({"player": 0, "action": "pick", "args": {"card": "temple_ruins"}})
    with pytest.raises(IllegalMove) as info:
        regnum.replay(kings_road, log)
    assert info.value.index == 4 and info.value.rule == "flow"
    assert "P0 is not to move" in str(info.value)


def test_log_truncated_after_k_moves_replays_the_prefix(kings_road, played):
    log = json.loads(json.dumps(played[1]))
    log["moves"] = log["moves"][:10]
    log["result"] = None
    game = regnum.replay(kings_road, log)
    assert game.move_count == 10 and not game.is_over


# ── saved states ─────────────────────────────────────────────────────────────

def state_error(rules, data) -> str:
    with pytest.raises(LogError) as info:
        rules.game_from_json(data)
    return str(info.value)


def test_state_with_missing_or_wrong_fields(kings_road, played):
    data = json.loads(played[0].to_json())
    assert "'state'" in state_error(kings_road, {k: v for k, v in data.items() if k != "state"})
    assert "'format'" in state_error(kings_road, dict(data, format="x"))
    assert "'ruleset'" in state_error(kings_road, dict(data, ruleset="other"))
    assert "'moves'" in state_error(kings_road, {k: v for k, v in data.items() if k != "moves"})


def test_state_of_a_variant_is_refused_by_the_base_ruleset(kings_road):
    variant = regnum.load("rulesets/variants/permanent_nobles.rules")
    assert "'variant'" in state_error(kings_road, variant.new_game(players=3).to_json())


def test_state_with_a_bad_players_field_names_it(kings_road):
    data = json.loads(kings_road.new_game(players=3).to_json())
    assert "'players'" in state_error(kings_road, dict(data, players="x"))


@pytest.mark.parametrize("text", ["{oops", "[]"])
def test_state_that_is_not_a_json_object(kings_road, text):
    state_error(kings_road, text)


def test_state_with_an_unknown_piece_id(kings_road):
    data = json.loads(kings_road.new_game(players=3).to_json())
    data["state"]["zones"]["supply#0"].append(99_999)
    state_error(kings_road, data)


# ── runaway rulesets ──────────────────────────────────────────────────────────

TOY = """
game toy "Toy"
players 2..3
piece token:
    owner: player
zone pool per player: public
var n: int = 0
setup:
    for p in players:
        create 1 token(owner: p) in pool(p)
"""


def toy(tmp_path, body: str) -> regnum.Ruleset:
    path = tmp_path / "toy.rules"
    path.write_text(TOY + textwrap.dedent(body), encoding="utf-8")
    return regnum.load(path)


def line_of(text: str, needle: str) -> int:
    lines = (TOY + textwrap.dedent(text)).splitlines()
    return next(i + 1 for i, line in enumerate(lines) if needle in line)


def limit(fn) -> LimitExceeded:
    start = time.perf_counter()
    with pytest.raises(LimitExceeded) as info:
        fn()
    assert time.perf_counter() - start < 30, "the limit took too long to stop the ruleset"
    err = info.value
    assert isinstance(err, RulesetError)
    assert [d.code for d in err.diagnostics] == ["E901"]
    return err


RUNAWAYS = {
    "endless loop": ("""
        flow:
            repeat until false:
                pass
        """, "pass", "steps"),
    "a rule that runs itself": ("""
        rule again():
            run again()
        flow:
            run again()
        """, "    run again()", "deep"),
    "endless creation": ("""
        flow:
            repeat until false:
                create 1 token(owner: 0) in pool(0)
        """, "create 1 token(owner: 0) in pool(0)", "pieces"),
    "endless counting": ("""
        flow:
            repeat until false:
                add 1 to n
        """, "add 1 to n", "steps"),
}


@pytest.mark.parametrize("name", list(RUNAWAYS))
def test_runaway_ruleset_is_stopped_with_a_location(tmp_path, name):
    body, needle, word = RUNAWAYS[name]
    rules = toy(tmp_path, body)
    err = limit(lambda: rules.new_game(2))
    span = err.diagnostics[0].span
    assert span.file.endswith("toy.rules") and span.line == line_of(body, needle)
    assert word in err.diagnostics[0].message
    assert f"toy.rules:{span.line}:" in str(err)  # rendered like a compiler, with the line


@pytest.mark.parametrize("loop", ["pass", "create 1 token(owner: player) in pool(player)"])
def test_runaway_move_is_stopped_and_leaves_the_state_unchanged(tmp_path, loop):
    body = f"""
        flow:
            for p in players:
                ask p to spin
        action spin():
            repeat until false:
                {loop}
        """
    rules = toy(tmp_path, body)
    game = rules.new_game(2)
    before = game.to_json()
    events = list(game.events)
    err = limit(lambda: game.play(Move(0, "spin", {})))
    # The loop that never ends, or the statement in it that ran out of room.
    assert err.diagnostics[0].span.line in (line_of(body, "repeat until false"), line_of(body, loop))
    assert game.to_json() == before and game.events == events
    assert game.to_move == [0]


# ── players ────────────────────────────────────────────────────────────────────

@pytest.mark.parametrize("players", [0, 1, 6, -2, 3.0, "3", None])
def test_new_game_with_a_bad_player_count(kings_road, players):
    with pytest.raises(ValueError) as info:
        kings_road.new_game(players=players)
    assert "2" in str(info.value) and "5" in str(info.value)
