"""A lister's require calling `K(x, player)`, K of the shape `any(count(y for y in line(B, h, d,
k) where D(y) == p) == k for d in directions(B))`, reads which of x's lines of k cells are all
the player's from lines kept with D's index (compiler/indexes.line_test, engine/memo.full_lines):
the same moves, the same steps and step limit as the search written out, through games
that fill and empty lines; where the lines cannot answer (D charges steps), the search is
made as written; other shapes are written as before."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import regnum
from regnum import Move
from regnum.agents import play_random_game
from regnum.compiler import indexes
from regnum.engine import memo as kept

from near_toy import limit_messages, loaded, stepped   # tests/unit is on the path of its tests

RULES = """
game toy "Toy"
players 2..2
board land: hex_grid
    rows = 4
    cols = 5
    layout = "odd_r"
piece stone:
    owner: player
zone site per land: public
zone pool per player: public
def owner_of(x) = if count(site(x)) == 0 then none else site(x)[0].owner
def lined(h, p) = any(count(y for y in line(land, h, d, 2) where owner_of(y) == p) == 2 for d in directions(land))
setup:
    for p in players:
        create 6 stone(owner: p) in pool(p)
flow:
    repeat until false:
        for p in players:
            ask p to claim or lift or extend
action claim(x in land):
    require free: count(site(x)) == 0 else "taken"
    require stock: count(pool(player)) > 0 else "no stone left"
    move 1 from pool(player) to site(x)
action lift(x in land):
    require mine: owner_of(x) == player else "not yours"
    move site(x) to pool(player)
action extend(x in land):
    require stock: count(pool(player)) > 0 else "no stone left"
    require free: count(site(x)) == 0 else "taken"
    require lined: lined(x, player) else "at the end of a line of two of yours"
    move 1 from pool(player) to site(x)
"""

CELLS = [f"({r},{c})" for r in range(4) for c in range(5)]


def _compiled(tmp_path, text: str, name: str, on: bool = True):
    """(the ruleset, the source of extend's lister), with kept values or without (`on`)."""
    rules = loaded(tmp_path, text, name, on)
    return rules, rules.model.actions["extend"].lister.source


def _listing(game, seat: int) -> tuple[list, int]:
    game.peak_steps = 0
    moves = [(m.action, tuple(sorted(m.args.items()))) for m in game.legal_moves(seat)]
    return moves, game.peak_steps


def _extends(listing) -> list[str]:
    return sorted(dict(args)["x"] for action, args in listing[0] if action == "extend")


def _both(tmp_path, text: str = RULES):
    return _compiled(tmp_path, text, "on.rules"), _compiled(tmp_path, text, "off.rules", False)


def _played(games, plays) -> None:
    for seat, action, cell in plays:
        for game in games:
            game.play(Move(seat, action, {"x": cell}))


def test_the_lines_keep_the_moves_and_charge_the_steps_of_the_search(tmp_path):
    (on, source), (off, plain) = _both(tmp_path)
    assert "_m_full(" in source and "_m_full(" not in plain
    games = [rules.new_game(2, seed=1) for rules in (on, off)]
    _played(games, [(0, "claim", "(1,1)"), (1, "claim", "(3,4)"), (0, "claim", "(1,2)")])
    listed = [_listing(game, 1) for game in games]
    assert listed[0] == listed[1] and listed[0][1] > 0
    assert _extends(listed[0]) == []   # seat 1 has one stone: no line of two
    _played(games, [(1, "claim", "(2,1)")])
    listed = [_listing(game, 0) for game in games]
    assert listed[0] == listed[1]
    # Seat 0's (1,1) and (1,2) make a line west to east: it extends at (1,0) and (1,3).
    assert _extends(listed[0]) == ["(1,0)", "(1,3)"]
    _played(games, [(0, "extend", "(1,3)"), (1, "lift", "(2,1)")])
    listed = [_listing(game, 0) for game in games]
    assert listed[0] == listed[1]
    # Three in a row now: (1,1)-(1,2) still ends at (1,0), (1,2)-(1,3) at (1,4).
    assert _extends(listed[0]) == ["(1,0)", "(1,4)"]
    _played(games, [(0, "lift", "(1,2)"), (1, "claim", "(0,0)")])
    listed = [_listing(game, 0) for game in games]
    assert listed[0] == listed[1] and _extends(listed[0]) == []   # the line is broken
    assert games[0].to_dict() == games[1].to_dict()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["claim", "lift", "extend"]), st.sampled_from(CELLS)), max_size=30))
