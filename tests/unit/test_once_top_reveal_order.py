"""Three constructs King's Kilt needs, on small rulesets of their own: `once` triggers and
triggers that wait `after the move`, a `top` zone (a face-up pile: only its top card is
public), and revealed pieces shown in the order they were revealed."""
from __future__ import annotations


import pytest

import regnum
from toy_rules import load   # tests/unit is on the path of its tests
from regnum import Move

CLIMB = """
game climb "Climb"
players 2..2
piece stone:
    weight: int = 1
zone ground: public
zone tower per player: public
var log: list of str = []
setup:
    create 3 stone() in ground
flow:
    repeat 3 times:
        for p in players:
            ask p to climb or rest
action climb(s in ground):
    move s to tower(player)
    set log = log + ["climbed"]
    run settle_up(player)
rule settle_up(p):
    ask p to settle
action settle(n in [1, 2]):
    set log = log + ["settled " + text(n)]
action rest():
    set log = log + ["rested"]
trigger first_climb once when s enters tower(p), after the move:
    set log = log + ["first climb by " + text(p)]
trigger every_climb when s enters tower(p):
    set log = log + ["climb trigger"]
"""




def first(game, action: str) -> Move:
    return next(m for m in game.all_legal_moves() if m.action == action)


def test_a_once_trigger_after_the_move_runs_when_the_follow_up_choices_are_over(tmp_path):
    game = load(tmp_path, CLIMB).new_game(players=2, seed=1)
    game.play(first(game, "climb"))
    assert game.state.vars["log"] == ["climb trigger", "climbed"]   # the settle choice is pending
    game.play(Move(0, "settle", {"n": 2}))
    assert game.state.vars["log"] == ["climb trigger", "climbed", "settled 2", "first climb by P0"]
    game.play(first(game, "climb"))
    game.play(Move(1, "settle", {"n": 1}))
    assert game.state.vars["log"][4:] == ["climb trigger", "climbed", "settled 1"]   # once a game
    assert game.state.once == ("first_climb",)
    assert (game.hits["trigger:first_climb"], game.hits["trigger:every_climb"]) == (1, 2)


def test_a_spent_once_trigger_has_its_condition_judged_no_more(tmp_path):
    # Its condition divides by the stones left on the ground: judged at the third climb,
    # with none left, it would fail the move. Fired at the first climb, it is spent, and
    # a trigger that fires at most once a game is not looked at again.
    rules = load(tmp_path, CLIMB.replace(
        "trigger first_climb once when s enters tower(p), after the move:",
        "trigger first_climb once when s enters tower(p) where 6 // count(ground) > 1, after the move:"))
    game = rules.new_game(players=2, seed=1)
    for seat in (0, 1, 0):
        game.play(first(game, "climb"))
        game.play(Move(seat, "settle", {"n": 1}))
    assert game.state.zones["ground"] == [] and game.state.once == ("first_climb",)
    assert game.state.vars["log"].count("first climb by P0") == 1
    assert (game.hits["trigger:first_climb"], game.hits["trigger:every_climb"]) == (1, 3)


def test_what_once_triggers_fired_is_state_saved_and_read_back(tmp_path):
    rules = load(tmp_path, CLIMB)
    game = rules.new_game(players=2, seed=1)
    assert '"once"' not in game.to_json()          # absent until one fires
    game.play(first(game, "climb"))
    saved = game.to_json()
    assert '"once":["first_climb"]' in saved.replace(" ", "")
    again = rules.game_from_json(saved)
    assert again.to_json() == saved and again.state.once == ("first_climb",)
    again.play(Move(0, "settle", {"n": 1}))
    assert again.state.vars["log"][-1] == "first climb by P0"


def test_an_after_the_move_trigger_of_a_native_action_runs_before_the_flow_goes_on(tmp_path):
    rules = load(tmp_path, """
        game drop "Drop"
        players 2..2
        piece stone:
            weight: int = 1
        zone ground: public
        zone pit: public
        var log: list of str = []
        setup:
            create 2 stone() in ground
        flow:
            for p in players:
                ask p to drop
            set log = log + ["flow"]
        action drop(s in ground):
            move s to pit
            set log = log + ["dropped"]
        trigger splash when s enters pit, after the move:
            set log = log + ["splash"]
        """)
    game = rules.new_game(players=2, seed=3)
    game.play(first(game, "drop"))
    game.play(first(game, "drop"))
    assert game.state.vars["log"] == ["dropped", "splash", "dropped", "splash", "flow"]


PILE = """
game pile "Pile"
players 2..2
piece card:
    rank: int
zone deck: top
zone hand per player: owner
setup:
    for r in range(5):
        create 1 card(rank: r) in deck named "c" + text(r)
flow:
    move 1 from deck to hand(0)
    reveal [c for c in hand(0) where c.rank == 4]
    ask 0 to show
action show(c in hand(0)):
    reveal c
"""


def test_a_top_zone_shows_its_top_card_to_everyone_and_nothing_under_it(tmp_path):
    game = load(tmp_path, PILE).new_game(players=2, seed=0)
    seen = game.observation(1)["zones"]["deck"]
    assert seen == {"count": 4, "revealed": [], "top": {"type": "card", "label": "c3", "rank": 3, "id": 3}}
    assert "4, on top: c3" in game.render(1)
    assert game.observation(None)["zones"]["deck"]["top"]["label"] == "c3"


def test_revealed_pieces_are_shown_in_the_order_they_were_revealed(tmp_path):
    rules = load(tmp_path, """
        game order "Order"
        players 2..2
        piece card:
            rank: int
        zone hand per player: owner
        setup:
            for r in range(3):
                create 1 card(rank: r) in hand(0) named "c" + text(r)
        flow:
            reveal [c for c in hand(0) where c.rank == 2]
            reveal [c for c in hand(0) where c.rank == 0]
            ask 1 to wait
        action wait():
            pass
        """)
    game = rules.new_game(players=2, seed=0)
    assert [c["label"] for c in game.observation(1)["zones"]["hand#0"]["revealed"]] == ["c2", "c0"]
    assert game.to_json() == rules.game_from_json(game.to_json()).to_json()
    assert '"revealed":[2,0]' in game.to_json().replace(" ", "")


def test_a_variable_cannot_show_its_top(tmp_path):
    with pytest.raises(regnum.RulesetError) as err:
        load(tmp_path, 'game v "V"\nplayers 2..2\nvar pot: int = 0, top\nflow:\n    add 1 to pot\n')
    assert [d.code for d in err.value.diagnostics] == ["E124"]
