"""The bound on the state's size a new game starts with (Game.prepared): the tables counted
as they were made, plus what the setup stored (Ctx.fit), instead of walked after the setup.
The bound is never below the one the walk gave (the state's size is measured no later than
before), and a setup past the size limit is refused as before."""
from __future__ import annotations

import pytest

import regnum
from regnum.engine import game as game_module
from regnum.engine.state import size_of

from toy_rules import load   # tests/unit is on the path of its tests

BUNDLED = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate", "permanent_nobles",
           "harsh_tournament", "lords_ties_use_up_second", "recruit"]


def _covered(rules, players: int, seed: int) -> tuple[int, int]:
    """(the bound after the setup, what the walk measured there before: the variables, the
    tables and the grids as the setup left them). The bound adds to the walk's parts the
    pieces and whatever was stored (Ctx.fit), so it must hold the walk's parts at least."""
    game = game_module.Game.prepared(rules, players, seed, coverage=False)   # the setup run, not the flow
    state = game.state
    return game._size_bound, size_of(state.vars) + size_of(state.pvars) + size_of(state.tables) + size_of(state.grids)


@pytest.mark.parametrize("name", BUNDLED)
def test_the_bound_holds_what_the_walk_measured(name):
    rules = regnum.load(name)
    players = 3 if name in ("kings_gate", "harsh_tournament") else 4
    for seed in (0, 1, 2):
        bound, walked = _covered(rules, players, seed)
        assert bound >= walked


TABLES = """
game tables "Tables"
players 2..2
board map: graph
    nodes alpha, beta, gamma
    edges alpha - beta, beta - gamma
enum colour: red, green
var marks per map: int = 0
var names per map: str = "none yet"
var seen per colour: list of int = [1, 2, 3]
var flag per map: bool = false
setup:
    set marks(alpha) = 5
    set names(beta) = "a much longer name than before"
    set seen(red) = [4, 5, 6, 7, 8, 9]
    set flag(gamma) = true
flow:
    repeat until false:
        for p in players:
            ask p to mark
action mark(h in map):
    set names(h) = names(h) + "!"
"""


def test_the_tables_counted_as_made_bound_what_the_setup_wrote(tmp_path):
    rules = load(tmp_path, TABLES)
    bound, walked = _covered(rules, 2, 0)
    # The tables as made count one at least for each cell (3 numbers, which count 0 in a
    # table); what the setup stored adds the text of 30 characters and the list of 6 (Ctx.fit:
    # a text or flat list adds its length and one); the walk met the text's 22 more
    # characters than the start's, and the list's 3 more items.
    made = size_of({"marks": dict.fromkeys(["alpha", "beta", "gamma"], 0),
                    "names": dict.fromkeys(["alpha", "beta", "gamma"], "none yet"),
                    "seen": dict.fromkeys(["red", "green"], [1, 2, 3]),
                    "flag": dict.fromkeys(["alpha", "beta", "gamma"], False)})
    after = size_of(game_module.Game.prepared(rules, 2, 0).state.tables)
    assert after == made + 22 + 3
    assert bound - walked == (made + 3) + (31 + 7) - after == 16
