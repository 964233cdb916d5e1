"""A ruleset written in a test, loaded from a file of the test's temporary folder (a ruleset
is always read from a .rules file: its messages name it)."""
from __future__ import annotations

import textwrap

import regnum


def load(tmp_path, text: str, name: str = "toy.rules") -> regnum.Ruleset:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return regnum.load(path)
