"""`regnum check --watch`: a check, then one each time a file the rulesets read is saved,
in the same process, until Ctrl-C; the exit code is the last check's.

In-process, the command's looks at the files are scripted (each `sleep` of watch.py runs the
test's next edit, and Ctrl-C comes after the last); one test runs the real command and
stops it with SIGINT."""
from __future__ import annotations

import functools
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from regnum import resources, watch
from regnum.cli import cli

_clock = [1_700_000_000 * 10**9]


def write(path: Path, text: str) -> None:
    path.write_text(text)
    _clock[0] += 10**9
    os.utime(path, ns=(_clock[0], _clock[0]))


def append(path: Path, line: str) -> None:
    write(path, path.read_text() + line + "\n")


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A copy of King's Road and Permanent Nobles in a folder of its own, the working one."""
    shutil.copy(resources.data_dir("rulesets") / "kings_road.rules", tmp_path)
    variant = tmp_path / "permanent_nobles.rules"
    shutil.copy(resources.data_dir("rulesets") / "variants" / "permanent_nobles.rules", variant)
    write(variant, variant.read_text().replace('"../kings_road.rules"', '"kings_road.rules"'))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str, code: int):
    """`regnum ARGS` through click's runner: no exception escapes, the exit code is `code`."""
    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(cli, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"regnum {' '.join(args)} raised {result.exception!r}") from result.exception
    assert "Traceback" not in result.stderr
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    return result


def scripted(monkeypatch, *edits):
    """The command's looks at the files: at each, the next edit (None: no edit, or a save
    seen to be over); Ctrl-C after the last."""
    steps = list(edits)

    def sleep(seconds):
        if not steps:
            raise KeyboardInterrupt
        edit = steps.pop(0)
        if edit is not None:
            edit()

    monkeypatch.setattr(watch, "watch", functools.partial(watch.watch, sleep=sleep))


def stamped(stderr: str) -> list[str]:
    """stderr's lines, each check's time in ms as N and the clock as HH:MM:SS."""
    lines = re.sub(r"checked in \d+ ms", "checked in N ms", stderr)
    return re.sub(r"── \d\d:\d\d:\d\d ", "── HH:MM:SS ", lines).splitlines()


def test_each_save_is_checked_again_and_a_mistake_shown_where_it_is(folder, monkeypatch):
    base, variant = folder / "kings_road.rules", folder / "permanent_nobles.rules"
    text = base.read_text()
    scripted(monkeypatch,
             lambda: append(variant, "# a comment"), None,
             lambda: append(base, "oops here"), None,
             None,                                       # a look: nothing changed
             lambda: write(base, text), None)
    result = run("check", "--watch", "permanent_nobles.rules", code=0)
    ok = "ok: permanent_nobles.rules (24 rules, 0 warnings)\n"
    assert result.stdout == ok * 3
    bad_line = len(text.splitlines()) + 1
    assert stamped(result.stderr) == [
        "checked in N ms; watching 3 files (Ctrl-C stops)",
        "── HH:MM:SS permanent_nobles.rules changed",
        "checked in N ms; watching 3 files (Ctrl-C stops)",
        "── HH:MM:SS kings_road.rules changed",
        f"kings_road.rules:{bad_line}:1: error[E001]: unexpected 'oops'; expected 'action', 'board', "
        "'const', 'def', 'ends', 'enum', 'flow', 'game', 'import', 'invariant', 'option', 'phase', …",
        f" {bad_line} | oops here",
        f" {' ' * len(str(bad_line))} | ^^^^",
        "checked in N ms; watching 2 files (Ctrl-C stops)",
        "── HH:MM:SS kings_road.rules changed",
        "checked in N ms; watching 3 files (Ctrl-C stops)",
    ]


def test_stopped_after_a_failed_check_the_command_fails(folder, monkeypatch):
    variant = folder / "permanent_nobles.rules"
    scripted(monkeypatch, lambda: append(variant, "rule crown_noble(r):\n    set nowhere = 1"), None)
    result = run("check", "--watch", "permanent_nobles.rules", code=1)
    assert result.stdout == "ok: permanent_nobles.rules (24 rules, 0 warnings)\n"
    assert re.search(r"^permanent_nobles\.rules:\d+:\d+: error\[E\d+\]", result.stderr, re.M)
    assert stamped(result.stderr)[-1] == "checked in N ms; watching 3 files (Ctrl-C stops)"


def test_with_json_each_check_is_one_object_a_line(folder, monkeypatch):
    base, variant = folder / "kings_road.rules", folder / "permanent_nobles.rules"
    scripted(monkeypatch, lambda: append(base, "oops here"), None)
    result = run("check", "--watch", "--json", "permanent_nobles.rules", code=1)
    assert result.stderr == ""
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    majority = str(resources.data_dir("stdlib").absolute() / "majority.rules")
    assert first["changed"] == [] and first["rulesets"][0]["ok"] is True
    assert first["watching"] == [str(variant), str(base), majority]
    assert second["changed"] == [str(base)] and second["rulesets"][0]["ok"] is False
    assert [d["code"] for d in second["rulesets"][0]["diagnostics"]] == ["E001"]
    assert second["watching"] == [str(variant), str(base)]
    assert all(type(report["seconds"]) is float and report["seconds"] > 0 for report in (first, second))


