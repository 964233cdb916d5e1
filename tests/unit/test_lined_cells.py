"""A lister's loop over a fixed board's cells whose require is `T(x) in K and L(x, player)`
(K a constant list, L a search of full lines that the lines kept answer; guarded or not,
after one zone test at most) goes, without coverage, only through the cells with a full
line that pass the zone test and where K holds T (listers._Writer._lined,
engine/memo.lined_cells). The cells it skips would each have charged steps at that require
(`in` goes through K, L through every line): they are charged at once. So the same moves,
steps, step limit and faults as judging every cell, listing by listing and in whole games
(Kingdom Builder's Tavern among them); asked only whether a move exists, with coverage,
without kept values, or with a table the state may still write, every cell is judged."""
from __future__ import annotations

import re

import pytest

import regnum
from regnum import Move
from regnum.agents import play_random_game, playout, random_picks
from regnum.compiler import listers, memo
from regnum.engine import memo as kept

from listings import assert_alike, both   # tests/unit is on the path of its tests
from near_toy import limit_messages, listing
from toy_rules import load

RULES = """
game toy "Toy"
players 2..2
enum colour_kind: red, blue, green
enum tool_kind: plain, liner
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
const usable = [red, green]
def owner_of(x) = if count(site(x)) == 0 then none else site(x)[0].owner
def lined(h, p) = any(count(y for y in line(land, h, d, 2) where owner_of(y) == p) == 2 for d in directions(land))
setup:
    for h in land:
        set colour(h) = [red, blue, green][(h.row + 2 * h.col) % 3]
    for p in players:
        create 9 stone(owner: p) in pool(p)
        create 1 tool(kind: plain) in tools(p)
        create 1 tool(kind: liner) in tools(p)
flow:
    repeat until false:
        for p in players:
            ask p to claim or lift or extend or build or paint
action claim(x in land):
    require free: count(site(x)) == 0 else "taken"
    require stock: count(pool(player)) > 0 else "no stone left"
    move 1 from pool(player) to site(x)
action lift(x in land):
    require mine: owner_of(x) == player else "not yours"
    move site(x) to pool(player)
action extend(x in land):
    require stock: count(pool(player)) > 0 else "no stone left"
    require lined: colour(x) in usable and lined(x, player) else "at the end of a line of two of yours"
    move 1 from pool(player) to site(x)
action build(t in tools(player), x in land):
    require stock: count(pool(player)) > 0 else "no stone left"
    require free: count(site(x)) == 0 else "taken"
    require liner: t.kind != liner or (colour(x) in usable and lined(x, player))
        else "the liner builds at the end of a line of two of yours"
    move 1 from pool(player) to site(x)
action paint(x in land):
    require mine: owner_of(x) == player else "not yours"
    set colour(x) = blue
"""

CELLS = [f"({r},{c})" for r in range(4) for c in range(5)]


def _loaded(tmp_path, text: str | None, lined: bool, name: str = "toy.rules", kept_values: bool = True):
    """The ruleset (`text`, or the bundled ruleset `name`) loaded without the disk cache, its
    listers going through the lined cells only or through every cell, with kept values of
    defs or without."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REGNUM_CACHE_DIR", "off")
        patch.setattr(listers, "LINED", lined)
        patch.setattr(memo, "ENABLED", kept_values)
        return load(tmp_path, text, name) if text is not None else regnum.load(name)


def _lined(rules, action: str) -> list[str]:
    """The calls of lined_cells in an action's lister."""
    return re.findall(r"_m_lined[(][^\n]*[)][)]", rules.model.actions[action].lister.source)


def _counting(patch) -> list:
    """What lined_cells gives, call by call, for the rulesets loaded while `patch` holds:
    'every cell' (its domain, or None with coverage counted), the cells, or with coverage
    counted ('counted', the cells, the cells refused by the zone test, by the require)."""
    seen = []
    lined_cells = kept.lined_cells

    def counted(c, domain, *args):
        found = lined_cells(c, domain, *args)
        if found is domain or found is None:
            seen.append("every cell")
        elif type(found) is tuple:
            seen.append(("counted", list(found[0]), found[1], found[2]))
        else:
            seen.append(list(found))
        return found
    patch.setattr(listers, "_HELPERS", None)   # the generated code's helpers, bound afresh
    patch.setattr(kept, "lined_cells", counted)
    return seen


