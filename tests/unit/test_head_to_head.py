"""benchmarks/head_to_head.py: two checkouts timed against each other, the sides alternating
from round to round; the shape of its report, never a timed threshold."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _module():
    spec = importlib.util.spec_from_file_location("head_to_head", ROOT / "benchmarks" / "head_to_head.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_sides_alternate_and_the_medians_are_reported(monkeypatch, capsys):
    module = _module()
    played: list[tuple[str, str, int]] = []
    seconds = iter([1.0, 2.0, 4.0, 3.0, 5.0, 6.0])   # before, after; after, before; before, after

    def fake_round(checkout, cache, ruleset, games):
        played.append((cache.name, ruleset, games))
        return next(seconds)
    monkeypatch.setattr(module, "_round", fake_round)
    assert module.main([str(ROOT), str(ROOT), "kings_road", "--games", "3", "--rounds", "3"]) == 0
    assert [side for side, _, _ in played] == ["before", "after", "after", "before", "before", "after"]
    assert {(ruleset, games) for _, ruleset, games in played} == {("kings_road", 3)}
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == ["round 1: before 1.000 s, after 2.000 s", "round 2: before 3.000 s, after 4.000 s",
                         "round 3: before 5.000 s, after 6.000 s"]
    # Medians: before 3.0 s (1, 3, 5), after 4.0 s (2, 4, 6).
    assert lines[3] == ("medians of 3 rounds, 3 games each: before 3.000 s (1.0 games/s), "
                        "after 4.000 s (0.8 games/s): after/before = 1.333")


def test_a_round_plays_the_games_in_a_process_of_its_own(tmp_path):
    module = _module()
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    assert module._round(ROOT, cache, "kings_kilt", 1) > 0


def test_a_folder_that_is_no_checkout_is_refused(tmp_path, capsys):
    assert _module().main([str(tmp_path), str(ROOT), "kings_road"]) == 2
    assert "is not a checkout of regnum (no interpreter/regnum)" in capsys.readouterr().err


def test_coverage_is_counted_on_both_sides_when_asked(monkeypatch, capsys):
    module = _module()
    counted: list[bool] = []

    def fake_round(checkout, cache, ruleset, games, coverage=False):
        counted.append(coverage)
        return 1.0
    monkeypatch.setattr(module, "_round", fake_round)
    assert module.main([str(ROOT), str(ROOT), "kingdom_builder", "--games", "2", "--rounds", "2", "--coverage"]) == 0
    assert counted == [True, True, True, True]
    assert capsys.readouterr().out.splitlines()[2].startswith("medians of 2 rounds, 2 games each, coverage counted: ")


def test_a_round_counts_coverage_in_its_process_when_asked(tmp_path, monkeypatch):
    """The timed process is told to count coverage by one more argument, and plays so."""
    module = _module()
    seen = []

    def run(command, **kwargs):
        seen.append(command[3:])
        return type("Done", (), {"stdout": "0.5\n"})()
    monkeypatch.setattr(module.subprocess, "run", run)
    assert module._round(ROOT, tmp_path, "kings_kilt", 1, coverage=True) == 0.5
    assert module._round(ROOT, tmp_path, "kings_kilt", 1) == 0.5
    assert seen == [["kings_kilt", "1", "coverage"], ["kings_kilt", "1"]]
    assert "coverage = sys.argv[3:] == [\"coverage\"]" in module._TIMER


def test_fuzzed_games_are_checked_on_both_sides_when_asked(monkeypatch, capsys):
    module = _module()
    asked: list[tuple[bool, bool]] = []

    def fake_round(checkout, cache, ruleset, games, coverage=False, fuzz=False):
        asked.append((coverage, fuzz))
        return 2.0
    monkeypatch.setattr(module, "_round", fake_round)
    assert module.main([str(ROOT), str(ROOT), "kings_gate", "--games", "4", "--rounds", "2", "--fuzz"]) == 0
    assert asked == [(False, True)] * 4
    assert capsys.readouterr().out.splitlines()[2] == (
        "medians of 2 rounds, 4 games each, every step checked: before 2.000 s (2.0 games/s), "
        "after 2.000 s (2.0 games/s): after/before = 1.000")


def test_a_fuzzed_round_checks_its_games_in_a_process_of_its_own(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    assert _module()._round(ROOT, cache, "kings_kilt", 1, fuzz=True) > 0
