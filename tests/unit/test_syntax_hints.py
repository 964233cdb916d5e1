"""The catalogue of common syntax mistakes (regnum.parse.SYNTAX_HINTS) is data: every example
must produce its own hint, and a misspelt keyword gets a "did you mean"."""
from __future__ import annotations

import pytest

from regnum.diagnostics import RulesetError
from regnum.parse import SYNTAX_HINTS, parse_text

CASES = [(hint, text) for hint, texts in SYNTAX_HINTS.items() for text in texts]


@pytest.mark.parametrize("hint, text", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_each_example_gets_its_hint(hint, text):
    with pytest.raises(RulesetError) as err:
        parse_text(text, "example.rules")
    (diagnostic,) = err.value.diagnostics
    assert diagnostic.code in ("E001", "E002")
    assert diagnostic.hint == hint


@pytest.mark.parametrize("text, word", [
    ('game g "G"\nphse go:\n    pass\n', "phase"),
    ('game g "G"\nflow:\n    mvoe a to b\n', "move"),
    ('game g "G"\nflow:\n    annouce "hi"\n', "announce"),
])
def test_misspelt_keywords_get_a_did_you_mean(text, word):
    with pytest.raises(RulesetError) as err:
        parse_text(text, "example.rules")
    assert err.value.diagnostics[0].hint == f"did you mean '{word}'?"


def test_a_correct_file_gets_no_hint_machinery_in_the_way():
    tree = parse_text('game g "G"\nplayers 2..2\nflow:\n    pass\n', "ok.rules")
    assert tree.data == "start"
