"""The generated move listers (compiler/listers.py) against the generic walk they replace
(decisions._enumerate_generic): in random games of every bundled ruleset, at every step,
every action listed for every seat to move gives the same moves in the same order (args
and env, keys in the same order), the same coverage counts, no more steps charged (a
lister keeps a call that reads no choice where the walk computes it again), and the same
answer to `exists`. The prefers' generated narrowings, likewise, against decisions._narrow:
every action's legal moves (`candidates`) for every seat, to move or not, at every step,
and the legal moves of small actions under random prefers."""
from __future__ import annotations

import random

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


# ── random prefers on a small action ─────────────────────────────────────────────
# Conditions built from the forms the generated narrowings write as statements (and, or,
# not, if, any and all of comprehensions with `where` and a second `for`, defs inlined or
# called) and leaves that fault (an index out of range), per no parameter, one or two.

_LEAVES = ["a > 1", "b == 2", "a + b > 3", "c in [1, 3]", "xs[a] > 0", "xs[b + c] > 1", "true", "false",
           "f(a) > 2", "f(b) == f(c)", "count(xs) > a", "c != none", "g() > 1", "text(c) == \"1\""]
_PARAMS = ["a in [1, 2, 3], b in [0, 1, 2], c in [1, 2]", "a in [1, 2, 3], b in range(a), c in [1, 2]",
           "a in [1, 2], b in [1, 2], c in pool(a)"]


def _condition(r, depth: int, names: list) -> str:
    form = r.randrange(8) if depth < 3 else 0
    if form == 0:
        if names and r.random() < 0.5:
            name = r.choice(names)
            return f"{name} > {r.randrange(4)}" if r.random() < 0.5 else f"xs[{name}] > 0"
        return r.choice(_LEAVES)
    if form in (1, 2):
        return f"({_condition(r, depth + 1, names)} {'and' if form == 1 else 'or'} {_condition(r, depth + 1, names)})"
    if form == 3:
        return f"not ({_condition(r, depth + 1, names)})"
    if form == 4:
        parts = [_condition(r, depth + 1, names) for _ in range(3)]
        return f"(if {parts[0]} then {parts[1]} else {parts[2]})"
    if form == 7:
        return f"h(a, {_condition(r, depth + 1, names)})"
    var = f"q{depth}"
    source = r.choice(["[0, 1, 2]", "[a, b]", "range(c)", "xs", "[]"])
    where = f" where {_condition(r, depth + 1, names + [var])}" if r.random() < 0.4 else ""
    more, inner = "", [var]
    if r.random() < 0.3:
        more, inner = f" for w{depth} in [b, {var}]", [var, f"w{depth}"]
    element = _condition(r, depth + 1, names + inner)
    return f"{'any' if form == 5 else 'all'}({element} for {var} in {source}{where}{more})"


def _random_prefers(seed: int) -> str:
    r = random.Random(seed)
    prefers = [f"    prefer p{i}{r.choice(['', ' per a', ' per b', ' per a, c', ' per c'])}: {_condition(r, 0, [])}"
               for i in range(r.randrange(1, 3))]
    return f"""
game toy "Toy"
players 2..2
const xs = [1, 0, 2, 3]
def f(n) = sum(x for x in range(n * 3))
def g() = sum(x for x in range(5))
def h(n, ok) = ok and n > 0
def pool(a) = if a == 1 then [1, 2] else [true]
flow:
    ask 0 to pick
action pick({r.choice(_PARAMS)}):
    require r: a + b != 4 and count(xs) > 0 and f(0) >= 0 and g() >= 0 and h(1, true) and count(pool(1)) > 0
{chr(10).join(prefers)}
    pass
"""


def test_generated_narrowings_keep_what_narrow_keeps_on_random_prefers(tmp_path):
    seen = {"moves": 0, "raised": 0, "narrowed": 0}
    for seed in range(200):
        path = tmp_path / f"prefers{seed}.rules"
        path.write_text(_random_prefers(seed), encoding="utf-8")
        rules = regnum.load(path)
        assert all(c.narrow is not None for c in rules.model.actions["pick"].prefers)
        outcome, _, hits = preferred(rules.new_game(2), "pick")
        seen[outcome[0]] += 1
        seen["narrowed"] += any(key.startswith("prefer:") for key in hits)
    assert seen == {"moves": 153, "raised": 47, "narrowed": 68}
