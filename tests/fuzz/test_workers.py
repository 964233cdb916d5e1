"""`regnum fuzz` on workers gives what it gives in one process: the same games, failures,
shrunk logs (byte for byte), coverage and report, whatever the number of workers and the order
the games went out in (the costliest first, as guessed from the item). No timing is asserted."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import regnum
from regnum import backends
from regnum.fuzz import _cost, _item, _sent, fuzz, own_corpus
from regnum.fuzz.playout import Outcome
from regnum.moves import Move

from test_planted import PLANTED, in_planted, run  # noqa: F401 (in_planted: run from the rulesets folder)

CORPUS = Path(__file__).resolve().parent / "corpus" / "combination_lock"


def _fuzzed(tmp_path: Path, name: str, workers: int, *extra) -> tuple[dict, dict[str, bytes]]:
    folder = tmp_path / f"w{workers}"
    report = json.loads(run("fuzz", *extra, "--workers", workers, "--failures-dir", folder, "--json",
                            code=1).stdout)
    del report["seconds"], report["steps_per_second"]
    logs = {}
    for failure in report["failures"]:
        path = Path(failure.pop("log"))
        assert path.parent == folder
        logs[path.name] = path.read_bytes()
    return report, logs


@pytest.mark.parametrize("name, extra", [
    ("vanishing_gem", ("vanishing_gem.rules", "--games", 30, "--seed", 30)),
    ("combination_lock", ("combination_lock.rules", "--corpus", CORPUS, "--games", 8, "--seed", 0)),
])
def test_two_workers_find_shrink_and_save_what_one_does(tmp_path, name, extra):
    one, one_logs = _fuzzed(tmp_path, name, 1, *extra)
    two, two_logs = _fuzzed(tmp_path, name, 2, *extra)
    assert two == one
    assert two_logs == one_logs and len(one_logs) == len(one["failures"]) == 1
    assert one["failures"][0]["kind"] == "invariant"


@pytest.mark.parametrize("name, games, seed", [("kings_road", 6, 100), ("kings_kilt", 8, 3)])
def test_a_bundled_ruleset_gives_the_same_report_on_two_workers(name, games, seed):
    rules = regnum.load(name)
    reports = [fuzz(rules.path, rules, games=games, seed=seed, workers=workers).model_dump()
               for workers in (1, 2)]
    for report in reports:
        del report["seconds"], report["steps_per_second"]
    assert reports[1] == reports[0]
    assert reports[0]["games"] == games and reports[0]["failures"] == []
    assert sum(row["hits"] for row in reports[0]["coverage"]) > 0


def test_the_guessed_cost_of_a_game():
    items = [_item(i, [2, 3, 4, 5], 100, []) for i in range(6)]
    assert [(item[1], item[3]) for item in items] == [(2, "random"), (3, "rare"), (4, "endgame"),
                                                      (5, "random"), (2, "rare"), (3, "endgame")]
    assert [_cost(item) for item in items] == [2.0, 3.0, 2.0, 5.0, 2.0, 1.5]
    assert backends.plan([_cost(item) for item in items], 2) == [[3], [1], [0], [2], [4], [5]]


def test_only_a_failing_game_sends_back_its_moves():
    move = Move(0, "polish", {})
    fine = Outcome(2, 7, "rare", moves=[move], choices=[0], over=True, steps=1, hits={"action:polish": 1})
    assert _sent(fine) == {"players": 2, "seed": 7, "policy": "rare", "moves": [], "choices": [], "over": True,
                           "steps": 1, "failure": None, "hits": {"action:polish": 1}, "checked_from": 0}
    failure = {"kind": "invariant", "check": "kept", "message": "m", "move": 0, "extra": None}
    failed = Outcome(2, 7, "rare", moves=[move], choices=[0], steps=1, failure=failure)
    sent = _sent(failed)
    assert (sent["moves"], sent["choices"], sent["failure"]) == ([move.to_dict()], [0], failure)


@pytest.mark.parametrize("seconds, ordered", [(None, True), (30.0, False)])
def test_under_a_time_budget_the_games_go_out_in_their_order(monkeypatch, seconds, ordered):
    seen = {}

    def run_all(setup, setup_args, work, items, **options):
        seen.update(options)
        return [None] * len(items)

    monkeypatch.setattr(backends, "run_all", run_all)
    rules = regnum.load(str(PLANTED / "vanishing_gem.rules"))
    fuzz(rules.path, rules, games=4, seed=0, workers=2, seconds=seconds)
    assert (seen["cost"] is _cost) == ordered and (seen["cost"] is None) == (not ordered)
    assert seen["context"][0] is rules   # forked workers inherit the ruleset loaded here