def test_which_listers_go_through_the_lined_cells(tmp_path):
    rules = _loaded(tmp_path, RULES, True)
    # no zone test before the require: no zone is read
    (extend,) = _lined(rules, "extend")
    assert re.fullmatch(r"_m_lined\(c, it0, 'colour', _items\d+, 2, None, \(\d+, _mb\d+, _k\d+, _ln\d+\), pl\)\)",
                        extend)
    assert "(it0 if stop else _m_lined(" in rules.model.actions["extend"].lister.source
    # after `free`, when the tool is the liner (the guard read once a tool)
    (build,) = _lined(rules, "build")
    assert re.search(r", 2, \(_ck\d+, False\), ", build)
    assert re.search(r"if not \(\(?\(?_s_pieces\[v0\]\['kind'\] != 'liner'\)?\)?\):\n\s+w1 = \(it1 if stop",
                     rules.model.actions["build"].lister.source)
    # the lines through every cell, as before: without the switch, or without kept values
    assert _lined(_loaded(tmp_path, RULES, False, "every.rules"), "build") == []
    assert _lined(_loaded(tmp_path, RULES, True, "unkept.rules", kept_values=False), "build") == []
    # K not a constant; a search the lines do not answer; two zone tests before the require
    variable = RULES.replace("const usable = [red, green]", "var usable: list of colour_kind = [red, green]")
    assert _lined(_loaded(tmp_path, variable, True, "variable.rules"), "extend") == []
    unlined = RULES.replace("lined(x, player) else \"at the end", "lined(x, 1) else \"at the end")
    assert _lined(_loaded(tmp_path, unlined, True, "unlined.rules"), "extend") == []
    twice = RULES.replace('    require liner:', '    require empty: count(site(x)) == 0 else "taken"\n'
                                               '    require liner:')
    assert _lined(_loaded(tmp_path, twice, True, "twice.rules"), "build") == []


def test_kingdom_builder_lists_its_tavern_through_the_lined_hexes(tmp_path):
    rules = _loaded(tmp_path, None, True, "kingdom_builder")
    (tavern,) = _lined(rules, "build_with_tile")
    assert re.search(r"'terrain', _items\d+, 5, \(_ck\d+, False\)", tavern)
    assert "elif not ((_s_pieces[v0]['kind'] != 'Tavern')):" in rules.model.actions["build_with_tile"].lister.source


def test_a_listing_lists_and_charges_what_every_cell_judged_would(tmp_path):
    """Position after position of random games, each lined action's listing against the
    generic walk's, which judges every cell (tests/unit/listings.both): the same moves and
    coverage; without coverage, where the lister skips cells, exactly the steps it charges
    with coverage, where it judges every one. Asked whether a move exists, the same."""
    with pytest.MonkeyPatch.context() as patch:
        seen = _counting(patch)
        for kept_values in (True, False):
            rules = _loaded(tmp_path, RULES, True, f"kept{kept_values}.rules", kept_values=kept_values)
            for seed in range(3):
                game = rules.new_game(2, seed)
                for _ in playout(game, random_picks(seed, 2), 40):
                    seat = game.to_move[0]
                    for action in ("extend", "build"):
                        both(game, action, seat)
                        both(game, action, seat, stop=True)
    plain = [found for found in seen if type(found) is list]
    assert len(plain) > 20 and any(plain) and [] in plain   # lines found, and none
    counted = [found for found in seen if type(found) is tuple]   # with coverage: counted apart
    assert len(counted) > 20 and any(found[1] and found[2] for found in counted)
    assert "every cell" not in seen   # the copies listed own no table


def test_a_table_the_state_may_still_write_is_judged_cell_by_cell(tmp_path):
    """After `paint`, the game's state writes `colour` in place (a copy would share it no
    more): its own listings go through every cell, and list what they listed before."""
    with pytest.MonkeyPatch.context() as patch:
        seen = _counting(patch)
        on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
        games = [_placed(rules) for rules in (on, off)]
        assert listing(games[0], 0) == listing(games[1], 0) and seen[-1] == ["(1,1)", "(1,4)"]
        for game in games:
            game.play(Move(0, "paint", {"x": "(1,2)"}))
            game.play(Move(1, "lift", {"x": "(0,4)"}))
        assert "colour" in games[0]._state._owned_tables
        assert listing(games[0], 0) == listing(games[1], 0) and seen[-1] == "every cell"
        # with coverage counted, the cells skipped are counted apart: under `free` the four
        # taken, under `liner` the free cells without a line of two of seat 0's
        counted = [_placed(rules, coverage=True) for rules in (on, off)]
        assert listing(counted[0], 0) == listing(counted[1], 0)
        assert seen[-2:] == [("counted", ["(1,1)", "(1,4)"], 0, 18),   # extend: no zone test
                             ("counted", ["(1,1)", "(1,4)"], 4, 14)]   # build with the liner
        assert counted[0].hits == counted[1].hits and counted[0].hits["require:extend.lined"] > 0


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("coverage", [False, True])
def test_games_play_as_games_through_every_cell(tmp_path, seed, coverage):
    """Whole games, with coverage counted and without: moves, state, coverage, peak steps."""
    games = []
    for lined in (True, False):
        rules = _loaded(tmp_path, RULES, lined, f"lined{lined}.rules")
        game = rules.new_game(2, seed, coverage=coverage)
        for _ in playout(game, random_picks(seed, 2), 80):
            pass
        games.append(game)
    a, b = games
    assert_alike(a, b)
    assert any(m.action in ("extend", "build") for m in a._moves)


