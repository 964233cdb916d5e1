"""A ruleset edited and loaded again starts from the cache its last text left
(compiler/codecache.py: the files of one first file's texts share the start of their names):
only the files that changed are parsed and only the sources that changed compiled, the games
played are those of a load that keeps nothing, and anything damaged, foreign or not the
user's is ignored."""
from __future__ import annotations

import hashlib
import marshal
from pathlib import Path

import pytest

import regnum
from regnum import agents, build, diskcache
from regnum.compiler import codecache

from fresh_process import as_new_process as _new_process, own_cache   # tests/unit is on the path of its tests

_NOBLE = '{leaders[0]} adds a Noble in {region_name[r]}'
_KILT = '{q} backs {[clan_name[k] for k in family_clans(q)]}: {family_points(q)} points'


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    yield from own_cache(tmp_path, monkeypatch)


@pytest.fixture
def seen(monkeypatch) -> dict:
    """What the loads did: each source compiled (the trees' code apart) and each file parsed."""
    out: dict = {"sources": [], "trees": [], "parsed": []}

    def compiling(source, filename, mode):
        if filename.startswith("<regnum tree "):
            out["trees"].append(filename[len("<regnum tree "):-1])
        else:
            out["sources"].append((source, filename, mode))
        return compile(source, filename, mode)
    real = build._build_module

    def parsing(text, file, limits):
        out["parsed"].append(file)
        return real(text, file, limits)
    monkeypatch.setattr(codecache, "compile", compiling, raising=False)
    monkeypatch.setattr(build, "_build_module", parsing)
    return out


def _copies(tmp_path: Path) -> tuple[Path, Path]:
    """King's Road and Permanent Nobles, copied where an author edits them."""
    home = tmp_path / "rules"
    (home / "variants").mkdir(parents=True)
    for name in ("kings_road", "permanent_nobles"):
        found = Path(regnum.resources.find_ruleset(name, ()))
        target = home / found.relative_to(found.parents[1 if name == "permanent_nobles" else 0])
        target.write_text(found.read_text(encoding="utf-8"), encoding="utf-8")
    return home, home / "variants" / "permanent_nobles.rules"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


def _games(rules) -> list[str]:
    return [agents.play_random_game(rules, 4, seed).to_json() for seed in (1, 2)]


def _sources_without_cache(monkeypatch, seen, path, **load) -> tuple[list, regnum.Ruleset]:
    """Every source a load of `path` compiles when nothing is kept anywhere, and the ruleset."""
    monkeypatch.setenv(diskcache.CACHE_ENV, "off")
    _new_process(monkeypatch)
    before = len(seen["sources"])
    rules = regnum.load(path, **load)
    compiled = seen["sources"][before:]
    del seen["sources"][before:]
    return compiled, rules


def test_an_edited_variant_parses_itself_alone_and_compiles_only_what_changed(cache, seen, tmp_path, monkeypatch):
    home, variant = _copies(tmp_path)
    regnum.load(variant, rules_path=[home])
    first = set(seen["sources"])
    assert len(first) > 100
    assert sorted(seen["parsed"]) == sorted([str(home / "kings_road.rules"), str(variant), "stdlib/majority.rules"])

    _edit(variant, _NOBLE, _NOBLE.replace("adds a Noble in", "crowns a new Noble in"))
    truth, plain = _sources_without_cache(monkeypatch, seen, variant, rules_path=[home])
    changed = [s for s in truth if s not in first]
    assert len(changed) == 1 and "crowns a new Noble in" in changed[0][0]

    monkeypatch.setenv(diskcache.CACHE_ENV, str(cache))
    _new_process(monkeypatch)
    seen.update(sources=[], trees=[], parsed=[])
    edited = regnum.load(variant, rules_path=[home])
    assert seen["parsed"] == [str(variant)]          # the base and the stdlib module rebuilt, not parsed
    assert seen["trees"] == [str(variant)]
    assert seen["sources"] == changed                # every other source found, not compiled
    assert _games(edited) == _games(plain)


