"""Confinement (issue 7): a variant's base, a data file and the ruleset itself are read only from
`.rules` (or JSON/YAML) files inside the allowed folders — the file's own folder and below, the
rules path, the bundled rulesets — and a refused file's content is never shown.

Each case writes a file with a recognisable secret line outside the variant's folder and checks
that the line appears in no message.
"""
from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

import regnum
from regnum import resources
from regnum.diagnostics import render_all

SECRET = "SECRET-LINE-7f3a: hunter2"
BASE = """\
game atlas "Atlas"
players 2..2
const goal = 3
flow:
    announce "goal {goal}"
"""
BASE_HINT = ("a base is a bundled ruleset (variant NAME of kings_road) or a .rules file in the "
             "variant's folder or below it, or in a folder of --rules-path or REGNUM_RULES_PATH")


@pytest.fixture(autouse=True)
def no_rules_path_from_outside(monkeypatch):
    monkeypatch.delenv("REGNUM_RULES_PATH", raising=False)


@pytest.fixture()
def tree(tmp_path):
    """tmp/secret.rules and tmp/secret.txt (outside), tmp/game/ for the variant, tmp/bases/atlas.rules."""
    (tmp_path / "secret.rules").write_text(SECRET + "\n", encoding="utf-8")
    (tmp_path / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    (tmp_path / "game").mkdir()
    (tmp_path / "bases").mkdir()
    (tmp_path / "bases" / "atlas.rules").write_text(BASE, encoding="utf-8")
    return tmp_path


def variant(tree: Path, base: str, name: str = "v.rules", body: str = "const goal = 5\n") -> Path:
    path = tree / "game" / name
    path.write_text(f"variant v of {base}\n{body}", encoding="utf-8")
    return path


def refusal(path, **kwargs) -> tuple[regnum.Diagnostic, str]:
    with pytest.raises(regnum.RulesetError) as caught:
        regnum.load(path, **kwargs)
    text = str(caught.value) + render_all(caught.value.diagnostics)
    assert SECRET not in text and "hunter2" not in text and "root:" not in text
    (diagnostic,) = caught.value.diagnostics
    return diagnostic, text


# ── the base of a variant ──

@pytest.mark.parametrize("base", ['"/etc/passwd"', '"../../../../etc/passwd"', '"/proc/self/environ"',
                                  '"../secret.txt"'])
def test_a_base_that_is_not_a_rules_file_is_refused_unread(tree, base):
    diagnostic, text = refusal(variant(tree, base))
    written = base.strip('"')
    assert (diagnostic.code, diagnostic.message, diagnostic.hint) == (
        "E507", f"variant base '{written}' is not a ruleset file (.rules)", BASE_HINT)
    assert (diagnostic.span.line, diagnostic.span.column, diagnostic.span.end_column) == (1, 14, 14 + len(base))
    assert f' 1 | variant v of {base}\n   |              {"^" * len(base)}' in text


@pytest.mark.parametrize("base", ['"../secret.rules"', '"../../../../../../../../tmp/elsewhere.rules"'])
def test_a_base_outside_the_variants_folder_is_refused(tree, base):
    diagnostic, _ = refusal(variant(tree, base))
    assert (diagnostic.code, diagnostic.message) == (
        "E507", f"variant base '{base.strip(chr(34))}' is outside the variant's folder and the rules path")


def test_an_absolute_base_outside_is_refused(tree):
    diagnostic, _ = refusal(variant(tree, f'"{tree / "secret.rules"}"'))
    assert (diagnostic.code, diagnostic.message) == (
        "E507", f"variant base '{tree / 'secret.rules'}' is outside the variant's folder and the rules path")


def test_a_link_inside_the_folder_that_points_outside_is_refused(tree):
    (tree / "game" / "link.rules").symlink_to(tree / "secret.rules")
    diagnostic, _ = refusal(variant(tree, '"link.rules"'))
    assert (diagnostic.code, diagnostic.message) == (
        "E507", "variant base 'link.rules' is outside the variant's folder and the rules path "
                f"(it is a link to {(tree / 'secret.rules').resolve()})")


def test_a_link_named_rules_to_a_file_of_another_kind_is_refused(tree):
    (tree / "game" / "notes.txt").write_text(SECRET + "\n", encoding="utf-8")
    (tree / "game" / "base.rules").symlink_to(tree / "game" / "notes.txt")
    diagnostic, _ = refusal(variant(tree, '"base.rules"'))
    assert (diagnostic.code, diagnostic.message) == (
        "E507", f"variant base 'base.rules' leads to {(tree / 'game' / 'notes.txt').resolve()}, "
                "which is not a ruleset file (.rules)")


def test_a_base_without_the_rules_suffix_is_refused_even_beside_the_variant(tree):
    (tree / "game" / "base.txt").write_text(BASE, encoding="utf-8")
    diagnostic, _ = refusal(variant(tree, '"base.txt"'))
    assert (diagnostic.code, diagnostic.message) == ("E507", "variant base 'base.txt' is not a ruleset file (.rules)")


def test_a_link_inside_the_folder_to_a_ruleset_inside_is_followed(tree):
    (tree / "game" / "lib").mkdir()
    shutil.copy(tree / "bases" / "atlas.rules", tree / "game" / "lib" / "atlas.rules")
    (tree / "game" / "atlas.rules").symlink_to(tree / "game" / "lib" / "atlas.rules")
    assert regnum.load(variant(tree, '"atlas.rules"')).variant == "v"


def test_a_base_found_nowhere_says_where_it_looked(tree):
    diagnostic, _ = refusal(variant(tree, '"atlas.rules"'))
    assert (diagnostic.code, diagnostic.message, diagnostic.hint) == (
        "E503", "variant base 'atlas.rules' not found",
        f"looked in {(tree / 'game').resolve()} and the bundled rulesets; add a folder with --rules-path "
        "or REGNUM_RULES_PATH")


def test_a_base_found_through_the_rules_path(tree):
    rules = regnum.load(variant(tree, '"atlas.rules"'), rules_path=[tree / "bases"])
    assert (rules.name, rules.variant, rules.rules_path) == ("atlas", "v", ((tree / "bases").resolve(),))
    assert regnum.load(variant(tree, "atlas"), rules_path=[str(tree / "bases")]).variant == "v"


def test_a_base_found_through_the_environment_variable(tree, monkeypatch):
    monkeypatch.setenv("REGNUM_RULES_PATH", os.pathsep.join([str(tree / "nowhere"), str(tree / "bases")]))
    assert regnum.load(variant(tree, '"atlas.rules"')).variant == "v"
    assert regnum.load(variant(tree, "atlas")).variant == "v"


def test_the_rules_path_lets_a_base_in_but_not_its_neighbours(tree):
    diagnostic, _ = refusal(variant(tree, '"../secret.rules"'), rules_path=[tree / "bases"])
    assert diagnostic.message == "variant base '../secret.rules' is outside the variant's folder and the rules path"


def test_a_rules_path_that_is_not_a_folder_is_an_error(tree):
    with pytest.raises(ValueError, match=r"rules path: .*nowhere is not a folder"):
        regnum.load(variant(tree, "kings_road"), rules_path=[tree / "nowhere"])


def test_a_bare_name_is_a_bundled_ruleset(tree):
    rules = regnum.load(variant(tree, "kings_road", body=""))
    assert (rules.name, rules.variant) == ("kings_road", "v")
    quoted = regnum.load(variant(tree, '"kings_road"', name="q.rules"))
    assert quoted.name == "kings_road"


def test_a_bare_name_not_bundled_is_not_found_with_a_suggestion(tree):
    diagnostic, _ = refusal(variant(tree, "kings_raod"))
    assert (diagnostic.code, diagnostic.message, diagnostic.hint) == (
        "E503", "variant base 'kings_raod' not found", "did you mean 'kings_road'?")


def test_the_bundled_variant_still_finds_its_base_by_path():
    rules = regnum.load("permanent_nobles")
    assert (rules.name, rules.variant) == ("kings_road", "permanent_nobles")


# ── the ruleset itself ──

@pytest.mark.parametrize("name", ["/etc/passwd", "/proc/self/environ"])
def test_a_file_that_is_not_a_rules_file_is_never_loaded(name):
    with pytest.raises(regnum.RulesetError) as caught:
        regnum.load(name)
    assert str(caught.value) == f"{name}: error[E000]: {name} is not a ruleset file (.rules)"


def test_a_local_file_of_another_suffix_and_a_link_to_it_are_refused(tree):
    with pytest.raises(regnum.RulesetError) as caught:
        regnum.load(tree / "secret.txt")
    assert caught.value.diagnostics[0].message == f"{tree / 'secret.txt'} is not a ruleset file (.rules)"
    (tree / "game" / "sneaky.rules").symlink_to(tree / "secret.txt")
    with pytest.raises(regnum.RulesetError) as caught:
        regnum.load(tree / "game" / "sneaky.rules")
    assert caught.value.diagnostics[0].message == f"{tree / 'game' / 'sneaky.rules'} is not a ruleset file (.rules)"
    assert "hunter2" not in str(caught.value)


def test_find_ruleset_refuses_other_suffixes_and_searches_the_rules_path(tree):
    with pytest.raises(FileNotFoundError, match=r"secret\.txt is not a ruleset file \(\.rules\)"):
        resources.find_ruleset(tree / "secret.txt")
    assert resources.find_ruleset("atlas", ((tree / "bases").resolve(),)) == (tree / "bases" / "atlas.rules").resolve()
    with pytest.raises(FileNotFoundError):
        resources.find_ruleset("atlas")


# ── data files ──

DATA = """\
game atlas "Atlas"
players 2..2
const maps from "{path}"
flow:
    announce "{{maps}}"
"""


def data_ruleset(tree: Path, path: str) -> Path:
    file = tree / "game" / "data.rules"
    file.write_text(DATA.format(path=path), encoding="utf-8")
    return file


def test_data_through_a_link_pointing_outside_is_refused(tree):
    (tree / "secret.json").write_text('{"secret": "hunter2"}', encoding="utf-8")
    (tree / "game" / "maps.json").symlink_to(tree / "secret.json")
    diagnostic, _ = refusal(data_ruleset(tree, "maps.json"))
    assert (diagnostic.code, diagnostic.message) == (
        "E008", "data file 'maps.json' is outside the ruleset's folder and the rules path "
                f"(it is a link to {(tree / 'secret.json').resolve()})")
    assert diagnostic.span.line == 3


@pytest.mark.parametrize("path,message", [
    ("/etc/passwd.json", "a data file is named relative to the ruleset, not '/etc/passwd.json'"),
    ("../secret.json", "data file '../secret.json' is outside the ruleset's folder and the rules path"),
    ("../../../../../../../../etc/passwd.json",
     "data file '../../../../../../../../etc/passwd.json' is outside the ruleset's folder and the rules path"),
    ("../secret.txt", "data file '../secret.txt' is neither JSON nor YAML"),
])
def test_data_outside_the_folder_is_refused(tree, path, message):
    (tree / "secret.json").write_text('{"secret": "hunter2"}', encoding="utf-8")
    diagnostic, _ = refusal(data_ruleset(tree, path))
    assert (diagnostic.code, diagnostic.message) == ("E008", message)


def test_data_found_through_the_rules_path(tree, monkeypatch):
    (tree / "bases" / "shared").mkdir()
    (tree / "bases" / "shared" / "maps.json").write_text('{"east": 4}', encoding="utf-8")
    diagnostic, _ = refusal(data_ruleset(tree, "shared/maps.json"))
    assert (diagnostic.code, diagnostic.message) == ("E008", "cannot read data file 'shared/maps.json': no such file")
    game = regnum.load(data_ruleset(tree, "shared/maps.json"), rules_path=[tree / "bases"]).new_game(2)
    assert game.events == ["{east: 4}"]
    monkeypatch.setenv("REGNUM_RULES_PATH", str(tree / "bases"))
    assert regnum.load(data_ruleset(tree, "shared/maps.json")).new_game(2).events == ["{east: 4}"]


# ── the hash of the resolved rules ──

def test_the_hash_is_of_the_rules_not_of_where_they_were_found(tree):
    shutil.copy(tree / "bases" / "atlas.rules", tree / "game" / "atlas.rules")
    beside = regnum.load(variant(tree, '"atlas.rules"'))
    (tree / "game" / "atlas.rules").unlink()
    through_path = regnum.load(variant(tree, '"atlas.rules"'), rules_path=[tree / "bases"])
    assert beside.hash == through_path.hash
    (tree / "bases" / "atlas.rules").write_text(BASE.replace("goal = 3", "goal = 4"), encoding="utf-8")
    assert regnum.load(variant(tree, '"atlas.rules"'), rules_path=[tree / "bases"]).hash != beside.hash


def test_the_hash_covers_the_stdlib_modules_imported(tree, monkeypatch):
    file = tree / "game" / "imports.rules"
    file.write_text(BASE + "import majority\n", encoding="utf-8")
    before = regnum.load(file).hash
    stdlib = tree / "stdlib"
    shutil.copytree(resources.data_dir("stdlib"), stdlib)
    with open(stdlib / "majority.rules", "a", encoding="utf-8") as out:
        out.write("\nconst changed_by_the_test = 1\n")
    real = resources.data_dir
    monkeypatch.setattr(resources, "data_dir", lambda kind: stdlib if kind == "stdlib" else real(kind))
    after = regnum.load(file)
    assert after.hash != before
    text = file.read_text(encoding="utf-8")
    files = hashlib.sha256(text.encode()).hexdigest()[:16]
    module = hashlib.sha256((stdlib / "majority.rules").read_text(encoding="utf-8").encode()).hexdigest()
    assert after.hash == hashlib.sha256((files + f"majority:{module}").encode()).hexdigest()[:16]
