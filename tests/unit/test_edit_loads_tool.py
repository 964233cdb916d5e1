"""benchmarks/head_to_head.py --edits: what an author waits for after each edit, two checkouts
against each other; the shape of its report and of its rounds, never a timed threshold."""
from __future__ import annotations

from pathlib import Path

from benchmark_scripts import ROOT, faked_rounds, script   # tests/unit is on the path of its tests

TOY = 'game toy "Toy"\nplayers 2..2\n\nflow:\n    pass\n'


def test_loads_after_edits_are_timed_instead_of_games_when_asked(monkeypatch, capsys):
    module = script("head_to_head")
    # before, after; after, before; before, after
    asked = faked_rounds(module, monkeypatch, [100.0, 40.0, 50.0, 120.0, 110.0, 45.0])
    assert module.main([str(ROOT), str(ROOT), "permanent_nobles", "--edits", "3", "--rounds", "3"]) == 0
    assert asked == [("before", "permanent_nobles", 3), ("after", "permanent_nobles", 3),
                     ("after", "permanent_nobles", 3), ("before", "permanent_nobles", 3),
                     ("before", "permanent_nobles", 3), ("after", "permanent_nobles", 3)]
    assert capsys.readouterr().out.splitlines() == [
        "round 1: before 100.000 ms, after 40.000 ms", "round 2: before 120.000 ms, after 50.000 ms",
        "round 3: before 110.000 ms, after 45.000 ms",
        "medians of 3 rounds of the median of 3 loads after an edit: before 110.0 ms, after 45.0 ms: "
        "after/before = 0.409"]


def test_each_edit_is_loaded_by_a_process_of_its_own_from_a_copy(tmp_path, monkeypatch):
    module = script("head_to_head")
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "toy.rules").write_text(TOY, encoding="utf-8")
    cache = tmp_path / "side"
    cache.mkdir(mode=0o700)
    loaded = []
    outputs = iter(["300.0\n", "30.0\n", "70.0\n", "50.0\n"])

    def run(command, env, **kwargs):
        target, copy = Path(command[3]), Path(command[4])
        loaded.append((target.read_text(encoding="utf-8"), copy == target.parent, env["REGNUM_CACHE_DIR"]))
        return type("Done", (), {"stdout": next(outputs)})()
    monkeypatch.setattr(module.subprocess, "run", run)
    assert module._round(ROOT, cache, str(folder / "toy.rules"), 1, edits=3) == 50.0   # the first load filled
    middle = 'game toy "Toy"\nplayers 2..2\n\n'   # the text's middle: the comments go before `flow:`
    assert [text for text, _, _ in loaded] == [
        TOY, middle + "# edit 1\nflow:\n    pass\n", middle + "# edit 1\n# edit 2\nflow:\n    pass\n",
        middle + "# edit 1\n# edit 2\n# edit 3\nflow:\n    pass\n"]
    assert all(in_copy for _, in_copy, _ in loaded)
    assert len({where for _, _, where in loaded}) == 1 and Path(loaded[0][2]).parent == cache
    assert (folder / "toy.rules").read_text(encoding="utf-8") == TOY   # the author's file untouched


def test_a_round_really_loads(tmp_path):
    cache = tmp_path / "side"
    cache.mkdir(mode=0o700)
    assert script("head_to_head")._round(ROOT, cache, "kings_kilt", 1, edits=1) > 0


def test_both_checkouts_are_compiled_to_bytecode_before_any_round(tmp_path, monkeypatch, capsys):
    module = script("head_to_head")
    events = []
    monkeypatch.setattr(module.compileall, "compile_dir", lambda folder, quiet: events.append(("compiled", folder)))
    monkeypatch.setattr(module, "_round", lambda checkout, cache, ruleset, games, edits=0:
                        events.append(("round", str(checkout))) or 1.0)
    other = tmp_path / "other"
    (other / "interpreter" / "regnum").mkdir(parents=True)
    assert module.main([str(other), str(ROOT), "kings_kilt", "--edits", "1", "--rounds", "1"]) == 0
    assert events == [("compiled", str(other / "interpreter")), ("compiled", str(ROOT / "interpreter")),
                      ("round", str(other)), ("round", str(ROOT))]