def test_the_edited_text_keeps_a_whole_file_of_its_own(cache, seen, tmp_path, monkeypatch):
    home, variant = _copies(tmp_path)
    regnum.load(variant, rules_path=[home])
    _edit(variant, _NOBLE, _NOBLE + "!")
    _new_process(monkeypatch)
    regnum.load(variant, rules_path=[home])
    files = sorted(cache.glob("code-*.cache"))
    assert len(files) == 2 and len({path.name[:21] for path in files}) == 1   # "code-" and the file's digest

    for path in files:   # the earlier text's file deleted (its tree's key is the file's text)
        _, entries = marshal.loads(path.read_bytes())
        if not any(_NOBLE + "!" in source for source, _, _, _ in entries):
            path.unlink()
    assert len(list(cache.glob("code-*.cache"))) == 1
    _new_process(monkeypatch)
    seen.update(sources=[], trees=[], parsed=[])
    regnum.load(variant, rules_path=[home])
    assert seen == {"sources": [], "trees": [], "parsed": []}


def test_an_edit_of_a_game_parses_that_file_alone(cache, seen, tmp_path, monkeypatch):
    kilt = tmp_path / "kilt.rules"
    kilt.write_text(Path(regnum.resources.find_ruleset("kings_kilt", ())).read_text(encoding="utf-8"),
                    encoding="utf-8")
    regnum.load(kilt)
    assert sorted(seen["parsed"]) == sorted([str(kilt), "stdlib/seats.rules", "stdlib/decks.rules"])
    first = set(seen["sources"])
    _edit(kilt, _KILT, _KILT.replace("backs", "stands behind"))
    truth, plain = _sources_without_cache(monkeypatch, seen, kilt)
    changed = [s for s in truth if s not in first]

    monkeypatch.setenv(diskcache.CACHE_ENV, str(cache))
    _new_process(monkeypatch)
    seen.update(sources=[], trees=[], parsed=[])
    edited = regnum.load(kilt)
    assert seen["parsed"] == [str(kilt)]
    assert seen["sources"] == changed and len(changed) == 1 and "stands behind" in changed[0][0]
    assert [agents.play_random_game(edited, 3, seed).to_json() for seed in (1, 2)] == \
        [agents.play_random_game(plain, 3, seed).to_json() for seed in (1, 2)]


def test_another_name_or_other_limits_start_from_nothing(cache, seen, tmp_path, monkeypatch):
    text = Path(regnum.resources.find_ruleset("kings_kilt", ())).read_text(encoding="utf-8")
    (tmp_path / "one.rules").write_text(text, encoding="utf-8")
    regnum.load(tmp_path / "one.rules")
    everything = len(seen["sources"])
    (tmp_path / "two.rules").write_text(text.replace(_KILT, _KILT + "!"), encoding="utf-8")
    _new_process(monkeypatch)
    regnum.load(tmp_path / "two.rules")
    assert len(seen["sources"]) == 2 * everything
    assert seen["parsed"][-3:] == [str(tmp_path / "two.rules"), "stdlib/seats.rules", "stdlib/decks.rules"]

    _edit(tmp_path / "one.rules", _KILT, _KILT + "?")
    _new_process(monkeypatch)
    regnum.load(tmp_path / "one.rules", limits=regnum.Limits(steps=12345))
    assert len(seen["sources"]) == 3 * everything


def _kilt_copies(tmp_path: Path, *names: str) -> list[Path]:
    text = Path(regnum.resources.find_ruleset("kings_kilt", ())).read_text(encoding="utf-8")
    out = []
    for name in names:
        (tmp_path / name).write_text(text, encoding="utf-8")
        out.append(tmp_path / name)
    return out


def _file_of(cache: Path, rules: Path, limits=None) -> Path:
    """The code file a load of `rules` under `limits` (the default ones) wrote: its only one."""
    [path] = [p for p in cache.glob("code-*.cache")
              if marshal.loads(p.read_bytes())[0][3::2] == [str(rules), repr(limits or regnum.Limits())]]
    return path


