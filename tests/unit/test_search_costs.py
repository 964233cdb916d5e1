"""benchmarks/search_costs.py: what a bot and a search pay through the public API, one or two
checkouts timed in processes of their own, the sides alternating; the shape of its report,
never a timed threshold."""
from __future__ import annotations

from pathlib import Path

from benchmark_scripts import script   # tests/unit is on the path of its tests

ROOT = Path(__file__).resolve().parents[2]


def _figures(api: float, copy: float, child: float, digest: str = "same") -> dict:
    return {"api move": api, "copy": copy, "child": child, "positions": 10, "digest": digest}


def test_the_sides_alternate_and_the_medians_are_reported(monkeypatch, capsys):
    module = script("search_costs")
    played = []
    found = iter([_figures(10, 1, 20), _figures(8, 2, 10),     # before, after
                  _figures(6, 2, 12), _figures(14, 3, 30),     # after, before
                  _figures(12, 5, 40), _figures(9, 1, 11)])    # before, after

    def fake_round(checkout, cache, ruleset, games):
        played.append((cache.name, ruleset, games))
        return next(found)
    monkeypatch.setattr(module, "_round", fake_round)
    assert module.main([str(ROOT), str(ROOT), "kings_gate", "--games", "2", "--rounds", "3"]) == 0
    assert [side for side, _, _ in played] == ["before", "after", "after", "before", "before", "after"]
    assert {(ruleset, games) for _, ruleset, games in played} == {("kings_gate", 2)}
    # Medians: before api 12 (10, 14, 12), copy 3 (1, 3, 5), child 30 (20, 30, 40);
    # after api 8 (8, 6, 9), copy 2 (2, 2, 1), child 11 (10, 12, 11).
    assert capsys.readouterr().out.splitlines() == [
        "kings_gate: medians of 3 rounds of 2 four-player games, µs of CPU per position",
        "  api move  before 12.00, after 8.00: after/before = 0.667",
        "  copy      before 3.00, after 2.00: after/before = 0.667",
        "  child     before 30.00, after 11.00: after/before = 0.367",
    ]


def test_one_checkout_is_measured_alone(monkeypatch, capsys):
    module = script("search_costs")
    monkeypatch.setattr(module, "_round", lambda checkout, cache, ruleset, games: _figures(4, 2, 6))
    assert module.main([str(ROOT), "kings_road", "--rounds", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "  api move  this 4.00", "  copy      this 2.00", "  child     this 6.00"]


def test_sides_that_played_other_games_are_not_compared(monkeypatch, capsys):
    module = script("search_costs")
    found = iter([_figures(1, 1, 1, "one"), _figures(1, 1, 1, "two")])
    monkeypatch.setattr(module, "_round", lambda checkout, cache, ruleset, games: next(found))
    assert module.main([str(ROOT), str(ROOT), "kings_road", "--rounds", "1"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "the two sides played other games (final states differ): not compared" in captured.err


def test_a_round_measures_the_positions_in_a_process_of_its_own(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    found = script("search_costs")._round(ROOT, cache, "kings_kilt", 1)
    assert set(found) == {"api move", "copy", "child", "positions", "digest"}
    assert found["positions"] > 20 and min(found["api move"], found["copy"], found["child"]) > 0


def test_a_folder_that_is_no_checkout_is_refused(tmp_path, capsys):
    assert script("search_costs").main([str(tmp_path), "kings_road"]) == 2
    assert "is not a checkout of regnum (no interpreter/regnum)" in capsys.readouterr().err


def test_the_rollout_is_reported_when_every_side_measures_it(monkeypatch, capsys):
    module = script("search_costs")
    with_rollout = [dict(_figures(4, 2, 6), rollout=r) for r in (30, 20, 25)]
    asked = []

    def fake_round(checkout, cache, ruleset, games, rollout=False):
        asked.append(rollout)
        return with_rollout.pop(0)
    monkeypatch.setattr(module, "_round", fake_round)
    assert module.main([str(ROOT), "kings_road", "--rounds", "3", "--rollout"]) == 0
    assert asked == [True, True, True]
    assert capsys.readouterr().out.splitlines()[1:] == [
        "  api move  this 4.00", "  copy      this 2.00", "  child     this 6.00", "  rollout   this 25.00"]
    # A side without it (a checkout older than random_rollout): the figure is left out.
    found = iter([dict(_figures(4, 2, 6), rollout=20), _figures(4, 2, 6)])
    monkeypatch.setattr(module, "_round", lambda checkout, cache, ruleset, games, rollout=False: next(found))
    assert module.main([str(ROOT), str(ROOT), "kings_road", "--rounds", "1", "--rollout"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "  api move  before 4.00, after 4.00: after/before = 1.000",
        "  copy      before 2.00, after 2.00: after/before = 1.000",
        "  child     before 6.00, after 6.00: after/before = 1.000"]


def test_a_round_asked_for_the_rollout_measures_it(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    found = script("search_costs")._round(ROOT, cache, "kings_kilt", 1, rollout=True)
    assert set(found) == {"api move", "copy", "child", "positions", "digest", "rollout"}
    assert found["rollout"] > 0
