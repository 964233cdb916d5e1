"""benchmarks/head_to_head.py --loads and benchmarks/load_outputs.py: two checkouts' warm loads
timed against each other, and what a checkout's checker and compiler give written down to
compare; the shape of their reports, never a timed threshold."""
from __future__ import annotations

import json
from pathlib import Path

from benchmark_scripts import ROOT, faked_rounds, script   # tests/unit is on the path of its tests

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


def test_warm_loads_are_timed_instead_of_games_when_asked(monkeypatch, capsys):
    module = script("head_to_head")
    # before, after; after, before; before, after
    asked = faked_rounds(module, monkeypatch, [10.0, 8.0, 9.0, 12.0, 11.0, 7.0])
    assert module.main([str(ROOT), str(ROOT), "kings_road", "--loads", "4", "--rounds", "3"]) == 0
    assert asked == [("before", "kings_road", 4), ("after", "kings_road", 4), ("after", "kings_road", 4),
                     ("before", "kings_road", 4), ("before", "kings_road", 4), ("after", "kings_road", 4)]
    assert capsys.readouterr().out.splitlines() == [
        "round 1: before 10.000 ms, after 8.000 ms", "round 2: before 12.000 ms, after 9.000 ms",
        "round 3: before 11.000 ms, after 7.000 ms",
        "medians of 3 rounds of the least of 4 warm loads: before 11.00 ms, after 8.00 ms: after/before = 0.727"]


def test_a_round_of_warm_loads_loads_in_a_process_of_its_own(tmp_path, monkeypatch):
    module = script("head_to_head")
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    assert module._round(ROOT, cache, "kings_kilt", 1, loads=2) > 0
    seen = []

    def run(command, **kwargs):
        seen.append(command[3:])
        return type("Done", (), {"stdout": "12.5\n"})()
    monkeypatch.setattr(module.subprocess, "run", run)
    assert module._round(ROOT, cache, "kings_kilt", 1, loads=30) == 12.5
    assert seen == [["kings_kilt", "30"]]


def test_a_folder_that_is_no_checkout_is_refused(tmp_path, capsys):
    assert script("load_outputs").main([str(tmp_path), str(tmp_path / "out.json")]) == 2
    assert "is not a checkout of regnum (no interpreter/regnum)" in capsys.readouterr().err


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
