"""`regnum diff BASE VARIANT`: what a variant changes, declaration by declaration.

Exact outputs: the bundled variant against its base, a chain of small variants written here
(a base, a variant of it, a variant of that), identical rulesets, a replacement identical to
what it replaces, and the clean errors of a ruleset that does not load.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from regnum.variantdiff import same_tree

from test_cli import one_json_object, run  # tests/cli is on the path of its tests

ROOT = Path(__file__).resolve().parents[2]
KINGS_ROAD = "rulesets/kings_road.rules"
VARIANT = "rulesets/variants/permanent_nobles.rules"

BASE = """\
game dash "Dash"
players 2..3
const goal = 6
var bonus per player: int = 0
flow:
    let p = 0
    repeat until any(score(q) >= goal for q in players):
        ask p to run_ahead
        set p = (p + 1) % count(players)
    run finish
action run_ahead(n in [1, 2]):
    add n to score(player)
rule finish:
    add 1 to bonus(0)
winner p: highest score(p) then highest bonus(p)
invariant short_game: all(score(p) < 20 for p in players)
"""

LONG = """\
variant long of "base.rules"
const goal = 10
remove invariant short_game
invariant long_game: all(score(p) < 40 for p in players)
# the same action, laid out otherwise
action run_ahead(n in [1,2]):
        add n to score(player)  # unchanged
"""

LONGER = """\
variant longer of "long.rules"
players 2..4
rule finish:
    add 2 to bonus(0)
remove invariant long_game
remove winner winner
"""


@pytest.fixture()
def dash(tmp_path, monkeypatch) -> Path:
    """A base, a variant of it and a variant of the variant, in the current folder."""
    monkeypatch.chdir(tmp_path)
    for name, text in (("base", BASE), ("long", LONG), ("longer", LONGER)):
        (tmp_path / f"{name}.rules").write_text(text, encoding="utf-8")
    return tmp_path


def line_of(path: str, start: str) -> int:
    """The line of a file that starts with `start` (1-based)."""
    lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(start))


def at(file: str, line: int) -> dict:
    return {"file": file, "line": line, "column": 1}


# --- the bundled variant -------------------------------------------------------------------------


@pytest.fixture()
def in_checkout(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_permanent_nobles_lists_exactly_its_changes(in_checkout):
    crown, region = line_of(KINGS_ROAD, "rule crown_noble("), line_of(KINGS_ROAD, "invariant one_noble_per_region:")
    new_crown, remove = line_of(VARIANT, "rule crown_noble("), line_of(VARIANT, "remove invariant")
    added = line_of(VARIANT, "invariant one_noble_per_player_per_region:")
    region_text = (ROOT / KINGS_ROAD).read_text(encoding="utf-8").splitlines()[region - 1][:71] + "…"
    width = len(f"{VARIANT}:{remove}:1")
    where = lambda file, line: f"{file}:{line}:1".ljust(width)  # noqa: E731
    expected = [
        f"base:    {KINGS_ROAD} (kings_road)",
        f"variant: {VARIANT} (variant permanent_nobles of kings_road)",
        "",
        "rule crown_noble replaced",
        f"  base     {where(KINGS_ROAD, crown)}  rule crown_noble(r):",
        f"  variant  {where(VARIANT, new_crown)}  rule crown_noble(r):",
        "",
        "invariant one_noble_per_region removed",
        f"  base     {where(KINGS_ROAD, region)}  {region_text}",
        f"  variant  {where(VARIANT, remove)}  remove invariant one_noble_per_region",
        "",
        "invariant one_noble_per_player_per_region added",
        f"  variant  {where(VARIANT, added)}  invariant one_noble_per_player_per_region:",
        "",
        "3 changes: 1 replaced, 1 removed, 1 added; 73 declarations unchanged",
    ]
    for variant in ("permanent_nobles", VARIANT):   # by bundled name or by path
        assert run("diff", "kings_road", variant).stdout.splitlines() == expected


def test_permanent_nobles_json(in_checkout):
    data = one_json_object(run("diff", "kings_road", "permanent_nobles", "--json").stdout)
    assert data["base"] == {"path": KINGS_ROAD, "game": "kings_road", "variant": None}
    assert data["variant"] == {"path": VARIANT, "game": "kings_road", "variant": "permanent_nobles"}
    assert data["unchanged"] == 73
    assert data["changes"] == [
        {"kind": "rule", "name": "crown_noble", "change": "replaced", "identical": False,
         "base": at(KINGS_ROAD, line_of(KINGS_ROAD, "rule crown_noble(")),
         "variant": at(VARIANT, line_of(VARIANT, "rule crown_noble("))},
        {"kind": "invariant", "name": "one_noble_per_region", "change": "removed", "identical": False,
         "base": at(KINGS_ROAD, line_of(KINGS_ROAD, "invariant one_noble_per_region:")),
         "variant": at(VARIANT, line_of(VARIANT, "remove invariant one_noble_per_region"))},
        {"kind": "invariant", "name": "one_noble_per_player_per_region", "change": "added", "identical": False,
         "base": None, "variant": at(VARIANT, line_of(VARIANT, "invariant one_noble_per_player_per_region:"))},
    ]


def test_the_reverse_diff_has_a_removal_no_variant_states(in_checkout):
    data = one_json_object(run("diff", VARIANT, "kings_road", "--json").stdout)
    changes = {(c["kind"], c["name"]): (c["change"], c["variant"]) for c in data["changes"]}
    assert changes == {
        ("rule", "crown_noble"): ("replaced", at(KINGS_ROAD, line_of(KINGS_ROAD, "rule crown_noble("))),
        ("invariant", "one_noble_per_player_per_region"): ("removed", None),
        ("invariant", "one_noble_per_region"):
            ("added", at(KINGS_ROAD, line_of(KINGS_ROAD, "invariant one_noble_per_region:"))),
    }


# --- chains of variants --------------------------------------------------------------------------


def test_a_variant_of_a_variant_against_the_first_base(dash):
    assert run("diff", "base.rules", "longer.rules").stdout == """\
