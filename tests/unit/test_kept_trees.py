"""The syntax trees of a ruleset's files kept with its code (treecode.py, loading.py,
compiler/codecache.py): a later process rebuilds them without parsing, equal to what
parsing gives, with the same messages; anything stale, damaged or foreign is parsed again."""
from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import regnum
from regnum import agents, build, diskcache, treecode
from regnum.compiler import codecache
from regnum.diagnostics import RulesetError

from fresh_process import as_new_process as _again, own_cache   # tests/unit is on the path of its tests

ROOT = Path(__file__).resolve().parents[2]
ALL_RULES = sorted(p for p in ROOT.rglob("*.rules") if ".venv" not in p.parts)


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    """A cache folder of the test's own, and a process that has built no tree yet."""
    yield from own_cache(tmp_path, monkeypatch)


@pytest.fixture
def parsed(monkeypatch) -> list:
    """The files parsed (not rebuilt), in order."""
    names: list = []
    real = build._build_module

    def noting(text, file, limits):
        names.append(file)
        return real(text, file, limits)
    monkeypatch.setattr(build, "_build_module", noting)
    return names


def _tree_entries(folder: Path) -> list[str]:
    out = []
    for path in folder.glob("code-*.cache"):
        _, entries = marshal.loads(path.read_bytes())
        out += [filename for _, filename, mode, _ in entries if mode.startswith("tree ")]
    return sorted(out)


def test_every_tree_of_the_repository_is_rebuilt_equal():
    rebuilt = 0
    for path in ALL_RULES:
        try:
            tree = build._build_module(path.read_text(encoding="utf-8"), str(path), regnum.Limits())
        except RulesetError:   # the files of broken rulesets the tests read
            continue
        source = treecode.source_of(tree)
        again = treecode.rebuilt(compile(source, "<test>", "exec"))
        assert again == tree and again is not tree, path
        rebuilt += 1
    assert rebuilt >= 80


def test_a_tree_of_anything_else_is_not_written():
    tree = build.build_module('game g "G"\nplayers 2..2\nflow:\n    pass\n', "g.rules")
    odd = type(tree)(tree.file, list(tree.decls))   # a list where the builder makes tuples
    assert treecode.source_of(odd) is None
    assert treecode.rebuilt(compile("def _tree():\n    return 1\n", "<test>", "exec")) is None
    assert treecode.rebuilt(compile("def _tree():\n    return open\n", "<test>", "exec")) is None


def test_a_chain_as_deep_as_the_builder_allows_is_written_flat(tmp_path):
    chain = " + ".join(["1"] * 190)
    tree = build.build_module(f'game g "G"\nplayers 2..2\nvar n: int = 0\nflow:\n    set n = {chain}\n', "deep.rules")
    source = treecode.source_of(tree)
    assert max(line.count("(") for line in source.splitlines()) <= 2
    assert treecode.rebuilt(compile(source, "<test>", "exec")) == tree


def test_a_second_load_rebuilds_every_file_it_read(folder, parsed, monkeypatch):
    first = regnum.load("kings_road")
    assert parsed == ["rulesets/kings_road.rules", "stdlib/majority.rules"]
    assert _tree_entries(folder) == ["<regnum tree rulesets/kings_road.rules>", "<regnum tree stdlib/majority.rules>"]
    _again(monkeypatch)
    second = regnum.load("kings_road")
    assert parsed == ["rulesets/kings_road.rules", "stdlib/majority.rules"]   # nothing parsed again
    assert second.program.decls.keys() == first.program.decls.keys()
    games = [[agents.play_random_game(rules, 4, seed).to_json() for seed in (1, 2)] for rules in (first, second)]
    assert games[0] == games[1]


def test_a_variant_keeps_its_base_and_imports_in_its_own_file(folder, parsed, monkeypatch):
    regnum.load("permanent_nobles")
    assert _tree_entries(folder) == ["<regnum tree rulesets/kings_road.rules>",
                                     "<regnum tree rulesets/variants/permanent_nobles.rules>",
                                     "<regnum tree stdlib/majority.rules>"]
    _again(monkeypatch)
    parsed.clear()
    regnum.load("permanent_nobles")
    assert parsed == []


def test_messages_quote_the_lines_of_a_rebuilt_file(folder, tmp_path, monkeypatch, parsed):
    path = tmp_path / "tiny.rules"
    path.write_text('game tiny "Tiny"\nplayers 2..2\nvar n: int = 0\nflow:\n    set n = [1][n + 5]\n')
    messages = []
    for _ in range(2):
        with pytest.raises(RulesetError) as err:
            regnum.load(str(path)).new_game(players=2, seed=1)
        messages.append(str(err.value))
        _again(monkeypatch)
    assert len(parsed) == 1
    assert messages[0] == messages[1] and "set n = [1][n + 5]" in messages[1] and "5 |" in messages[1]


