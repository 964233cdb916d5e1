"""Generated move listers (compiler/listers.py) on small rulesets: each case lists exactly
what the generic walk lists (listings.both checks it) and the exact moves, coverage and
steps the definition gives. Likewise the prefers' generated narrowings against
decisions._narrow (listings.preferred)."""
from __future__ import annotations

import re
import textwrap

import pytest
from hypothesis import given, strategies as st

import regnum
from regnum import LimitExceeded, Move
from regnum.builtins import EvalError
from regnum.engine import decisions

from listings import both, observe_candidates, preferred   # tests/unit is on the path of its tests
from toy_rules import load

HEAD = """
game toy "Toy"
players 2..2
"""


def _game(tmp_path, text: str, limits: regnum.Limits | None = None):
    rules = load(tmp_path, HEAD + textwrap.dedent(text))
    assert all(a.lister is not None for a in rules.model.actions.values())
    assert all(c.narrow is not None for a in rules.model.actions.values() for c in a.prefers)
    return rules.new_game(2, limits=limits)


def _moves(outcome) -> list:
    kind, found = outcome
    assert kind == "moves"
    return [dict(args) for args, _ in found]


def test_a_domain_reading_an_earlier_choice_and_one_reading_none(tmp_path):
    game = _game(tmp_path, """
    flow:
        ask 0 to pick
    action pick(k in [1, 2, 3], n in range(k), m in range(2)):
        require not_one: n != 1
        pass
    """)
    outcome, steps, hits = both(game, "pick")
    assert _moves(outcome) == [{"k": 1, "n": 0, "m": 0}, {"k": 1, "n": 0, "m": 1},
                               {"k": 2, "n": 0, "m": 0}, {"k": 2, "n": 0, "m": 1},
                               {"k": 3, "n": 0, "m": 0}, {"k": 3, "n": 0, "m": 1},
                               {"k": 3, "n": 2, "m": 0}, {"k": 3, "n": 2, "m": 1}]
    assert hits == {"require:pick.not_one": 2}
    # k: 3 choices; range(k) built (k steps) and offered (k choices) for each k: 2 × 6;
    # range(2) built once (2 steps, it reads no choice), offered once per (k, n) kept: 4 × 2.
    assert steps == 3 + 2 * 6 + 2 + 4 * 2
    # Every env binds the player then the choices, in order.
    assert outcome[1][-1][1] == [("player", 0), ("k", 3), ("n", 2), ("m", 1)]


def test_choices_that_cannot_be_keys_are_distinct_by_their_text_and_domains_read_again(tmp_path):
    game = _game(tmp_path, """
    flow:
        ask 0 to pick
    action pick(a in [2, 1], b in [[1], [2, 3], [1]], n in range(count(b) + a)):
        require not_two: n != 2
        pass
    """)
    outcome, steps, hits = both(game, "pick")
    assert [(m["a"], m["b"]) for m in _moves(outcome)] == [(2, [1])] * 2 + [(2, [2, 3])] * 3 + \
        [(1, [1])] * 2 + [(1, [2, 3])] * 2
    assert hits == {"require:pick.not_two": 3}
    # n's domain for each (a, b): built (3, 4, 2, 3 steps) and offered (as many choices).
    assert steps == 2 + 2 * 2 + 2 * (3 + 4 + 2 + 3)


def test_a_require_over_two_choices_counts_the_first_clause_that_fails(tmp_path):
    game = _game(tmp_path, """
    flow:
        ask 0 to pair
    action pair(a in [1, 2, 3], b in [1, 2, 3]):
        require low: a < 3 else "too high"
        require differ: a != b
        require ordered: a < b
        pass
    """)
    outcome, steps, hits = both(game, "pair")
    assert _moves(outcome) == [{"a": 1, "b": 2}, {"a": 1, "b": 3}, {"a": 2, "b": 3}]
    assert hits == {"require:pair.low": 1, "require:pair.differ": 2, "require:pair.ordered": 1}
    assert steps == 3 + 2 * 3
    assert game.all_legal_moves() == [Move(0, "pair", {"a": 1, "b": 2}), Move(0, "pair", {"a": 1, "b": 3}),
                                      Move(0, "pair", {"a": 2, "b": 3})]


def test_a_call_several_requires_make_alike_is_computed_once_per_choice(tmp_path):
    game = _game(tmp_path, """
    def spread(a, b) = sum(x for x in range(a * b * 10))
    flow:
        ask 0 to dup
    action dup(a in [1, 2], b in [1, 2, 3]):
        require one: spread(a, b) >= 0
        require two: spread(a, b) < 1000
        pass
    """)
    outcome, steps, hits = both(game, "dup")
    assert _moves(outcome) == [{"a": a, "b": b} for a in (1, 2) for b in (1, 2, 3) if (a, b) != (2, 3)]
    assert hits == {"require:dup.two": 1}   # sum(range(60)) = 1770
    # spread(a, b) builds and goes through range(10ab): 20ab steps, once per (a, b) where the
    # generic walk pays it twice: 20 × (1 + 2) × (1 + 2 + 3).
    assert steps == 2 + 2 * 3 + 20 * 3 * 6


