"""docs/tutorial.md shows every command with its real output: each ```console block is run here
and must print what the page says.

A block holds `$ regnum …` lines, each followed by the output the page shows for it. The
commands run in the checkout's folder, as the page says, with the reader's `my_nobles.rules`
there as the tutorial first writes it (removed afterwards). Only rates measured on the
machine (`71 steps/s`, `games per second: 177.0`) are compared as numbers of any value, and trailing spaces not at all.
After a deliberate change, `python tests/cli/test_tutorial.py --update` writes the outputs
into the page again (review the diff).
"""
from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from test_cli import run  # tests/cli is on the path of its tests

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"
FENCE = re.compile(r"^```console\n(.*?)^```", re.M | re.S)
RATE = re.compile(r"\d+(\.\d+)? (steps|games)/s|(games per second): \d+(\.\d+)?")


def sessions() -> list[tuple[int, str, str]]:
    """(line, command, expected output) of every command of the page's console blocks."""
    text = TUTORIAL.read_text()
    out = []
    for block in FENCE.finditer(text):
        line = text.count("\n", 0, block.start()) + 2
        command, expected = None, []
        for offset, row in enumerate(block.group(1).splitlines()):
            if row.startswith("$ "):
                if command is not None:
                    out.append((start, command, "\n".join(expected)))
                command, expected, start = row[2:], [], line + offset
            else:
                expected.append(row)
        if command is not None:
            out.append((start, command, "\n".join(expected)))
    return out


def test_the_tutorial_shows_check_diff_compare_and_fuzz():
    shown = {shlex.split(command)[1] for _, command, _ in sessions()}
    assert {"check", "diff", "compare", "fuzz"} <= shown


@pytest.mark.parametrize("line, command, expected", sessions(), ids=lambda v: str(v) if isinstance(v, int) else "")
def test_a_command_of_the_tutorial_prints_what_the_page_shows(line, command, expected, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "100")
    words = shlex.split(command)
    assert words[0] == "regnum", f"tutorial.md:{line}: a console line runs regnum"
    mine = ROOT / "my_nobles.rules"
    assert not mine.exists()
    mine.write_text("variant my_nobles of kings_road\n")
    try:
        result = run(*words[1:], code=None)
    finally:
        mine.unlink()
    assert result.exit_code == 0, f"tutorial.md:{line}"
    assert shown(result.stdout + result.stderr) == shown(expected), f"tutorial.md:{line}"


def shown(text: str) -> str:
    return "\n".join(RATE.sub("N/s", row).rstrip() for row in text.strip("\n").splitlines())


def update() -> None:
    """Write each command's real output into the page (after a deliberate change; review the
    diff): `python tests/cli/test_tutorial.py --update`."""
    text = TUTORIAL.read_text()

    def rerun(block: re.Match) -> str:
        rows = []
        for row in block.group(1).splitlines():
            if row.startswith("$ "):
                mine = ROOT / "my_nobles.rules"
                mine.write_text("variant my_nobles of kings_road\n")
                try:
                    result = run(*shlex.split(row[2:])[1:], code=None)
                finally:
                    mine.unlink()
                rows += [row] + [r.rstrip() for r in (result.stdout + result.stderr).strip("\n").splitlines()]
        return "```console\n" + "\n".join(rows) + "\n```"
    TUTORIAL.write_text(FENCE.sub(rerun, text))


if __name__ == "__main__":
    import sys
    if sys.argv[1:] != ["--update"]:
        raise SystemExit("usage: python tests/cli/test_tutorial.py --update")
    os.chdir(ROOT)
    os.environ["COLUMNS"] = "100"
    update()
