"""Per-seat secrecy (issue 7): what the API, a log and the terminal show of a secret.

King's Road is the witness: its picks are simultaneous and secret until the reveal. Once
seat 0 has picked the Dark Tower, seat 1 may know that seat 0 picked, never what.
"""
from __future__ import annotations

import json

import pytest

import regnum
from regnum.render import plain, view_text
from regnum.terminal import safe

PICKS = [regnum.Move(0, "pick", {"card": "dark_tower"}), regnum.Move(1, "pick", {"card": "witch"}),
         regnum.Move(0, "pick", {"card": "temple_ruins"})]
HAND = ["zin_kais_deep", "wizards_tower", "savage_hills", "kings_altar", "temple_ruins", "dark_tower",
        "dragons_lair", "kings_castle", "knight", "dragon", "witch"]


@pytest.fixture()
def picked(kings_road):
    """Seat 0 has picked the Dark Tower; seats 0 and 1 are both still choosing."""
    game = kings_road.new_game(players=2, seed=7)
    game.play(PICKS[0])
    return game


# ── legal moves ──

@pytest.mark.parametrize("call", [lambda g: g.legal_moves(), lambda g: g.legal_moves(None)])
def test_legal_moves_without_a_seat_is_refused(picked, call):
    with pytest.raises(TypeError) as err:
        call(picked)
    assert str(err.value) == (
        "legal_moves() needs a seat: legal_moves(seat) lists what that seat may do and shows nothing "
        "it may not see; all_legal_moves() lists the moves of every seat to move and sees everything "
        "(for referees, simulations and tests)")


def test_legal_moves_of_a_seat_show_nothing_of_another_seats_pick(picked):
    # Seat 1 still holds all its cards but the Knight (which must come last): nothing of seat 0.
    assert [m.args["card"] for m in picked.legal_moves(1)] == [c for c in HAND if c not in ("knight",)]
    assert {m.player for m in picked.legal_moves(1)} == {1}
    # Seat 0's own list lacks the Dark Tower it picked: this is what seat 1 must not get.
    assert [m.args["card"] for m in picked.legal_moves(0)] == [
        "zin_kais_deep", "wizards_tower", "savage_hills", "kings_altar", "temple_ruins", "dragons_lair",
        "kings_castle", "dragon"]


def test_all_legal_moves_is_the_call_that_sees_every_seat(picked):
    everything = picked.all_legal_moves()
    assert everything == picked.legal_moves(0) + picked.legal_moves(1)
    assert len(everything) == 18


def test_a_seat_not_asked_has_no_moves_and_a_bad_seat_is_refused(kings_road):
    game = kings_road.new_game(players=2, seed=7)
    while game.to_move != [1]:
        game.play(game.legal_moves(game.to_move[0])[0])
    assert game.legal_moves(0) == []
    with pytest.raises(ValueError, match=r"^seats of this game are 0–1, not 2$"):
        game.legal_moves(2)


def test_the_spectators_observation_shows_only_that_a_pick_was_made(picked):
    spectator = picked.observation(None)
    assert spectator["seat"] is None
    assert spectator["zones"]["chosen#0"] == {"count": 1, "revealed": []}
    assert spectator["zones"]["hand#0"] == {"count": 10, "revealed": []}
    assert picked.observation(1)["zones"]["chosen#0"] == {"count": 1, "revealed": []}
    assert [c["label"] for c in picked.observation(0)["zones"]["chosen#0"]] == ["dark_tower"]


# ── logs for one seat ──

def test_a_log_for_one_seat_hides_the_picks_of_the_others(kings_road):
    game = kings_road.new_game(players=2, seed=7)
    game.play_many(PICKS)
    data = json.loads(game.log_for(1).to_json())
    view = data.pop("view")
    assert data == {
        "format": "regnum-log/1", "ruleset": "kings_road", "ruleset_hash": kings_road.hash, "variant": None,
        "players": 2, "seed": None, "options": {},
        "moves": [{"player": 0, "hidden": True},
                  {"player": 1, "action": "pick", "args": {"card": "witch"}},
                  {"player": 0, "hidden": True}],
        "result": None, "seat": 1}
    assert view == json.loads(json.dumps(game.observation(1)))
    assert view["zones"]["chosen#0"] == {"count": 2, "revealed": []} and view["moves"] == 3
    seat0 = json.loads(game.log_for(0).to_json())["moves"]
    assert seat0 == [{"player": 0, "action": "pick", "args": {"card": "dark_tower"}},
                     {"player": 1, "hidden": True},
                     {"player": 0, "action": "pick", "args": {"card": "temple_ruins"}}]