def test_a_def_call_that_reads_no_choice_is_computed_once_per_listing_at_its_first_use(tmp_path):
    game = _game(tmp_path, """
    def total() = sum(x for x in range(10))
    def near(b) = b + total()
    def upto(n) = sum(x for x in range(n * 10))
    flow:
        ask 0 to go or stay or far or trio
    action go(a in [1, 2], b in [1, 2, 3]):
        require below: b + total() < 48
        pass
    action stay(a in [1, 2], b in [1, 2, 3]):
        require guarded: b > 5 and b < total()
        pass
    action far(a in [1, 2], b in [1, 2, 3]):
        require below: near(b) < 48
        pass
    action trio(a in [1, 2], b in [1, 2], c in [1, 2, 3]):
        require below: c + upto(a) < 48
        pass
    """)
    outcome, steps, hits = both(game, "go")
    assert _moves(outcome) == [{"a": 1, "b": 1}, {"a": 1, "b": 2}, {"a": 2, "b": 1}, {"a": 2, "b": 2}]
    assert hits == {"require:go.below": 2}
    # total() walks range(10) (built: 10 steps, gone through: 10) once in the listing (the
    # generic walk: once for each a's batch of b).
    assert steps == 2 + 2 * 3 + 20
    outcome, steps, hits = both(game, "stay")
    assert _moves(outcome) == [] and hits == {"require:stay.guarded": 6}
    assert steps == 2 + 2 * 3   # b > 5 never holds: total() is never computed
    # Inside near's body, total() reads none of near's parameters: kept for the listing too.
    outcome, steps, hits = both(game, "far")
    assert _moves(outcome) == [{"a": 1, "b": 1}, {"a": 1, "b": 2}, {"a": 2, "b": 1}, {"a": 2, "b": 2}]
    assert steps == 2 + 2 * 3 + 20
    # upto(a) is kept per choice of a (10 or 20 items built and gone through), not computed
    # again for each choice of b; c + 45 < 48 leaves c = 1 and 2 when a = 1, none when a = 2.
    outcome, steps, hits = both(game, "trio")
    assert _moves(outcome) == [{"a": 1, "b": b, "c": c} for b in (1, 2) for c in (1, 2)]
    assert hits == {"require:trio.below": 2 + 2 * 3}
    assert steps == 2 + 2 * 2 + 4 * 3 + (20 + 40)


def test_pieces_with_one_label_are_told_apart_and_never_taken_twice(tmp_path):
    game = _game(tmp_path, """
    piece card:
        rank: int
    zone hand per player: public
    setup:
        create 2 card(rank: 3) in hand(0) named "x"
        create 1 card(rank: 4) in hand(0) named "x"
        create 1 card(rank: 5) in hand(0) named "y"
    flow:
        ask 0 to swap
    action swap(a in hand(player), b in hand(player)):
        require not_five: b.rank != 5
        pass
    """)
    outcome, steps, hits = both(game, "swap")
    # The two rank-3 cards are equal: one choice, "x#0"; the rank-4 one is "x#2". Once a
    # takes card 0, b may still take its twin, card 1 (under the same label).
    assert _moves(outcome) == [{"a": "x#0", "b": "x#0"}, {"a": "x#0", "b": "x#2"},
                               {"a": "x#2", "b": "x#0"},
                               {"a": "y", "b": "x#0"}, {"a": "y", "b": "x#2"}]
    assert [env for _, env in outcome[1]][0] == [("player", 0), ("a", 0), ("b", 1)]
    assert hits == {"require:swap.not_five": 2}
    assert steps == 3 + 3 + 2 + 2   # a's choices, then b's without the card a took


def test_a_fault_in_a_require_guarded_by_an_earlier_one_lists_the_plain_way(tmp_path):
    game = _game(tmp_path, """
    const piles = [[], [5], [4, 9]]
    flow:
        ask 0 to pick
    action pick(k in [0, 1, 2], n in [1, 2]):
        require enough: n <= count(piles[k])
        require top: piles[k][0] > 3
        pass
    """)
    action = game.model.actions["pick"]
    with pytest.raises(EvalError):   # `top` is checked with k alone: piles[0][0] fails
        action.lister(game._ctx(game._state), 0, {}, False)
    outcome, steps, hits = both(game, "pick")
    assert _moves(outcome) == [{"k": 1, "n": 1}, {"k": 2, "n": 1}, {"k": 2, "n": 2}]
    # Counted the plain way: the first require failing for each whole combination.
    assert hits == {"require:pick.enough": 3}
    assert steps == 3 + 6   # k's choices before the fault, then each combination once


def test_a_listing_past_the_moves_limit_is_stopped_where_the_walk_stops(tmp_path):
    game = _game(tmp_path, """
    flow:
        ask 0 to go
    action go(a in [1, 2, 3], b in [1, 2, 3]):
        pass
    """, regnum.Limits(moves=5))
    outcome, steps, hits = both(game, "go")
    assert outcome == ("raised", "Overflow", "'go' offers more than 5 moves at once (runaway parameter domains?)")
    assert steps == 3 + 3 + 3   # the third batch of b's choices passes the limit
    with pytest.raises(LimitExceeded, match="'go' offers more than 5 moves at once"):
        game.all_legal_moves()


def test_a_listing_past_the_steps_limit_is_stopped_at_the_same_step(tmp_path):
    game = _game(tmp_path, """
    flow:
        ask 0 to go
    action go(a in range(100), b in range(100)):
        require some: a + b > 0
        pass
    """, regnum.Limits(steps=4000))
    outcome, steps, hits = both(game, "go")
    assert outcome[0] == "raised" and "more than 4000 steps" in outcome[2]
    # range(100) built and offered for a (200), built once for b (100), then offered once
    # per a: the 38th batch passes 4,000.
    assert steps == 300 + 38 * 100
    with pytest.raises(LimitExceeded, match="more than 4000 steps"):
        game.all_legal_moves()


