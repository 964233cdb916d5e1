"""benchmarks/watch_edits.py: a new `regnum check` after each edit against `regnum check
--watch` left running; the shape of its report and of its measure, never a timed threshold."""
from __future__ import annotations

from pathlib import Path

from benchmark_scripts import script   # tests/unit is on the path of its tests


def test_the_report_gives_the_medians_of_each_side(monkeypatch, capsys):
    module = script("watch_edits")
    asked = []

    def measure(ruleset, edits, interval):
        asked.append((ruleset, edits, interval))
        return {"process": [300.0, 200.0, 250.0], "watch_check": [30.0, 20.0, 25.0],
                "watch_save_to_verdict": [90.0, 60.0, 70.0]}
    monkeypatch.setattr(module, "measure", measure)
    assert module.main(["permanent_nobles", "--edits", "3"]) == 0
    assert asked == [("permanent_nobles", 3, 0.05)]
    assert capsys.readouterr().out.splitlines() == [
        "permanent_nobles, medians of 3 edits, wall time: a new `regnum check` 250 ms; "
        "`regnum check --watch`: the check 25 ms, from the save to the verdict 70 ms (a look every "
        "0.05 s); check/process = 0.100"]


def test_both_sides_check_every_edit_of_their_own_copy(monkeypatch):
    module = script("watch_edits")
    runs = []
    real_run = module.subprocess.run

    def run(command, env, **kwargs):
        runs.append((_text_checked(command), env["REGNUM_CACHE_DIR"]))
        return real_run(command, env=env, **kwargs)
    monkeypatch.setattr(module.subprocess, "run", run)
    figures = module.measure("recruit", 2, 0.05)
    assert sorted(figures) == ["process", "watch_check", "watch_save_to_verdict"]
    assert all(len(values) == 2 and all(v > 0 for v in values) for values in figures.values())
    # the first check fills the one-shot side's cache; then one new process per edit, all in
    # its own copy and cache
    assert len(runs) == 3 and len({where for _, where in runs}) == 1
    assert [text.count("# edit ") for text, _ in runs] == [0, 1, 2]


def _text_checked(command: list[str]) -> str:
    """The text of the ruleset a `regnum check` command names, as it is when it runs."""
    return Path(command[command.index("check") + 1]).read_text(encoding="utf-8")
