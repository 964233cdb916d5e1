"""`regnum bench --coverage`: a third side in every round, regnum counting coverage as
`regnum fuzz` plays, timed interleaved with the other two; its games must be regnum's.

A fake clock makes the medians and the cost exact; a log of who played shows the order of
the sides, each first in turn."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

import regnum
from regnum import benchmark
from regnum.agents import play_random_game

from test_benchmark import FakeClock   # tests/unit is on the path of its tests: the same fake clock


@pytest.fixture(scope="module")
def rules():
    return regnum.load("kings_road")


def _logged(monkeypatch, log: list, shorten_counted: bool = False):
    real = benchmark.play_random_game

    def play(rules, players, seed, max_moves, **kwargs):
        counted = kwargs.get("coverage", True)
        log.append("counted" if counted else "ours")
        if counted and shorten_counted:
            max_moves = 5   # another game than regnum's
        return real(rules, players, seed, max_moves, **kwargs)

    monkeypatch.setattr(benchmark, "play_random_game", play)


def _baseline(rules, log: list):
    def bench_game(players, seed, max_moves):
        log.append("theirs")
        game = play_random_game(rules, players, seed, max_moves, coverage=False)
        return game.move_count, game.scores
    return SimpleNamespace(bench_game=bench_game)


def test_three_sides_take_turns_and_the_cost_is_exact(rules, monkeypatch):
    log: list = []
    _logged(monkeypatch, log)
    # warm-up (ours timed), then rounds: ours, theirs, counted | theirs, counted, ours | counted, ours, theirs
    clock = FakeClock([9.0, 1.0, 0.1, 2.0, 0.2, 4.0, 2.0, 8.0, 4.0, 0.4])
    row = benchmark.bench_ruleset("kings_road", rules, 2, rounds=3, games=2, baseline=_baseline(rules, log),
                                  clock=clock, coverage=True)
    assert log == (["ours", "theirs", "counted"]   # warm-up: seed 0 on each side
                   + ["ours"] * 2 + ["theirs"] * 2 + ["counted"] * 2
                   + ["theirs"] * 2 + ["counted"] * 2 + ["ours"] * 2
                   + ["counted"] * 2 + ["ours"] * 2 + ["theirs"] * 2)
    assert row.round_games_per_second == pytest.approx([2.0, 1.0, 0.5])
    assert row.baseline_round_games_per_second == pytest.approx([20.0, 10.0, 5.0])
    assert row.coverage_round_games_per_second == pytest.approx([1.0, 0.5, 0.25])
    assert row.games_per_second == pytest.approx(1.0) and row.coverage_games_per_second == pytest.approx(0.5)
    assert row.coverage_cost == pytest.approx(2.0)
    assert row.cpu_seconds == pytest.approx(7.0) and row.coverage_cpu_seconds == pytest.approx(14.0)
    assert row.baseline_cpu_seconds == pytest.approx(0.7) and row.ratio == pytest.approx(0.1)
    assert row.coverage_same_games is True and row.same_games is True


def test_without_a_baseline_the_counted_side_still_takes_its_turn(rules, monkeypatch):
    log: list = []
    _logged(monkeypatch, log)
    clock = FakeClock([1.0, 1.0, 3.0, 3.0, 1.0, 5.0, 1.0])
    row = benchmark.bench_ruleset("kings_road", rules, 2, rounds=3, games=1, clock=clock, coverage=True)
    assert log == ["ours", "counted", "ours", "counted", "counted", "ours", "counted", "ours"]
    assert row.round_games_per_second == pytest.approx([1.0, 1.0, 1.0])
    assert row.coverage_round_games_per_second == pytest.approx([1 / 3, 1 / 3, 1 / 5])
    assert row.coverage_cost == pytest.approx(3.0) and row.ratio is None


def test_games_that_counting_changes_are_reported(rules, monkeypatch):
    _logged(monkeypatch, [], shorten_counted=True)
    row = benchmark.bench_ruleset("kings_road", rules, 2, rounds=2, games=2, coverage=True)
    assert row.coverage_same_games is False
    assert row.mismatch is None   # regnum's own rounds agree


def test_without_coverage_nothing_is_counted_or_reported(rules, monkeypatch):
    log: list = []
    _logged(monkeypatch, log)
    row = benchmark.bench_ruleset("kings_road", rules, 2, rounds=2, games=1)
    assert set(log) == {"ours"}
    assert row.coverage_games_per_second is None and row.coverage_cost is None
    assert row.coverage_round_games_per_second is None and row.coverage_same_games is None
    assert row.coverage_cpu_seconds is None


def test_counted_games_of_a_real_run_are_regnum_s(rules):
    row = benchmark.bench_ruleset("kings_road", rules, 3, rounds=3, games=2, coverage=True)
    assert row.coverage_same_games is True and len(row.coverage_round_games_per_second) == 3
    assert row.coverage_cost == pytest.approx(row.games_per_second / row.coverage_games_per_second)
    assert row.coverage_cpu_seconds > 0
