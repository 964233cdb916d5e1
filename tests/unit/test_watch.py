"""Watching the files a check read (watch.py) and telling which files a load asks for
(loading.noting_reads): a check runs first, then once per save that is over, with the files
that changed, among those the last check read.

The files' times of change are set by the tests (`os.utime`), so that two writes within one
tick of the file system's clock are told apart."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import regnum
from regnum import loading, resources, watch
from regnum.diagnostics import RulesetError

INTERVAL, SETTLE = 0.25, watch.SETTLE
_clock = [1_700_000_000 * 10**9]


def write(path: Path, text: str) -> None:
    path.write_text(text)
    _clock[0] += 10**9
    os.utime(path, ns=(_clock[0], _clock[0]))


class Script:
    """A `sleep` that runs the next scripted action at each call, noting how long it was asked
    to sleep; past the last action it interrupts, as Ctrl-C does."""

    def __init__(self, *actions):
        self.actions = list(actions)
        self.slept: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.slept.append(seconds)
        if not self.actions:
            raise KeyboardInterrupt
        action = self.actions.pop(0)
        if action is not None:
            action()


def run(script: Script, answer) -> list[list[Path]]:
    """The changes `watch` checked, `answer(changed)` giving the files each check read (with
    their signatures when read, or a list of them, read as the check ends)."""
    calls: list[list[Path]] = []

    def check(changed):
        calls.append(list(changed))
        read = answer(changed)
        return read if isinstance(read, dict) else {path: watch.signature(path) for path in read}

    with pytest.raises(KeyboardInterrupt):
        watch.watch(check, INTERVAL, sleep=script)
    return calls


@pytest.fixture
def files(tmp_path):
    a, b, c = (tmp_path / name for name in ("a.rules", "b.rules", "c.json"))
    for path in (a, b, c):
        write(path, f"{path.name}\n")
    return a, b, c


def test_a_check_runs_first_then_once_a_save_is_over_with_the_files_changed(files):
    a, b, _ = files
    script = Script(None,                                     # a look: nothing changed
                    lambda: write(b, "b2\n"), None,           # b saved; a look again: it is over
                    lambda: (write(a, "a2\n"), write(b, "b3\n")), None)
    assert run(script, lambda changed: [a, b]) == [[], [b], [a, b]]
    assert script.slept == [INTERVAL, INTERVAL, SETTLE, INTERVAL, SETTLE, INTERVAL]


def test_a_save_made_in_two_writes_is_checked_once_when_whole(files):
    _, b, _ = files
    seen = []
    script = Script(lambda: write(b, ""), lambda: write(b, "whole\n"), None)
    run(script, lambda changed: seen.append(b.read_text()) or [b])
    assert seen == ["b.rules\n", "whole\n"]
    assert script.slept == [INTERVAL, SETTLE, SETTLE, INTERVAL]


def test_a_file_changed_back_before_the_save_was_over_is_not_checked(files):
    _, b, _ = files
    before = os.stat(b)

    def restore():
        b.write_text("b.rules\n")
        os.utime(b, ns=(before.st_atime_ns, before.st_mtime_ns))

    script = Script(lambda: write(b, "b2\n"), restore, None)
    assert run(script, lambda changed: [b]) == [[]]


def test_the_files_watched_are_those_the_last_check_read(files):
    a, _, c = files
    answers = iter([[a], [a, c], [a, c]])
    script = Script(lambda: write(c, "c2\n"),                 # not read yet: not watched
                    lambda: write(a, "a2\n"), None,           # the check reads c from now on
                    lambda: write(c, "c3\n"), None)
    assert run(script, lambda changed: next(answers)) == [[], [a], [c]]


def test_a_save_made_while_a_check_runs_is_seen_at_the_next_look(files):
    a, _, _ = files
    saves = iter([None, lambda: write(a, "during\n"), None])

    def answer(changed):
        read = {a: watch.signature(a)}   # a is read, then saved while the check goes on
        save = next(saves)
        if save is not None:
            save()
        return read

    script = Script(lambda: write(a, "a2\n"), None, None, None)
    assert run(script, answer) == [[], [a], [a]]


def test_a_file_removed_or_made_again_is_a_change(files):
    a, b, _ = files
    script = Script(lambda: a.unlink(), None, lambda: write(a, "back\n"), None)
    assert run(script, lambda changed: [a, b]) == [[], [a], [a]]


def test_what_tells_a_change():
    assert watch.signature(Path("/nonexistent/x.rules")) is None
    assert watch.signature(Path("bad\0name")) is None


# ── which files a load asks for ──

def test_a_load_asks_for_its_file_its_base_its_data_and_its_imports_in_order():
    rulesets, stdlib = resources.data_dir("rulesets"), resources.data_dir("stdlib")
    with loading.noting_reads() as read:
        regnum.load(rulesets / "variants" / "lords_ties_use_up_second.rules")
    assert all(seen == watch.signature(path) is not None for path, seen in read.items())
    assert list(read) == [(rulesets / "variants" / "lords_ties_use_up_second.rules").absolute(),
                    (rulesets / "kingdom_builder.rules").absolute(),
                    (rulesets / "data" / "kingdom-builder-boards.json").absolute(),
                    (stdlib / "seats.rules").absolute(), (stdlib / "decks.rules").absolute(),
                    (stdlib / "majority.rules").absolute()]


def test_a_failed_load_names_what_it_asked_for_before_it_failed(tmp_path):
    shutil.copy(resources.data_dir("rulesets") / "variants" / "permanent_nobles.rules", tmp_path)
    (tmp_path / "kings_road.rules").write_text("oops here\n")
    variant = tmp_path / "permanent_nobles.rules"
    variant.write_text(variant.read_text().replace('"../kings_road.rules"', '"kings_road.rules"'))
    with loading.noting_reads() as read, pytest.raises(RulesetError) as failed:
        regnum.load(variant)
    assert failed.value.diagnostics[0].code == "E001"
    assert list(read) == [variant, tmp_path / "kings_road.rules"]


def test_one_file_named_two_ways_is_asked_for_once(tmp_path, monkeypatch):
    ruleset = tmp_path / "tiny.rules"
    shutil.copy(resources.data_dir("rulesets") / "kings_road.rules", ruleset)
    monkeypatch.chdir(tmp_path)
    with loading.noting_reads() as read:
        regnum.load("tiny.rules")
        regnum.load(str(ruleset))
    assert list(read) == [ruleset, resources.data_dir("stdlib").absolute() / "majority.rules"]


def test_outside_noting_nothing_is_noted():
    loading.asked_for(Path("somewhere.rules"))
    with loading.noting_reads() as read:
        pass
    assert read == {}


def test_a_data_file_or_a_base_not_found_is_noted_as_missing(tmp_path):
    shutil.copytree(resources.data_dir("rulesets"), tmp_path / "rulesets")
    boards = tmp_path / "rulesets" / "data" / "kingdom-builder-boards.json"
    boards.unlink()
    with loading.noting_reads() as read, pytest.raises(RulesetError) as failed:
        regnum.load(tmp_path / "rulesets" / "kingdom_builder.rules")
    assert failed.value.diagnostics[0].code == "E008"
    assert list(read) == [tmp_path / "rulesets" / "kingdom_builder.rules", boards]
    assert read[boards] is None
    variant = tmp_path / "permanent_nobles.rules"   # its base beside it, not there yet
    shutil.copy(resources.data_dir("rulesets") / "variants" / "permanent_nobles.rules", variant)
    variant.write_text(variant.read_text().replace('"../kings_road.rules"', '"my_base.rules"'))
    with loading.noting_reads() as read, pytest.raises(RulesetError) as failed:
        regnum.load(variant)
    assert failed.value.diagnostics[0].code == "E503"
    assert read == {variant: watch.signature(variant), tmp_path / "my_base.rules": None}
