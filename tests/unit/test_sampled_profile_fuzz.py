"""benchmarks/sampled_profile.py --fuzz: py-spy records `regnum fuzz` on one worker, and only
the samples under the fuzzer's games count (its checks included, the start-up not)."""
from __future__ import annotations

from pathlib import Path

import pytest

from benchmark_scripts import script   # tests/unit is on the path of its tests

CLI = "<module> (regnum/__main__.py:4);main (regnum/cli/__init__.py:30);fuzz (regnum/fuzz/__init__.py:60)"
GAME = f"{CLI};fuzz_game (regnum/fuzz/playout.py:128);run_checked (regnum/fuzz/playout.py:150)"
RAW = f"""\
<module> (regnum/__main__.py:1);_find_and_load (<frozen importlib._bootstrap>:1176) 40
{CLI};_load (regnum/ruleset.py:120) 10
{GAME};check_step (regnum/fuzz/playout.py:106);round_trip (regnum/fuzz/checks.py:214);game_from_dict (game.py:960) 6
{GAME};check_step (regnum/fuzz/playout.py:104);wrong_moves_refused (regnum/fuzz/checks.py:167);Game.to_json (game.py:700) 3
{GAME};_play (regnum/fuzz/playout.py:170);Game.play (game.py:380) 1
<module> (run.py:3);play_random_game (regnum/agents.py:80);Game._apply (game.py:538) 7
"""


def test_only_the_fuzzers_games_count(tmp_path, capsys):
    module = script("sampled_profile")
    raw = tmp_path / "record.txt"
    raw.write_text(RAW, encoding="utf-8")
    assert module.main(["--raw", str(raw), "--fuzz", "--top", "3"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "10 samples while fuzzing", "-- self",
        "  60.0%  game_from_dict (game.py)", "  30.0%  Game.to_json (game.py)", "  10.0%  Game.play (game.py)",
        "-- inclusive",
        " 100.0%  <module> (regnum/__main__.py)", " 100.0%  main (regnum/cli/__init__.py)",
        " 100.0%  fuzz (regnum/fuzz/__init__.py)"]
    assert module.main(["--raw", str(raw), "--top", "1"]) == 0   # without --fuzz: the playouts' sample
    assert capsys.readouterr().out.splitlines()[:3] == ["7 samples while playing", "-- self",
                                                        " 100.0%  Game._apply (game.py)"]


def test_the_lines_of_a_function_while_fuzzing():
    module = script("sampled_profile")
    samples = module.read_raw(RAW.splitlines())
    assert module.report(samples, top=2, needle="check_step", under=module.FUZZ_UNDER) == [
        "10 samples while fuzzing", "-- self, by line, of functions named *check_step*"]   # never innermost
    assert module.report(samples, top=1, needle="to_json", under=module.FUZZ_UNDER) == [
        "10 samples while fuzzing", "-- self, by line, of functions named *to_json*",
        " 30.00%  Game.to_json (game.py:700)"]


def test_the_fuzzer_is_recorded_on_one_worker(monkeypatch, capsys):
    module = script("sampled_profile")
    commands = []

    def run(command, **kwargs):
        commands.append(command)
        Path(command[command.index("--output") + 1]).write_text(RAW, encoding="utf-8")
    monkeypatch.setattr(module.subprocess, "run", run)
    assert module.main(["kings_gate", "--games", "6", "--fuzz", "--py-spy", "spy"]) == 0
    (command,) = commands
    fuzz = command[command.index("--") + 1:]
    assert fuzz[1:8] == ["-m", "regnum", "fuzz", "kings_gate", "--games", "6", "--workers"]
    assert fuzz[8] == "1" and fuzz[9] == "--failures-dir" and fuzz[-1] == "--json"
    assert capsys.readouterr().out.splitlines()[0] == "10 samples while fuzzing"


@pytest.mark.parametrize("other", ["--parts", "--coverage"])
def test_what_belongs_to_played_games_is_refused_with_fuzz(other, capsys):
    with pytest.raises(SystemExit) as stopped:
        script("sampled_profile").main(["kings_road", "--fuzz", other])
    assert stopped.value.code == 2
    assert "--parts and --coverage are of played games" in capsys.readouterr().err
