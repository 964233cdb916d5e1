"""A step of the fuzzer writes the game's JSON once for the wrong moves and the round trip:
the text the wrong moves were compared with is the one read back (nothing changes the game
between the two checks), and the round trip still fails on a JSON that does not read back
the same."""
from __future__ import annotations

import pytest

import regnum
from regnum.engine import game as game_module
from regnum.fuzz import checks
from regnum.fuzz.checks import CheckFailed
from regnum.fuzz.playout import Settings, check_step


def _written(monkeypatch) -> list:
    """The games whose JSON is written, one entry per call of Game.to_json."""
    calls = []
    to_json = game_module.Game.to_json

    def counted(self):
        calls.append(self)
        return to_json(self)
    monkeypatch.setattr(game_module.Game, "to_json", counted)
    return calls


def test_a_step_writes_the_games_json_once_before_and_once_per_wrong_move(monkeypatch):
    rules = regnum.load("kings_road")
    game = rules.new_game(players=3, seed=4)
    for _ in range(5):
        game.play(game.legal_moves(game.to_move[0])[0])
    legal = game.all_legal_moves()
    calls = _written(monkeypatch)
    tried = []
    wrong_moves = checks.wrong_moves_refused

    def noted(game, wrong):
        tried.extend(move for _, move in wrong if move not in set(legal))
        return wrong_moves(game, wrong)
    monkeypatch.setattr(checks, "wrong_moves_refused", noted)
    check_step(game, Settings(bound=10_000, secrecy=False, offered=0), legal, [])
    mine = [call for call in calls if call is game]
    assert len(tried) == 2 and len(mine) == 1 + 2   # before the wrong moves, then after each refused
    # (the third wrong move made happens to be legal: nothing to check)
    assert len(calls) == len(mine) + 1   # and the game read back, once


def test_the_round_trip_reads_back_the_text_it_is_given(monkeypatch):
    """Given the JSON of a game one move further on, the round trip reads that back: the
    game it gives offers other moves (a card was picked), and the check says so."""
    rules = regnum.load("kings_road")
    game = rules.new_game(players=2, seed=1)
    further = rules.new_game(players=2, seed=1)
    further.play(further.legal_moves(further.to_move[0])[0])
    calls = _written(monkeypatch)
    checks.round_trip(game, game.to_json())   # the game's own JSON: read back the same
    assert [call is game for call in calls] == [True, False]   # the text given, then the game read back
    with pytest.raises(CheckFailed) as failed:
        checks.round_trip(game, further.to_json())
    assert (failed.value.kind, failed.value.check) == ("round_trip", "same moves")
