"""`regnum bench --coverage` at the command line: the JSON's coverage fields, the table's two
columns and their note, and a loud failure when counting coverage changed the games."""
from __future__ import annotations

import pytest

from regnum import benchmark

from test_cli import one_json_object, run   # tests/cli is on the path of its tests


def test_json_rows_carry_the_counted_side():
    result = run("bench", "kings_road", "-p", "2", "--coverage", "--rounds", "3", "--games", "1",
                 "--load-runs", "0", "--json")
    data = one_json_object(result.stdout)
    (row,) = data["results"]
    assert row["coverage_same_games"] is True and len(row["coverage_round_games_per_second"]) == 3
    assert row["coverage_games_per_second"] == pytest.approx(sorted(row["coverage_round_games_per_second"])[1])
    assert row["coverage_cost"] == pytest.approx(row["games_per_second"] / row["coverage_games_per_second"])
    assert data["settings"]["coverage"] is True


def test_without_the_flag_the_rows_count_nothing():
    result = run("bench", "kings_road", "-p", "2", "--rounds", "1", "--games", "1", "--load-runs", "0", "--json")
    data = one_json_object(result.stdout)
    (row,) = data["results"]
    assert row["coverage_games_per_second"] is None and row["coverage_cost"] is None
    assert data["settings"]["coverage"] is False


def test_the_table_shows_the_counted_games_and_the_cost():
    result = run("bench", "kings_road", "-p", "2", "--coverage", "--rounds", "1", "--games", "1",
                 "--load-runs", "0")
    header = next(line for line in result.stdout.splitlines() if line.strip().startswith("ruleset"))
    assert header.split() == ["ruleset", "pl", "games", "games/s", "moves/s", "games/s", "moves/s", "ratio",
                              "same", "games/s", "cost"]
    above = result.stdout.splitlines()[result.stdout.splitlines().index(header) - 1]
    assert above.split() == ["base", "base", "counted"]
    words = " ".join(result.stdout.split())
    assert "cost = regnum games/s ÷ counted games/s." in words


def test_games_that_counting_changes_fail_the_run(monkeypatch):
    real = benchmark.play_random_game

    def play(rules, players, seed, max_moves, **kwargs):
        return real(rules, players, seed, 5 if kwargs.get("coverage") else max_moves, **kwargs)

    monkeypatch.setattr(benchmark, "play_random_game", play)
    result = run("bench", "kings_road", "-p", "2", "--coverage", "--rounds", "1", "--games", "2",
                 "--load-runs", "0", "--json", code=1)
    (row,) = one_json_object(result.stdout)["results"]
    assert row["coverage_same_games"] is False
    assert "counting coverage changed the games regnum played" in result.stderr