def test_the_full_log_is_written_as_before(kings_road):
    game = kings_road.new_game(players=2, seed=7)
    game.play(PICKS[0])
    assert game.log.to_json() == (
        '{"format":"regnum-log/1","ruleset":"kings_road","ruleset_hash":"' + kings_road.hash + '",'
        '"variant":null,"players":2,"seed":7,"options":{},'
        '"moves":[{"player":0,"action":"pick","args":{"card":"dark_tower"}}],"result":null}')


def test_a_log_for_one_seat_of_a_finished_game_keeps_the_result(kings_road):
    from regnum.agents import play_random_game
    game = play_random_game(kings_road, 3, 1)
    assert game.is_over
    log = game.log_for(2)
    assert (log.result.scores, log.result.winners) == (game.scores, game.winners)
    assert log.view.is_over and log.view.scores == game.scores
    # Every move of King's Road is a pick made during a simultaneous step: all the others' are
    # hidden, all of seat 2's own are shown.
    assert [m.hidden for m in log.moves] == [m.player != 2 for m in game.log.moves]
    assert log.seed is None and len(log.moves) == game.move_count
    own = [m for m in log.moves if m.player == 2]
    assert [(m.action, m.args) for m in own] == [(m.action, m.args) for m in game.log.moves if m.player == 2]
    again = regnum.Log.from_json(log.to_json())
    assert again == log and again.to_json() == log.to_json()


def test_a_log_for_one_seat_cannot_be_replayed(kings_road):
    game = kings_road.new_game(players=2, seed=7)
    game.play_many(PICKS)
    with pytest.raises(regnum.LogError) as err:
        regnum.replay(kings_road, game.log_for(1).to_json())
    assert str(err.value) == (
        "log field 'seat': this log holds only what seat 1 saw (no seed, the moves hidden from that "
        "seat left out), so it cannot be replayed move by move; its 'view' is that seat's view of the game")


def test_log_for_refuses_a_seat_that_is_not_at_the_table(picked):
    with pytest.raises(ValueError, match=r"^seats of this game are 0–1, not 2$"):
        picked.log_for(2)


@pytest.mark.parametrize("change, message", [
    ({"seed": 7}, "log field 'seat': a log written for one seat holds no seed: it would let "
                  "that seat recompute every hidden draw"),
    ({"seat": 2}, "log field 'seat': seat 2 is not a seat of a 2-player game"),
    ({"moves": [{"player": 1, "hidden": True}]},
     "log field 'seat': move #0 of seat 1 is hidden from seat 1 itself"),
    ({"moves": [{"player": 0, "hidden": True, "action": "pick"}]},
     "log field 'moves[0].action': a hidden move keeps only its player: no action, no args"),
    ({"moves": [{"player": 0, "hidden": True, "args": {"card": "x"}}]},
     "log field 'moves[0].args': a hidden move keeps only its player: no action, no args"),
    ({"moves": [{"player": 0}]},
     "log field 'moves[0].action': a move names its action (only a hidden move has none)"),
    ({"view": None}, "log field 'view': a log written for seat 1 holds that seat's observation"),
    ({"seat": None}, "log field 'seat': a full log needs its seed (only a log written for one "
                     "seat has none)"),
])
def test_a_malformed_log_for_one_seat_is_refused_naming_the_field(kings_road, change, message):
    game = kings_road.new_game(players=2, seed=7)
    game.play_many(PICKS)
    data = json.loads(game.log_for(1).to_json())
    data.update(change)
    with pytest.raises(regnum.LogError) as err:
        regnum.Log.from_json(data)
    assert str(err.value) == message


def test_a_full_log_may_not_hide_a_move_nor_hold_a_view(kings_road):
    data = json.loads(kings_road.new_game(players=2, seed=7).log.to_json())
    with pytest.raises(regnum.LogError) as err:
        regnum.Log.from_json(dict(data, moves=[{"player": 0, "hidden": True}]))
    assert str(err.value) == ("log field 'seat': hidden moves belong in a log written for one "
                              "seat, which names it")
    with pytest.raises(regnum.LogError) as err:
        regnum.Log.from_json(dict(data, view={}))
    assert str(err.value).startswith("log field 'view.ruleset': missing")


