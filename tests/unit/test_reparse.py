"""A file's tree after an edit made from its earlier tree (reparse.py): only the declarations
the edit touched are parsed again, the tree is the one parsing the whole text gives, and any
edit it cannot read so is parsed whole, with the messages a whole parse gives."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import regnum
from regnum import build, reparse
from regnum.diagnostics import RulesetError
from regnum.limits import Limits

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate", "permanent_nobles", "recruit"]
LIMITS = Limits()

TOY = '''# a toy
# for the tests

game toy "Toy"
players 2..2

const a = 1
const b = [1,
    2]

var n: int = 0

flow:
    set n = a + 1
    set n = n + b[0]

const c = 3
'''


@pytest.fixture
def verify(monkeypatch):
    monkeypatch.setattr(reparse, "VERIFY", True)   # every tree made so is compared with a whole parse


def _tree(text: str, file: str = "toy.rules") -> regnum.ast.Module:
    return build._build_module(text, file, LIMITS)


def _rebuilt(earlier: str, text: str, file: str = "toy.rules", limits=LIMITS):
    runs: list[str] = []

    def alone(run):
        runs.append(run)
        return build._build_module(run, file, limits)
    return reparse.rebuilt(text, earlier, _tree(earlier, file), file, limits, alone), runs


def _edits(text: str, rng: random.Random):
    """Edits of every kind at random lines: what an author types, and what breaks a file."""
    lines = text.split("\n")
    for kind in ("comment", "blank", "delete", "twice", "indented", "character", "declaration",
                 "backslash", "two places"):
        new = list(lines)
        i, j = rng.randrange(len(new)), rng.randrange(len(new))
        if kind == "comment":
            new.insert(i, "# a comment")
        elif kind == "blank":
            new.insert(i, "")
        elif kind == "delete":
            del new[i]
        elif kind == "twice":
            new.insert(i, new[i])
        elif kind == "indented":
            new.insert(i, "    pass")
        elif kind == "character" and new[i]:
            at = rng.randrange(len(new[i]))
            new[i] = new[i][:at] + rng.choice('xa1 ("#') + new[i][at + 1:]
        elif kind == "declaration":
            new.insert(i, "const added_here = 3")
        elif kind == "backslash":
            new[i] += " \\"
        elif kind == "two places":
            new.insert(max(i, j), "# here")
            new.insert(min(i, j), "# and there")
        yield kind, "\n".join(new)


@pytest.mark.parametrize("name", GAMES)
def test_every_kind_of_edit_gives_the_tree_of_a_whole_parse_or_nothing(name, verify):
    path = Path(regnum.resources.find_ruleset(name, ()))
    text = path.read_text(encoding="utf-8")
    rng = random.Random(name)
    made = 0
    for kind, edited in _edits(text, rng):
        try:
            whole = _tree(edited, str(path))
        except RulesetError:
            whole = None
        module, _ = _rebuilt(text, edited, str(path))
        assert module is None or module == whole, kind   # VERIFY compared it too
        made += module is not None
    assert made >= 4


def test_only_the_declarations_around_the_edit_are_parsed():
    edited = TOY.replace("set n = a + 1", "set n = a + 2")
    module, runs = _rebuilt(TOY, edited)
    assert module == _tree(edited)
    assert runs == ["\n" * 10 + "var n: int = 0\n\nflow:\n    set n = a + 2\n    set n = n + b[0]\n\nconst c = 3\n"]


def test_the_declarations_after_an_added_line_move_with_it():
    edited = TOY.replace("const a = 1\n", "const a = 1\n# a comment\n# and another\n")
    module, runs = _rebuilt(TOY, edited)
    assert module == _tree(edited)
    assert runs == ["\n" * 6 + "const a = 1\n# a comment\n# and another\nconst b = [1,\n    2]\n\nvar n: int = 0\n\n"]
    assert [(d.span.line, d.span.end_line) for d in module.decls] == [(4, 5), (5, 7), (7, 10), (10, 13), (13, 15),
                                                                      (15, 19), (19, 20)]
    flow = module.decls[-2]
    assert [stmt.span.line for stmt in flow.body] == [16, 17]   # moved, not parsed: two lines further


def test_an_indented_line_at_a_declarations_start_joins_the_one_before(verify):
    edited = TOY.replace("const c = 3", "    set n = 5\nconst c = 3")
    module, _ = _rebuilt(TOY, edited)
    assert module == _tree(edited)
    assert len(module.decls[-2].body) == 3 and len(module.decls) == len(_tree(TOY).decls)


@pytest.mark.parametrize("edited", [
    TOY.replace("set n = a + 1", "set n = a +"),                          # a syntax error
    TOY.replace("const c = 3", "const c = (3"),                           # a bracket left open at the end
    TOY.replace("flow:", "flow"),                                         # a header broken
])
def test_an_edit_that_does_not_parse_is_left_to_a_whole_parse(edited):
    module, runs = _rebuilt(TOY, edited)
    assert module is None and len(runs) == 1
    with pytest.raises(RulesetError):
        _tree(edited)


def test_a_file_past_the_limit_of_declarations_is_left_to_a_whole_parse():
    limits = Limits(declarations=9)
    edited = TOY.replace("const c = 3", "const c = 3\nconst d = 4\nconst e = 5\nconst f = 6")
    module, runs = _rebuilt(TOY, edited, limits=limits)
    assert module is None and len(runs) == 1
    with pytest.raises(RulesetError) as refused:
        build._build_module(edited, "toy.rules", limits)
    assert [d.code for d in refused.value.diagnostics] == ["E011"]


def test_the_header_and_the_end_of_a_file_are_edited_too(verify):
    for edited in (TOY.replace("# for the tests", "# for the tests, edited"), TOY + "const d = 4\n",
                   TOY.rstrip("\n"), "# new first line\n" + TOY, "const first = 1\n" + TOY,
                   TOY.replace("# a toy\n", "# a toy\nconst first = 1\n")):
        module, _ = _rebuilt(TOY, edited)
        assert module == _tree(edited), edited


def test_a_load_after_an_edit_parses_the_run_alone_and_reports_where_the_mistake_now_stands(tmp_path, monkeypatch):
    monkeypatch.setenv("REGNUM_CACHE_DIR", str(tmp_path / "cache"))
    regnum.compiler.codecache.forget_in_process()
    path = tmp_path / "toy.rules"
    path.write_text(TOY, encoding="utf-8")
    regnum.load(path)
    parsed: list[str] = []
    real = build._build_module
    monkeypatch.setattr(build, "_build_module", lambda text, file, limits: parsed.append(text) or real(text, file, limits))
    monkeypatch.setattr(build, "_BUILT", type(build._BUILT)())   # as a new process: the tree from the cache
    regnum.compiler.codecache.forget_in_process()
    path.write_text(TOY.replace("var n: int = 0\n", "var n: int = 0\n\n# moved\n").replace("set n = a + 1", "set n = zz"),
                    encoding="utf-8")
    with pytest.raises(RulesetError) as refused:
        regnum.load(path)
    assert parsed == ["\n" * 10 + "var n: int = 0\n\n# moved\n\nflow:\n    set n = zz\n    set n = n + b[0]\n\n"
                      "const c = 3\n"]   # the flow, edited, and a declaration on each side
    [mistake] = [d for d in refused.value.diagnostics if d.is_error]
    assert (mistake.code, mistake.span.line, mistake.span.column) == ("E101", 16, 13)
    assert "16 |     set n = zz" in str(refused.value)   # the line quoted is the edited text's
    from regnum.source import SourceRegistry
    assert SourceRegistry.line(str(path), 4) == 'game toy "Toy"'   # every line of it: the run's and the rest
    regnum.compiler.codecache.forget_in_process()


def test_without_an_earlier_tree_the_whole_text_is_parsed(tmp_path, monkeypatch):
    monkeypatch.setenv("REGNUM_CACHE_DIR", "off")
    monkeypatch.setattr(build, "_BUILT", type(build._BUILT)())
    parsed: list[str] = []
    real = build._build_module
    monkeypatch.setattr(build, "_build_module", lambda text, file, limits: parsed.append(text) or real(text, file, limits))
    build.build_module(TOY, "a.rules")
    build.build_module(TOY.replace("const c = 3", "const c = 4"), "b.rules")   # another file: nothing earlier
    build.build_module(TOY.replace("const c = 3", "const c = 5"), "a.rules", Limits(steps=7))   # other limits
    assert parsed == [TOY, TOY.replace("const c = 3", "const c = 4"), TOY.replace("const c = 3", "const c = 5")]
    build.build_module(TOY.replace("const c = 3", "const c = 6"), "a.rules")   # the same file and limits
    assert parsed[-1] == "\n" * 12 + "flow:\n    set n = a + 1\n    set n = n + b[0]\n\nconst c = 6\n"


def test_the_earlier_tree_kept_is_the_files_own(tmp_path, monkeypatch):
    monkeypatch.setenv("REGNUM_CACHE_DIR", str(tmp_path / "cache"))
    from regnum.compiler import codecache
    cache = codecache.CodeCache(("a test's",))
    other = TOY.replace("const c = 3", "const c = 30")
    for text, file in ((TOY, "other.rules"), (other, "toy.rules")):   # another file's first, with the same lines
        cache.keep_tree(text, file, _tree(text, file))
    [(_, _, mode)] = [key for key in cache.used if key[1] == "<regnum tree toy.rules>"]
    stale = TOY.replace("const c = 3", "const c = 300")   # kept by another builder: never used
    cache.known = {(stale, "<regnum tree toy.rules>", "tree another-builder"): cache.used[(other, "<regnum tree toy.rules>", mode)],
                   **cache.used}
    earlier, tree = cache.earlier_tree(TOY, "toy.rules")
    assert (earlier, tree) == (other, _tree(other, "toy.rules"))
    assert cache.earlier_tree(TOY, "third.rules") is None


def test_a_file_of_crlf_lines_is_read_alike(verify):
    crlf = TOY.replace("\n", "\r\n")
    edited = crlf.replace("const a = 1\r\n", "const a = 1\r\n# moved\r\n").replace("set n = a + 1", "set n = a + 9")
    module, _ = _rebuilt(crlf, edited)
    assert module == _tree(edited) and [d.span.line for d in module.decls][-2:] == [14, 18]