def test_any_game_lists_what_the_search_lists(tmp_path_factory, plays):
    (on, _), (off, _) = _both(tmp_path_factory.mktemp("lines"))
    games = [rules.new_game(2, seed=2) for rules in (on, off)]
    for action, cell in plays:
        seat = games[0].to_move[0]
        listed = [_listing(game, seat) for game in games]
        assert listed[0] == listed[1]
        outcomes = []
        for game in games:
            try:
                game.play(Move(seat, action, {"x": cell}))
                outcomes.append("played")
            except regnum.IllegalMove as refused:
                outcomes.append(refused.rule)
        assert outcomes[0] == outcomes[1]
        assert games[0].to_dict() == games[1].to_dict()


def test_the_lines_kept_are_those_counted_afresh(tmp_path):
    """Through a game of random moves (stones claimed, lifted, lines extended), the lines
    kept and updated as cells change are those counted from the cells of each value."""
    (on, _), _ = _both(tmp_path)
    game = on.new_game(2, seed=3)
    pick = random.Random(5)
    checked = 0
    for _ in range(60):
        moves = game.legal_moves(game.to_move[0])
        index = [i for i in game.state.memo.indexes.values() if i is not None][0]
        for wanted, by_lines in index.lines.items():
            for straight, full in by_lines.items():
                assert full == straight.count(index.cells.get(wanted, set()))
                checked += bool(full)
        game.play(pick.choice(moves))
    assert checked > 20   # lines full of a seat's stones were met, and kept


def test_the_step_limit_is_met_as_the_search_meets_it(tmp_path):
    (on, _), (off, _) = _both(tmp_path)

    def placed(rules):
        game = rules.new_game(2, seed=1)
        for seat, cell in [(0, "(1,1)"), (1, "(3,4)"), (0, "(1,2)"), (1, "(0,4)")]:
            game.play(Move(seat, "claim", {"x": cell}))
        return game
    _, needed = _listing(placed(off), 0)
    messages = limit_messages((on, off), placed, _listing, 0, needed)
    assert messages[0] == messages[1] and f"more than {needed - 1} steps" in messages[0]


def test_a_def_that_charges_steps_at_a_cell_is_searched_as_written(tmp_path):
    text = stepped(RULES)
    (on, source), (off, _) = _both(tmp_path, text)
    assert "_m_full(" in source
    games = [rules.new_game(2, seed=1) for rules in (on, off)]
    _played(games, [(0, "claim", "(1,1)"), (1, "claim", "(2,2)"), (0, "claim", "(1,2)"), (1, "claim", "(3,3)")])
    for seat in (0, 1):
        assert _listing(games[0], seat) == _listing(games[1], seat)
    assert _extends(_listing(games[0], 0)) == ["(1,0)", "(1,3)"]
    index = [i for i in games[0].state.memo.indexes.values() if i is not None][0]
    assert index.total > 0   # the lines stand no more (engine/memo.full_lines): each cell searched


