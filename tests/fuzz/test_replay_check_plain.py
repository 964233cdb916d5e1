"""The fuzzer's replay check replays the log without narration and without counting coverage
(`regnum.replay(…, narrate=False, coverage=False)`): the same game, whose narration nobody
reads and whose coverage the fuzzed game counts already."""
from __future__ import annotations

import random

import pytest

import regnum
from regnum import ruleset as ruleset_module
from regnum.fuzz import checks


def played(name: str, moves: int):
    rules = regnum.load(name)
    game = rules.new_game(players=4, seed=11, narrate=False)
    picker = random.Random(11)
    while game.move_count < moves and not game.is_over:
        legal = game.all_legal_moves()
        game.play(legal[picker.randrange(len(legal))])
    return rules, game


@pytest.mark.parametrize("name", ["kings_road", "kings_gate"])
def test_a_replay_without_narration_or_coverage_is_the_same_game(name):
    rules, game = played(name, 40)
    plain = regnum.replay(rules, game.log, narrate=False, coverage=False)
    full = regnum.replay(rules, game.log)
    assert plain.to_json() == full.to_json() == game.to_json()
    assert plain.hits is None and plain.events == []
    assert full.hits and full.events   # by default it narrates and counts, as it did


def test_the_replay_check_asks_for_neither(monkeypatch):
    rules, game = played("kings_kilt", 20)
    asked = []
    real = ruleset_module.Ruleset.new_game

    def new_game(self, *args, **kwargs):
        asked.append((kwargs.get("narrate", True), kwargs.get("coverage", True)))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ruleset_module.Ruleset, "new_game", new_game)
    checks.replays(game)
    assert asked == [(False, False)]
