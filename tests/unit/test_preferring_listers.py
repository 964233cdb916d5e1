"""A lister that judges its action's prefer group by group as it lists (Action.preferring,
listers.preferring_lister, prefers.group_narrower), against the lister and then the narrowing
it stands for: the same moves in the same order and the same steps, or it raises and the
listing is made the plain way, which raises what it should. Which prefers it is made for;
random prefers per every parameter but the last (faults included); a last parameter of
pieces; the lister's hand-over to the generic walk; the limits of steps and of moves; whole
games of Kingdom Builder; a `can`'s listing kept with its prefer applied."""
from __future__ import annotations

import random

import pytest

import regnum
from regnum import LimitExceeded, Limits
from regnum.agents import play_random_game, playout, random_picks
from regnum.engine import decisions
from regnum.engine.state import canonical_json

from listings import _outcome   # tests/unit is on the path of its tests
from test_move_listers_differential import _condition
from toy_rules import load


def _plain(action):
    """The action without its preferring lister, until the patch is undone."""
    patch = pytest.MonkeyPatch()
    patch.setattr(action, "preferring", None)
    patch.setattr(action, "make_preferring", None)
    return patch


def _listed(game, action, player: int):
    """(outcome, steps) of decisions.listed without coverage, on a copy of the state."""
    ctx = game._ctx(game._state.copy())
    ctx.hits = None
    outcome = _outcome(lambda: decisions._pairs(action, player, decisions.listed(ctx, action, player)))
    return outcome, ctx.steps


def _compared(game, name: str, player: int = 0):
    """The listing made with the preferring lister, checked against the plain way (lister,
    then narrowing): the same outcome and steps. The preferring lister called alone gives
    the same moves and steps, or raises."""
    action = game.model.actions[name]
    assert decisions.preferring(action) is not None
    fused = _listed(game, action, player)
    patch = _plain(action)
    try:
        plain = _listed(game, action, player)
    finally:
        patch.undo()
    assert fused == plain
    ctx = game._ctx(game._state.copy())
    ctx.hits = None
    try:
        alone = action.preferring(ctx, player, None, False)
    except Exception:
        return plain
    assert [(list(a.items()), list(e.items())) for a, e in decisions._pairs(action, player, alone)] == plain[0][1]
    assert ctx.steps == plain[1]
    return plain


# ── which prefers ──────────────────────────────────────────────────────────────

SHAPES = """
game toy "Toy"
players 2..2
const xs = [1, 0, 2, 3]
flow:
    ask 0 to one or two or three or twice or skewed or inner
action one(a in [1, 2, 3]):
    prefer big: a > 1
    pass
action two(a in [1, 2, 3], b in [0, 1]):
    prefer big per a: a + b > 2
    pass
action three(a in [1, 2], b in [0, 1], c in [1, 2]):
    prefer big per a, b: xs[a + b] > c
    pass
action twice(a in [1, 2, 3], b in [0, 1]):
    prefer big per a: a + b > 2
    prefer odd per a: b == 1
    pass
action skewed(a in [1, 2, 3], b in [0, 1]):
    prefer big per b: a + b > 2
    pass
action inner(a in [1, 2, 3], b in [0, 1]):
    prefer big: a + b > 2
    pass
"""