@pytest.mark.parametrize("body, call, lined", [
    ("any(count(y for y in line(land, h, d, 2) where owner_of(y) == p) == 2 for d in directions(land))",
     "lined(x, player)", True),
    ("any(2 == count(y for y in line(land, h, d, 2) where p == owner_of(y)) for d in directions(land))",
     "lined(x, player)", True),
    # not all of a line: two of three
    ("any(count(y for y in line(land, h, d, 3) where owner_of(y) == p) == 2 for d in directions(land))",
     "lined(x, player)", False),
    ("any(count(y for y in line(land, h, d, 2) where owner_of(y) == p) >= 2 for d in directions(land))",
     "lined(x, player)", False),
    # a line of one cell is a neighbour
    ("any(count(y for y in line(land, h, d, 1) where owner_of(y) == p) == 1 for d in directions(land))",
     "lined(x, player)", False),
    ("any(count(y for y in line(land, h, d, 2) where owner_of(y) == p) == 2 for d in [\"east\", \"west\"])",
     "lined(x, player)", False),
    # the same value for every listing only if the player's
    ("any(count(y for y in line(land, h, d, 2) where owner_of(y) == p) == 2 for d in directions(land))",
     "lined(x, 1)", False),
])
def test_only_lines_all_of_the_players_value_are_kept(tmp_path, body, call, lined):
    text = RULES.replace("def lined(h, p) = any(count(y for y in line(land, h, d, 2) where owner_of(y) == p) == 2"
                         " for d in directions(land))", f"def lined(h, p) = {body}")
    text = text.replace("require lined: lined(x, player)", f"require lined: {call}")
    _, source = _compiled(tmp_path, text, "shape.rules")
    assert ("_m_full(" in source) is lined


def test_lines_too_long_to_hold_are_searched_as_written(tmp_path):
    """Lines of 200 cells on a board of 20: 20 × 6 directions × 200 × 200 cells to hold, past
    indexes.MOST_LINE_CELLS (a ruleset is untrusted: its lines are made without steps)."""
    assert 20 * 6 * 200 * 200 > indexes.MOST_LINE_CELLS >= 400 * 6 * 3 * 3   # Kingdom Builder's fit
    text = RULES.replace("line(land, h, d, 2) where owner_of(y) == p) == 2",
                         "line(land, h, d, 200) where owner_of(y) == p) == 200")
    (on, source), (off, _) = _both(tmp_path, text)
    assert "_m_full(" not in source and "_mf" in source   # its kept values, as before
    games = [rules.new_game(2, seed=1) for rules in (on, off)]
    _played(games, [(0, "claim", "(1,1)"), (1, "claim", "(2,2)"), (0, "claim", "(1,2)")])
    assert _listing(games[0], 1) == _listing(games[1], 1) and _extends(_listing(games[0], 1)) == []


def test_a_line_counts_its_steps_up_to_the_first_full_one():
    lines = {("a", "east"): ["b", "c"], ("a", "west"): [], ("b", "east"): ["c"], ("b", "west"): ["a"],
             ("c", "east"): [], ("c", "west"): ["b", "a"]}
    straight = kept.Lines(["a", "b", "c"], ("east", "west"), 2, lambda h, d: lines[(h, d)]).made()
    # From a: two directions, then east's two cells, then west's none.
    assert straight.steps["a"] == [4, 4, 4]
    assert straight.steps["c"] == [4, 2, 4]
    # The two lines of two cells, a→b→c and c→b→a, each noted at its cells with the other.
    assert straight.through == {"b": [("a", 1, "c", ("c",)), ("c", 2, "a", ("a",))],
                                "c": [("a", 1, "b", ("b",))], "a": [("c", 2, "b", ("b",))]}
    assert straight.count({"b", "c"}) == {"a": 1}
    assert straight.count({"a", "b", "c"}) == {"a": 1, "c": 2}


def test_kingdom_builder_lists_its_tavern_from_the_lines_kept():
    rules = regnum.load("kingdom_builder")
    source = rules.model.actions["build_with_tile"].lister.source
    assert "_m_full(" in source and "(_lb & -_lb).bit_length()" in source


@pytest.mark.parametrize("seed, asked", [(9, [0, 1, 3]), (10, [0, 1, 2])])
def test_kingdom_builder_keeps_its_index_and_lines_through_a_game(seed, asked):
    """A fault while judging or updating an index refuses it quietly (the searches are then
    made as written): after a whole game, owner_of's index still stands, and the lines kept
    of each seat that listed a Tavern's builds (`asked`; only those are kept) are those
    counted afresh from its hexes."""
    game = play_random_game(regnum.load("kingdom_builder"), 4, seed, coverage=False)
    assert game.is_over
    (index,) = game.state.memo.indexes.values()
    assert index is not None and sorted(index.lines) == asked
    for wanted, by_lines in index.lines.items():
        (straight, full), = by_lines.items()
        assert full == straight.count(index.cells.get(wanted, set())) and full
