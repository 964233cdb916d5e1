"""A lister's loop whose domain is a fixed board's cells at times only (`to in (if t.kind ==
jumper then neighbours(land, from) else land)`) goes, without coverage and when the domain
is those cells, only through the cells a require `a or T(x) == v` lets through, read from
the table's index of the cells known at load (listers._Writer._narrowed, _fixed_branch):
the same values in the same order, so the same moves, steps and faults as judging every
cell, listing by listing and in whole games (Kingdom Builder's Barn and Harbor among them).
The other branch, coverage counted, or a table the state may still write: every cell."""
from __future__ import annotations

import re

import pytest

from regnum import Move
from regnum.agents import play_random_game, playout, random_picks
from regnum.compiler import listers
from regnum.engine import state as states

from listings import assert_alike, both, played   # tests/unit is on the path of its tests
from near_toy import listing
from toy_rules import load_switched

RULES = """
game toy "Toy"
players 2..2
enum colour_kind: red, blue, green
enum tool_kind: plain, reddener, matcher, jumper
board land: hex_grid
    rows = 4
    cols = 5
    layout = "odd_r"
piece stone:
    owner: player
piece tool:
    kind: tool_kind
zone site per land: public
zone pool per player: public
zone tools per player: public
var colour per land: colour_kind = red
var wanted: colour_kind = blue
def owner_of(x) = if count(site(x)) == 0 then none else site(x)[0].owner
def own(p) = [x for x in land where owner_of(x) == p]
setup:
    for h in land:
        set colour(h) = [red, blue, green][(h.row + 2 * h.col) % 3]
    for p in players:
        create 9 stone(owner: p) in pool(p)
        for k in [plain, reddener, matcher, jumper]:
            create 1 tool(kind: k) in tools(p)
flow:
    repeat until false:
        for p in players:
            ask p to claim or shift or paint or want
action claim(x in land):
    require free: count(site(x)) == 0 else "taken"
    require stock: count(pool(player)) > 0 else "no stone left"
    move 1 from pool(player) to site(x)
action shift(t in tools(player), from in own(player), to in (if t.kind == jumper then neighbours(land, from) else land)):
    require free: count(site(to)) == 0 else "taken"
    require reddener: t.kind != reddener or colour(to) == red else "the reddener moves onto red"
    require matcher: t.kind != matcher and t.kind != jumper or colour(to) == wanted
        else "the matcher and the jumper move onto the colour wanted"
    move site(from) to site(to)
action paint(x in land):
    require mine: owner_of(x) == player else "not yours"
    set colour(x) = blue
action want(k in [red, green]):
    set wanted = k
"""

# The cells of each colour (row + 2 col modulo 3), in the board's order.
RED, BLUE, _ = ([f"({r},{c})" for r in range(4) for c in range(5) if (r + 2 * c) % 3 == k] for k in range(3))


def _loaded(tmp_path, text: str | None, narrowed: bool, name: str = "toy.rules"):
    """The ruleset, its listers narrowing a domain known at times when it is the list
    known, or never."""
    return load_switched(tmp_path, text, name, [(listers, "KNOWN_BRANCH", narrowed)])


def _tests(rules, action: str) -> list[str]:
    """The lines of an action's lister that test whether a domain is the list known."""
    return re.findall(r"if hits is None and it\d is _k\d+:", rules.model.actions[action].lister.source)


def _reads(patch) -> list:
    """What State.cells_with gives for the lists known at load, call by call, while `patch`
    holds: the cells (a list apart from the domain), or 'every cell' (the domain itself)."""
    seen = []
    cells_with = states.State.cells_with

    def read(state, name, domain, value):
        found = cells_with(state, name, domain, value)
        seen.append("every cell" if found is domain else list(found))
        return found
    patch.setattr(states.State, "cells_with", read)
    return seen


