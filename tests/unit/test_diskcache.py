"""The disk cache of the parser's tables (regnum/diskcache.py, parse.build_parser): used only
where nobody else can write, read back into a parser that parses exactly as a new one, and
never an error when it is missing, foreign or broken."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from regnum import diskcache, parse, resources

GRAMMAR = (resources.data_dir("grammar") / "regnum.lark").read_text(encoding="utf-8")
RULESETS = sorted(resources.data_dir("rulesets").rglob("*.rules"))


def tree(parser, text: str):
    parser.options.postlex.text = text
    return parser.parse(text, start="start")


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv(diskcache.CACHE_ENV, str(where))
    return where


def test_the_folder_is_made_private(folder):
    assert diskcache.cache_dir() == folder
    assert folder.stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize("value", ["", "off", " off "])
def test_the_cache_can_be_turned_off(monkeypatch, value):
    monkeypatch.setenv(diskcache.CACHE_ENV, value)
    assert diskcache.cache_dir() is None and diskcache.cache_file("lark", "x") is None


def test_without_a_setting_the_cache_is_under_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.delenv(diskcache.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert diskcache.cache_dir() == tmp_path / "xdg" / "regnum"


def test_a_folder_others_may_write_is_not_used(folder):
    folder.mkdir(mode=0o700)
    folder.chmod(0o777)
    assert diskcache.cache_dir() is None


def test_a_file_others_may_write_is_not_read(folder):
    path = diskcache.cache_file("lark", "a", "b")
    assert path.parent == folder and path.name.startswith("lark-") and path.name.endswith(".cache")
    path.write_bytes(b"anything")
    path.chmod(0o666)
    assert diskcache.cache_file("lark", "a", "b") is None
    path.chmod(0o600)
    assert diskcache.cache_file("lark", "a", "b") == path
    assert diskcache.cache_file("lark", "a", "c") != path   # another key, another file


def test_a_path_that_is_a_file_is_no_folder(tmp_path, monkeypatch):
    (tmp_path / "plain").write_text("x")
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path / "plain"))
    assert diskcache.cache_dir() is None


def test_a_parser_read_from_the_cache_parses_as_a_new_one(folder):
    path = diskcache.cache_file("lark", "test", GRAMMAR)
    written = parse.build_parser(GRAMMAR, path)
    assert path.is_file() and path.stat().st_mode & 0o777 == 0o600
    content = path.read_bytes()
    read = parse.build_parser(GRAMMAR, path)
    assert path.read_bytes() == content   # read back, not built again
    fresh = parse.build_parser(GRAMMAR)
    assert len(RULESETS) >= 5
    for file in RULESETS:
        text = file.read_text(encoding="utf-8")
        assert tree(read, text) == tree(fresh, text) == tree(written, text), file.name


def test_a_broken_cache_file_is_built_again(folder):
    path = diskcache.cache_file("lark", "broken", GRAMMAR)
    path.write_bytes(b"not a cache at all\n\x00\x01")
    path.chmod(0o600)
    parser = parse.build_parser(GRAMMAR, path)
    text = (resources.data_dir("rulesets") / "kings_road.rules").read_text(encoding="utf-8")
    assert tree(parser, text) == tree(parse.build_parser(GRAMMAR), text)
    assert path.read_bytes() != b"not a cache at all\n\x00\x01"


def test_a_command_fills_the_cache_then_reads_it(folder):
    def check() -> subprocess.CompletedProcess:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(Path(parse.__file__).resolve().parents[1])
        return subprocess.run([sys.executable, "-m", "regnum", "check", "kings_road"], env=env,
                              capture_output=True, text=True, timeout=120, check=False)
    first = check()
    files = sorted(folder.iterdir())   # the parser's tables, and the ruleset's code (test_code_cache.py)
    assert [f.name.split("-")[0] for f in files] == ["code", "lark"]
    content = [f.read_bytes() for f in files]
    second = check()
    assert (second.returncode, second.stdout, second.stderr) == (first.returncode, first.stdout, first.stderr)
    assert first.returncode == 0 and first.stderr == ""
    assert sorted(folder.iterdir()) == files and [f.read_bytes() for f in files] == content


def test_a_parser_read_from_the_cache_still_has_its_grammar(folder):
    path = diskcache.cache_file("lark", "grammar", GRAMMAR)
    parse.build_parser(GRAMMAR, path)
    read = parse.build_parser(GRAMMAR, path)
    fresh = parse.build_parser(GRAMMAR)
    assert [t.name for t in read.grammar.compile(["start"], ())[0]] == \
        [t.name for t in fresh.grammar.compile(["start"], ())[0]]
    assert [(t.name, t.pattern.value) for t in read.terminals] == [(t.name, t.pattern.value) for t in fresh.terminals]
    with pytest.raises(AttributeError):
        read.no_such_attribute