@pytest.mark.parametrize("content", [
    b"", b"garbage", b"\xff" * 100, marshal.dumps([1, 2]), marshal.dumps(None), marshal.dumps((None, [])),
    marshal.dumps((["another", "key"], [])),
    "another file's",      # a whole file of another ruleset, its key and all
    "other limits'",       # a whole file of this one, loaded under other limits
    "entries damaged",     # the right key, an entry that is no code
])
def test_a_damaged_or_foreign_file_is_not_started_from(cache, seen, tmp_path, monkeypatch, content):
    kilt, other = _kilt_copies(tmp_path, "kilt.rules", "other.rules")
    regnum.load(other)
    regnum.load(other, limits=regnum.Limits(steps=12345))
    _new_process(monkeypatch)
    regnum.load(kilt)
    everything = len(seen["sources"]) // 3
    mine = _file_of(cache, kilt)
    if content == "another file's":
        content = _file_of(cache, other).read_bytes()
    elif content == "other limits'":
        _new_process(monkeypatch)
        regnum.load(kilt, limits=regnum.Limits(steps=12345))
        theirs = _file_of(cache, kilt, regnum.Limits(steps=12345))
        content = theirs.read_bytes()
        theirs.unlink()
    elif content == "entries damaged":
        key, entries = marshal.loads(mine.read_bytes())
        content = marshal.dumps((key, entries + [("a", "b", "c", "no code")]))
    mine.write_bytes(content)
    _edit(kilt, _KILT, _KILT + "!")
    _new_process(monkeypatch)
    before = len(seen["sources"])
    regnum.load(kilt)
    assert len(seen["sources"]) - before == everything      # nothing taken from the earlier text
    assert seen["parsed"][-3:] == [str(kilt), "stdlib/seats.rules", "stdlib/decks.rules"]

    _edit(kilt, _KILT + "!", _KILT + "?")                    # and the file just written serves the next edit
    _new_process(monkeypatch)
    regnum.load(kilt)
    assert len(seen["sources"]) - before == everything + 1
    assert seen["parsed"][-1] == str(kilt) and seen["parsed"][-2] == "stdlib/decks.rules"


def test_a_file_others_may_write_is_not_started_from(cache, seen, tmp_path, monkeypatch):
    [kilt] = _kilt_copies(tmp_path, "kilt.rules")
    regnum.load(kilt)
    everything = len(seen["sources"])
    _file_of(cache, kilt).chmod(0o666)
    _edit(kilt, _KILT, _KILT + "!")
    _new_process(monkeypatch)
    regnum.load(kilt)
    assert len(seen["sources"]) == 2 * everything


def test_the_text_loaded_last_is_started_from(cache, seen, tmp_path, monkeypatch):
    [kilt] = _kilt_copies(tmp_path, "kilt.rules")
    first = kilt.read_text(encoding="utf-8")
    regnum.load(kilt)
    everything = len(seen["sources"])
    _edit(kilt, _KILT, _KILT.replace("backs", "stands behind"))
    _new_process(monkeypatch)
    regnum.load(kilt)                     # compiles the one source that changed
    kilt.write_text(first, encoding="utf-8")
    _new_process(monkeypatch)
    regnum.load(kilt)                     # its own file again: nothing compiled, and the file used last
    _edit(kilt, _KILT, _KILT + "!")
    _new_process(monkeypatch)
    regnum.load(kilt)
    assert len(seen["sources"]) == everything + 2
    assert "stands behind" not in seen["sources"][-1][0] and " points!" in seen["sources"][-1][0]


def test_in_one_process_an_edit_starts_from_the_text_loaded_last(seen, tmp_path, monkeypatch):
    monkeypatch.setenv(diskcache.CACHE_ENV, "off")   # no folder: what the process keeps serves alone
    _new_process(monkeypatch)
    kilt = tmp_path / "kilt.rules"
    kilt.write_text(Path(regnum.resources.find_ruleset("kings_kilt", ())).read_text(encoding="utf-8"),
                    encoding="utf-8")
    regnum.load(kilt)
    everything = len(seen["sources"])
    for mark in "!?":
        _edit(kilt, _KILT + ("!" if mark == "?" else ""), _KILT + mark)
        regnum.load(kilt)
    assert len(seen["sources"]) == everything + 2
    assert [" points!" in source and " points?" not in source for source, _, _ in seen["sources"][everything:]] \
        == [True, False]
    codecache.forget_in_process()


