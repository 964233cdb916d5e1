"""The generated move listers (compiler/listers.py) against the generic walk they replace
(decisions._enumerate_generic): in random games of every bundled ruleset, at every step,
every action listed for every seat to move gives the same moves in the same order (args
and env, keys in the same order), the same coverage counts, no more steps charged (a
lister keeps a call that reads no choice where the walk computes it again), and the same
answer to `exists`. The prefers' generated narrowings, likewise, against decisions._narrow:
every action's legal moves (`candidates`) for every seat, to move or not, at every step."""
from __future__ import annotations

import pytest

import regnum
from regnum.agents import play_random_game

from listings import both, preferred   # tests/unit is on the path of its tests

# (ruleset, player counts, seeds): every bundled ruleset and the variant, both ends of
# their player counts.
GAMES = [
    ("kings_road", (2, 5), range(3)),
    ("permanent_nobles", (3, 4), range(2)),
    ("kingdom_builder", (2, 4), range(2)),
    ("kings_kilt", (2, 4), range(3)),
    ("kings_gate", (2, 4), range(2)),
]


def _compare(game, narrowed: dict) -> int:
    compared = 0
    for player in game.to_move:
        for action in game.model.actions.values():
            for stop in (False, True):
                both(game, action.name, player, stop)
                compared += 1
    for player in range(game.players):
        for action in game.model.actions.values():
            _, _, hits = preferred(game, action.name, player)
            for clause in action.prefers:
                narrowed[clause.hit] += hits.get(clause.hit, 0)
            compared += 1
    return compared


@pytest.mark.parametrize("name, counts, seeds", GAMES, ids=[g[0] for g in GAMES])
def test_generated_listers_list_what_the_generic_walk_lists(name, counts, seeds):
    rules = regnum.load(name)
    assert all(a.lister is not None for a in rules.model.actions.values())
    assert all(c.narrow is not None for a in rules.model.actions.values() for c in a.prefers)
    compared = [0]
    narrowed = {c.hit: 0 for a in rules.model.actions.values() for c in a.prefers}

    def check(game):
        compared[0] += _compare(game, narrowed)

    for players in counts:
        for seed in seeds:
            game = play_random_game(rules, players, seed, started=check, after_move=check)
            assert game.is_over
    assert compared[0] > 100
    # Every prefer of the ruleset was compared where it narrowed the moves, not only where
    # it kept them all.
    assert all(n > 0 for n in narrowed.values()), narrowed
