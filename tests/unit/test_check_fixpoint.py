"""The analysis' fixpoint walks again only what changed (check/fixpoint.py): same answers.

Each round of the fixpoint used to walk every declaration. Now a round walks
again only the declarations (and the def and constant types) whose inputs
changed since their last walk. These tests compare it with walking everything
every round, on the bundled rulesets and on rulesets made so that the zones
fill over several rounds, defs read zones, and misspelt fields spend the
"did you mean" budget in the quiet rounds.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import regnum
from regnum import confine, diagnostics, resources
from regnum.check import analysis, check_program
from regnum.check import fixpoint as F
from regnum.diagnostics import suggestion_budget
from regnum.program import load_program

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ["kings_road", "kingdom_builder", "kings_gate", "kings_kilt", "rulesets/variants/permanent_nobles.rules"]

# Zones that fill one from another, over several rounds; defs that read them, one of
# them through another; a field misspelt in a def and in a rule (E107 with a hint).
CHAIN = '''game chain "Chain"
players 2..4

piece coin:
    value: int = 1
piece gem:
    shine: int = 2

zone a: public
zone b: public
zone c: public
zone d: public
zone e: public
var total: int = 0

def top_value() = first(c).value
def best() = top_value() + count(d)
def shiny(x) = x.shine + x.shyne
def worth(z) = sum(p.value for p in z)

rule one:
    move first(a) to b

rule two:
    move first(b) to c

rule three:
    for g in c:
        add g.valeu to total
    move first(c) to d

rule four(n):
    add n * 2 to total
    move first(d) to e

setup:
    create 2 coin() in a
    create 1 gem() in e

flow:
    run one
    run two
    run three
    run four(best())
    add worth(e) to total
    add shiny(first(e)) to total
'''

# Defs that call each other in a cycle: the order of first use decides their types,
# so every round walks everything.
CYCLE = '''game cycle "Cycle"
players 2..4

piece coin:
    value: int = 1

zone a: public
zone b: public
var total: int = 0

def ping(n) = pong(n) + count(b)
def pong(n) = ping(n) + first(b).valeu

rule move_it:
    move first(a) to b

setup:
    create 2 coin() in a

flow:
    run move_it
    add ping(1) to total
'''


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def _program(name_or_path: str):
    search = confine.rules_path(None)
    return load_program(resources.find_ruleset(name_or_path, search), search=search)


def _every_round(program):
    """The fixpoint as it was: every declaration walked every round."""
    contents = {z.name: frozenset() for z in program.of_kind("zone")}
    expects: dict = {}
    for _ in range(F.MAX_ROUNDS):
        report = F._FactsOnly()
        analysis._Walker(program, contents, expects, report).run()
        grown = F._grow(contents, report.facts.moves)
        if grown == contents and report.facts.expects == expects:
            break
        contents, expects = grown, report.facts.expects
    else:
        contents = {z: None for z in contents}
    return {z: (p or None) for z, p in contents.items()}, expects


def _run(program, fixpoint, budget: int):
    """(zones, expectations, notes on operators, budget left) of one fixpoint."""
    program.cheap_ops.clear()
    with suggestion_budget(budget):
        zones, expects = fixpoint(program)
        left = diagnostics._SUGGESTIONS.get()[0]
    notes = sorted((str(node.span), proven) for node, proven in program.cheap_ops.values())
    return zones, list(expects.items()), notes, max(left, 0)


def _same_as_every_round(program, budget: int = diagnostics.SUGGESTION_BUDGET):
    incremental = _run(program, lambda p: F.fixpoint(p, analysis._Walker), budget)
    assert incremental == _run(program, _every_round, budget)
    return incremental


@pytest.mark.parametrize("name", BUNDLED)
def test_the_bundled_rulesets_learn_what_walking_everything_learns(name):
    _same_as_every_round(_program(name))


def _written(tmp_path: Path, text: str):
    path = tmp_path / "x.rules"
    path.write_text(text, encoding="utf-8")
    return _program(str(path))


def test_zones_filled_over_rounds_and_defs_that_read_them(tmp_path):
    program = _written(tmp_path, CHAIN)
    zones, expects, _, _ = _same_as_every_round(program)
    assert zones == {"a": frozenset({"coin"}), "b": frozenset({"coin"}), "c": frozenset({"coin"}),
                     "d": frozenset({"coin"}), "e": frozenset({"coin", "gem"})}
    assert dict(expects)["rule:four"]["n"].kind == "int"


def test_the_rounds_walk_again_only_some_declarations(tmp_path, monkeypatch):
    program = _written(tmp_path, CHAIN)
    walked: list = []
    enter = F._Tracker.enter
    real_init = F._Tracker.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        walked.append(0)

    def counted(self):
        if not self.stack:
            walked[-1] += 1
        return enter(self)

    monkeypatch.setattr(F._Tracker, "__init__", init)
    monkeypatch.setattr(F._Tracker, "enter", counted)
    F.fixpoint(program, analysis._Walker)
    everything = walked[0]
    assert len(walked) >= 4                       # a, then b, c, d, e fill one round after another
    assert all(n < everything for n in walked[1:])


@pytest.mark.parametrize("budget", [1, 40, 120, 400, 100_000])
def test_the_hint_budget_quiet_rounds_spend_is_spent_all_the_same(tmp_path, budget):
    _same_as_every_round(_written(tmp_path, CHAIN), budget)


@pytest.mark.parametrize("budget", [30, 100_000])
def test_defs_in_a_cycle_walk_everything_every_round(tmp_path, budget):
    _same_as_every_round(_written(tmp_path, CYCLE), budget)


def test_a_def_used_with_two_argument_types_reports_both_calls(tmp_path):
    text = CHAIN.replace("    add shiny(first(e)) to total\n",
                         "    add shiny(first(e)) to total\n    add worth(3) to total\n    add worth(true) to total\n")
    program = _written(tmp_path, text)
    found = [(d.code, d.span.line, d.message) for d in check_program(program) if d.code == "E206"]
    assert found == [("E206", 47, "'worth' needs a list as 'z', not a number"),
                     ("E206", 48, "'worth' needs a list as 'z', not a boolean")]


@pytest.mark.parametrize("name", BUNDLED)
def test_loading_again_gives_the_same_diagnostics_and_notes(name):
    def once():
        program = _program(name)
        found = [(d.code, str(d.span), d.message, d.hint) for d in check_program(program)]
        return found, sorted((str(n.span), proven) for n, proven in program.cheap_ops.values())

    first = once()
    assert once() == first == once()
    assert regnum.load(name).warnings == regnum.load(name).warnings

