"""`regnum simulate` on workers plays the games it plays in one process, seed for seed, for the
bundled rulesets; the workers get the ruleset loaded in this process (forked workers inherit it)
and the ruleset's path (spawned workers and Ray actors load it). No timing is asserted."""
from __future__ import annotations

import pytest

import regnum
from regnum import backends
from regnum.simulate import simulate


@pytest.mark.parametrize("name, players, games", [("kings_road", 4, 24), ("kings_gate", 3, 8),
                                                  ("kings_kilt", 2, 12)])
def test_two_workers_play_the_games_of_one(name, players, games):
    rules = regnum.load(name)
    one, two = (simulate(rules.path, players, games, seed=40, jobs=jobs, rules=rules).games for jobs in (1, 2))
    assert two == one
    assert [game.seed for game in two] == list(range(40, 40 + games))
    assert any(game.winners for game in two)


def test_the_workers_get_the_loaded_ruleset_and_its_path(monkeypatch):
    seen = {}

    def run_all(setup, setup_args, work, items, **options):
        seen.update(options, setup_args=setup_args)
        return [work(options["context"], item) for item in items]

    monkeypatch.setattr(backends, "run_all", run_all)
    rules = regnum.load("kings_road")
    result = simulate(rules.path, 3, 4, seed=1, jobs=2, rules=rules)
    assert [game.seed for game in result.games] == [1, 2, 3, 4]
    assert seen["context"]["rules"] is rules and seen["context"]["players"] == 3
    assert seen["setup_args"][0] == str(rules.path) and "cost" not in seen
