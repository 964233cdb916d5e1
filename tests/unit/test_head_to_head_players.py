"""head_to_head.py --players: each side's games are played at the count asked (4 unless told),
which a two-player game needs."""
from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("head_to_head_players", ROOT / "benchmarks" / "head_to_head.py")
module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(module)
TWO_ONLY = str(ROOT / "benchmarks" / "unseen" / "connect_four.rules")


def test_the_players_asked_reach_each_sides_games(tmp_path, monkeypatch):
    monkeypatch.setenv("REGNUM_HEAD_TO_HEAD_PLAYERS", "2")
    assert module._round(ROOT, tmp_path, TWO_ONLY, 2) > 0
    monkeypatch.delenv("REGNUM_HEAD_TO_HEAD_PLAYERS")
    with pytest.raises(subprocess.CalledProcessError):   # four players: Connect Four refuses them
        module._round(ROOT, tmp_path, TWO_ONLY, 2)


def test_main_passes_the_players_on(tmp_path, monkeypatch):
    seen = []

    def fake_round(checkout, cache, ruleset, games):
        seen.append(module.os.environ["REGNUM_HEAD_TO_HEAD_PLAYERS"])
        return 1.0
    monkeypatch.setattr(module, "_round", fake_round)
    monkeypatch.setattr(module.compileall, "compile_dir", lambda *a, **k: True)
    monkeypatch.setenv("REGNUM_HEAD_TO_HEAD_PLAYERS", "unset")   # put back as it was after the test
    assert module.main([str(ROOT), str(ROOT), TWO_ONLY, "--players", "2", "--rounds", "1", "--games", "3"]) == 0
    assert module.main([str(ROOT), str(ROOT), TWO_ONLY, "--rounds", "1"]) == 0
    assert seen == ["2", "2", "4", "4"]