def test_exists_stops_at_the_first_batch_holding_a_move(tmp_path):
    game = _game(tmp_path, """
    var tokens per player: int = 2
    flow:
        for p in players:
            while can(p, spend, trade):
                ask p to spend or trade
        announce "{[tokens(p) for p in players]} {can(0, spend)}"
    action spend():
        require has: tokens(player) > 0 else "no token left"
        subtract 1 from tokens(player)
    action trade(a in [1, 2, 3], b in [1, 2, 3]):
        require late: a >= 2 and b >= 2
        require has: tokens(player) > 0
        pass
    """)
    outcome, steps, hits = both(game, "trade", stop=True)
    assert outcome == ("found",) and hits == {}
    assert steps == 3 + 3 + 3   # a's choices, then b's for a = 1 and a = 2, never a = 3
    assert both(game, "spend", stop=True)[0] == ("found",)
    assert decisions.exists(game._ctx(game._state), game.model.actions["trade"], 0)
    for _ in range(2):
        game.play(Move(0, "spend", {}))
    assert both(game, "trade", stop=True) == (("moves", []), 0, {})   # `has` reads no choice
    assert both(game, "spend", stop=True) == (("moves", []), 0, {})
    assert not decisions.exists(game._ctx(game._state), game.model.actions["trade"], 0)
    assert game.to_move == [1]


def test_an_action_with_more_parameters_than_python_nests_uses_the_generic_walk(tmp_path):
    names = [f"p{i}" for i in range(24)]
    rules = load(tmp_path, HEAD + "flow:\n    ask 0 to wide\naction wide("
                 + ", ".join(f"{n} in [1]" for n in names) + "):\n    require last: p23 == 1\n    pass\n")
    action = rules.model.actions["wide"]
    assert action.lister is None
    game = rules.new_game(2)
    assert game.all_legal_moves() == [Move(0, "wide", {n: 1 for n in names})]


@given(st.lists(st.integers(0, 6), max_size=7), st.dictionaries(st.integers(0, 6), st.sampled_from("abc"), max_size=7),
       st.sets(st.integers(0, 6), max_size=2))
def test_distinct_choices_are_each_value_and_name_once_in_order_none_taken(values, names, bound):
    labels = {v: names.get(v, f"p{v}") for v in dict.fromkeys(values)}
    expected, seen = [], set()
    for value in values:   # the definition, written out
        if labels[value] not in seen and value not in bound:
            seen.add(labels[value])
            expected.append((value, labels[value]))
    assert decisions._distinct(values, labels, bound) == expected


def test_calls_alike_inside_nested_comprehensions_are_not_shared(tmp_path):
    # g(z) is written twice, but each z is the inner comprehension's own variable (the global
    # z is another value): computing it once per choice would read the wrong z.
    game = _game(tmp_path, """
    var z: int = 100
    def g(n) = n * 2
    flow:
        ask 0 to nest
    action nest(a in [1, 2]):
        require one: any(any(g(z) > a for z in [0, 1]) for y in [5])
        require two: all(all(g(z) < 50 + a for z in [0, 1]) for y in [5])
        pass
    """)
    outcome, steps, hits = both(game, "nest")
    assert _moves(outcome) == [{"a": 1}]
    assert hits == {"require:nest.one": 1}


def test_exists_stops_at_the_first_move_without_checking_the_choices_after_it(tmp_path):
    game = _game(tmp_path, """
    flow:
        ask 0 to go
    action go(n in [1, 2, 3]):
        require some: sum(x for x in range(n * 10)) >= 0
        pass
    """)
    outcome, steps, hits = both(game, "go", stop=True)
    assert outcome == ("found",)
    # n's three choices, then range(10) built and gone through for n = 1 only (the generic
    # walk checks the whole batch: 3 + 20 + 40 + 60).
    assert steps == 3 + 20


def _reference(game, action_name: str):
    """(outcome, steps, hits) of the legal moves by the generic walk and decisions._narrow."""
    return observe_candidates(decisions._candidates_generic, game, game.model.actions[action_name], 0)


def test_a_prefer_per_parameter_keeps_in_each_group_the_moves_that_satisfy_it(tmp_path):
    game = _game(tmp_path, """
    flow:
        ask 0 to pick
    action pick(a in [1, 2, 3], b in [1, 2, 3, 4]):
        require differ: a != b
        prefer far per a: any(b > x for x in [a + 1])
        pass
    """)
    outcome, steps, hits = preferred(game, "pick")
    # a = 1 keeps b = 3 and 4, a = 2 keeps b = 4; no b > 4 for a = 3: its group keeps all.
    assert _moves(outcome) == [{"a": 1, "b": 3}, {"a": 1, "b": 4}, {"a": 2, "b": 4},
                               {"a": 3, "b": 1}, {"a": 3, "b": 2}, {"a": 3, "b": 4}]
    assert hits == {"require:pick.differ": 3, "prefer:pick.far": 1}
    # a's 3 choices and b's 4 for each; the prefer's one-item list once per move (9 moves).
    assert steps == 3 + 3 * 4 + 9
    assert game.all_legal_moves() == [Move(0, "pick", m) for m in _moves(outcome)]
    # Without `per`, the moves that satisfy it anywhere are all that is kept.
    game = _game(tmp_path, """
    flow:
        ask 0 to pick
    action pick(a in [1, 2, 3], b in [1, 2, 3, 4]):
        require differ: a != b
        prefer far: any(b > x for x in [a + 1])
        pass
    """)
    outcome, steps, hits = preferred(game, "pick")
    assert _moves(outcome) == [{"a": 1, "b": 3}, {"a": 1, "b": 4}, {"a": 2, "b": 4}]
    assert hits == {"require:pick.differ": 3, "prefer:pick.far": 1}