def test_only_a_prefer_per_every_parameter_but_the_last_is_judged_by_group(tmp_path):
    rules = load(tmp_path, SHAPES)
    assert all(action.preferring is None for action in rules.model.actions.values())   # made when first used
    made = {name for name, action in rules.model.actions.items() if decisions.preferring(action) is not None}
    assert made == {"one", "two", "three"}   # two prefers, the wrong `per`, none: the plain way
    game = rules.new_game(2, 0, coverage=False)
    assert _compared(game, "one") == (("moves", [([("a", 2)], [("player", 0), ("a", 2)]),
                                                  ([("a", 3)], [("player", 0), ("a", 3)])]), 3)
    moves, steps = _compared(game, "two")
    assert [dict(args) for args, _ in moves[1]] == [{"a": 1, "b": 0}, {"a": 1, "b": 1}, {"a": 2, "b": 1},
                                                     {"a": 3, "b": 0}, {"a": 3, "b": 1}]
    moves, steps = _compared(game, "three")
    assert [dict(args) for args, _ in moves[1]] == [{"a": 1, "b": 0, "c": 1}, {"a": 1, "b": 0, "c": 2},
                                                     {"a": 1, "b": 1, "c": 1}, {"a": 2, "b": 0, "c": 1},
                                                     {"a": 2, "b": 1, "c": 1}, {"a": 2, "b": 1, "c": 2}]


def test_without_coverage_only(tmp_path):
    rules = load(tmp_path, SHAPES)
    action = rules.model.actions["two"]
    calls = []
    fused = decisions.preferring(action)

    def counted(c, player, hits, stop):
        calls.append(hits)
        return fused(c, player, hits, stop)
    counted.plain, counted.narrow = fused.plain, fused.narrow
    action.preferring = counted
    counted_game = rules.new_game(2, 0, coverage=True)
    assert len(counted_game.legal_moves(0)) == 22 and calls == []
    plain_game = rules.new_game(2, 0, coverage=False)
    assert len(plain_game.legal_moves(0)) == 22 and calls == [None]
    assert counted_game.hits["prefer:two.big"] == 1


def test_a_wrapped_lister_or_narrowing_is_listed_the_plain_way(tmp_path):
    rules = load(tmp_path, SHAPES)
    action = rules.model.actions["two"]
    narrowed = []
    narrow = action.prefers[0].narrow

    def counted(c, player, found):
        narrowed.append(len(found))
        return narrow(c, player, found)
    action.prefers[0].narrow = counted   # a test observing the narrowing sees it called
    game = rules.new_game(2, 0, coverage=False)
    ctx = game._ctx(game._state.copy())
    assert len(decisions.listed(ctx, action, 0)) == 5 and narrowed == [6]


# ── random prefers ─────────────────────────────────────────────────────────────

_PARAMS = [("a in [1, 2, 3], b in [0, 1, 2], c in [1, 2]", "a, b"),
           ("a in [1, 2, 3], b in range(a), c in [1, 2]", "a, b"),
           ("a in [1, 2], b in [1, 2], c in pool(a)", "a, b"),
           ("a in [1, 2, 3], c in pool(a)", "a"),
           ("c in [0, 1, 2, 3]", None)]


def _random_prefer(seed: int) -> str:
    r = random.Random(seed)
    params, per = r.choice(_PARAMS)
    names = [name for name in "abc" if f"{name} in" in params]
    condition = _condition(r, 0, [])
    for name in "ab":   # the random leaves read a, b and c: only what the action has
        if name not in names:
            condition = condition.replace(f"{name} ", "1 ").replace(f"[{name}", "[1").replace(f"({name})", "(1)")
            condition = condition.replace(f"{name},", "1,").replace(f"{name}]", "1]").replace(f"+ {name}", "+ 1")
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
action pick({params}):
    require r: count(xs) > 0 and f(0) >= 0
    prefer p{' per ' + per if per else ''}: {condition}
    pass
"""


def test_random_prefers_judged_by_group_keep_what_the_narrowing_keeps(tmp_path):
    seen = {"moves": 0, "raised": 0, "narrowed": 0, "refused": 0}
    for seed in range(150):
        path = tmp_path / f"prefer{seed}.rules"
        path.write_text(_random_prefer(seed), encoding="utf-8")
        try:
            rules = regnum.load(path)
        except regnum.RulesetError:   # a leaf of a name the action lacks, left over
            seen["refused"] += 1
            continue
        action = rules.model.actions["pick"]
        game = rules.new_game(2, 0, coverage=False)
        outcome, _ = _compared(game, "pick")
        seen[outcome[0]] += 1
        if outcome[0] == "moves":
            ctx = game._ctx(game._state.copy())
            seen["narrowed"] += len(outcome[1]) < len(action.lister(ctx, 0, None, False))
    assert seen == {"moves": 121, "raised": 27, "narrowed": 23, "refused": 2}


# ── a last parameter of pieces ─────────────────────────────────────────────────

CARDS = """
game cards "Cards"
players 2..2
piece card:
    value: int
