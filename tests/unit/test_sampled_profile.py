"""benchmarks/sampled_profile.py: py-spy's raw stacks read, only the samples taken while a
game is played counted, self and inclusive shares by function, and by line."""
from __future__ import annotations

import importlib.util
import stat
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

RAW = """\
<module> (run.py:1);_find_and_load (<frozen importlib._bootstrap>:1176) 50
<module> (run.py:3);play_random_game (regnum/agents.py:80);playout (regnum/agents.py:123);Game._apply (game.py:538) 6
<module> (run.py:3);play_random_game (regnum/agents.py:80);playout (regnum/agents.py:123);Game._apply (game.py:558) 2
<module> (run.py:3);play_random_game (regnum/agents.py:80);playout (regnum/agents.py:123);Game._list (game.py:400);_moves16 (<regnum moves pick>:21) 9
<module> (run.py:3);play_random_game (regnum/agents.py:80);playout (regnum/agents.py:123);Game._list (game.py:400);_moves16 (<regnum moves pick>:28) 3
a line that is no sample
"""


def _module():
    spec = importlib.util.spec_from_file_location("sampled_profile", ROOT / "benchmarks" / "sampled_profile.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_only_the_samples_of_a_game_count_by_function():
    module = _module()
    samples = module.read_raw(RAW.splitlines())
    assert len(samples) == 5
    total, own, inclusive = module.shares(samples)
    assert total == 20   # the 50 samples of the import are left out
    assert dict(own) == {"Game._apply (game.py)": 8, "_moves16 (<regnum moves pick>)": 12}
    assert inclusive["playout (regnum/agents.py)"] == 20 and inclusive["Game._list (game.py)"] == 12
    assert "_find_and_load (<frozen importlib._bootstrap>)" not in inclusive


def test_the_lines_of_a_function():
    module = _module()
    total, lines = module.line_shares(module.read_raw(RAW.splitlines()), "_moves")
    assert total == 20
    assert dict(lines) == {"_moves16 (<regnum moves pick>:21)": 9, "_moves16 (<regnum moves pick>:28)": 3}
    assert module.report(module.read_raw(RAW.splitlines()), top=1, needle="_apply") == [
        "20 samples while playing", "-- self, by line, of functions named *_apply*",
        " 30.00%  Game._apply (game.py:538)"]


def test_the_report_of_a_record(tmp_path, capsys):
    module = _module()
    raw = tmp_path / "record.txt"
    raw.write_text(RAW, encoding="utf-8")
    assert module.main(["--raw", str(raw), "--top", "2"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "20 samples while playing", "-- self",
        "  60.0%  _moves16 (<regnum moves pick>)", "  40.0%  Game._apply (game.py)",
        "-- inclusive",
        " 100.0%  <module> (run.py)", " 100.0%  play_random_game (regnum/agents.py)"]


def test_a_record_made_by_the_profiler_it_is_given(tmp_path, capsys):
    """The command py-spy is run with, through a stand-in that writes a record."""
    module = _module()
    spy = tmp_path / "py-spy"
    log = tmp_path / "args.txt"
    spy.write_text("#!/bin/sh\n"
                   f"echo \"$@\" > {log}\n"
                   "while [ \"$1\" != \"--output\" ]; do shift; done\n"
                   f"cp {tmp_path / 'canned.txt'} \"$2\"\n", encoding="utf-8")
    spy.chmod(spy.stat().st_mode | stat.S_IXUSR)
    (tmp_path / "canned.txt").write_text(RAW, encoding="utf-8")
    assert module.main(["kings_road", "--games", "7", "--rate", "500", "--py-spy", str(spy), "--lines", "_moves16"]) == 0
    args = log.read_text(encoding="utf-8").split()
    assert args[:7] == ["record", "--rate", "500", "--format", "raw", "--output", args[6]]
    assert args[-2:] == ["kings_road", "7"]
    assert capsys.readouterr().out.splitlines()[2] == " 45.00%  _moves16 (<regnum moves pick>:21)"


def test_coverage_is_counted_while_playing_when_asked(tmp_path, monkeypatch, capsys):
    """`--coverage`: the games played under the profiler count coverage, as `regnum fuzz`
    plays them (one more argument to the player); without it they do not, as `regnum bench`."""
    module = _module()
    commands = []

    def run(command, **kwargs):
        commands.append(command)
        Path(command[command.index("--output") + 1]).write_text(RAW, encoding="utf-8")
    monkeypatch.setattr(module.subprocess, "run", run)
    for extra in (["--coverage"], []):
        assert module.main(["kingdom_builder", "--games", "3", "--py-spy", "spy", *extra]) == 0
    assert [command[-3:] for command in commands] == [["kingdom_builder", "3", "coverage"],
                                                      [module._PLAYER, "kingdom_builder", "3"]]
    assert "coverage=sys.argv[3:] == [\"coverage\"]" in module._PLAYER


def test_without_py_spy_it_says_so(capsys):
    module = _module()
    assert module.main(["kings_road", "--py-spy", ""]) == 2
    assert "py-spy is not on PATH" in capsys.readouterr().err