def test_a_prefer_is_judged_once_per_value_of_the_parameters_it_reads(tmp_path):
    game = _game(tmp_path, """
    def cost(b) = sum(x for x in range(b * 10))
    flow:
        ask 0 to pick
    action pick(a in [1, 2, 3], b in [1, 2]):
        prefer cheap: cost(b) < 50
        pass
    """)
    outcome, steps, hits = preferred(game, "pick")
    assert _moves(outcome) == [{"a": 1, "b": 1}, {"a": 2, "b": 1}, {"a": 3, "b": 1}]
    assert hits == {"prefer:pick.cheap": 1}
    # cost(b) builds and goes through range(10b): 20b steps, computed for b = 1 and b = 2 once
    # (the prefer does not read a), where the reference computes it for each of the 6 moves.
    assert steps == 3 + 3 * 2 + (20 + 40)
    assert _reference(game, "pick")[1] == 3 + 3 * 2 + 3 * (20 + 40)


def test_a_prefer_that_no_move_or_every_move_satisfies_keeps_them_all_uncounted(tmp_path):
    game = _game(tmp_path, """
    flow:
        ask 0 to pick or take
    action pick(a in [1, 2], b in [1, 2]):
        prefer always: any(x < a for x in [0, 5])
        prefer never per b: all(x > a for x in [0])
        pass
    action take(a in [1, 2]):
        require none: a > 2
        prefer always: a > 0
        pass
    """)
    outcome, steps, hits = preferred(game, "pick")
    assert _moves(outcome) == [{"a": 1, "b": 1}, {"a": 1, "b": 2}, {"a": 2, "b": 1}, {"a": 2, "b": 2}]
    assert hits == {}
    # `always` goes through its list once per a (the first item decides, but the list is
    # counted whole, as the generator counts it); `never`'s list of one, once per a.
    assert steps == 2 + 2 * 2 + 2 * 2 + 2
    assert preferred(game, "take") == (("moves", []), 2, {"require:take.none": 2})


def test_a_prefer_that_faults_raises_the_fault_of_the_move_the_reference_faults_on(tmp_path):
    game = _game(tmp_path, """
    const tops = [10, 20]
    flow:
        ask 0 to pick
    action pick(a in [1, 2], n in [0, 1, 2, 3]):
        prefer high per a: any(tops[x] > 15 for x in [0, n])
        pass
    """)
    outcome, steps, hits = preferred(game, "pick")
    # n = 0 and 1 are judged, then tops[2] fails (once: a = 1's moves come first).
    assert outcome == ("raised", "EvalError", "no item 2 in [10, 20]")
    assert _reference(game, "pick")[0] == outcome
    with pytest.raises(regnum.RulesetError) as failed:
        game.all_legal_moves()
    diagnostic = failed.value.diagnostics[0]
    assert (diagnostic.code, diagnostic.message) == ("E902", "no item 2 in [10, 20] (while listing the moves of 'pick')")
    assert diagnostic.span == game.model.actions["pick"].span


def test_a_prefer_judges_true_apart_from_1_though_they_are_equal_keys(tmp_path):
    game = _game(tmp_path, """
    def pool(a) = if a == 1 then [1] else [true]
    flow:
        ask 0 to pick
    action pick(a in [1, 2], b in pool(a)):
        prefer one: text(b) == "1"
        pass
    """)
    outcome, steps, hits = preferred(game, "pick")
    assert _moves(outcome) == [{"a": 1, "b": 1}]
    assert hits == {"prefer:pick.one": 1}


def test_a_search_keeps_the_items_its_first_tests_pass_for_the_moves_that_read_the_same(tmp_path):
    game = _game(tmp_path, """
    const tops = [10, 0, 20]
    def near(x, skip) = any(tops[n] > 5 and n != skip for n in [x, x - 1])
    flow:
        ask 0 to pick
    action pick(a in [1, 2], b in [0, 1, 2]):
        prefer high per a: near(a, b)
        pass
    """)
    narrow = game.model.actions["pick"].prefers[0].narrow
    # The items of [a, a - 1] with tops > 5 are kept by a (the source and the first test do
    # not read b); for each move only `n != b` is judged on them.
    assert "pm0 = {}" in narrow.source and "pm0.get(" in narrow.source
    outcome, steps, hits = preferred(game, "pick")
    assert _moves(outcome) == [{"a": 1, "b": 1}, {"a": 1, "b": 2}, {"a": 2, "b": 0}, {"a": 2, "b": 1}]
    assert hits == {"prefer:pick.high": 1}
    # Listing: 2 choices of a, then 3 of b for each; the prefer: the list of two, charged at
    # each of the 6 moves as the generator charges it, whether its items were kept or not.
    assert steps == 2 + 2 * 3 + 6 * 2
    assert _reference(game, "pick")[1] == steps


