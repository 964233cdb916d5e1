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