def test_which_listers_narrow_a_domain_known_at_times(tmp_path):
    rules = _loaded(tmp_path, RULES, True)
    (test,) = _tests(rules, "shift")
    assert rules.model.expressions.codegen.ns[test.split()[-1][:-1]] is rules.model.expressions.codegen.named_list("land")
    # the domain, when it is the board's cells, is its own choices: no copy made distinct
    assert re.search(r"\(d if d is _k\d+ else _m_unique\(d\)\)", rules.model.actions["shift"].lister.source)
    source = rules.model.actions["shift"].lister.source
    # each guard chooses its require: the reddener's colour, then the matcher's
    assert re.search(r"if not \(+_s_pieces\[v0\]\['kind'\] != 'reddener'\)+:\n\s+"
                     r"w2 = c.state.cells_with\('colour', _fixed\d+, 'red'\)\n\s+"
                     r"elif not \(+_s_pieces\[v0\]\['kind'\] != 'matcher'\)+ and \(+_s_pieces\[v0\]\['kind'\] != 'jumper'\)+:\n\s+"
                     r"w2 = c.state.cells_with\('colour', _fixed\d+, _s_vars\['wanted'\]\)", source)
    # a domain known at load narrows as before; none without the switch
    assert _tests(rules, "claim") == [] and "for v0 in it0:" in rules.model.actions["claim"].lister.source
    assert _tests(_loaded(tmp_path, RULES, False, "off.rules"), "shift") == []
    # no branch known at load: nothing to test
    unknown = RULES.replace("else land)", "else own(player))")
    assert _tests(_loaded(tmp_path, unknown, True, "unknown.rules"), "shift") == []


def test_kingdom_builder_narrows_the_barn_and_the_harbor(tmp_path):
    rules = _loaded(tmp_path, None, True, "kingdom_builder")
    (test,) = _tests(rules, "move_with_tile")
    assert len(rules.model.expressions.codegen.ns[test.split()[-1][:-1]]) == 400
    source = rules.model.actions["move_with_tile"].lister.source
    assert re.search(r"elif not \(+_s_pieces\[v0\]\['kind'\] != 'Harbor'\)+:\n\s+"
                     r"w2 = c.state.cells_with\('terrain', _fixed\d+, 'water'\)", source)


def test_a_listing_lists_and_charges_what_every_cell_judged_would(tmp_path):
    """Position after position of random games, `shift`'s listing against the generic
    walk's, which judges every cell (tests/unit/listings.both): the same moves and coverage;
    without coverage, where the lister reads the index, exactly the steps it charges with
    coverage. Asked whether a move exists, the same."""
    with pytest.MonkeyPatch.context() as patch:
        seen = _reads(patch)
        rules = _loaded(tmp_path, RULES, True)
        for seed in range(4):
            game = rules.new_game(2, seed)
            for _ in playout(game, random_picks(seed, 2), 40):
                seat = game.to_move[0]
                both(game, "shift", seat)
                both(game, "shift", seat, stop=True)
    read = [tuple(found) for found in seen if found != "every cell"]
    # the colours as set up, and as painted since (the state after a move is a copy)
    assert len(read) > 20 and {tuple(RED), tuple(BLUE)} < set(read)
    assert "every cell" not in seen   # the copies listed own no table


def _placed(rules, coverage: bool = False):
    game = rules.new_game(2, seed=1, coverage=coverage)
    for seat, cell in [(0, "(1,2)"), (1, "(3,4)"), (0, "(0,0)"), (1, "(0,4)")]:
        game.play(Move(seat, "claim", {"x": cell}))
    return game


