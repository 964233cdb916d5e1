"""A prefer calling `K(to, player, from)`, K of the shape `any(D(n) == p and n != lifted for n
in neighbours(B, h))` and its values not kept (to and from both vary), reads how many of
to's neighbours D gives the player from D's index, less one when `from` is one of them
(compiler/indexes.near_lifted): the same moves kept, the same steps and step limit as the
search written out; where the counts cannot answer (D charges steps, an argument that is no
plain name), the search is made as written."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import regnum
from regnum import Move

from near_toy import HEADER, compiled, limit_messages, stepped   # tests/unit is on the path of its tests

RULES = HEADER + """setup:
    for p in players:
        create 4 stone(owner: p) in pool(p)
flow:
    repeat until false:
        for p in players:
            ask p to claim or shift
action claim(x in map):
    require free: count(site(x)) == 0 else "taken"
    require stock: count(pool(player)) > 0 else "no stone left"
    move 1 from pool(player) to site(x)
action shift(from in map, to in map):
    require mine: owner_of(from) == player else "not yours"
    require free: count(site(to)) == 0 else "taken"
    prefer near per from: near_mine(to, player, from) else "next to your own, the moved one aside"
    move site(from) to site(to)
"""


def _compiled(tmp_path, text: str, name: str, kept: bool = True):
    """(the ruleset, the source of shift's prefer)."""
    return compiled(tmp_path, text, name, "shift", kept)


def _listing(game, seat: int) -> tuple[list, int]:
    game.peak_steps = 0
    moves = [(m.action, tuple(sorted(m.args.items()))) for m in game.legal_moves(seat)]
    return moves, game.peak_steps


def test_the_counts_keep_the_moves_and_charge_the_steps_of_the_search(tmp_path):
    (on, source), (off, plain) = _compiled(tmp_path, RULES, "on.rules"), _compiled(tmp_path, RULES, "off.rules", False)
    assert "_nl0 = _m_near(" in source and "_m_near" not in plain
    games = [rules.new_game(2, seed=1) for rules in (on, off)]
    for seat, cell in [(0, "c"), (1, "g"), (0, "e")]:
        for game in games:
            game.play(Move(seat, "claim", {"x": cell}))
    listed = [_listing(game, 1) for game in games]
    assert listed[0] == listed[1] and listed[0][1] > 0
    shifts = sorted(dict(args)["to"] for action, args in listed[0][0] if action == "shift")
    # g (seat 1's only stone) moves: no other stone of seat 1 is left next to any cell.
    assert shifts == ["a", "b", "d", "f", "h"]
    games[0].play(Move(1, "claim", {"x": "h"}))
    games[1].play(Move(1, "claim", {"x": "h"}))
    listed = [_listing(game, 0) for game in games]
    assert listed[0] == listed[1]
    # Seat 0 holds c and e. From c: next to e (d, f, a) but not next to c alone (b). From e:
    # next to c (b, d).
    kept = sorted((dict(args)["from"], dict(args)["to"]) for action, args in listed[0][0] if action == "shift")
    assert kept == [("c", "a"), ("c", "d"), ("c", "f"), ("e", "b"), ("e", "d")]
    assert games[0].to_dict() == games[1].to_dict()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from("abcdefgh"), st.sampled_from("abcdefgh")), max_size=20))
def test_any_game_keeps_what_the_search_keeps(tmp_path_factory, plays):
    folder = tmp_path_factory.mktemp("lifted")
    (on, _), (off, _) = _compiled(folder, RULES, "on.rules"), _compiled(folder, RULES, "off.rules", False)
    games = [rules.new_game(2, seed=2) for rules in (on, off)]
    for claim, first, second in plays:
        seat = games[0].to_move[0]
        listed = [_listing(game, seat) for game in games]
        assert listed[0] == listed[1]
        move = Move(seat, "claim", {"x": first}) if claim else Move(seat, "shift", {"from": first, "to": second})
        outcomes = []
        for game in games:
            try:
                game.play(move)
                outcomes.append("played")
            except regnum.IllegalMove as refused:
                outcomes.append(refused.rule)
        assert outcomes[0] == outcomes[1]
        assert games[0].to_dict() == games[1].to_dict()


def test_the_step_limit_is_met_as_the_search_meets_it(tmp_path):
    (on, _), (off, _) = _compiled(tmp_path, RULES, "on.rules"), _compiled(tmp_path, RULES, "off.rules", False)

    def placed(rules):
        game = rules.new_game(2, seed=1)
        for seat, cell in [(0, "c"), (1, "g"), (0, "e")]:
            game.play(Move(seat, "claim", {"x": cell}))
        return game
    _, needed = _listing(placed(off), 1)
    messages = limit_messages((on, off), placed, _listing, 1, needed)
    assert messages[0] == messages[1] and f"more than {needed - 1} steps" in messages[0]


STEPPED = stepped(RULES)


def test_a_def_that_charges_steps_at_a_cell_is_searched_as_written(tmp_path):
    (on, source), (off, _) = _compiled(tmp_path, STEPPED, "on.rules"), _compiled(tmp_path, STEPPED, "off.rules", False)
    assert "_nl0 = _m_near(" in source
    games = [rules.new_game(2, seed=1) for rules in (on, off)]
    for seat, cell in [(0, "c"), (1, "g"), (0, "e"), (1, "a")]:
        for game in games:
            game.play(Move(seat, "claim", {"x": cell}))
    for seat in (0, 1):
        assert _listing(games[0], seat) == _listing(games[1], seat)
    index = [i for i in games[0].state.memo.indexes.values() if i is not None][0]
    assert index.total > 0   # the counts stand no more: each move searched, charging its steps


@pytest.mark.parametrize("prefer, counted", [
    ("near_mine(to, player, from)", True),
    ("near_mine(to, player, none)", True),            # kept values, counted (indexes.near_test)
    ("near_mine(to, 1, from)", False),                # the same value for every listing only if the player's
    ("near_mine(to, player, first([from]))", False),  # an argument computed: written as it is
])
def test_only_a_call_with_the_player_and_plain_arguments_is_counted(tmp_path, prefer, counted):
    _, source = _compiled(tmp_path, RULES.replace("near_mine(to, player, from) else", f"{prefer} else"), "shape.rules")
    assert ("_m_near(" in source) is counted


def test_kingdom_builder_counts_the_prefer_of_its_moved_settlements():
    rules = regnum.load("kingdom_builder")
    source = rules.model.actions["move_with_tile"].prefers[0].narrow.source
    assert "_m_near(" in source and "_nn -= 1" in source