zone hand per player: public
setup:
    for p in players:
        for v in [3, 1, 4, 1, 5]:
            create 1 card(value: v) in hand(p) named "card " + text(v)
flow:
    ask 0 to play
action play(row in [1, 2, 3, 4, 5], card in hand(player)):
    require not_one: card.value != 1 or row == 1
    prefer high per row: card.value > row
    pass
"""


def test_a_last_parameter_of_pieces(tmp_path):
    rules = load(tmp_path, CARDS)
    game = rules.new_game(2, 0, coverage=False)
    moves, steps = _compared(game, "play")
    chosen = [(dict(args)["row"], dict(args)["card"]) for args, _ in moves[1]]
    assert chosen == [(1, "card 3"), (1, "card 4"), (1, "card 5"),
                      (2, "card 3"), (2, "card 4"), (2, "card 5"),
                      (3, "card 4"), (3, "card 5"),
                      (4, "card 5"),
                      (5, "card 3"), (5, "card 4"), (5, "card 5")]   # none higher than 5: all stay
    assert steps == 25   # the five rows, and each row's four cards (the two 1s are one choice)


MIXED = """
game mixed "Mixed"
players 2..2
piece stone:
    weight: int = 0
    kind: str = "stone"
piece card:
    value: int = 0
    kind: str = "card"
zone bag per player: public
setup:
    for p in players:
        create 1 stone(weight: 2) in bag(p) named "heavy"
        create 1 card(value: 1) in bag(p) named "card"
        create 1 stone(weight: 0) in bag(p) named "light"
flow:
    ask 0 to pick
action pick(s in bag(player), n in [1, 2]):
    require heavy: s.kind != "card" and (n > 1 or s.weight > 0)
    prefer big per s: n == 2
    pass