def test_the_cells_read_are_those_judged_and_a_written_table_is_judged(tmp_path):
    """The reddener's cells are the red ones (row + 2 col a multiple of 3), the matcher's
    those of the colour wanted; after `paint` the state writes `colour` in place (no copy
    shares it): its listings go through every cell, and list what they listed before."""
    with pytest.MonkeyPatch.context() as patch:
        seen = _reads(patch)
        on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
        games = [_placed(rules) for rules in (on, off)]
        del seen[:]   # what the moves played read
        assert listing(games[0], 0) == listing(games[1], 0)
        assert seen == [RED, BLUE]   # once a tool: the stones' moves share the cells judged
        shifts = {}
        for action, args in listing(games[0], 0)[0]:
            if action == "shift":
                args = dict(args)
                shifts.setdefault(args["t"], set()).add((args["from"], args["to"]))
        # seat 0's reddener and matcher, from its two stones: to the free red cells, to the blue
        assert shifts["tool#10"] == {(x, to) for x in ("(0,0)", "(1,2)") for to in RED if to != "(0,0)"}
        assert shifts["tool#11"] == {(x, to) for x in ("(0,0)", "(1,2)") for to in BLUE}
        # the jumper, to the blue cells next to them: its domain is not the board's cells
        assert shifts["tool#12"] == {("(0,0)", "(1,0)"), ("(1,2)", "(0,2)"), ("(1,2)", "(1,3)")}
        for game in games:
            game.play(Move(0, "paint", {"x": "(1,2)"}))
            game.play(Move(1, "want", {"k": "green"}))
        assert "colour" in games[0]._state._owned_tables
        assert listing(games[0], 0) == listing(games[1], 0) and seen[-2:] == ["every cell"] * 2


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("coverage", [False, True])
def test_games_play_as_games_through_every_cell(tmp_path, seed, coverage):
    """Whole games, with coverage counted and without: moves, state, coverage, peak steps."""
    a, b = (played(_loaded(tmp_path, RULES, narrowed, f"narrowed{narrowed}.rules"), seed, coverage=coverage)
            for narrowed in (True, False))
    assert_alike(a, b)
    assert sum(m.action == "shift" for m in a._moves) > 5


def test_kingdom_builder_plays_as_through_every_hex(tmp_path):
    """Games with a Barn or a Harbor (the index read): moves, state, peak steps, coverage."""
    every = _loaded(tmp_path, None, False, "kingdom_builder")
    with pytest.MonkeyPatch.context() as patch:
        seen = _reads(patch)
        narrowed = _loaded(tmp_path, None, True, "kingdom_builder")
        for seed, players, coverage in ((3, 4, False), (8, 4, True), (2, 2, False), (5, 3, False)):
            a = play_random_game(narrowed, players, seed, coverage=coverage)
            b = play_random_game(every, players, seed, coverage=coverage)
            assert_alike(a, b)
    assert len([found for found in seen if found != "every cell"]) > 20


def test_every_narrowing_over_the_board_reads_one_index(tmp_path):
    """The listers' domains, the known branches and the narrowed comprehensions over a
    board's cells read one tuple of them (CodeGen.fixed_tuple): a table's index of the cells
    (State.cells_with) is built once a table, not once a place that reads the board."""
    rules = _loaded(tmp_path, RULES, True)
    fixed = [action.params[-1].fixed for action in rules.model.actions.values()
             if action.params and action.params[-1].fixed is not None and len(action.params[-1].fixed) == 20]
    assert len(fixed) == 2 and fixed[0] is fixed[1] and list(fixed[0]) == [f"({r},{c})" for r in range(4) for c in range(5)]
    with pytest.MonkeyPatch.context() as patch:
        domains = []
        cells_with = states.State.cells_with

        def read(state, name, domain, value):
            domains.append(domain)
            return cells_with(state, name, domain, value)
        patch.setattr(states.State, "cells_with", read)
        rules = _loaded(tmp_path, None, True, "kingdom_builder")
        game = play_random_game(rules, 4, 3, coverage=False)
    assert {type(d) for d in domains} == {tuple} and len({id(d) for d in domains}) == 1 and len(domains) > 100
    # one index of the cells (the lines kept for a Tavern are kept there too, under their key)
    table = game._state.tables["terrain"]
    assert [key for key in table.by_value if type(key) is int] == [id(domains[0])]