base:    base.rules (dash)
variant: longer.rules (variant longer of dash)

const goal replaced
  base     base.rules:3:1    const goal = 6
  variant  long.rules:2:1    const goal = 10

action run_ahead replaced (identical to the base's)
  base     base.rules:11:1   action run_ahead(n in [1, 2]):
  variant  long.rules:6:1    action run_ahead(n in [1,2]):

players replaced
  base     base.rules:2:1    players 2..3
  variant  longer.rules:2:1  players 2..4

rule finish replaced
  base     base.rules:13:1   rule finish:
  variant  longer.rules:3:1  rule finish:

invariant short_game removed
  base     base.rules:16:1   invariant short_game: all(score(p) < 20 for p in players)
  variant  long.rules:3:1    remove invariant short_game

winner removed
  base     base.rules:15:1   winner p: highest score(p) then highest bonus(p)
  variant  longer.rules:6:1  remove winner winner

6 changes: 4 replaced (1 identical), 2 removed; 3 declarations unchanged
"""


def test_a_variant_of_a_variant_against_its_own_base(dash):
    """What the middle variant changed is inherited by both: only the last one's changes show."""
    data = one_json_object(run("diff", "long.rules", "longer.rules", "--json").stdout)
    assert data["base"] == {"path": "long.rules", "game": "dash", "variant": "long"}
    assert data["variant"] == {"path": "longer.rules", "game": "dash", "variant": "longer"}
    assert [(c["change"], c["kind"], c["name"], c["base"], c["variant"]) for c in data["changes"]] == [
        ("replaced", "players", "players", at("base.rules", 2), at("longer.rules", 2)),
        ("replaced", "rule", "finish", at("base.rules", 13), at("longer.rules", 3)),
        ("removed", "invariant", "long_game", at("long.rules", 4), at("longer.rules", 5)),
        ("removed", "winner", "winner", at("base.rules", 15), at("longer.rules", 6)),
    ]
    assert data["unchanged"] == 5   # game, flow, goal, bonus, run_ahead


def test_a_replacement_identical_to_the_base_is_marked(dash):
    data = one_json_object(run("diff", "base.rules", "long.rules", "--json").stdout)
    replaced = {c["name"]: c["identical"] for c in data["changes"] if c["change"] == "replaced"}
    assert replaced == {"goal": False, "run_ahead": True}
    assert "action run_ahead replaced (identical to the base's)" in run("diff", "base.rules", "long.rules").stdout


def test_the_tree_comparison_ignores_places_layout_and_comments():
    from regnum.build import build_module
    one = build_module(BASE, "one.rules").decls
    other = build_module("\n\n" + BASE.replace("[1, 2]", "[1,2]").replace("count(players)",
                                                                          "count(players)  # seats"),
                         "other.rules").decls
    assert all(same_tree(a, b) for a, b in zip(one, other, strict=True))
    changed = build_module(BASE.replace("[1, 2]", "[1, 3]"), "changed.rules").decls
    assert [same_tree(a, b) for a, b in zip(one, changed)].count(False) == 1


# --- no changes, errors --------------------------------------------------------------------------


def test_identical_rulesets_have_no_changes(dash):
    (dash / "same.rules").write_text('variant same of "base.rules"\n', encoding="utf-8")
    for variant in ("base.rules", "same.rules"):
        result = run("diff", "base.rules", variant)
        assert result.stdout.splitlines()[-1] == "no changes; 9 declarations unchanged"
        data = one_json_object(run("diff", "base.rules", variant, "--json").stdout)
        assert (data["changes"], data["unchanged"]) == ([], 9)


def test_a_missing_ruleset_is_a_clean_error(dash):
    for args in (("base.rules", "missing.rules"), ("missing.rules", "base.rules"), ("base.rules", "nope", "--json")):
        result = run("diff", *args, code=1)
        assert result.stdout == ""
        assert result.stderr.startswith("error: no ruleset file or bundled ruleset named")


def test_a_ruleset_that_does_not_check_is_a_clean_error(dash):
    (dash / "broken.rules").write_text('variant broken of "base.rules"\nrule finish:\n    add 1 to nothing(0)\n',
                                       encoding="utf-8")
    result = run("diff", "base.rules", "broken.rules", code=1)
    assert result.stdout == ""
    assert "broken.rules:3:14: error[E" in result.stderr


def test_the_base_may_come_from_the_rules_path(dash):
    (dash / "bases").mkdir()
    (dash / "base.rules").rename(dash / "bases" / "dash.rules")
    (dash / "mine.rules").write_text("variant mine of dash\nconst goal = 3\n", encoding="utf-8")
    data = one_json_object(run("diff", "dash", "mine.rules", "--rules-path", "bases", "--json").stdout)
    assert [(c["change"], c["name"]) for c in data["changes"]] == [("replaced", "goal")]
    assert json.dumps(data["changes"][0]["variant"]) == '{"file": "mine.rules", "line": 2, "column": 1}'