def test_rulesets_loaded_between_edits_change_nothing(cache, seen, tmp_path, monkeypatch):
    kilt, other = _kilt_copies(tmp_path, "kilt.rules", "other.rules")
    regnum.load(kilt)
    everything = len(seen["sources"])
    _new_process(monkeypatch)
    regnum.load(other)
    regnum.load("kings_road")
    _edit(kilt, _KILT, _KILT + "!")
    _new_process(monkeypatch)
    before = len(seen["sources"])
    regnum.load(kilt)
    assert len(seen["sources"]) == before + 1 and seen["parsed"][-1] == str(kilt)
    assert before > 2 * everything


def test_a_broken_edit_leaves_the_last_good_text_to_start_from(cache, seen, tmp_path, monkeypatch):
    [kilt] = _kilt_copies(tmp_path, "kilt.rules")
    regnum.load(kilt)
    everything = len(seen["sources"])
    files = {path: path.read_bytes() for path in cache.glob("code-*.cache")}
    _edit(kilt, _KILT, _KILT + "{no_such_name}")
    _new_process(monkeypatch)
    with pytest.raises(regnum.RulesetError) as refused:
        regnum.load(kilt)
    assert [d.code for d in refused.value.diagnostics if d.is_error] == ["E101"]
    assert {path: path.read_bytes() for path in cache.glob("code-*.cache")} == files
    _edit(kilt, _KILT + "{no_such_name}", _KILT + "!")
    _new_process(monkeypatch)
    regnum.load(kilt)
    assert len(seen["sources"]) == everything + 1


def test_the_folder_keeps_the_files_used_last_whatever_their_first_file(cache, tmp_path, monkeypatch):
    monkeypatch.setattr(codecache, "_KEPT_ON_DISK", 2)
    for rules in _kilt_copies(tmp_path, "a.rules", "b.rules", "c.rules"):
        regnum.load(rules)
        _new_process(monkeypatch)
    assert sorted(marshal.loads(p.read_bytes())[0][3] for p in cache.glob("code-*.cache")) == \
        [str(tmp_path / "b.rules"), str(tmp_path / "c.rules")]


def test_a_load_that_compiles_nothing_new_still_keeps_what_it_took(cache, seen, tmp_path, monkeypatch):
    from regnum import treecode
    text = Path(regnum.resources.find_ruleset("kings_kilt", ())).read_text(encoding="utf-8")
    monkeypatch.setattr(treecode, "MAX_TEXT", len(text) - 1)   # the game's own tree never kept
    kilt = tmp_path / "kilt.rules"
    kilt.write_text(text, encoding="utf-8")
    regnum.load(kilt)
    everything = len(seen["sources"])
    kilt.write_text(text + "\n# a comment: every source the same\n", encoding="utf-8")
    _new_process(monkeypatch)
    regnum.load(kilt)
    assert len(seen["sources"]) == everything and seen["trees"] == ["stdlib/seats.rules", "stdlib/decks.rules"]
    assert len(list(cache.glob("code-*.cache"))) == 2
    digest = hashlib.sha256(kilt.read_text(encoding="utf-8").encode("utf-8")).hexdigest()
    for path in cache.glob("code-*.cache"):   # the first text's file gone: the second's holds it all
        if marshal.loads(path.read_bytes())[0][4] != digest:
            path.unlink()
    _new_process(monkeypatch)
    regnum.load(kilt)
    assert len(seen["sources"]) == everything
    assert seen["parsed"] == [str(kilt), "stdlib/seats.rules", "stdlib/decks.rules", str(kilt), str(kilt)]