def test_a_ruleset_with_errors_keeps_nothing(folder, tmp_path):
    path = tmp_path / "broken.rules"
    path.write_text('game broken "Broken"\nplayers 2..2\nflow:\n    set nothing = 1\n')
    with pytest.raises(RulesetError):
        regnum.load(str(path))
    assert list(folder.glob("code-*.cache")) == []


def test_a_stale_or_damaged_tree_is_parsed_again(folder, parsed, monkeypatch):
    first = regnum.load("kings_kilt")
    [path] = folder.glob("code-*.cache")
    key, entries = marshal.loads(path.read_bytes())
    wrong = compile("def _tree():\n    return (1, 2)\n", "<test>", "exec")
    path.write_bytes(marshal.dumps((key, [(s, f, m, wrong if m.startswith("tree ") else c)
                                          for s, f, m, c in entries])))
    _again(monkeypatch)
    parsed.clear()
    again = regnum.load("kings_kilt")
    assert parsed == ["rulesets/kings_kilt.rules", "stdlib/seats.rules", "stdlib/decks.rules"]
    assert agents.play_random_game(again, 3, 1).to_json() == agents.play_random_game(first, 3, 1).to_json()


def test_trees_of_other_builders_are_not_used(folder, parsed, monkeypatch):
    regnum.load("kings_road")
    _again(monkeypatch)
    monkeypatch.setattr(treecode, "digest", lambda: "another-grammar")
    parsed.clear()
    regnum.load("kings_road")
    assert parsed == ["rulesets/kings_road.rules", "stdlib/majority.rules"]


def test_without_a_cache_folder_every_load_parses_and_writes_no_tree(monkeypatch, parsed):
    monkeypatch.setenv(diskcache.CACHE_ENV, "off")
    written = []
    real = treecode.source_of
    monkeypatch.setattr(treecode, "source_of", lambda tree: written.append(tree.file) or real(tree))
    for _ in range(2):
        _again(monkeypatch)
        regnum.load("kings_road")
    assert parsed == ["rulesets/kings_road.rules", "stdlib/majority.rules"] * 2
    assert written == []   # nowhere to keep it: not even written
    codecache.forget_in_process()


def test_a_file_too_large_to_keep_is_parsed_each_time(folder, parsed, monkeypatch, tmp_path):
    text = Path(regnum.resources.find_ruleset("kings_road", [])).read_text(encoding="utf-8")
    monkeypatch.setattr(treecode, "MAX_TEXT", len(text) - 1)
    regnum.load("kings_road")
    assert _tree_entries(folder) == ["<regnum tree stdlib/majority.rules>"]
    _again(monkeypatch)
    regnum.load("kings_road")
    assert parsed == ["rulesets/kings_road.rules", "stdlib/majority.rules", "rulesets/kings_road.rules"]


def test_outside_a_load_nothing_is_kept(folder, parsed):
    build.build_module('game g "G"\nplayers 2..2\nflow:\n    pass\n', "alone.rules")
    assert parsed == ["alone.rules"] and list(folder.glob("code-*.cache")) == []


def test_a_second_process_parses_nothing_nor_imports_lark(folder):
    script = textwrap.dedent("""\
        import json, sys, regnum
        from regnum import agents, build
        parsed = []
        real = build._build_module
        def noting(text, file, limits):
            parsed.append(file)
            return real(text, file, limits)
        build._build_module = noting
        rules = regnum.load('kingdom_builder')
        game = agents.play_random_game(rules, 4, 3).to_json()
        print(json.dumps([parsed, game, "lark" in sys.modules]))
        """)
    env = dict(os.environ, **{diskcache.CACHE_ENV: str(folder)})
    runs = [json.loads(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                      env=env, check=True).stdout) for _ in range(2)]
    assert runs[0][0] == ["rulesets/kingdom_builder.rules", "stdlib/seats.rules", "stdlib/decks.rules",
                          "stdlib/majority.rules"]
    assert runs[1][0] == [] and runs[1][1] == runs[0][1]
    assert runs[0][2] is True and runs[1][2] is False   # Lark is imported to parse, and only then


def test_the_digest_reads_every_module_that_makes_the_nodes():
    """A tree kept is rebuilt by calling the node classes: the modules that make them (ast.py
    and `records.record`, which writes their `__init__`) and those build.py and treecode.py
    read are builders, so a change to any is another key; so is parse.py, which build.py
    imports when a text is first parsed. `loading` is not: it says where trees are kept, not
    what they are."""
    import types

    from regnum import ast

    def read_by(module) -> set:
        names = set()
        for value in vars(module).values():
            name = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__", None)
            if isinstance(name, str) and name.startswith("regnum."):
                names.add(name.removeprefix("regnum."))
        return names

    build._parsing()   # build.py's names of parse.py, as once a text was parsed
    assert read_by(ast) | read_by(treecode) | read_by(build) == set(treecode._BUILDERS) | {"loading"}
