"""`regnum bench` of the games kept beside their hand-written programs to measure whether the
speed holds for games the engine was not tuned on (benchmarks/unseen/): one command compares
each with its baseline, as it compares the bundled games."""
from __future__ import annotations

from pathlib import Path

from test_cli import one_json_object, run   # tests/cli is on the path of its tests

UNSEEN = Path(__file__).resolve().parents[2] / "benchmarks" / "unseen"


def test_one_bench_of_the_unseen_games_compares_each_with_its_baseline():
    result = run("bench", UNSEEN / "connect_four.rules", UNSEEN / "whist.rules", "-p", "4", "--games", "3",
                 "--rounds", "1", "--load-runs", "0", "--json")
    results = one_json_object(result.stdout)["results"]
    assert [(r["ruleset"], r["players"], r["same_games"], r["games"]) for r in results] == [
        ("connect_four", 2, True, 3), ("whist", 4, True, 3)]
    assert all(r["baseline_games_per_second"] > 0 and r["ratio"] > 0 for r in results)