def test_a_kept_search_whose_first_test_fails_on_an_item_searches_the_plain_way(tmp_path):
    game = _game(tmp_path, """
    const tops = [10, 0, 20]
    def near(x, skip) = any(tops[n] > 5 and n != skip for n in [x, 3])
    flow:
        ask 0 to pick or take
    action pick(a in [0], b in [1, 2]):
        prefer high: near(a, b)
        pass
    action take(a in [0], b in [1, 0]):
        prefer high: near(a, b)
        pass
    """)
    assert all("pm0.get(" in game.model.actions[name].prefers[0].narrow.source for name in ("pick", "take"))
    # tops[3] fails, but the plain search stops at n = 0 for every move of pick: nothing fails.
    outcome, steps, hits = preferred(game, "pick")
    assert _moves(outcome) == [{"a": 0, "b": 1}, {"a": 0, "b": 2}]
    assert steps == 1 + 2 + 2 * 2
    # take's second move judges n = 3 and fails there, as the reference does.
    outcome, steps, hits = preferred(game, "take")
    assert outcome == ("raised", "EvalError", "no item 3 in [10, 0, 20]")
    assert _reference(game, "take")[0] == outcome


def test_any_all_and_count_of_comprehensions_in_the_innermost_loop_are_loops_alike(tmp_path):
    game = _game(tmp_path, """
    board map: graph
        nodes a, b, c, d
        edges a - b, b - c, c - d, a - c
    var mark per map: int = 0
    def crowded(n) = count(m for m in neighbours(map, n) where mark(m) > 0) == 2
    setup:
        set mark(b) = 1
        set mark(d) = 1
    flow:
        ask 0 to go
    action go(k in [0, 1, 2], n in map):
        require near: k == 0 or any(mark(m) >= k for m in neighbours(map, n))
        require calm: all(mark(m) < 2 for m in neighbours(map, n) where m != a)
        require few: not crowded(n) and count(m for m in map where m != n) == 3
        pass
    """)
    lister = game.model.actions["go"].lister.source
    assert not re.search(r"\b(any|all|sum)\(|_walk", lister)   # all three as loops
    outcome, steps, hits = both(game, "go")
    # Marked: b and d. a's neighbours b, c; b's a, c; c's b, d, a; d's c.
    # k = 1: near keeps a (b), c (b, d); few: c has two marked around.
    assert _moves(outcome) == [{"k": 0, "n": "a"}, {"k": 0, "n": "b"}, {"k": 0, "n": "d"},
                               {"k": 1, "n": "a"}]
    assert hits == {"require:go.near": 2 + 4, "require:go.few": 2}
    # k's 3 choices, then n's 4 for each k (12). Each walk of neighbours is charged whole
    # (a 2, b 2, c 3, d 1: 8 for all four), where the generator would charge it:
    # near, for k = 1 and 2: 2 × 8; calm, for what near kept (k = 0: all, k = 1: a, c): 8 + 5;
    # few, for the same: crowded 8 + 5, then the map (4) where not crowded (k = 0: a, b, d;
    # k = 1: a).
    assert steps == 3 + 12 + 2 * 8 + (8 + 5) + (8 + 5) + 4 * 4


def test_any_all_and_count_as_loops_stop_where_the_generators_stop_and_fault_alike(tmp_path):
    game = _game(tmp_path, """
    const tops = [10, 20]
    flow:
        ask 0 to pick or stop or tally
    action pick(a in [1, 2], n in [0, 1, 2, 3]):
        require high: a == 2 or any(tops[x] > 15 for x in [n, n + 4])
        pass
    action stop(n in [0, 1, 2]):
        require first_decides: any(tops[x] > 15 for x in [1, n + 4]) and not all(tops[x] > 15 for x in [0, n + 4])
        pass
    action tally(n in [0, 1, 2]):
        require every_item: n > 0 or count(x for x in [1, n + 4] where tops[x] > 15) >= 1
        pass
    """)
    assert not re.search(r"\b(any|all|sum)\(", "".join(game.model.actions[a].lister.source for a in ("pick", "stop", "tally")))
    # n = 0: tops[0] is not above 15, then tops[4] fails (n = 1 is never reached); then
    # the plain way, which fails there too: (a, n) = (1, 0) charged, and its walk.
    outcome, steps, hits = both(game, "pick")
    assert outcome == ("raised", "EvalError", "no item 4 in [10, 20]")
    assert steps == 2 + 4 + 2 + (1 + 2)
    # any decided by its first item, all by its first: tops[n + 4] never read.
    outcome, steps, hits = both(game, "stop")
    assert _moves(outcome) == [{"n": 0}, {"n": 1}, {"n": 2}]
    assert hits == {} and steps == 3 + 3 * (2 + 2)
    # a count goes through every item, though the first already makes it 1.
    outcome, steps, hits = both(game, "tally")
    assert outcome == ("raised", "EvalError", "no item 4 in [10, 20]")
    assert steps == 3 + 2 + (1 + 2)
    action = game.model.actions["pick"]
    faults = []
    for lister in (action.lister, None):   # the generated lister, then the generic walk alone
        object.__setattr__(action, "lister", lister)
        with pytest.raises(regnum.RulesetError) as failed:
            game.all_legal_moves()
        faults.append(failed.value.diagnostics[0])
    assert [(d.code, d.message, d.span) for d in faults] == [
        ("E902", "no item 4 in [10, 20] (while listing the moves of 'pick')", action.span)] * 2


