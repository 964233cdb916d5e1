"""benchmarks/instructions.py: two checkouts compared by the instructions a game executes,
under callgrind, each side under several heap layouts; the arithmetic and the shape of its
report (valgrind itself is not needed: the count is replaced), and its refusals."""
from __future__ import annotations

import subprocess
import sys

from benchmark_scripts import ROOT, script   # tests/unit is on the path of its tests


def _module():
    return script("instructions")


def test_a_game_is_n_games_less_none_and_the_medians_are_compared(monkeypatch, capsys, tmp_path):
    module = _module()
    after = tmp_path / "after"
    (after / "interpreter" / "regnum").mkdir(parents=True)
    asked = []

    def fake_count(checkout, ruleset, games, players, coverage, layout=0):
        asked.append((checkout.name, ruleset, games, players, coverage, layout))
        base = 1_000_000 if checkout == ROOT else 900_000   # the process without games
        per_game = {0: 100, 1: 130, 2: 90}[layout] * (1_000 if checkout == ROOT else 950)
        return base + games * per_game
    monkeypatch.setattr(module, "_count", fake_count)
    monkeypatch.setattr(module.shutil, "which", lambda name: "/usr/bin/valgrind")
    assert module.main([str(ROOT), str(after), "kings_road", "--games", "4", "--layouts", "3"]) == 0
    # an unmeasured run of each side first, then N games and none under each layout
    assert sorted(asked[:2]) == sorted([(ROOT.name, "kings_road", 0, 4, False, 0), ("after", "kings_road", 0, 4, False, 0)])
    measured = asked[2:]
    assert len(measured) == 12 and {a[5] for a in measured} == {0, 1, 2}
    assert sorted(a[2] for a in measured) == [0] * 6 + [4] * 6
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "layout 0: before 0.1000 M, after 0.0950 M",
        "layout 1: before 0.1300 M, after 0.1235 M",
        "layout 2: before 0.0900 M, after 0.0855 M",
        "before: 0.1000 M instructions a game (0.0900–0.1300)",
        "after: 0.0950 M instructions a game (0.0855–0.1235)",
        "medians of 3 layouts, 4 games of 4 players: after/before = 0.9500 (-5.00 %)",
    ]


def test_coverage_and_players_reach_the_games(monkeypatch, capsys):
    module = _module()
    asked = []

    def fake_count(checkout, ruleset, games, players, coverage, layout=0):
        asked.append((players, coverage))
        return 10 + games
    monkeypatch.setattr(module, "_count", fake_count)
    monkeypatch.setattr(module.shutil, "which", lambda name: "/usr/bin/valgrind")
    assert module.main([str(ROOT), str(ROOT), "kingdom_builder", "--players", "2", "--coverage",
                        "--layouts", "1"]) == 0
    assert set(asked) == {(2, True)}
    assert capsys.readouterr().out.splitlines()[-1] == (
        "medians of 1 layouts, 3 games of 2 players, coverage counted: after/before = 1.0000 (+0.00 %)")


def test_refusals(tmp_path, monkeypatch, capsys):
    module = _module()
    assert module.main([str(tmp_path), str(ROOT), "kings_road"]) == 2
    assert "before: " in capsys.readouterr().err
    assert module.main([str(ROOT), str(ROOT), "kings_road", "--games", "0"]) == 2
    assert "--games and --layouts: at least 1" in capsys.readouterr().err
    monkeypatch.setattr(module.shutil, "which", lambda name: None)
    assert module.main([str(ROOT), str(ROOT), "kings_road"]) == 2
    assert "valgrind is not installed" in capsys.readouterr().err


def test_the_games_program_plays_the_games_it_is_asked_for():
    """The program callgrind runs, run without it: it loads, plays seed 1, then N more games."""
    program = _module()._GAMES + "\nprint(rules.name, games, players, coverage)\n"
    out = subprocess.run([sys.executable, "-c", program, "kings_kilt", "1", "2"], cwd=ROOT, capture_output=True,
                         text=True, check=True, env={"PYTHONPATH": "interpreter", "REGNUM_LAYOUT": "2",
                                                     "REGNUM_CACHE_DIR": "off", "PATH": "/usr/bin:/bin"})
    assert out.stdout.split() == ["kings_kilt", "1", "2", "False"]


