"""A syntax error names every token the parser could take there, the literal ones Lark
names itself (`..`, `==`, `!=`, `<=`, `>=`) included: `players 2` was once "expected "
followed by nothing."""
from __future__ import annotations

import pytest

import regnum


def _error(tmp_path, text: str) -> str:
    path = tmp_path / "g.rules"
    path.write_text(text)
    with pytest.raises(regnum.RulesetError) as caught:
        regnum.load(path)
    return str(caught.value).splitlines()[0]


def test_a_player_count_without_its_range_expects_the_two_dots(tmp_path):
    assert _error(tmp_path, 'game g "G"\nplayers 2\n') == \
        f"{tmp_path / 'g.rules'}:2:10: error[E001]: unexpected end of line; expected '..'"


def test_a_value_followed_by_another_lists_the_comparisons(tmp_path):
    message = _error(tmp_path, 'game g "G"\nplayers 2..3\ndef f(x) = x 3\n')
    assert message.startswith(f"{tmp_path / 'g.rules'}:3:14: error[E001]: unexpected '3'; expected "
                              "'!=', '(', '*', '//' or '%', '+' or '-', '.', '<', '<=', '==', '>', '>=', '[', ")