def test_a_seats_view_reads_as_that_seat_saw_the_game(kings_road):
    game = kings_road.new_game(players=2, seed=7)
    game.play_many(PICKS)
    text = plain(view_text(kings_road.model, game.log_for(1).view.model_dump(mode="json")))
    assert text.splitlines()[:3] == ["King's Road — 2 players, move 3 — to move: P0, P1  (seen by P1)",
                                     "scores  P0 0  P1 0",
                                     "round=1  king=zin_kais_deep  dragons=0  scored=[]"]
    assert "  P0: 2 hidden" in text.splitlines()          # chosen#0: how many, not which
    assert "  P1 (you): witch" in text.splitlines()
    assert "dark tower" not in text.split("chosen")[1].split("played")[0]


# ── control characters at the terminal ──

def test_safe_replaces_what_could_drive_a_terminal_one_character_each():
    assert safe("a\x1b[2Jb\x07c\rd\u202ee\x7ff\x9bg\u2066h\u2028i") == "a␛[2Jb␇c␍d\ufffde␡f\ufffdg\ufffdh\ufffdi"
    assert safe("tab\tand\nnewline stay; é, ★ and 漢 too") == "tab\tand\nnewline stay; é, ★ and 漢 too"
    assert safe("\x00\x1f") == "\u2400\u241f"


EVIL = ('game evil "Evil\x1b[2J\x07Title\u202eX"\n'
        'players 2..2\n\n'
        'piece coin:\n    worth: int = 1\n\n'
        'zone pot: public\nzone taken per player: public\n\n'
        'flow:\n'
        '    create 1 coin(worth: 1) in pot named "c\x1b[31mred"\n'
        '    announce "boom\x1b[2J\x07\u202edone"\n'
        '    ask 0 to take\n\n'
        'action take(c in pot):\n'
        '    label "take \x1b]0;pwned\x07{c.label}"\n'
        '    move c to taken(player)\n\n'
        'winner p: highest score(p) then shared\n')


def raw_controls(text: str) -> list[str]:
    return [c for c in text if c not in "\n\t" and safe(c) != c]


def test_a_rulesets_strings_reach_the_views_made_safe(tmp_path):
    path = tmp_path / "evil.rules"
    path.write_text(EVIL, encoding="utf-8")
    rules = regnum.load(str(path))
    game = rules.new_game(players=2, seed=1)
    assert game.events == ["boom\x1b[2J\x07\u202edone"]      # the API keeps the text as written
    board = game.render(0)
    assert raw_controls(board) == []
    # rich itself drops BEL (and BS, VT, FF, CR) from a Text; ESC and the bidi override it keeps,
    # and they are replaced.
    assert board.splitlines()[0] == "Evil␛[2JTitle\ufffdX — 2 players, move 0 — to move: P0  (you are P0)"
    assert "pot: c␛[31mred" in board.splitlines()
    assert game.describe(game.legal_moves(0)[0]) == "take ␛]0;pwned␇c␛[31mred"
    assert raw_controls(plain(game.render_rich(0))) == []


def test_a_diagnostic_quotes_the_ruleset_made_safe(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text('game bad "B"\nplayers 2\nflow:\n    announce "x\x1b[2J\u202e" + nosuch\n', encoding="utf-8")
    with pytest.raises(regnum.RulesetError) as err:
        regnum.load(str(path))
    text = str(err.value)
    assert raw_controls(text) == []
    assert f"{path}:4:23: error[E001]: unexpected '+'; expected end of line\n" \
           ' 4 |     announce "x␛[2J\ufffd" + nosuch\n' \
           "   |                       ^" in text


def test_a_log_for_one_seat_of_kingdom_builder_hides_the_hands_not_the_builds():
    from regnum.agents import play_random_game
    rules = regnum.load("kingdom_builder")
    game = play_random_game(rules, 3, 5)
    log = game.log_for(0)
    # Builds are made in the open, one seat at a time: none is hidden; the hands are.
    assert not any(m.hidden for m in log.moves)
    assert [(m.player, m.action, m.args) for m in log.moves] == [(m.player, m.action, m.args) for m in game.log.moves]
    hands = {key: zone for key, zone in log.view.zones.items() if key.startswith("hand#")}
    assert sorted(hands) == ["hand#0", "hand#1", "hand#2"]
    assert isinstance(hands["hand#0"], list)
    assert {type(hands[k]).__name__ for k in ("hand#1", "hand#2")} == {"HiddenZone"}