def test_domains_no_game_can_change_are_listed_from_what_load_computed(tmp_path):
    game = _game(tmp_path, """
    enum colour: red, blue
    const picks = [2, 1, 2]
    board map: graph
        nodes a, b, c
        edges a - b, b - c
    flow:
        ask 0 to go
    action go(k in picks, tint in colour, n in map, m in [1, 1]):
        require not_b: n != b or tint == red
        pass
    """)
    params = game.model.actions["go"].params
    # The constant's repeated 2 is one choice, as the walk makes it; so are the literal's 1s.
    assert [p.fixed for p in params] == [(2, 1), ("red", "blue"), ("a", "b", "c"), (1,)]
    lister = game.model.actions["go"].lister.source
    assert "_m_unique(" not in lister
    outcome, steps, hits = both(game, "go")
    assert [(m["k"], m["tint"], m["n"]) for m in _moves(outcome)] == \
        [(k, t, n) for k in (2, 1) for t in ("red", "blue") for n in "abc" if n != "b" or t == "red"]
    assert hits == {"require:go.not_b": 2}
    # 2 choices of k, 2 of tint per k, 3 of n per tint, then m's one distinct choice for
    # each of the 10 kept (a literal list is built without steps).
    assert steps == 2 + 2 * 2 + 4 * 3 + 10


def test_choices_of_the_last_parameter_are_judged_once_for_the_values_its_requires_read(tmp_path):
    """The requires of `m` read `k` and `m`, never `n`: the choices of `m` that pass are
    judged once per `k` and per domain list, then met again for each other `n`, counted
    again but not judged again (the steps `in` charges are charged once). The domain of `m`
    reads `n`: when it gives the same constant list (n = 10 and n = 30), the choices are
    shared; another list (n = 20) is judged on its own."""
    game = _game(tmp_path, """
    const picks = [0, 1, 2, 3]
    const few = [1, 3]
    flow:
        ask 0 to go
    action go(k in [1, 2], n in [10, 20, 30], m in (if n == 20 then few else picks)):
        require even: m % 2 == 0 or k == 2
        require listed: m in [0, 1, 2]
        pass
    """)
    lister = game.model.actions["go"].lister.source
    assert "r2 = {}" in lister and "ud2 = {}" in lister
    outcome, steps, hits = both(game, "go")
    assert [(m["k"], m["n"], m["m"]) for m in _moves(outcome)] == [
        (1, 10, 0), (1, 10, 2), (1, 30, 0), (1, 30, 2),
        (2, 10, 0), (2, 10, 1), (2, 10, 2), (2, 20, 1), (2, 30, 0), (2, 30, 1), (2, 30, 2)]
    # k = 1: 1 and 3 are odd, for n = 10, 20 and 30 (few holds 1 and 3): 2 + 2 + 2;
    # k = 2: 3 is not listed, for n = 10, 20 and 30: 1 + 1 + 1.
    assert hits == {"require:go.even": 6, "require:go.listed": 3}
    # 2 choices of k; 3 of n per k; the choices of m offered for each (k, n): 4 + 2 + 4 per k;
    # `m in [0, 1, 2]` (3 steps) judged per k for picks' 2 even values (k = 1) or 4 values
    # (k = 2), and for few's values (k = 2 only: both are odd for k = 1), not again for n = 30.
    assert steps == 2 + 2 * 3 + 2 * (4 + 2 + 4) + 3 * (2 + 4 + 2)
    assert both(game, "go", stop=True)[0] == ("found",)


def test_remembered_choices_are_judged_again_for_values_that_cannot_be_keys(tmp_path):
    game = _game(tmp_path, """
    flow:
        ask 0 to go
    action go(k in [[1], [2]], n in [10, 20], m in range(3)):
        require matches: m != k[0]
        pass
    """)
    outcome, steps, hits = both(game, "go")
    assert [(m["k"], m["n"], m["m"]) for m in _moves(outcome)] == [
        ([1], 10, 0), ([1], 10, 2), ([1], 20, 0), ([1], 20, 2),
        ([2], 10, 0), ([2], 10, 1), ([2], 20, 0), ([2], 20, 1)]
    assert hits == {"require:go.matches": 4}
    assert steps == 2 + 2 * 2 + 3 + 4 * 3   # range(3) built once, offered for each (k, n)


def test_fields_of_a_chosen_piece_are_read_once_per_choice_for_the_later_parameters(tmp_path):
    game = _game(tmp_path, """
    piece token:
        size: int
    zone pool: public
    setup:
        create 1 token(size: 2) in pool
        create 1 token(size: 0) in pool
    flow:
        ask 0 to go
    action go(t in pool, n in range(3)):
        require fits: n < t.size or n == 2
        require even: (t.size + n) % 2 == 0
        pass
    """)
    lister = game.model.actions["go"].lister.source
    assert lister.count("['size']") == 1   # read once per token, into a local, for both requires
    outcome, steps, hits = both(game, "go")
    assert [(m["t"], m["n"]) for m in _moves(outcome)] == [("token#0", 0), ("token#0", 2), ("token#1", 2)]
    assert hits == {"require:go.fits": 2, "require:go.even": 1}
    assert steps == 2 + 3 + 3 * 2   # range(3) reads no choice: built once (3 steps), offered per token


