"""The baselines of the games kept to measure whether the speed holds for games the engine was
not tuned on (benchmarks/unseen/): `regnum bench` finds them in the checkout's
benchmarks/unseen/ as it finds the bundled games' in benchmarks/, so that one command benches
them all; a ruleset's own folder is never searched (a baseline is Python that runs)."""
from __future__ import annotations

import textwrap
from pathlib import Path

import regnum
from regnum import benchmark, resources

ROOT = Path(__file__).resolve().parents[2]
UNSEEN = ROOT / "benchmarks" / "unseen"


def test_an_unseen_games_baseline_is_found_in_the_checkouts_unseen_folder():
    for name in ("connect_four", "no_thanks", "whist", "hex"):
        module = benchmark.load_baseline(name)
        assert module is not None and Path(module.__file__) == UNSEEN / f"{name}_baseline.py"
    assert Path(benchmark.load_baseline("kings_road").__file__) == ROOT / "benchmarks" / "kings_road_baseline.py"
    assert benchmark.load_baseline("no_such_game") is None


def test_the_checkouts_own_folder_comes_first(tmp_path, monkeypatch):
    (tmp_path / "benchmarks" / "unseen").mkdir(parents=True)
    (tmp_path / "benchmarks" / "whist_baseline.py").write_text("WHERE = 'benchmarks'\n", encoding="utf-8")
    (tmp_path / "benchmarks" / "unseen" / "whist_baseline.py").write_text("WHERE = 'unseen'\n", encoding="utf-8")
    monkeypatch.setattr(resources, "checkout_root", lambda: tmp_path)
    assert benchmark.load_baseline("whist").WHERE == "benchmarks"


def test_a_baseline_beside_a_ruleset_given_by_path_is_never_run(tmp_path):
    (tmp_path / "stranger.rules").write_text(textwrap.dedent("""
        game stranger "Stranger"
        players 2..2
        flow:
            pass
    """), encoding="utf-8")
    ran = tmp_path / "ran"
    (tmp_path / "stranger_baseline.py").write_text(f"open({str(ran)!r}, 'w').close()\n", encoding="utf-8")
    rules = regnum.load(tmp_path / "stranger.rules")
    assert benchmark.baseline_for("stranger", rules) is None and not ran.exists()
