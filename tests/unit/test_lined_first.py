"""Asked whether a move exists by a `can` whose listing is kept whole (decisions._First), a
lister whose last require of its last parameter is answered by the lines kept narrows too
(listers._Writer._lined_first, engine/memo.lined_cells with `first`): the cells skipped
before the first cell found are charged at once, those after it when that first move is
met (decisions._stop), so that the first move notes the steps a listing stopped there
charges and the whole listing those of every cell judged: the same answer, steps, listing
kept, step limit and games as judging every cell (Kingdom Builder's Tavern among them)."""
from __future__ import annotations

import re

import pytest

from regnum.agents import play_random_game, playout, random_picks
from regnum.compiler import listers
from regnum.engine import decisions
from regnum.engine import memo as kept
from regnum.limits import Overflow

from listings import assert_alike, played   # tests/unit is on the path of its tests
from test_lined_cells import RULES, _placed
from toy_rules import load_switched


def _loaded(tmp_path, text: str | None, lined: bool, name: str = "toy.rules"):
    """The ruleset, lined narrowing on or off."""
    return load_switched(tmp_path, text, name, [(listers, "LINED", lined)])


def _firsts(rules, action: str) -> list[str]:
    """The calls of lined_first (lined_cells given the listing's `stop`) in an action's lister."""
    return re.findall(r"_m_lined_first[(][^\n]*, stop[)]", rules.model.actions[action].lister.source)


def _kept(game, action: str, seat: int, limit: int | None = None):
    """What `exists` answers for `action` during a move at the game's position, coverage
    off, on a copy of its state: (found, or ("plain", found) when it listed again the plain
    way, or the limit met; the steps charged; the listing kept and its steps)."""
    ctx = game._ctx(game._state.copy())
    ctx.steps, ctx.hits, ctx.undo = 0, None, []
    if limit is not None:
        ctx.max_steps = limit
    rules = game.model.actions[action]
    try:
        found = decisions._exists_keeping(ctx, rules, seat)
        if found is None:   # as exists() does then
            found = ("plain", decisions.exists(ctx, rules, seat))
    except Overflow as err:   # the step limit, as a listing meets it (located by its caller)
        return ("limit", str(err)), ctx.steps, None
    entry = (ctx.kept or {}).get((seat, action))
    return found, ctx.steps, None if entry is None else entry[:2]


def test_which_listers_narrow_when_asked_whether_a_move_exists(tmp_path):
    rules = _loaded(tmp_path, RULES, True)
    for action in ("extend", "build"):   # the lined require last, of the last parameter
        (call,) = _firsts(rules, action)
        assert re.search(rf"w(\d) = \(it\1 if stop else _m_lined\([^\n]*\)\)\n\s+if stop: w\1 = {re.escape(call)}\n",
                         rules.model.actions[action].lister.source)
    # a require after it: every cell when asked
    after = RULES.replace('        else "the liner builds at the end of a line of two of yours"\n',
                          '        else "the liner builds at the end of a line of two of yours"\n'
                          '    require blue: colour(x) != blue else "never on blue"\n')
    source = _loaded(tmp_path, after, True, "after.rules").model.actions["build"].lister.source
    assert "(it1 if stop else _m_lined(" in source and "_m_lined_first(" not in source
    kingdom = _loaded(tmp_path, None, True, "kingdom_builder")
    (tavern,) = _firsts(kingdom, "build_with_tile")
    assert "'terrain'" in tavern


def _owing(patch) -> list:
    """The debts lined_cells leaves to the first move, call by call, while `patch` holds."""
    owed = []
    lined_cells = kept.lined_cells

    def spied(c, domain, *args):
        first = args[7] if len(args) == 8 else None
        found = lined_cells(c, domain, *args)
        if isinstance(first, decisions._First):
            owed.append(first.owed)
        return found
    patch.setattr(kept, "lined_cells", spied)   # as lined_first calls it
    return owed