def test_kingdom_builder_plays_as_through_every_hex(tmp_path):
    """Games with a Tavern (the lined hexes listed, and none): moves, state, peak steps."""
    every = _loaded(tmp_path, None, False, "kingdom_builder")
    with pytest.MonkeyPatch.context() as patch:
        seen = _counting(patch)   # the preferring listers are made as the games first list
        lined = _loaded(tmp_path, None, True, "kingdom_builder")
        for seed, players, coverage in ((3, 4, False), (8, 4, True), (2, 2, False), (7, 4, True)):
            a = play_random_game(lined, players, seed, coverage=coverage)
            b = play_random_game(every, players, seed, coverage=coverage)
            assert_alike(a, b)
    assert [found for found in seen if type(found) is list and found]
    assert [found for found in seen if type(found) is tuple and found[1]]


def _placed(rules, coverage: bool = False):
    game = rules.new_game(2, seed=1, coverage=coverage)
    for seat, cell in [(0, "(1,2)"), (1, "(3,4)"), (0, "(1,3)"), (1, "(0,4)")]:
        game.play(Move(seat, "claim", {"x": cell}))
    return game


def test_the_step_limit_is_met_where_every_cell_judged_meets_it(tmp_path):
    """A limit the listing reaches exactly passes; one step fewer fails with the message of
    the listing through every cell (the lined cells are not charged past the limit: every
    cell is judged then, and the limit met where it is met)."""
    on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
    moves, needed = listing(_placed(off), 0)
    # seat 0's line (1,2)-(1,3) ends at (1,1) and (1,4), both red (usable)
    assert [m for m in moves if m[0] == "extend"] == [("extend", (("x", "(1,1)"),)), ("extend", (("x", "(1,4)"),))]
    assert listing(_placed(on), 0) == (moves, needed)
    messages = limit_messages((on, off), _placed, listing, 0, needed)
    assert messages[0] == messages[1] and f"more than {needed - 1} steps" in messages[0]


def test_a_zone_that_is_not_there_fails_as_the_loop_fails(tmp_path):
    """A cell's zone missing from the state (a state read from a stranger): the zone test
    fails at that cell, in the loop, as it fails without the lines."""
    for lined in (True, False):
        rules = _loaded(tmp_path, RULES, lined, f"missing{lined}.rules")
        game = _placed(rules)
        family = rules.model.zones["site"]
        del game._state.zones[family.keys["(2,2)"]]
        outcome = both(game, "build", 0)[0]
        assert outcome[0] == "raised" and outcome[1] == "KeyError"


def _asked(rules, action: str, game, limit: int | None = None):
    """(what lined_cells gives, the steps it charged, the state listed) for `action`'s call
    of it, made alone on a copy of the game's state, for seat 0 (`limit`: its step limit)."""
    (call,) = _lined(rules, action)
    ctx = game._ctx(game._state.copy())
    ctx.steps = 0
    if limit is not None:
        ctx.max_steps = limit
    domain = rules.model.actions[action].params[-1].fixed
    found = eval(call[:-1], rules.model.expressions.codegen.ns,
                 {"c": ctx, "it0": domain, "it1": domain, "pl": 0})
    return ("every cell" if found is domain else found), ctx.steps, ctx.state


def test_the_cells_skipped_are_charged_at_once_and_never_past_the_limit(tmp_path):
    rules = _loaded(tmp_path, RULES, True)
    game = _placed(rules)
    found, charged, _ = _asked(rules, "extend", game)
    assert found == ["(1,1)", "(1,4)"] and charged > 0
    # one step short: nothing charged, every cell left to the loop, which stops where it stops
    assert _asked(rules, "extend", game, limit=charged - 1)[:2] == ("every cell", 0)
    assert _asked(rules, "extend", game, limit=charged)[:2] == (found, charged)


def test_the_lines_are_asked_only_for_a_cell_that_could_have_one(tmp_path):
    """Every usable cell taken: `build` skips every free cell (none usable) and charges their
    colours, without asking for the lines (the loop would never ask: no index is made)."""
    rules = _loaded(tmp_path, RULES, True)
    game = rules.new_game(2, seed=1, coverage=False)
    usable = [x for x in CELLS if (int(x[1]) + 2 * int(x[3])) % 3 != 1]   # red or green
    for i, cell in enumerate(usable):
        game.play(Move(game.to_move[0], "claim", {"x": cell}))
    found, charged, state = _asked(rules, "build", game)
    blue = len(CELLS) - len(usable)
    assert (found, charged) == ([], blue * 2 * (1 + len("blue")))   # `in` through K's two colours
    assert state.memo is kept.EMPTY