"""


def test_a_listing_handed_to_the_walk_is_listed_the_plain_way(tmp_path):
    """The lister reads `s.weight` once per stone, before the requires that guard it: a card
    has none, so the listing goes to the generic walk; the preferring lister raises instead,
    and the listing is made the plain way."""
    rules = load(tmp_path, MIXED)
    action = rules.model.actions["pick"]
    game = rules.new_game(2, 0, coverage=False)
    ctx = game._ctx(game._state.copy())
    with pytest.raises(decisions.Unfused):
        decisions.preferring(action)(ctx, 0, None, False)
    moves, steps = _compared(game, "pick")
    assert [dict(args) for args, _ in moves[1]] == [{"s": "heavy", "n": 2}, {"s": "light", "n": 2}]
    assert steps == 9   # the walk's: three choices of s, two of n for each


# ── limits ─────────────────────────────────────────────────────────────────────

def test_the_limit_of_moves_counts_the_moves_before_the_prefer(tmp_path):
    """The listing has 12 moves after the prefer, 16 before (row 1 takes a 1 too): 15 moves
    at most are too few."""
    rules = load(tmp_path, CARDS)
    for limit, passes in ((16, True), (15, False)):
        game = rules.new_game(2, 0, coverage=False)
        game.limits = Limits(moves=limit)
        if passes:
            assert len(game.legal_moves(0)) == 12
        else:
            with pytest.raises(LimitExceeded) as refused:
                game.legal_moves(0)
            assert "'play' offers more than 15 moves at once" in str(refused.value)


def test_the_step_limit_is_met_where_the_plain_listing_meets_it(tmp_path):
    rules = load(tmp_path, SHAPES.replace("xs[a + b] > c", "f(a + b) > c * 10").replace(
        "const xs = [1, 0, 2, 3]", "const xs = [1, 0, 2, 3]\ndef f(n) = sum(x for x in range(n * 3))").replace(
        "ask 0 to one or two or three or twice or skewed or inner", "ask 0 to three"))
    game = rules.new_game(2, 0, coverage=False)
    _, needed = _compared(game, "three")
    messages = []
    for fused in (True, False):
        for limit, passes in ((needed, True), (needed - 1, False)):
            game = rules.new_game(2, 0, coverage=False)
            action = game.model.actions["three"]
            patch = _plain(action) if not fused else pytest.MonkeyPatch()
            game.limits = Limits(steps=limit)
            try:
                if passes:
                    assert len(game.legal_moves(0)) == 6
                else:
                    with pytest.raises(LimitExceeded) as refused:
                        game.legal_moves(0)
                    messages.append(str(refused.value))
            finally:
                patch.undo()
    assert len(messages) == 2 and messages[0] == messages[1]
    assert f"more than {needed - 1} steps without a decision" in messages[0]


# ── Kingdom Builder ────────────────────────────────────────────────────────────

@pytest.fixture(scope="module")
def kingdom():
    return regnum.load("kingdom_builder")


def test_kingdom_builder_judges_its_three_prefers_by_group(kingdom):
    assert {name for name, a in kingdom.model.actions.items() if decisions.preferring(a) is not None} == \
        {"build", "build_with_tile", "move_with_tile"}


def _uses(action):
    """Count the calls of an action's preferring lister (kept standing for the identity check)."""
    fused = decisions.preferring(action)
    calls = []

    def counted(c, player, hits, stop):
        calls.append(stop is not False)
        return fused(c, player, hits, stop)
    counted.plain, counted.narrow = fused.plain, fused.narrow
    action.preferring = counted
    return calls, fused


@pytest.mark.parametrize("seed", [0, 1, 9])
def test_kingdom_builder_games_equal_games_listed_the_plain_way(seed):
    fused_rules, plain_rules = regnum.load("kingdom_builder"), regnum.load("kingdom_builder")
    used = {name: _uses(a)[0] for name, a in fused_rules.model.actions.items() if decisions.preferring(a) is not None}
    for action in plain_rules.model.actions.values():
        action.preferring = action.make_preferring = None
    a = play_random_game(fused_rules, 4, seed, coverage=False)
    b = play_random_game(plain_rules, 4, seed, coverage=False)
    assert [m.to_dict() for m in a._moves] == [m.to_dict() for m in b._moves]
    assert canonical_json(a.to_dict()) == canonical_json(b.to_dict())
    assert a.peak_steps == b.peak_steps
    # Listed by group both for the `can`s (kept for the ask) and for the asks themselves.
    assert all(True in calls and False in calls for calls in used.values()), used


def test_a_listing_kept_from_a_can_comes_with_its_prefer_applied(kingdom):
    game = kingdom.new_game(players=4, seed=3, coverage=False)
    picks = random_picks(3, 4)
    for _ in playout(game, picks, 60):
        kept = game._cache.get("kept")
        if kept and any(action == "build" for _, action in kept):
            break
    else:
        pytest.fail("no listing of build was kept from a can")
    (seat, _), (found, steps, narrowed) = next((key, entry) for key, entry in kept.items() if key[1] == "build")
    assert narrowed is True
    action = game.model.actions["build"]
    patch = _plain(action)
    try:
        ctx = game._ctx(game._state.copy())
        ctx.hits = None
        assert decisions.listed(ctx, action, seat) == found and ctx.steps == steps
    finally:
        patch.undo()
    assert [m.args for m in game.legal_moves(seat) if m.action == "build"] == \
        [{"h": move[0]} for move in found]
