"""The generated code of a ruleset kept by its hash (compiler/codecache.py): a ruleset loaded
again compiles nothing, in the process or from the disk, plays exactly the same games, and a
cache file that is broken, foreign or stale changes nothing but the time."""
from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

import regnum
from regnum import agents, diskcache
from regnum.compiler import codecache

RULESETS = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"]


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv(diskcache.CACHE_ENV, str(where))
    codecache.forget_in_process()
    yield where
    codecache.forget_in_process()


@pytest.fixture
def compiles(monkeypatch) -> list:
    """Every source the cache had to compile, in order."""
    seen: list = []

    def counting(source, filename, mode):
        seen.append(filename)
        return compile(source, filename, mode)
    monkeypatch.setattr(codecache, "compile", counting, raising=False)
    return seen


def code_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("code-*.cache"))


def games(ruleset, seeds=range(3)) -> list[str]:
    """Whole random games (their states and logs), as the rules compiled this time play them."""
    return [agents.play_random_game(ruleset, 4, seed).to_json() for seed in seeds]


@pytest.mark.parametrize("name", RULESETS)
def test_a_ruleset_loaded_again_compiles_nothing(folder, compiles, name):
    regnum.load(name)
    first = len(compiles)
    assert first > 20   # listers, prefers, natives, expressions
    assert len(code_files(folder)) == 1

    regnum.load(name)            # in the process
    assert len(compiles) == first

    codecache.forget_in_process()
    regnum.load(name)            # from the disk
    assert len(compiles) == first


def test_code_read_back_plays_the_same_games(folder):
    fresh = games(regnum.load("kings_gate"))
    codecache.forget_in_process()
    from_disk = games(regnum.load("kings_gate"))
    assert from_disk == fresh


def test_another_ruleset_text_is_another_file(folder, tmp_path, compiles):
    source = Path(regnum.resources.find_ruleset("kings_kilt", [])).read_text(encoding="utf-8")
    copy = tmp_path / "kilt_copy.rules"
    copy.write_text(source, encoding="utf-8")
    regnum.load(copy)
    changed = tmp_path / "kilt_changed.rules"
    changed.write_text(source + "\n# one more comment\n", encoding="utf-8")
    before = len(compiles)
    regnum.load(changed)
    assert len(compiles) > before          # a new hash: nothing kept is looked at
    assert len(code_files(folder)) == 2


def test_other_limits_are_another_file(folder, compiles):
    regnum.load("kings_kilt")
    regnum.load("kings_kilt", limits=regnum.Limits(steps=12345))
    assert len(code_files(folder)) == 2


@pytest.mark.parametrize("content", [b"", b"garbage", marshal.dumps([1, 2, 3]),
                                     marshal.dumps((["another", "key"], [])),
                                     b"\xff" * 100])
def test_a_broken_or_foreign_file_is_ignored_and_written_again(folder, compiles, content):
    regnum.load("kings_kilt")
    first = len(compiles)
    [path] = code_files(folder)
    path.write_bytes(content)
    codecache.forget_in_process()
    regnum.load("kings_kilt")
    assert len(compiles) == 2 * first      # everything compiled again
    codecache.forget_in_process()
    regnum.load("kings_kilt")
    assert len(compiles) == 2 * first      # and the file is good again


def test_entries_for_other_sources_are_never_used(folder, compiles):
    ruleset = regnum.load("kings_kilt")
    [path] = code_files(folder)
    key, entries = marshal.loads(path.read_bytes())
    # Same key, but every entry's source changed: nothing may match.
    path.write_bytes(marshal.dumps((key, [(s + " ", f, m, c) for s, f, m, c in entries])))
    codecache.forget_in_process()
    first = len(compiles)
    again = regnum.load("kings_kilt")
    assert len(compiles) == 2 * first
    assert games(again, [1]) == games(ruleset, [1])


def test_a_file_others_may_write_is_not_read(folder, compiles):
    regnum.load("kings_kilt")
    first = len(compiles)
    [path] = code_files(folder)
    path.chmod(0o666)
    codecache.forget_in_process()
    regnum.load("kings_kilt")
    assert len(compiles) == 2 * first


def test_without_a_cache_folder_nothing_is_written(tmp_path, monkeypatch, compiles):
    monkeypatch.setenv(diskcache.CACHE_ENV, "off")
    codecache.forget_in_process()
    regnum.load("kings_kilt")
    first = len(compiles)
    codecache.forget_in_process()
    regnum.load("kings_kilt")
    assert len(compiles) == 2 * first
    codecache.forget_in_process()


def test_the_folder_keeps_the_files_used_last(folder, monkeypatch):
    monkeypatch.setattr(codecache, "_KEPT_ON_DISK", 2)
    for name in ["kings_road", "kings_kilt", "kings_gate"]:
        regnum.load(name)
        codecache.forget_in_process()
    assert len(code_files(folder)) == 2


def test_a_failed_compile_keeps_nothing(folder, tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text('game broken "Broken"\nplayers 2..2\n\nconst size = 2 + 3\n\n'
                      'board land: hex_grid\n    rows = size - 10\n    cols = size\n\n'
                      'flow:\n    announce "{count(land)}"\n', encoding="utf-8")
    with pytest.raises(regnum.RulesetError) as err:
        regnum.load(broken)
    assert [d.code for d in err.value.diagnostics] == ["E312"]   # found while compiling
    assert code_files(folder) == []


def test_a_second_process_reads_the_code_the_first_wrote(folder):
    script = ("import regnum; from regnum.compiler import codecache\n"
              "n = [0]\n"
              "def counting(s, f, m):\n"
              "    n[0] += 1\n"
              "    return compile(s, f, m)\n"
              "codecache.compile = counting\n"
              "regnum.load('kings_road'); print(n[0])\n")
    env = dict(os.environ, **{diskcache.CACHE_ENV: str(folder)})
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
            for _ in range(2)]
    assert int(runs[0].stdout) > 20
    assert int(runs[1].stdout) == 0
