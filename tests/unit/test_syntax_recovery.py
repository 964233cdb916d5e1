"""Every independent syntax error of a file is reported in one run, each once, at its line."""
from __future__ import annotations

import pytest

from regnum.diagnostics import RulesetError
from regnum.parse import parse_text

BROKEN = '''game t "T"
players 2..2
flow:
    if x = 1
        pass
    let = 3
    annouce "x"
    pass
phase p:
    move a to
'''


def test_all_syntax_errors_at_once():
    with pytest.raises(RulesetError) as err:
        parse_text(BROKEN, "broken.rules")
    found = [(d.code, d.span.line) for d in err.value.diagnostics]
    assert found == [("E001", 4), ("E001", 6), ("E001", 7), ("E001", 10)]
    assert err.value.diagnostics[2].hint == "did you mean 'announce'?"


def test_a_bad_declaration_line_does_not_hide_the_next_declarations():
    text = 'game t "T"\nplayers 2 to 5\nconst = 3\nflow:\n    pass\nphse q:\n    pass\n'
    with pytest.raises(RulesetError) as err:
        parse_text(text, "broken.rules")
    assert [d.span.line for d in err.value.diagnostics] == [2, 3, 6]


def test_a_correct_file_parses_once():
    tree = parse_text('game t "T"\nplayers 2..2\nflow:\n    pass\n', "fine.rules")
    assert tree.data == "start"


def test_a_bracket_left_open_is_named_where_it_was_opened():
    text = 'game t "T"\nplayers 2..2\nflow:\n    let xs = [1, 2\n    pass\n    annouce "x"\n'
    with pytest.raises(RulesetError) as err:
        parse_text(text, "open.rules")
    first, second = err.value.diagnostics
    assert (first.span.line, first.hint) == (5, "the '[' opened at line 4, column 14 is still open")
    assert (second.span.line, second.hint) == (6, "did you mean 'announce'?")


@pytest.mark.parametrize("body, expected", [
    # one mistake in a block of fields: nothing made up after it
    ('piece card:\n    power int\nflow:\n    pass\n', [4]),
    # two mistakes in a board's lines: both, and only them
    ('board m: graph\n    nodes a b\n    nodes c\n    edges a -\n    edges a - c\nflow:\n    pass\n', [4, 6]),
    # a bracket left open in a scoring: reported once, where the statement stops
    ('def h(p) = 1\nscoring s():\n    majority h(p) for p in players\n    pays [1\n    places 2\n'
     'flow:\n    pass\n', [7]),
])
def test_recovery_reports_the_mistakes_and_nothing_it_made_up(body, expected):
    with pytest.raises(RulesetError) as err:
        parse_text('game t "T"\nplayers 2..2\n' + body, "blocks.rules")
    assert [d.span.line for d in err.value.diagnostics] == expected


def test_tabs_and_bracket_continuations_do_not_confuse_the_indentation_check():
    text = 'game t "T"\nplayers 2..2\nflow:\n\tif true:\n\t\tlet w = [1,\n      2]\n\t\tpass\n      announce "x"\n'
    with pytest.raises(RulesetError) as err:
        parse_text(text, "tabs.rules")
    assert [(d.code, d.span.line) for d in err.value.diagnostics] == [("E003", 8)]
