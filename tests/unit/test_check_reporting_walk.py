"""The checker's reporting walk is left out when the fixpoint's last walks know what it finds.

After the fixpoint (check/fixpoint.py) the analysis walked every declaration once more, with
a report, to find the mistakes and the facts the other passes read (references, runs, asks,
spawns). Each declaration's last walk in the fixpoint had the same inputs, so it now keeps
those facts of its own code, and whether it found a mistake; a ruleset without one is not
walked again. These tests check that the facts are those the reporting walk finds
(`analysis.VERIFY` walks it anyway and compares), that a ruleset with a mistake, or with a
zone no move fills, is still walked and reported as before, and that what a def's type
asked for while a rule was walked is not the rule's.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from regnum import confine, resources
from regnum.check import analysis, check_program
from regnum.program import load_program

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ["kings_road", "kingdom_builder", "kings_gate", "kings_kilt",
           "rulesets/variants/permanent_nobles.rules", "rulesets/variants/recruit.rules",
           "rulesets/variants/harsh_tournament.rules", "rulesets/variants/lords_ties_use_up_second.rules"]

# A def that reads a zone, asked for by a rule before its own declaration is walked; an ask,
# a run and a spawn; every move fills a zone.
CLEAN = '''game clean "Clean"
players 2..4

piece coin:
    value: int = 1

zone bag: public
zone pot per player: public
var total: int = 0

rule tally:
    add in_bag() to total

def in_bag() = count(bag) + sum(c.value for c in bag)

action take(c in bag):
    move c to pot(player)

setup:
    create 3 coin() in bag

flow:
    run tally
    simultaneously for p in players:
        ask p to take
'''


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def _program(name_or_path: str):
    search = confine.rules_path(None)
    return load_program(resources.find_ruleset(name_or_path, search), search=search)


def _written(tmp_path: Path, text: str):
    path = tmp_path / "x.rules"
    path.write_text(text, encoding="utf-8")
    return _program(str(path))


def _checked(program, monkeypatch, verify: bool = False):
    """(diagnostics as (code, line, message, hint), the analysis, reporting walks run)."""
    walks = []
    run = analysis._Walker.run

    def counted(self):
        walks.append(self)
        return run(self)

    monkeypatch.setattr(analysis._Walker, "run", counted)
    monkeypatch.setattr(analysis, "VERIFY", verify)
    found = [(d.code, d.span.line, d.message, d.hint) for d in check_program(program)]
    return found, analysis.analyse(program), len(walks)


@pytest.mark.parametrize("name", BUNDLED)
def test_a_bundled_ruleset_is_not_walked_again(name, monkeypatch):
    found, _, walks = _checked(_program(name), monkeypatch)
    assert walks == 0 and found == []


@pytest.mark.parametrize("name", BUNDLED)
def test_its_facts_are_those_the_reporting_walk_finds(name, monkeypatch):
    program = _program(name)
    _, kept, _ = _checked(program, monkeypatch)
    analysis.forget()
    found, walked, walks = _checked(program, monkeypatch, verify=True)   # raises on a difference
    assert walks == 1
    assert walked.facts == kept.facts and walked.diagnostics == kept.diagnostics == []
    assert not any(code == "E997" for code, *_ in found)


def test_a_clean_rulesets_facts_name_each_declaration_for_its_own_code(tmp_path, monkeypatch):
    found, result, walks = _checked(_written(tmp_path, CLEAN), monkeypatch)
    assert found == [] and walks == 0
    facts = result.facts
    # The def's zone is the def's: the rule asked for the def's type before the def was walked.
    assert ("def:in_bag", "bag") in facts.refs and ("rule:tally", "in_bag") in facts.refs
    assert ("rule:tally", "bag") not in facts.refs
    assert [(origin, target, span.line, inside) for origin, target, span, inside in facts.runs] == \
        [("flow", "tally", 23, False)]
    assert [(origin, span.line, inside, actions) for origin, span, inside, actions in facts.asks] == \
        [("flow", 25, True, ("take",))]
    assert [(origin, span.line) for origin, span, _ in facts.spawns] == [("flow", 24)]
    assert facts.moves == [("pot", frozenset({"coin"})), ("bag", frozenset({"coin"}))]
    analysis.forget()
    _checked(_written(tmp_path, CLEAN), monkeypatch, verify=True)   # the same as walked


def test_a_mistake_is_walked_again_and_reported_with_its_hint(tmp_path, monkeypatch):
    text = CLEAN.replace("sum(c.value for c in bag)", "sum(c.valeu for c in bag)")
    found, result, walks = _checked(_written(tmp_path, text), monkeypatch)
    assert walks == 1
    assert found == [("E107", 14, "piece type 'coin' has no field 'valeu'", "did you mean 'value'?")]
    assert [d.code for d in result.diagnostics] == ["E107"]


def test_a_zone_no_move_fills_is_walked_again_and_read_as_any(tmp_path, monkeypatch):
    text = CLEAN.replace("zone bag: public\n", "zone bag: public\nzone lost: public\n").replace(
        "    move c to pot(player)\n", "    move c to pot(player)\n    move lost to bag\n")
    found, result, walks = _checked(_written(tmp_path, text), monkeypatch)
    assert found == [] and walks == 1
    assert ("bag", None) in result.facts.moves   # "any" piece from a zone never filled


def test_verifying_notices_facts_the_reporting_walk_does_not_find(tmp_path, monkeypatch):
    from regnum.check import fixpoint

    joined = fixpoint._joined

    def without_runs(walks, expects):
        facts = joined(walks, expects)
        facts.runs = []
        return facts

    monkeypatch.setattr(fixpoint, "_joined", without_runs)
    monkeypatch.setattr(analysis, "VERIFY", True)
    analysis.forget()
    with pytest.raises(AssertionError, match="the reporting walk differs from the fixpoint's last walks"):
        analysis.analyse(_written(tmp_path, CLEAN))


def test_a_quiet_walk_spends_the_hint_budget_without_looking_for_a_hint():
    from regnum import diagnostics

    with diagnostics.suggestion_budget(100):
        assert diagnostics.did_you_mean("valeu", ["value", "other", "value"]) == "did you mean 'value'?"
        assert diagnostics._SUGGESTIONS.get()[0] == 98
        with diagnostics.quietly():
            assert diagnostics.did_you_mean("valeu", ["value", "other"]) is None
            assert diagnostics._SUGGESTIONS.get()[0] == 96   # spent all the same
        assert diagnostics.did_you_mean("valeu", ["value"]) == "did you mean 'value'?"
        assert diagnostics._SUGGESTIONS.get()[0] == 95


def test_the_fixpoints_walks_compare_no_names(tmp_path, monkeypatch):
    import difflib

    from regnum.check import fixpoint

    compared = []
    close = difflib.get_close_matches

    def counted(*args, **kwargs):
        compared.append(args[0])
        return close(*args, **kwargs)

    monkeypatch.setattr(difflib, "get_close_matches", counted)
    program = _written(tmp_path, CLEAN.replace("sum(c.value for c in bag)", "sum(c.valeu for c in bag)"))
    fixpoint.fixpoint(program, analysis._Walker)
    assert compared == []
    analysis.forget()
    found, _, _ = _checked(program, monkeypatch)
    # Once, by the def's own walk: not again for the type the rule asks of it, inferred quietly.
    assert compared == ["valeu"] and found[0][3] == "did you mean 'value'?"


def test_a_constants_type_inferred_quietly_compares_no_names(tmp_path, monkeypatch):
    import difflib

    compared = []
    close = difflib.get_close_matches
    monkeypatch.setattr(difflib, "get_close_matches", lambda *args, **kwargs: compared.append(args[0]) or close(*args, **kwargs))
    text = CLEAN.replace("var total: int = 0\n", 'var total: int = 0\nconst prizes = {"gold": 2, "silver": 1}\n'
                         "const top = prizes.glod\n").replace("    run tally\n", "    run tally\n    add top to total\n")
    found, _, walks = _checked(_written(tmp_path, text), monkeypatch)
    assert walks == 1 and compared == ["glod"]
    assert found == [("E107", 11, "the map has no key 'glod'", "did you mean 'gold'?")]
