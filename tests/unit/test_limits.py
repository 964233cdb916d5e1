"""A ruleset that grows without bound is stopped by a limit with a clear error (DESIGN §5),
whatever grows: a list, a number, the work inside one expression, or the moves on offer."""
from __future__ import annotations

import textwrap
import time

import pytest

import regnum
from regnum import LimitExceeded

HEAD = """
game growth "Growth"
players 2..2
var l: list of int = [1]
var n: int = 2
"""

GROWTH = {
    "a list doubling": ("flow:\n    repeat until false:\n        set l = l + l\n", "list grew"),
    "a local list doubling": ("flow:\n    run grow()\nrule grow():\n    let xs = [1]\n"
                              "    repeat until false:\n        set xs = xs + xs\n", "list grew"),
    "a number squaring": ("flow:\n    repeat until false:\n        set n = n * n\n", "number grew"),
    "work inside one expression": (
        'flow:\n    announce "{sum(sum(1 for y in range(0, 1000000)) for x in range(0, 1000000))}"\n',
        "steps"),
    "moves on offer": ("flow:\n    ask 0 to go\naction go(a in range(0, 1000000), b in range(0, 1000000)):\n"
                       "    pass\n", "moves at once"),
}


@pytest.mark.parametrize("case", sorted(GROWTH))
def test_growth_is_stopped(tmp_path, case):
    body, words = GROWTH[case]
    path = tmp_path / "growth.rules"
    path.write_text(textwrap.dedent(HEAD).lstrip() + body, encoding="utf-8")
    rules = regnum.load(path)
    start = time.perf_counter()
    with pytest.raises(LimitExceeded) as err:
        game = rules.new_game(2)
        game.legal_moves()
    assert time.perf_counter() - start < 30
    diagnostic = err.value.diagnostics[0]
    assert diagnostic.code == "E901"
    assert words in diagnostic.message
    assert diagnostic.span.file.endswith("growth.rules") and diagnostic.span.line > 0