def test_asked_whether_a_move_exists_it_answers_and_keeps_what_every_cell_judged_would(tmp_path):
    """Position after position of random games: the answer, the steps it charges (those of
    a listing stopped at the first move) and the listing it keeps (all the moves, with the
    steps of every cell judged), against the same ruleset without the lines."""
    with pytest.MonkeyPatch.context() as patch:
        owed = _owing(patch)
        on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
        compared = 0
        for seed in range(4):
            games = [rules.new_game(2, seed, coverage=False) for rules in (on, off)]
            picks = random_picks(seed, 2)
            for _ in playout(games[0], picks, 40):
                games[1]._state = games[0]._state.copy()   # the same position in both
                seat = games[0].to_move[0]
                for action in ("extend", "build"):
                    assert _kept(games[0], action, seat) == _kept(games[1], action, seat)
                    compared += 1
    assert compared > 100
    assert sum(1 for debt in owed if debt) > 10   # cells skipped after a first move found


def test_the_step_limit_is_met_as_every_cell_judged_meets_it(tmp_path):
    """Between the steps of the first move and those of the whole listing, the listing kept
    runs out of steps where the one judging every cell does: `exists` then lists the plain
    way, stopped at the first move, and answers within the limit."""
    on, off = _loaded(tmp_path, RULES, True, "on.rules"), _loaded(tmp_path, RULES, False, "off.rules")
    games = [_placed(rules) for rules in (on, off)]
    found, first, listing = _kept(games[1], "extend", 0)
    assert found is True and listing[0] == [("(1,1)",), ("(1,4)",)] and listing[1] > first
    for limit in (listing[1], listing[1] - 1, first + 1, first, first - 1):
        assert _kept(games[0], "extend", 0, limit) == _kept(games[1], "extend", 0, limit), limit
    assert _kept(games[0], "extend", 0, listing[1] - 1)[2] is None   # not kept: listed again
    assert _kept(games[0], "extend", 0, first - 1)[0][0] == "limit"


@pytest.mark.parametrize("seed", range(3))
def test_games_play_as_games_through_every_cell(tmp_path, seed):
    """Whole games without coverage, where `can` keeps its listings: moves, state, peak steps."""
    assert_alike(*(played(_loaded(tmp_path, RULES, lined, f"lined{lined}.rules"), seed)
                   for lined in (True, False)))


def test_kingdom_builder_plays_as_through_every_hex(tmp_path):
    every = _loaded(tmp_path, None, False, "kingdom_builder")
    with pytest.MonkeyPatch.context() as patch:
        owed = _owing(patch)
        lined = _loaded(tmp_path, None, True, "kingdom_builder")
        for seed, players in ((3, 4), (8, 4), (2, 2), (11, 3)):
            assert_alike(play_random_game(lined, players, seed, coverage=False),
                         play_random_game(every, players, seed, coverage=False))
    assert any(owed)


def test_a_move_found_before_the_loop_leaves_nothing_owed(tmp_path):
    """A listing whose first move came from an earlier parameter's choice (the plain tool,
    before the liner) lists the liner's cells the lined way once its `stop` is spent:
    nothing owed, the same moves, first steps and steps as judging every cell."""
    seen = []
    for lined in (True, False):
        rules = _loaded(tmp_path, RULES, lined, f"lined{lined}.rules")
        game = _placed(rules)
        first = decisions._First()
        ctx = game._ctx(game._state.copy())
        ctx.steps = 0
        moves = game.model.actions["build"].lister(ctx, 0, None, first)
        assert first.owed == 0
        seen.append((moves, first.steps, ctx.steps))
    assert seen[0] == seen[1]
    kinds = [game._state.pieces[tool]["kind"] for tool, _, _ in seen[0][0]]
    assert kinds.index("liner") > 0 and [x for (_, x, _), kind in zip(seen[0][0], kinds) if kind == "liner"] \
        == ["(1,1)", "(1,4)"]
