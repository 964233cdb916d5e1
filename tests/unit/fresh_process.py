"""What a new process finds, for the tests of what a process keeps between loads (the trees of
build.py, the code of compiler/codecache.py, the texts diagnostics quote): not a test module,
imported by them (tests/unit is on the path of its tests)."""
from __future__ import annotations

from pathlib import Path

from regnum import build, diskcache
from regnum.compiler import codecache
from regnum.source import SourceRegistry


def as_new_process(monkeypatch) -> None:
    """As a new process finds things: no tree, code or file's text kept in this one."""
    monkeypatch.setattr(build, "_BUILT", type(build._BUILT)())
    monkeypatch.setattr(build, "_built_size", 0)
    monkeypatch.setattr(SourceRegistry, "_texts", {})
    monkeypatch.setattr(SourceRegistry, "_lines", {})
    codecache.forget_in_process()


def own_cache(tmp_path: Path, monkeypatch):
    """A fixture's body: a cache folder of the test's own, in a process as new; after the
    test, nothing of it kept in this one."""
    where = tmp_path / "cache"
    monkeypatch.setenv(diskcache.CACHE_ENV, str(where))
    as_new_process(monkeypatch)
    yield where
    codecache.forget_in_process()
