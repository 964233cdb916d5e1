"""Large and deep rulesets: read in linear time, and every size limit a located error.

Issue 7: 20,000 unused constants took 33 s to check (each warning split the file into
lines again), a 5 MB ruleset minutes and gigabytes, and 300 nested `if` blocks ended in
"maximum recursion depth exceeded". No timing is asserted (machines are noisy): what is
checked is the structure that makes the time linear, and the exact diagnostics.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import regnum
from regnum import parse, source
from regnum.limits import Limits

ROOT = Path(__file__).resolve().parents[2]
HEAD = 'game deep "Deep"\nplayers 2..4\nvar total: int = 0\n'
NESTING_MESSAGE = ("blocks and expressions nest more than 200 deep here; move inner parts into a "
                   "rule, a def or a let")
NESTING_HINT = "limit 'nesting' is 200; raise it with --limit nesting=N or regnum.Limits(nesting=N)"


def _generator():
    spec = importlib.util.spec_from_file_location("big_ruleset", ROOT / "benchmarks" / "big_ruleset.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write(tmp_path: Path, text: str, name: str = "big.rules") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _refusal(path: str, limits: Limits | None = None) -> list:
    with pytest.raises(regnum.RulesetError) as caught:
        regnum.load(path, limits=limits)
    return caught.value.diagnostics


def _nested_ifs(depth: int, indent: str = "    ") -> str:
    lines = [indent * (k + 1) + "if total > 0:" for k in range(depth)]
    return HEAD + "flow:\n" + "\n".join(lines) + "\n" + indent * (depth + 1) + "add 1 to total\n"


# ── size: a generated ruleset of every kind of declaration ──

def test_a_generated_ruleset_of_300_kb_checks_splitting_each_file_once(tmp_path, monkeypatch):
    text = _generator().ruleset(300_000)
    assert 290_000 < len(text.encode()) <= 300_000
    path = _write(tmp_path, text)
    splits: list[int] = []
    real = source._split
    monkeypatch.setattr(source, "_split", lambda t: splits.append(len(t)) or real(t))
    ruleset = regnum.load(path)
    sections = text.count("# ── section ")
    assert sections == 180
    assert len(ruleset.warnings) == 2 * sections + sections // 10   # c{i}_6, c{i}_unused, long{i}
    assert {d.code for d in ruleset.warnings} == {"W401"}
    assert len(splits) == 1 and splits[0] == len(text)                   # one split, many warnings
    assert [len(source.SourceRegistry.line(d.span.file, d.span.line)) > 0 for d in ruleset.warnings[:3]] == [True] * 3


def test_the_generator_writes_a_file_of_the_size_asked(tmp_path):
    out = tmp_path / "g.rules"
    assert _generator().main([str(out), "50KB"]) == 0
    assert 49_000 < out.stat().st_size <= 50_000


def test_twenty_thousand_unused_constants_are_each_reported(tmp_path):
    text = HEAD + "".join(f"const c{i} = {i}\n" for i in range(20_000)) + "flow:\n    add 1 to total\n"
    warnings = regnum.load(_write(tmp_path, text)).warnings
    assert len(warnings) == 20_000
    assert str(warnings[-1].span) == f"{tmp_path / 'big.rules'}:20003:7"
    assert warnings[-1].render().splitlines()[1] == " 20003 | const c19999 = 19999"


def test_thousands_of_unknown_names_are_each_an_error_and_hints_stop(tmp_path):
    text = HEAD + "".join(f"const c{i} = c{i}x\n" for i in range(3_000)) + "flow:\n    add 1 to total\n"
    errors = [d for d in _refusal(_write(tmp_path, text)) if d.is_error]
    assert [d.code for d in errors] == ["E101"] * 3_000
    assert (errors[0].message, errors[0].hint) == ("unknown name 'c0x'", "did you mean 'c0'?")
    assert errors[-1].hint is None   # suggestions are bounded: each compares with every name


def test_chains_of_thousands_of_defs_and_rules_load(tmp_path):
    defs = "def d0() = 1\n" + "".join(f"def d{i}() = d{i - 1}() + 1\n" for i in range(1, 5_000))
    rules = "rule r0:\n    add 1 to total\n" + "".join(f"rule r{i}:\n    run r{i - 1}\n" for i in range(1, 5_000))
    text = HEAD + defs + rules + "flow:\n    add d4999() to total\n    run r4999\n"
    ruleset = regnum.load(_write(tmp_path, text))
    assert ruleset.warnings == []


def test_a_cycle_among_thousands_of_defs_is_reported_once(tmp_path):
    defs = "".join(f"def d{i}() = d{(i + 1) % 3_000}() + 1\n" for i in range(3_000))
    text = HEAD + defs + "flow:\n    add d0() to total\n"
    errors = [d for d in _refusal(_write(tmp_path, text)) if d.is_error]
    assert [d.code for d in errors] == ["E305"]
    assert errors[0].message.startswith("definition 'd0' calls itself through 'd1', 'd2', ")


def test_error_recovery_reparses_about_the_file_once_more(tmp_path, monkeypatch):
    monkeypatch.setattr(parse, "RECOVERY_BYTES", 1_000)
    text = HEAD + "".join(f"const d{i} = {i}\n" for i in range(2_000)) + \
        "".join(f"const c{i} = = 1\n" for i in range(25)) + "flow:\n    add 1 to total\n"
    errors = _refusal(_write(tmp_path, text))
    assert [(d.code, d.span.line) for d in errors] == [("E001", 2004), ("E001", 2005)]


# ── nesting ──

def test_300_nested_if_blocks_are_a_located_e005(tmp_path):
    path = _write(tmp_path, _nested_ifs(300))
    [error] = _refusal(path)
    assert (error.code, error.message, error.hint) == ("E005", NESTING_MESSAGE, NESTING_HINT)
    assert str(error.span) == f"{path}:205:805"        # the 201st if, at its first column


def test_blocks_nested_to_the_limit_load(tmp_path):
    # 198 ifs in the flow: the innermost statement is 199 deep and its expression 200
    regnum.load(_write(tmp_path, _nested_ifs(198)))
    regnum.load(_write(tmp_path, _nested_ifs(600, " "), "raised.rules"), limits=Limits(nesting=700))


def test_thousands_of_nested_blocks_stop_at_the_limit(tmp_path):
    path = _write(tmp_path, _nested_ifs(2_500, " "))  # one column per level: 3 MB
    [error] = _refusal(path)
    assert (error.code, error.message, str(error.span)) == ("E005", NESTING_MESSAGE, f"{path}:205:202")


@pytest.mark.parametrize("open_, close", [("[", "]"), ("f(", ")"), ("not ", ""), ("- ", "")])
def test_10000_nested_expressions_are_a_located_e005(tmp_path, open_, close):
    depth = 10_000
    value = open_ * depth + "1" + close * depth
    path = _write(tmp_path, HEAD + "def f(x) = x\nflow:\n    let v = " + value + "\n")
    [error] = _refusal(path)
    assert (error.code, error.message, error.hint) == ("E005", NESTING_MESSAGE, NESTING_HINT)
    # the let is at level 1 and its value at 2: the 200th bracket is the first past the limit
    assert str(error.span) == f"{path}:6:{13 + 199 * len(open_)}"


def test_a_flat_chain_of_10000_terms_is_the_compilers_e005(tmp_path):
    path = _write(tmp_path, HEAD + "flow:\n    set total = " + " + ".join(["total"] * 10_000) + "\n")
    [error] = _refusal(path)
    assert (error.code, error.message, error.hint) == (
        "E005", "this expression is nested too deeply to compile; split it with let or def", None)
    assert str(error.span) == f"{path}:5:17"


def test_parentheses_alone_do_not_nest(tmp_path):
    regnum.load(_write(tmp_path, HEAD + "flow:\n    set total = " + "(" * 5_000 + "total" + ")" * 5_000 + "\n"))


# ── size limits ──

def test_a_ruleset_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    path = _write(tmp_path, HEAD + "flow:\n    add 1 to total\n" + "#" * 2_000 + "\n")
    [error] = _refusal(path, Limits(ruleset_bytes=1_000))
    assert (error.code, error.message, str(error.span)) == (
        "E010", "the ruleset is 2_075 bytes long: too large to read", f"{path}:1:1")
    assert error.hint == ("limit 'ruleset_bytes' is 1_000; raise it with --limit ruleset_bytes=N "
                          "or regnum.Limits(ruleset_bytes=N)")


def test_a_file_that_reports_no_size_is_read_no_further_than_the_limit(tmp_path, monkeypatch):
    path = _write(tmp_path, HEAD + "flow:\n    add 1 to total\n" + "#" * 2_000 + "\n")
    real_stat = Path.stat

    class NoSize:   # as /proc files: a size of 0 whatever they hold
        def __init__(self, stat):
            self.st_size, self.st_mode = 0, stat.st_mode

    monkeypatch.setattr(Path, "stat", lambda self, **kw: NoSize(real_stat(self, **kw)))
    [error] = _refusal(path, Limits(ruleset_bytes=1_000))
    assert (error.code, error.message) == ("E010", "the ruleset is longer than 1_000 bytes: too large to read")


def test_a_variant_base_over_the_size_limit_is_reported_at_the_variant(tmp_path):
    _write(tmp_path, HEAD + "flow:\n    add 1 to total\n" + "#" * 2_000 + "\n", "base.rules")
    variant = _write(tmp_path, 'variant small of "base.rules"\nconst extra = 1\n', "small.rules")
    [error] = _refusal(variant, Limits(ruleset_bytes=1_000))
    assert (error.code, error.message, str(error.span)) == (
        "E010", "the ruleset 'base.rules' is 2_075 bytes long: too large to read", f"{variant}:1:1")


def test_too_many_declarations_are_refused_at_the_first_past_the_limit(tmp_path):
    text = HEAD + "".join(f"const c{i} = {i}\n" for i in range(60)) + "flow:\n    add c0 to total\n"
    path = _write(tmp_path, text)
    [error] = _refusal(path, Limits(declarations=50))
    # game, players and total are three: c47 is the 51st, on line 51 (the rest is not parsed)
    assert (error.code, error.message, str(error.span)) == (
        "E011", "the ruleset has more than 50 declarations: too many to check", f"{path}:51:1")
    assert error.hint == ("limit 'declarations' is 50; raise it with --limit declarations=N "
                          "or regnum.Limits(declarations=N)")


@pytest.mark.parametrize("name, value, text", [
    ("ruleset_bytes", 500, HEAD + "flow:\n    add 1 to total\n" + "#" * 600 + "\n"),
    ("declarations", 10, HEAD + "".join(f"const c{i} = {i}\n" for i in range(20)) + "flow:\n    pass\n"),
    ("nesting", 5, _nested_ifs(10)),
    ("nesting", 5, HEAD + "flow:\n    let v = [[[[[[[[1]]]]]]]]\n"),
])
def test_every_reading_limit_is_located_and_names_its_value(tmp_path, name, value, text):
    path = _write(tmp_path, text)
    [error] = _refusal(path, Limits(**{name: value}))
    assert error.span.file == path and error.span.line >= 1 and error.span.column >= 1
    assert error.hint == f"limit '{name}' is {value}; raise it with --limit {name}=N or regnum.Limits({name}=N)"
    assert str(error.span) in error.render().splitlines()[0]


def test_each_declaration_is_handed_over_as_soon_as_it_is_parsed():
    """So the Lark tree of a whole file never exists at once (its memory is 150 times the text)."""
    seen: list = []

    def built(tree):
        seen.append(tree.data)
        return len(seen)

    tree = parse.parse_text('game g "G"\nplayers 2..2\nconst a = {x: "{y}"}\nflow:\n    pass\n', "hand.rules",
                            on_declaration=built)
    assert seen == ["game_decl", "players_decl", "const_decl", "flow_decl"]
    assert tree.children == [1, 2, 3, 4]


def test_declarations_are_counted_with_the_variant_base(tmp_path):
    _write(tmp_path, HEAD + "".join(f"const c{i} = {i}\n" for i in range(30)) + "flow:\n    pass\n",
           "base.rules")
    variant = _write(tmp_path, 'variant more of "base.rules"\n' + "".join(
        f"const d{i} = {i}\n" for i in range(30)) + "", "more.rules")
    [error] = _refusal(variant, Limits(declarations=50))
    # the base holds 34 (game, players, total, c0…c29, flow): with d0…d15 that is 50, and d16
    # (line 18) is the 51st
    assert (error.code, error.message, str(error.span)) == (
        "E011", "the ruleset has 64 declarations with its imports and base: too many to check",
        f"{variant}:18:7")


def test_declarations_are_not_counted_twice_when_the_file_is_parsed_again(tmp_path):
    text = HEAD + "".join(f"const c{i} = {i}\n" for i in range(40)) + "const bad = = 1\nflow:\n    pass\n"
    [error] = _refusal(_write(tmp_path, text), Limits(declarations=50))
    assert (error.code, error.span.line) == ("E001", 44)
