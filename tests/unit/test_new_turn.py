"""`var …, each turn` and `new turn`: what a player did this turn is stated once, as variables
that go back to their first value at every `new turn`, not as counters reset by hand."""
from __future__ import annotations

import textwrap

import pytest

import regnum
from regnum import Move

TURNS = """
game turns "Turns"
players 2..2
piece token:
    value: int
zone hand per player: public
zone table: public
var played: list of int = [], each turn
var ones per player: int = 0, each turn
var done: bool = false, each turn
var turns_taken: int = 0
setup:
    for p in players:
        for v in [1, 1, 2, 3]:
            create 1 token(value: v) in hand(p) named text(v)
flow:
    repeat 2 times:
        for p in players:
            {start}
            add 1 to turns_taken
            repeat until done:
                ask p to place or stop
rule start_turn():
    new turn
action place(t in hand(player)):
    require one_kind: count(played) == 0 or (t.value == 1 and all(v == 1 for v in played))
        else "any number of 1s, or a single token above 1"
    move t to table
    set played = played + [t.value]
    if t.value == 1:
        add 1 to ones(player)
action stop():
    require played_one: count(played) > 0 else "play at least one token"
    set done = true
"""


def load(tmp_path, start: str):
    path = tmp_path / "turns.rules"
    path.write_text(textwrap.dedent(TURNS.replace("{start}", start)))
    return regnum.load(path)


def token(game, seat: int, value: int) -> Move:
    """Seat's move placing a token of that value (tokens are labelled by their value)."""
    return next(m for m in game.legal_moves(seat)
                if m.action == "place" and m.args["t"].split("#")[0] == str(value))


@pytest.mark.parametrize("start", ["new turn", "run start_turn()"])   # interpreted, and compiled
def test_each_turn_variables_go_back_to_their_first_value_at_every_new_turn(tmp_path, start):
    rules = load(tmp_path, start)
    assert ("rule:start_turn" in rules.model.natives) == (start != "new turn")
    game = rules.new_game(players=2, seed=0)
    game.play(token(game, 0, 1))
    game.play(token(game, 0, 1))
    with pytest.raises(regnum.IllegalMove) as refused:
        game.play(Move(0, "place", {"t": "2"}))
    assert refused.value.rule == "place.one_kind"
    assert game.state.vars["played"] == [1, 1] and game.state.pvars[0]["ones"] == 2
    game.play(Move(0, "stop", {}))
    # Seat 1's turn: a new turn, so nothing is played yet and a 3 is allowed, then only stop.
    assert game.state.vars["played"] == [] and game.state.vars["done"] is False
    assert game.state.pvars[0]["ones"] == 0 and game.state.vars["turns_taken"] == 2
    with pytest.raises(regnum.IllegalMove) as refused:
        game.play(Move(1, "stop", {}))
    assert refused.value.rule == "stop.played_one"
    game.play(Move(1, "place", {"t": "3"}))
    assert [m.action for m in game.legal_moves(1)] == ["stop"]


def test_a_variable_per_board_cannot_go_back_each_turn(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text('game bad "Bad"\nplayers 2..2\nenum colour: red, blue\n'
                    'var seen per colour: int = 0, each turn\nflow:\n    new turn\n')
    with pytest.raises(regnum.RulesetError) as err:
        regnum.load(path)
    assert [d.code for d in err.value.diagnostics if d.is_error] == ["E125"]