def test_a_count_is_read_from_callgrinds_report(monkeypatch, tmp_path):
    module = _module()

    class Done:
        stderr = "==1== Events    : Ir\n==1== Collected : 123456789\n==1==\n==1== I   refs:      123,456,789\n"
    seen = {}

    def fake_run(command, env, capture_output, text, check, cwd):
        seen.update(command=command, env=env, cwd=cwd)
        return Done()
    monkeypatch.setattr(module.subprocess, "run", fake_run)
    assert module._count(tmp_path, "kings_road", 5, 4, True, layout=2) == 123456789
    assert seen["command"][:3] == ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    assert seen["command"][-4:] == ["kings_road", "5", "4", "coverage"]
    assert seen["cwd"] == tmp_path
    assert {k: seen["env"][k] for k in ("PYTHONPATH", "REGNUM_CACHE_DIR", "PYTHONHASHSEED", "REGNUM_LAYOUT")} == {
        "PYTHONPATH": "interpreter", "REGNUM_CACHE_DIR": "off", "PYTHONHASHSEED": "0", "REGNUM_LAYOUT": "2"}


def test_loads_count_warm_loads_with_each_sides_disk_cache(monkeypatch, capsys, tmp_path):
    module = _module()
    after = tmp_path / "after"
    (after / "interpreter" / "regnum").mkdir(parents=True)
    asked = []

    def fake_count(checkout, ruleset, games, players, coverage, layout=0, loads=False, cache="off"):
        asked.append((checkout.name, games, layout, loads, cache.rsplit("/", 1)[-1]))
        per_load = 200 if checkout == ROOT else 190
        return 5_000 + games * per_load * 1_000
    monkeypatch.setattr(module, "_count", fake_count)
    monkeypatch.setattr(module.shutil, "which", lambda name: "/usr/bin/valgrind")
    assert module.main([str(ROOT), str(after), "kingdom_builder", "--loads", "4", "--layouts", "2"]) == 0
    # the unmeasured runs fill each side's own cache; then 4 loads and none under each layout
    assert sorted(asked[:2]) == sorted([(ROOT.name, 0, 0, True, "before"), ("after", 0, 0, True, "after")])
    assert sorted(asked[2:]) == sorted([(side, n, layout, True, cache) for side, cache in
                                        [(ROOT.name, "before"), ("after", "after")]
                                        for n in (0, 4) for layout in (0, 1)])
    assert capsys.readouterr().out.splitlines() == [
        "layout 0: before 0.2000 M, after 0.1900 M",
        "layout 1: before 0.2000 M, after 0.1900 M",
        "before: 0.2000 M instructions a warm load (0.2000–0.2000)",
        "after: 0.1900 M instructions a warm load (0.1900–0.1900)",
        "medians of 2 layouts, 4 warm loads: after/before = 0.9500 (-5.00 %)",
    ]
    assert module.main([str(ROOT), str(after), "kingdom_builder", "--loads", "0"]) == 2
    assert "--loads: at least 1" in capsys.readouterr().err


def test_the_loads_program_loads_as_often_as_asked(monkeypatch):
    """The program callgrind runs with --loads, run without it: a first load, then N more."""
    program = ("import regnum, regnum.ruleset as R\ncount = [0]\n_load = R.load\n"
               "def load(*a, **k):\n    count[0] += 1\n    return _load(*a, **k)\nregnum.load = load\n"
               + _module()._LOADS + "\nprint(count[0])\n")
    out = subprocess.run([sys.executable, "-c", program, "kings_kilt", "3"], cwd=ROOT, capture_output=True,
                         text=True, check=True, env={"PYTHONPATH": "interpreter", "REGNUM_LAYOUT": "1",
                                                     "REGNUM_CACHE_DIR": "off", "PATH": "/usr/bin:/bin"})
    assert out.stdout.split() == ["4"]
