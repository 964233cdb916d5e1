"""`codecache.written_after()`: a process that waits on the author (`regnum check --watch`)
shows its verdict first, and writes the cache files of the loads it made, with the code of
their trees, after. Each file then holds what it would have held, in the same order, and is
written only when the block ends."""
from __future__ import annotations

import marshal
from pathlib import Path

import pytest

import regnum
from regnum import build, diskcache, treecode
from regnum.compiler import codecache

from fresh_process import as_new_process as _new_process   # tests/unit is on the path of its tests


@pytest.fixture
def rules(tmp_path) -> Path:
    """King's Road, copied where an author edits it."""
    path = tmp_path / "kings_road.rules"
    path.write_text(Path(regnum.resources.find_ruleset("kings_road", ())).read_text(encoding="utf-8"),
                    encoding="utf-8")
    return path


def _use(cache: Path, monkeypatch) -> None:
    monkeypatch.setenv(diskcache.CACHE_ENV, str(cache))
    _new_process(monkeypatch)


def _files(cache: Path) -> dict[str, list]:
    """Each code file of the folder: its entries, (text, name, mode, code), in order."""
    return {path.name: marshal.loads(path.read_bytes())[1] for path in sorted(cache.glob("code-*"))}


def _edit(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("\nflow:\n", "\n# an edit\nflow:\n", 1), encoding="utf-8")


def _loads(rules: Path, edited: bool) -> None:
    regnum.load(rules)
    if edited:
        _edit(rules)
        regnum.load(rules)


@pytest.mark.parametrize("edited", [False, True], ids=["a first load", "a load after an edit"])
def test_the_files_are_written_when_the_block_ends_as_they_would_have_been(rules, tmp_path, monkeypatch,
                                                                            edited):
    original = rules.read_text(encoding="utf-8")
    _use(tmp_path / "at_once", monkeypatch)
    _loads(rules, edited)
    at_once = _files(tmp_path / "at_once")

    rules.write_text(original, encoding="utf-8")
    _use(tmp_path / "after", monkeypatch)
    with codecache.written_after():
        _loads(rules, edited)
        assert _files(tmp_path / "after") == {}
    after = _files(tmp_path / "after")
    assert len(after) == (2 if edited else 1)
    assert after == at_once
    assert all(any(name.startswith("<regnum tree ") for _, name, _, _ in entries) for entries in after.values())


def test_a_process_that_comes_after_builds_nothing(rules, tmp_path, monkeypatch):
    _use(tmp_path / "cache", monkeypatch)
    with codecache.written_after():
        regnum.load(rules)
        _edit(rules)
        regnum.load(rules)   # from the first text's trees and code, kept in this process
    _new_process(monkeypatch)
    parsed, compiled = [], []
    real_build, real_compile = build._build_module, compile
    monkeypatch.setattr(build, "_build_module", lambda *a: parsed.append(a[1]) or real_build(*a))
    monkeypatch.setattr(codecache, "compile", lambda *a: compiled.append(a[1]) or real_compile(*a), raising=False)
    regnum.load(rules)
    assert parsed == [] and compiled == []


def test_a_tree_that_cannot_be_written_is_left_out_of_the_file(rules, tmp_path, monkeypatch):
    _use(tmp_path / "cache", monkeypatch)
    monkeypatch.setattr(treecode, "source_of", lambda tree: None)
    with codecache.written_after():
        regnum.load(rules)
    (entries,) = _files(tmp_path / "cache").values()
    assert entries and not any(name.startswith("<regnum tree ") for _, name, _, _ in entries)


def test_a_load_that_fails_in_the_block_writes_nothing(rules, tmp_path, monkeypatch):
    _use(tmp_path / "cache", monkeypatch)
    rules.write_text("oops here\n", encoding="utf-8")
    with codecache.written_after():
        with pytest.raises(regnum.RulesetError):
            regnum.load(rules)
    assert _files(tmp_path / "cache") == {}
