"""benchmarks/warm_loads.py and benchmarks/load_outputs.py: two checkouts' warm loads timed
against each other, and what a checkout's checker and compiler give written down to compare;
the shape of their reports, never a timed threshold."""
from __future__ import annotations

import json
from pathlib import Path

from benchmark_scripts import ROOT, script   # tests/unit is on the path of its tests

TOY = '''game toy "Toy"
players 2..2

piece coin:
    value: int = 1

zone bag: public
zone pot: public
var total: int = 0

setup:
    create 2 coin() in bag

flow:
    repeat until count(bag) == 0:
        ask 0 to take

action take(c in bag):
    move c to pot
    add c.value to total
'''


def test_the_sides_alternate_and_the_least_loads_medians_are_reported(monkeypatch, capsys):
    module = script("warm_loads")
    rounds = iter([{"kings_road": 10.0}, {"kings_road": 8.0}, {"kings_road": 9.0}, {"kings_road": 12.0},
                   {"kings_road": 11.0}, {"kings_road": 7.0}])
    sides = []

    def fake_round(checkout, cache, rulesets, loads):
        sides.append((cache.name, tuple(rulesets), loads))
        return next(rounds)
    monkeypatch.setattr(module, "_round", fake_round)
    assert module.main([str(ROOT), str(ROOT), "kings_road", "--loads", "4", "--rounds", "3"]) == 0
    assert [side for side, _, _ in sides] == ["before", "after", "after", "before", "before", "after"]
    assert {(rulesets, loads) for _, rulesets, loads in sides} == {(("kings_road",), 4)}
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == ["round 1: kings_road 10.00 → 8.00 ms", "round 2: kings_road 12.00 → 9.00 ms",
                         "round 3: kings_road 11.00 → 7.00 ms"]
    assert lines[3:] == ["medians of 3 rounds of the least of 4 warm loads, CPU ms:",
                         "  kings_road: before 11.00, after 8.00, after/before = 0.727"]


def test_a_round_loads_in_a_process_of_its_own(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    found = script("warm_loads")._round(ROOT, cache, ["kings_kilt", "kings_road"], 2)
    assert sorted(found) == ["kings_kilt", "kings_road"] and all(ms > 0 for ms in found.values())


def test_a_folder_that_is_no_checkout_is_refused(tmp_path, capsys):
    assert script("warm_loads").main([str(tmp_path), str(ROOT), "kings_road"]) == 2
    assert script("load_outputs").main([str(tmp_path), str(tmp_path / "out.json")]) == 2
    assert capsys.readouterr().err.count("is not a checkout of regnum (no interpreter/regnum)") == 2


def test_the_misspelt_variants_change_one_call_or_field_or_a_dozen():
    variants = dict(script("load_outputs")._misspelt(TOY))
    assert variants["as written"] == TOY
    assert variants["misspelt 3"] == TOY.replace("c.value", "c.valux")   # `count(` `take(` `c.` `value`
    assert sorted(variants) == ["a dozen misspelt", "as written", "misspelt 3"]
    assert variants["a dozen misspelt"] == TOY.replace("c.value", "c.valueq")


def test_the_checks_and_the_sources_of_a_ruleset_are_written(tmp_path):
    module = script("load_outputs")
    checkout, copy = tmp_path / "checkout", tmp_path / "copy"
    (checkout / "rulesets").mkdir(parents=True)
    (checkout / "rulesets" / "toy.rules").write_text(TOY, encoding="utf-8")
    (checkout / ".hidden").mkdir()
    (checkout / ".hidden" / "skipped.rules").write_text(TOY, encoding="utf-8")
    files = module._copy(checkout, copy)
    assert files == [copy / "rulesets" / "toy.rules"]
    checks = module._checks(files, copy, [copy / "rulesets"])
    assert len(checks) == 3 * 4   # three texts at four budgets
    assert checks["rulesets/toy.rules | as written | budget default"]["diagnostics"] == []
    misspelt = checks["rulesets/toy.rules | misspelt 3 | budget default"]["diagnostics"]
    assert [(code, message, hint) for code, _, message, hint in misspelt] == \
        [("E107", "piece type 'coin' has no field 'valux'", "did you mean 'value'?")]
    assert checks["rulesets/toy.rules | misspelt 3 | budget 1"]["diagnostics"][0][3] is None   # no budget left
    compile_ = module_compile()
    sources = module._sources(files, copy, [copy / "rulesets"])
    assert module_compile() is compile_   # put back
    assert list(sources) == ["rulesets/toy.rules"] and len(sources["rulesets/toy.rules"]) > 3
    assert all(mode in ("exec", "eval") for _, _, mode in sources["rulesets/toy.rules"])
    json.dumps(checks), json.dumps(sources)   # written as they are


def module_compile():
    from regnum.compiler import codecache
    return codecache.CodeCache.compile
