"""`--limit NAME=VALUE` on the commands that load rulesets, and `regnum simulate` going on past
a game that fails (docs/limits.md)."""
from __future__ import annotations

import textwrap

from test_cli import one_json_object, run

LOOPING = """
game f "F"
players 2..2
var k: int = 0
flow:
    ask 0 to go
    set k = random one of [1, 2]
    if k == 1:
        repeat until false:
            pass
action go():
    pass
"""

HEAVY_CONSTANT = """
game h "H"
players 2..2
const total = sum(range(0, 5000))
flow:
    pass
"""


def _write(tmp_path, text: str, name: str = "game.rules"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def test_check_applies_the_limits_given(tmp_path):
    path = _write(tmp_path, HEAVY_CONSTANT)
    run("check", path)
    result = run("check", path, "--limit", "steps=1000", code=1)
    assert f"{path}:3:1: error[E901]: computing the constants took more than 1000 steps" in result.stderr
    assert "hint: limit 'steps' is 1_000; raise it with --limit steps=N or regnum.Limits(steps=N)" in result.stderr


def test_an_unknown_limit_is_a_usage_error_with_a_suggestion(tmp_path):
    result = run("check", _write(tmp_path, HEAVY_CONSTANT), "--limit", "stpes=3", code=2)
    assert "Invalid value for '--limit': there is no limit 'stpes'; did you mean 'steps'?" in result.stderr
    result = run("play", "kings_road", "--limit", "steps", code=2)
    assert "a limit is set as NAME=VALUE, not 'steps'" in result.stderr


def test_play_stops_at_a_limit_with_the_located_error(tmp_path):
    path = _write(tmp_path, LOOPING)
    result = run("play", path, "--bots", "all", "--seed", "0", "--limit", "steps=500", code=1)
    assert f"{path}:9:13: error[E901]: more than 500 steps without a decision" in result.stderr
    assert "Traceback" not in result.stderr


def test_simulate_reports_each_failed_game_and_plays_the_others(tmp_path):
    path = _write(tmp_path, LOOPING)
    result = run("simulate", path, "--games", "6", "--jobs", "1", "--json", "--limit", "steps=1000",
                 "--failures-dir", tmp_path / "failed", code=1)
    games = one_json_object(result.stdout)["games"]
    failed = [g["seed"] for g in games if g["error"]]
    assert failed == [0, 2, 4, 5]
    assert [g["winners"] for g in games if not g["error"]] == [[0, 1], [0, 1]]
    assert games[0]["error"] == (f"{path}:9:13: E901: more than 1000 steps without a decision: a loop "
                                 "that never ends or asks a player?")
    table = run("simulate", path, "--games", "6", "--jobs", "1", "--limit", "steps=1000",
                "--failures-dir", tmp_path / "failed", code=1).stdout
    assert "failed (no winner): 4 games" in table
    assert "seed 0, after 0 moves:" in table


def test_simulate_gives_workers_the_same_limits(tmp_path):
    path = _write(tmp_path, LOOPING)
    result = run("simulate", path, "--games", "6", "--jobs", "2", "--json", "--limit", "steps=1000",
                 "--failures-dir", tmp_path / "failed", code=1)
    games = one_json_object(result.stdout)["games"]
    assert [g["seed"] for g in games if g["error"]] == [0, 2, 4, 5]
    assert "more than 1000 steps" in games[0]["error"]
