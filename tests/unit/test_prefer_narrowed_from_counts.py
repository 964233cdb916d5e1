"""A prefer's narrowing (the moves listed first, then judged: in listings that count
coverage, and wherever the preferring lister does not list) whose test the counts of
neighbours answer — `K(x, player, y)`, or `A or K(x, player, y)` with A judged once a run of
moves, K of near_lifted's shape, x a parameter that holds no piece — judges each move from the counts
with what it reads kept for the narrowing: a choice's count and neighbours read once, y's
owner once a value of y, the steps added up and charged before A is judged again and at the
end (prefers._Narrower._near_loop). Where the counts do not stand, or a choice is no key,
every move is judged as written. The same moves, steps, coverage, faults and step limit as
judging move by move, listing by listing and in whole games."""
from __future__ import annotations

import pytest

from regnum import Limits, Move
from regnum.agents import play_random_game, playout, random_picks
from regnum.compiler import prefers

from listings import assert_alike, preferred   # tests/unit is on the path of its tests
from test_prefer_groups_at_once import RULES as GROUPED
from toy_rules import load_switched

# The rulesets of the groups judged at once, swap's moves one group (no `per`).
_HEAD, _, _SWAP = GROUPED.partition("action swap")
RULES = _HEAD + "action swap" + _SWAP.replace("prefer near per from:", "prefer near:", 1)

# A guard judged once a run of moves, which faults for the moves from g.
FAULTY = RULES.replace("ask p to claim or shift or hop or swap", "ask p to claim or probe") + """
action probe(from in map, to in map):
    require mine: owner_of(from) == player else "not yours"
    require free: count(site(to)) == 0 else "taken"
    prefer near per from: [0][if from == g then 5 else 0] == 1 or near_mine(to, player, from)
        else "next to your own, the moved one aside"
    move site(from) to site(to)
"""

# hop's destinations no list known at load: a choice is checked to be a key, move by move.
UNFIXED = RULES.replace("action hop(from in map, to in map):",
                        "action hop(from in map, to in [n for n in map where count(site(n)) == 0]):")

JUDGED = ("shift", "hop", "swap")
PLACED = ("a", "c", "g", "d")   # claimed in turn: seat 0 on a and g, seat 1 on c and d


def _loaded(tmp_path, at_once: bool, text: str | None = RULES, name: str = "toy.rules"):
    """The ruleset `text` (or the bundled ruleset `name`), its prefers judged from the counts
    where they can be (`at_once`) or move by move."""
    return load_switched(tmp_path, text, name, [(prefers, "AT_ONCE", at_once)])


def _from_counts(rules, action: str) -> bool:
    return "_nrows" in rules.model.actions[action].prefers[0].narrow.source


def _placed(rules):
    """A game counting coverage, the nodes of PLACED claimed in turn."""
    game = rules.new_game(2, seed=1, coverage=True)
    for i, cell in enumerate(PLACED):
        game.play(Move(i % 2, "claim", {"x": cell}))
    return game


def _narrowed(game, action: str, seat: int = 0):
    """(what the narrowing keeps of the action's listed moves, the steps it charged, or the
    fault it raised) on a copy of the state, the moves listed apart."""
    act = game.model.actions[action]
    ctx = game._ctx(game._state.copy())
    ctx.hits = {}
    found = act.lister(ctx, seat, {}, False)
    start = ctx.steps
    try:
        kept = act.prefers[0].narrow(ctx, seat, found)
    except Exception as err:
        return ("raised", type(err).__name__, str(err)), ctx.steps - start
    return ("kept", [found.index(m) for m in kept]), ctx.steps - start


def test_which_narrowings_judge_from_the_counts(tmp_path):
    rules = _loaded(tmp_path, True)
    assert all(_from_counts(rules, action) for action in JUDGED)
    assert _from_counts(_loaded(tmp_path, True, FAULTY, "faulty.rules"), "probe")
    assert "hs = " in rules.model.actions["hop"].prefers[0].narrow.source
    assert not any(_from_counts(_loaded(tmp_path, False, name="one_by_one.rules"), action)
                   for action in JUDGED)
    # the left-out cell is the counted one; a guard that reads the counted cell is no test
    # of a run of moves
    lifted = RULES.replace("per from: near_mine(to, player, from)", "per from: near_mine(to, player, to)")
    assert not _from_counts(_loaded(tmp_path, True, lifted, "lifted.rules"), "shift")
    guard = RULES.replace("from == a or near_mine", "to == a or near_mine")
    assert not _from_counts(_loaded(tmp_path, True, guard, "guard.rules"), "hop")


def test_kingdom_builder_narrows_its_moved_settlements_from_the_counts(tmp_path):
    rules = _loaded(tmp_path, True, None, "kingdom_builder")
    assert _from_counts(rules, "move_with_tile")
    assert not _from_counts(rules, "build") and not _from_counts(rules, "build_with_tile")


