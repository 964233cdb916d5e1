"""`x in C` where C is a constant list of texts, whole numbers, truth values and none is one
lookup in its set (helpers._in_fixed, codegen._fixed_items): the same answer and the same
steps as the search `_in` makes, for any value on the left."""
from __future__ import annotations

from hypothesis import given, strategies as st

import regnum
from regnum.compiler.helpers import _in, _in_fixed

from toy_rules import load   # tests/unit is on the path of its tests


class _Counter:
    """What `_in` and `_in_fixed` read of a context: its steps and their limit."""

    def __init__(self):
        self.steps, self.max_steps = 0, 10 ** 9

    def runaway(self):
        raise AssertionError("no limit here")


scalars = st.one_of(st.text(max_size=4), st.integers(-3, 3), st.booleans(), st.none())
values = st.one_of(scalars, st.lists(scalars, max_size=3), st.dictionaries(st.text(max_size=2), scalars, max_size=2))


@given(st.lists(scalars, max_size=6), values)
def test_the_lookup_answers_and_charges_as_the_search(items, value):
    searched, looked_up = _Counter(), _Counter()
    assert _in_fixed(looked_up, value, frozenset(items), len(items)) == _in(searched, value, items)
    assert looked_up.steps == searched.steps


RULES = """
game toy "Toy"
players 2..2
const kinds = ["farm", "oasis", "tower"]
const numbers = [0, 2, 4]
var seen: list of bool = []
var others: list of str = []
flow:
    set others = ["farm", "oasis", "tower"]
    repeat until false:
        ask 0 to look
action look(k in ["farm", "barn", "tower"], n in [0, 1, 4]):
    set seen = [k in kinds, k not in kinds, n in numbers, k in others]
"""


def test_a_constant_list_is_looked_up_and_a_variable_one_searched(tmp_path):
    rules = load(tmp_path, RULES)
    names = rules.model.expressions.codegen.ns
    assert [v for k, v in names.items() if k.startswith("_items")] == [frozenset({"farm", "oasis", "tower"}),
                                                                        frozenset({0, 2, 4})]
    game = rules.new_game(2)
    outcomes = {}
    for move in game.legal_moves(0):
        again = game.copy()
        again.peak_steps = 0
        again.play(move)
        outcomes[move.args["k"], move.args["n"]] = again.state.vars["seen"], again.peak_steps
    assert outcomes[("farm", 0)][0] == [True, False, True, True]
    assert outcomes[("barn", 1)][0] == [False, True, False, False]
    assert outcomes[("tower", 4)][0] == [True, False, True, True]
    # A text looked up charges the list's length times one more than the text's (`_in`):
    # "farm" and "barn" (4 letters) the same steps, "tower" (5) three more per search of
    # the three-item lists (three searches of them: kinds twice, and others).
    assert outcomes[("farm", 1)][1] == outcomes[("barn", 1)][1]
    assert outcomes[("tower", 1)][1] == outcomes[("farm", 1)][1] + 3 * 3
