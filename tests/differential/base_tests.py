"""A variant's differential test reuses its base game's: the snapshots, drivers and move
encodings of `test_<game>_vs_baseline.py`, loaded by path under a private name so that its
tests are not collected again from the variant's file (tests/differential is on the path of
its tests, and is no package)."""
from __future__ import annotations

import importlib.util
from pathlib import Path


def load_base_test(game: str):
    """The module `test_<game>_vs_baseline.py` beside this file, as `_<game>_differential_base`."""
    path = Path(__file__).with_name(f"test_{game}_vs_baseline.py")
    spec = importlib.util.spec_from_file_location(f"_{game}_differential_base", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