def test_a_field_read_that_fails_where_it_is_guarded_hands_the_listing_to_the_walk(tmp_path, monkeypatch):
    """`t.size` exists on tokens only; a require reads it only after checking the piece's
    type, so the walk never fails. Read once per choice, it fails for the marker: the walk
    then makes the listing, and its moves, coverage and steps are the walk's own."""
    game = _game(tmp_path, """
    piece token:
        size: int
    piece marker:
        colour: str
    zone pool: public
    setup:
        create 1 marker(colour: "red") in pool
        create 1 token(size: 2) in pool
    flow:
        ask 0 to go
    action go(t in pool, n in range(3)):
        require fits: t.type == "token" and n < t.size
        pass
    """)
    action = game.model.actions["go"]
    assert "fv0 = " in action.lister.source
    walked = []
    namespace = action.lister.__globals__
    monkeypatch.setitem(namespace, "_m_walk", lambda *args: walked.append(args[1].name) or decisions._enumerate_generic(*args))
    from listings import observe
    new = observe(decisions._enumerate, game, action, 0)
    old = observe(decisions._enumerate_generic, game, action, 0)
    assert new == old
    assert [dict(args) for args, _ in new[0][1]] == [{"t": "token", "n": 0}, {"t": "token", "n": 1}]
    assert new[2] == {"require:go.fits": 4}
    assert walked == ["go"]   # the lister read the marker's size, and handed over
    assert both(game, "go", stop=True)[0] == ("found",)


TABLE_RULES = """
board map: graph
    nodes a, b, c, d, e
    edges a - b, b - c, c - d, d - e
enum hue: red, blue
piece stone:
    owner: player
zone site per map: public
var hue_of per map: hue = red
var wanted: hue = blue
var strict: bool = true
var picks: list of hue = [blue]
setup:
    set hue_of(b) = blue
    set hue_of(d) = blue
    set hue_of(e) = blue
    create 1 stone(owner: 0) in site(d)
flow:
    repeat until false:
        ask 0 to build or build_loosely or paint or pick_first
action build(h in map):
    require free: count(site(h)) == 0 else "taken"
    require matching: hue_of(h) == wanted else "not the wanted hue"
    pass
action build_loosely(h in map):
    require free: count(site(h)) == 0 else "taken"
    require matching: not strict or hue_of(h) == wanted else "not the wanted hue"
    pass
action paint(h in map):
    set hue_of(h) = blue
action pick_first(h in map):
    require free: count(site(h)) == 0 else "taken"
    require matching: hue_of(h) == picks[0] else "not the first pick"
    pass
"""


def test_a_require_equal_to_a_variable_per_cell_lists_from_its_index_without_coverage(tmp_path):
    """`hue_of(h) == wanted` after `free`, which can neither fail nor charge a step: without
    coverage, the lister goes through the cells of the wanted hue only, read from an index
    of the table (built once, kept on the table, which nothing writes after the setup), and
    lists what it lists with coverage, with the same steps; with coverage it counts each
    exclusion under the require that makes it (the cells it skips too: test_counted_apart.py)."""
    from listings import observe
    game = _game(tmp_path, TABLE_RULES)
    action = game.model.actions["build"]
    assert "c.state.cells_with('hue_of', it0, " in action.lister.source
    counted = both(game, "build")
    assert _moves(counted[0]) == [{"h": "b"}, {"h": "e"}]
    assert counted[1:] == (5, {"require:build.free": 1, "require:build.matching": 2})
    table = game._state.tables["hue_of"]
    assert table.by_value is not None   # the listing's state is a copy: it shares the table
    ((domain, groups),) = table.by_value.values()
    assert list(domain) == ["a", "b", "c", "d", "e"]
    assert groups == {"red": ["a", "c"], "blue": ["b", "d", "e"]}
    again = observe(decisions._enumerate, game, action, 0, counted=False)
    assert again == (counted[0], 5, None) and table.by_value[id(domain)][1] is groups
    # `not strict or …`: the index while `strict`, every cell once it is false.
    assert _moves(both(game, "build_loosely")[0]) == [{"h": "b"}, {"h": "e"}]
    game._state.vars["strict"] = False
    assert _moves(both(game, "build_loosely")[0]) == [{"h": "a"}, {"h": "b"}, {"h": "c"}, {"h": "e"}]


def test_a_table_written_by_a_move_is_indexed_afresh_and_a_failing_value_fails_where_it_would(tmp_path):
    """A move that writes the table copies it (no state owns it after the setup): the index
    of the old one stays right for the states that share it, the new one is indexed when
    first listed. A value that fails (`picks[0]` of an empty list) fails as the requires
    would, at the first free cell, whether coverage is counted or not."""
    rules = load(tmp_path, HEAD + TABLE_RULES)
    for coverage in (True, False):
        game = rules.new_game(2, coverage=coverage)
        assert [m.args["h"] for m in game.legal_moves(0) if m.action == "build"] == ["b", "e"]
        before = game._state.tables["hue_of"]
        game.play(Move(0, "paint", {"h": "a"}))
        after = game._state.tables["hue_of"]
        assert after is not before and before["a"] == "red" and after["a"] == "blue"
        assert [m.args["h"] for m in game.legal_moves(0) if m.action == "build"] == ["a", "b", "e"]
        assert _moves(both(game, "build")[0]) == [{"h": "a"}, {"h": "b"}, {"h": "e"}]
    game._state.vars["picks"] = []
    assert both(game, "pick_first")[0] == ("raised", "EvalError", "no item 0 in []")