def test_narrowings_keep_and_charge_what_judging_move_by_move_does(tmp_path):
    """Position after position of random games counting coverage: each narrowing from the
    counts against the reference (the generic walk, then decisions._narrow) and against the
    same narrowing judged move by move: the same moves, coverage and steps."""
    at_once, one_by_one = _loaded(tmp_path, True), _loaded(tmp_path, False, name="one_by_one.rules")
    compared = 0
    for seed in range(4):
        game = at_once.new_game(2, seed, coverage=True)
        for _ in playout(game, random_picks(seed, 2), 40):
            again = one_by_one.new_game(2, seed, coverage=True)
            for move in game._moves:
                again.play(Move(move.player, move.action, dict(move.args)))
            seat = game.to_move[0]
            for action in JUDGED:
                mine = preferred(game, action, seat)
                assert mine == preferred(again, action, seat)
                assert _narrowed(game, action, seat) == _narrowed(again, action, seat)
                compared += mine[0][0] == "moves" and len(mine[0][1]) > 1
    assert compared > 40


def test_a_position_narrowed_from_the_counts(tmp_path):
    """Seat 0 on a and g, seat 1 on c and d; b, e, f and h free. From a, only f and h are
    next to another of seat 0's (g); from g, b, e (by the chord) and h are next to a."""
    at_once, one_by_one = _loaded(tmp_path, True), _loaded(tmp_path, False, name="one_by_one.rules")
    game, again = _placed(at_once), _placed(one_by_one)
    moves = sorted((m.args["from"], m.args["to"]) for m in game.legal_moves(0) if m.action == "shift")
    assert moves == [("a", "f"), ("a", "h"), ("g", "b"), ("g", "e"), ("g", "h")]
    # listed: a and g to b, e, f and h; one step a neighbour of every destination judged
    # (b 2, e 3, f 2, h 2): hop judges none of a's moves, whose guard passes
    assert _narrowed(game, "shift") == _narrowed(again, "shift") == (("kept", [2, 3, 4, 5, 7]), 18)
    assert _narrowed(game, "hop") == _narrowed(again, "hop") == (("kept", [0, 1, 2, 3, 4, 5, 7]), 9)
    assert _narrowed(game, "swap") == _narrowed(again, "swap") == \
        (("kept", [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15]), 36)


def test_a_guard_that_faults_faults_where_judging_move_by_move_faults(tmp_path):
    """probe's moves from a are judged from the counts (9 steps) before its guard faults at
    g's: within a limit of 40 steps the listing meets the limit first, both ways."""
    at_once = _loaded(tmp_path, True, FAULTY, "faulty.rules")
    one_by_one = _loaded(tmp_path, False, FAULTY, "faulty_one_by_one.rules")
    outcomes = {}
    for limit in range(25, 50):
        seen = []
        for rules in (at_once, one_by_one):
            game = _placed(rules)
            game.limits = Limits(steps=limit)
            with pytest.raises(Exception) as raised:
                game.legal_moves(0)
            seen.append((type(raised.value).__name__, str(raised.value).splitlines()[0].split("error")[1]))
        assert seen[0] == seen[1]
        outcomes[limit] = seen[0]
    assert outcomes[40] == ("LimitExceeded", "[E901]: more than 40 steps without a decision: a loop that never "
                            "ends or asks a player? (while listing the moves of 'probe')")
    assert outcomes[41] == ("RuntimeFault", "[E902]: no item 5 in [0] (while listing the moves of 'probe')")
    assert _narrowed(_placed(at_once), "probe") == \
        (("raised", "EvalError", "no item 5 in [0]"), 9)


def test_a_choice_that_is_no_key_is_judged_as_written(tmp_path):
    """The loop gives up at a choice that is no key: nothing it added up is charged, and
    the moves are judged as written, from the first."""
    at_once = _loaded(tmp_path, True, UNFIXED, "unfixed.rules")
    one_by_one = _loaded(tmp_path, False, UNFIXED, "unfixed_one_by_one.rules")
    assert "if type(v1) not in _m_keyed_args:" in at_once.model.actions["hop"].prefers[0].narrow.source
    results = []
    for rules in (at_once, one_by_one):
        game = _placed(rules)
        hop = game.model.actions["hop"]
        ctx = game._ctx(game._state.copy())
        ctx.hits = {}
        listed = hop.lister(ctx, 0, {}, False)
        # g's moves (9 steps added up, charged at a's guard), a's, then g again and a
        # destination that is no node
        found = listed[4:] + listed[:4] + [("g", ("b",))]
        start = ctx.steps
        kept = hop.prefers[0].narrow(ctx, 0, found)
        results.append(([found.index(m) for m in kept], ctx.steps - start))
    assert results[0] == results[1] == ([0, 1, 3, 4, 5, 6, 7], 9)


def test_kingdom_builder_plays_as_judged_move_by_move(tmp_path):
    at_once = _loaded(tmp_path, True, None, "kingdom_builder")
    one_by_one = _loaded(tmp_path, False, None, "kingdom_builder")
    for seed, players in ((3, 4), (9, 4), (5, 2)):
        a = play_random_game(at_once, players, seed, coverage=True)
        b = play_random_game(one_by_one, players, seed, coverage=True)
        assert_alike(a, b)
        assert a.hits["prefer:move_with_tile.next_to_own"] > 0
