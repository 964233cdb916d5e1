"""The scripts of benchmarks/ (not a package), imported by their file for the tests that run them."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def script(name: str):
    """benchmarks/<name>.py as a module, loaded afresh (a test may patch it)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def faked_rounds(module, monkeypatch, figures: list[float]) -> list[tuple]:
    """head_to_head's rounds replaced by `figures`, handed out in order; the list returned
    fills with (side, ruleset, what was counted) of each round asked for."""
    handed = iter(figures)
    asked: list[tuple] = []

    def fake_round(checkout, cache, ruleset, games, **counted):
        asked.append((cache.name, ruleset, *counted.values()))
        return next(handed)
    monkeypatch.setattr(module, "_round", fake_round)
    return asked