def test_a_data_file_is_watched_as_the_ruleset_is(tmp_path, monkeypatch):
    bundled = resources.data_dir("rulesets")
    shutil.copytree(bundled, tmp_path / "rulesets")
    boards = tmp_path / "rulesets" / "data" / "kingdom-builder-boards.json"
    scripted(monkeypatch, lambda: write(boards, "{"), None)
    monkeypatch.chdir(tmp_path)
    result = run("check", "--watch", "rulesets/variants/lords_ties_use_up_second.rules",
                 "--rules-path", "rulesets", code=1)
    lines = stamped(result.stderr)
    assert lines[0] == "checked in N ms; watching 6 files (Ctrl-C stops)"
    assert lines[1] == "── HH:MM:SS rulesets/data/kingdom-builder-boards.json changed"
    assert lines[2] == ("rulesets/data/kingdom-builder-boards.json:1:2: error[E009]: malformed JSON: "
                        "Expecting property name enclosed in double quotes")
    assert lines[-1] == "checked in N ms; watching 3 files (Ctrl-C stops)"


def test_nothing_to_watch_stops_at_once(folder, monkeypatch):
    scripted(monkeypatch)   # were it to watch, Ctrl-C at the first look
    result = run("check", "--watch", "no_such_ruleset", code=1)
    assert result.stderr.splitlines()[-1] == "error: nothing to watch: no ruleset file was found"


def test_an_interval_without_watch_is_a_usage_error(folder):
    result = run("check", "permanent_nobles.rules", "--interval", "1", code=2)
    assert "only a check that watches looks at the files again: add --watch" in result.stderr


def test_the_real_command_sees_a_save_and_stops_at_ctrl_c(folder, tmp_path):
    variant = folder / "permanent_nobles.rules"
    env = dict(os.environ, REGNUM_CACHE_DIR=str(tmp_path / "cache"))
    process = subprocess.Popen([sys.executable, "-m", "regnum", "check", "--watch", "--interval", "0.05",
                                "permanent_nobles.rules"], cwd=folder, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out: queue.Queue = queue.Queue()
    err: queue.Queue = queue.Queue()
    readers = [threading.Thread(target=lambda s=stream, q=lines: [q.put(line) for line in s], daemon=True)
               for stream, lines in ((process.stdout, out), (process.stderr, err))]
    for reader in readers:
        reader.start()

    def until(lines: queue.Queue, pattern: str) -> list[str]:
        seen = []
        while True:
            seen.append(lines.get(timeout=120).rstrip("\n"))
            if re.search(pattern, seen[-1]):
                return seen

    ok = "ok: permanent_nobles.rules (24 rules, 0 warnings)"
    try:
        assert until(out, "^ok: ") == [ok]
        assert len(until(err, r"^checked in \d+ ms; watching 3 files")) == 1   # nothing before it
        append(variant, "# a comment")
        again = until(err, r"^checked in \d+ ms; watching 3 files")
        assert len(again) == 2
        assert re.fullmatch(r"── \d\d:\d\d:\d\d permanent_nobles.rules changed", again[0])
        assert until(out, "^ok: ") == [ok]
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    for reader in readers:   # to the end of what the process wrote
        reader.join(timeout=60)
    rest = []
    for lines in (out, err):
        while not lines.empty():
            rest.append(lines.get())
    assert rest == []   # nothing after Ctrl-C: no traceback


def test_the_verdict_is_shown_before_the_cache_is_written(folder, tmp_path, monkeypatch):
    from regnum.cli import check_list
    from regnum.compiler import codecache
    monkeypatch.setenv("REGNUM_CACHE_DIR", str(tmp_path / "cache"))
    codecache.forget_in_process()
    variant = folder / "permanent_nobles.rules"
    events = []
    real_echo, real_write = check_list.echo, codecache._write
    monkeypatch.setattr(check_list, "echo", lambda message="", err=False: (
        events.append(str(message).split(" ")[0]), real_echo(message, err)))
    monkeypatch.setattr(codecache, "_write", lambda *a: (events.append("written"), real_write(*a)))
    scripted(monkeypatch, lambda: append(variant, "# a comment"), None)
    run("check", "--watch", "permanent_nobles.rules", code=0)
    assert events == ["ok:", "checked", "written", "──", "ok:", "checked", "written"]
    codecache.forget_in_process()


def test_a_ruleset_gone_for_a_while_is_checked_again_when_it_is_back(folder, monkeypatch):
    variant = folder / "my_nobles.rules"   # a name no bundled ruleset answers to
    text = (folder / "permanent_nobles.rules").read_text().replace("permanent_nobles", "my_nobles")
    write(variant, text)
    scripted(monkeypatch, lambda: variant.unlink(), None, None, lambda: write(variant, text), None)
    result = run("check", "--watch", "my_nobles.rules", code=0)
    assert result.stdout == "ok: my_nobles.rules (24 rules, 0 warnings)\n" * 2
    lines = stamped(result.stderr)
    assert lines[:3] == ["checked in N ms; watching 3 files (Ctrl-C stops)",
                         "── HH:MM:SS my_nobles.rules changed",
                         "error: no ruleset file or bundled ruleset named 'my_nobles.rules'; "
                         "did you mean 'permanent_nobles'?"]
    assert lines[-2:] == ["── HH:MM:SS my_nobles.rules changed",
                          "checked in N ms; watching 3 files (Ctrl-C stops)"]