def test_a_table_lists_its_cells_of_one_value_from_an_index_only_once_nothing_writes_it_in_place():
    from regnum.engine.state import State, Table
    state = State()
    state.tables["hue"] = Table("hue", {"a": "red", "b": "blue", "c": "red"})
    cells = ("c", "a", "b")
    assert state.cells_with("hue", cells, "red") == ["c", "a"]   # in the domain's order
    assert state.cells_with("hue", cells, "red") is state.cells_with("hue", cells, "red")
    assert state.cells_with("hue", cells, "green") == ()
    assert state.cells_with("hue", cells, ["red"]) is cells        # not a key: judged one by one
    assert state.cells_with("hue", ("a", "z"), "red") == ("a", "z")   # z is not a cell
    state.tables["marks"] = Table("marks", {"a": [1], "b": []})
    assert state.cells_with("marks", ("a", "b"), []) == ("a", "b")   # values that cannot be keys
    state.writable_table("hue")   # owned: it may change in place
    assert state.cells_with("hue", cells, "red") is cells
    assert state.copy().cells_with("hue", cells, "red") == ["c", "a"]   # a copy owns nothing


def test_the_first_piece_of_a_zone_known_not_to_be_empty_is_read_without_a_check(tmp_path):
    """`if count(Z) == 0 then … else Z[0]…` (and `count(Z) > 0`, the other way round): Z is
    not empty where `Z[0]` is read, which is written as a plain subscript. Elsewhere `[0]`
    keeps its check, and its message when it fails."""
    game = _game(tmp_path, """
    board map: graph
        nodes a, b, c
        edges a - b
    piece stone:
        owner: player
    zone site per map: public
    zone pile: public
    def owner_of(h) = if count(site(h)) == 0 then none else site(h)[0].owner
    def holder(h) = if count(site(h)) > 0 then site(h)[0].owner else none
    setup:
        create 1 stone(owner: 1) in site(b)
        create 1 stone(owner: 0) in site(c)
    flow:
        repeat until false:
            ask 0 to claim or take_top
    action claim(h in map):
        require unowned: owner_of(h) != 0 and holder(h) != 0 else "yours already"
        pass
    action take_top(h in map):
        require top: pile[0].owner == 0 else "not yours"
        pass
    """)
    claim = game.model.actions["claim"].lister.source
    # The test binds the zone it reads to a name, and the first piece is read from that name.
    bound = re.findall(r"\((_e\d+) := _s_zones\[", claim)
    assert "_index(" not in claim and len(set(bound)) == 2
    assert all(claim.count(f"_s_pieces[{name}[0]]['owner']") == 1 for name in bound)
    assert _moves(both(game, "claim")[0]) == [{"h": "a"}, {"h": "b"}]
    assert "_index(_s_zones['pile'], 0)" in game.model.actions["take_top"].lister.source
    assert both(game, "take_top")[0] == ("raised", "EvalError", "no item 0 in []")


def test_a_def_compiled_where_a_zone_is_known_not_to_be_empty_still_checks_its_own_index(tmp_path):
    """`outer` and `top_owner` are too big to inline, so each is a function of its own whose
    parameter is written `_p0`: `top_owner`, compiled while `outer`'s branch where its zone
    is not empty is written, must not take that knowledge for its own `site(_p0)`, which
    can be empty when `top_owner` is called from elsewhere."""
    pad = " + 0 * (1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1)"
    game = _game(tmp_path, f"""
    board map: graph
        nodes a, b
        edges a - b
    piece stone:
        owner: player
    zone site per map: public
    def top_owner(x) = site(x)[0].owner{pad}
    def outer(h) = if count(site(h)) == 0 then 5 else top_owner(h){pad}
    setup:
        create 1 stone(owner: 1) in site(b)
    flow:
        repeat until false:
            ask 0 to sure or unsure
    action sure(h in map):
        require known: outer(h) != 0 else "no"
        pass
    action unsure(h in map):
        require top: top_owner(h) == 1 else "no"
        pass
    """)
    assert _moves(both(game, "sure")[0]) == [{"h": "a"}, {"h": "b"}]
    assert both(game, "unsure")[0] == ("raised", "EvalError", "no item 0 in []")


@given(st.dictionaries(st.sampled_from("abcdefgh"), st.sampled_from([0, 1, True, "x", None]), min_size=1),
       st.lists(st.sampled_from("abcdefghz"), unique=True), st.sampled_from([0, 1, True, "x", None, 2]),
       st.booleans())
def test_the_cells_a_table_index_gives_are_those_a_filter_keeps(values, domain, value, owned):
    """Whatever the table, the domain (in any order, with items that are not cells) and the
    value: the items `cells_with` gives are those `==` keeps, in the domain's order, or the
    domain itself, which the caller then judges item by item."""
    from regnum.engine.state import State, Table
    state = State()
    state.tables["t"] = Table("t", values)
    if owned:
        state.writable_table("t")
    domain = tuple(domain)
    for _ in range(2):   # built, then read from what was kept
        got = state.cells_with("t", domain, value)
        if not owned and all(x in values for x in domain):
            assert list(got) == [x for x in domain if values[x] == value]
        else:
            assert got is domain
