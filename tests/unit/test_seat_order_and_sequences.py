"""Two ranking constructs King's Gate needs, on small rulesets of their own: the seat-order
tie-break `by nearest clockwise after SEAT` (the tied player nearest after SEAT wins, SEAT
itself loses every tie), and keys that are lists of numbers compared item by item (the
final tie-break by points won on the last object, then the one before…)."""
from __future__ import annotations


import pytest

import regnum
from toy_rules import load   # tests/unit is on the path of its tests

RING = """
game seat_ties "Seat ties"
players 4..4
var held per player: int = [3, 3, 1, 3][player]
var last_placer: player = 2
tiebreak last_placer_loses: by nearest clockwise after last_placer
flow:
    score ring()
    set last_placer = 0
    score ring_back()
scoring ring():
    majority held(p) for p in players
    pays [10, 6, 3]
    ties last_placer_loses
scoring ring_back():
    majority held(p) for p in players
    pays [10, 0, 0]
    ties by nearest counterclockwise after last_placer
    into bonus
var bonus per player: int = 0
"""




def test_ties_go_to_the_nearest_seat_clockwise_after_the_reference_who_loses_them(tmp_path):
    game = load(tmp_path, RING).new_game(players=4, seed=0)
    # Seats 0, 1 and 3 tie; seat 2 placed last: 3 sits next after it, then 0, then 1.
    assert game.scores == [6, 3, 0, 10]
    # Counterclockwise after seat 0: 3, then (2, untied), then 1, and seat 0 itself last.
    assert [game.state.pvars[p]["bonus"] for p in range(4)] == [0, 0, 0, 10]
    assert game.hits["tiebreak:last_placer_loses.by nearest clockwise after last_placer"] == 1
    assert game.hits["tiebreak:ring_back.by nearest counterclockwise after last_placer"] == 1


@pytest.mark.parametrize("last, order", [(0, [1, 3, 0]), (1, [3, 0, 1]), (2, [3, 0, 1]), (3, [0, 1, 3])])
def test_every_seat_as_the_reference(tmp_path, last, order):
    game = load(tmp_path, RING.replace("var last_placer: player = 2", f"var last_placer: player = {last}")
                .replace("    set last_placer = 0\n", "")).new_game(players=4, seed=0)
    paid = {p: s for p, s in enumerate(game.scores) if p != 2}
    assert sorted(paid, key=lambda p: -paid[p]) == order


SEQUENCES = """
game sequences "Sequences"
players 3..3
var won per player: list of int = [[2, 5], [3, 5], [4, 4]][player]
flow:
    for p in players:
        add 9 to score(p)
winner p: highest score(p) then {order} reversed(won(p)) then shared
"""


@pytest.mark.parametrize("order, winners", [("highest", [1]), ("lowest", [2])])
def test_winner_keys_that_are_lists_compare_item_by_item(tmp_path, order, winners):
    # Reversed: [5, 2], [5, 3], [4, 4] — the last object first, then the one before.
    game = load(tmp_path, SEQUENCES.replace("{order}", order)).new_game(players=3, seed=0)
    assert game.is_over and game.winners == winners


def test_a_key_that_is_a_list_of_texts_is_refused(tmp_path):
    with pytest.raises(regnum.RulesetError) as err:
        load(tmp_path, SEQUENCES.replace("{order}", "highest").replace("reversed(won(p))", '["a", "b"]'))
    [diagnostic] = [d for d in err.value.diagnostics if d.is_error]
    assert (diagnostic.code, diagnostic.message) == (
        "E211", "a winner key must be a number or a list of numbers, but this is a list of texts")


RANKED = """
game ranked "Ranked"
players 3..3
var held per player: int = [4, 4, 2][player]
var chips per player: int = 0
var seen: list of int = []
flow:
    score area() as result
    set seen = [e.player * 100 + e.place * 10 + e.points for e in result]
    add 1 to chips(first(e.player for e in result where e.place == 1))
    run award()
    ask 0 to wait
rule award():
    score area() as again
    add 1 to chips(last(again).player)
action wait():
    pass
scoring area():
    majority held(p) for p in players
    pays [10, 6, 3]
    needs 1
    ties take_highest
"""


def test_score_as_binds_the_ranking_best_first_on_both_paths(tmp_path):
    rules = load(tmp_path, RANKED)
    game = rules.new_game(players=3, seed=0)
    # (player, place, points): P0 and P1 tied first with 10 each, P2 third with 3.
    assert game.state.vars["seen"] == [0 * 100 + 10 + 10, 1 * 100 + 10 + 10, 2 * 100 + 30 + 3]
    # The flow (interpreted) gives the chip to the first of the ranking, the rule (compiled
    # to Python) to the last.
    assert [game.state.pvars[p]["chips"] for p in range(3)] == [1, 0, 1]
    assert "rule:award" in rules.model.natives
