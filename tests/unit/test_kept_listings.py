"""A `can` during a move keeps the listing it makes for the `ask` that follows
(decisions.exists, Game._list): games equal games without (moves, final state, coverage,
peak steps) on the four rulesets; the ask lists nothing again when nothing was written
between, and lists afresh when something was; a listing kept past the step limit or the
limit of moves changes no outcome; coverage counted keeps nothing."""
from __future__ import annotations

import textwrap
from contextlib import contextmanager
from pathlib import Path

import pytest

import regnum
import regnum.agents as agents
from regnum import Limits
from regnum.diagnostics import RulesetError
from regnum.engine import decisions
from regnum.engine.state import canonical_json

ROOT = Path(__file__).parents[2]
RULESETS = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"]
PLAYERS = {"kings_gate": 3}


@contextmanager
def _keeping(on: bool):
    before = decisions.KEEP_LISTINGS
    decisions.KEEP_LISTINGS = on
    try:
        yield
    finally:
        decisions.KEEP_LISTINGS = before


def _count_listings(rules) -> dict:
    """Wrap every generated lister: {(action, how): calls}, `how` being "stop" (a plain
    `can`), "first" (a `can` keeping its listing) or "full" (a listing of an ask)."""
    calls: dict = {}
    for action in rules.model.actions.values():
        lister = action.lister
        if lister is None:
            continue

        def counted(c, player, hits, stop, _lister=lister, _name=action.name):
            how = "first" if type(stop) is decisions._First else "stop" if stop else "full"
            calls[_name, how] = calls.get((_name, how), 0) + 1
            return _lister(c, player, hits, stop)
        action.lister = counted
    return calls


def _outcome(rules, players: int, seed: int, coverage: bool, limits=None):
    """What a seeded random game comes to: its moves, state, coverage and peak steps, or the
    error that stopped it (its text)."""
    kept = []
    try:
        game = agents.play_random_game(rules, players, seed, coverage=coverage, started=kept.append) \
            if limits is None else _play_limited(rules, players, seed, limits, kept)
    except RulesetError as err:
        if not kept:   # the setup failed
            return ("error", str(err), None, None)
        game = kept[0]
        return ("error", str(err), [m.to_dict() for m in game._moves], canonical_json(game.to_dict()))
    return ([m.to_dict() for m in game._moves], canonical_json(game.to_dict()), game.hits, game.peak_steps)


def _play_limited(rules, players, seed, limits, kept):
    game = rules.new_game(players, seed, narrate=False, limits=limits, coverage=False)
    kept.append(game)
    policy = agents.RandomAgent(seed)
    while not game.is_over:
        player = game.to_move[0]
        game.play(policy.choose(game, player))
    return game


# ── the same games ─────────────────────────────────────────────────────────────

@pytest.mark.parametrize("name", RULESETS)
def test_games_keeping_the_listings_of_can_equal_games_without(name):
    rules = regnum.load(ROOT / "rulesets" / f"{name}.rules")
    players = PLAYERS.get(name, 4)
    for seed in (0, 1, 2):
        for coverage in (False, True):
            with _keeping(True):
                a = _outcome(rules, players, seed, coverage)
            with _keeping(False):
                b = _outcome(rules, players, seed, coverage)
            assert a == b, (seed, coverage)


def test_kings_gate_lists_no_ask_again_after_its_can():
    """`if can(p, play, dragon, bewitch): ask p to play or …` and `not can(p, put_object)` then
    `ask p to put_object`: every listing a can made whole is the ask's."""
    rules = regnum.load(ROOT / "rulesets" / "kings_gate.rules")
    calls = _count_listings(rules)
    with _keeping(True):
        game = agents.play_random_game(rules, 3, 0, coverage=False)
    assert game.is_over and game.move_count == 77
    # The setup's can (no move's: not kept) and the first position's ask list as before;
    # after that, no ask lists `play` or `put_object` again, nor `dragon` when the can
    # tried it (play had no move: 3 times).
    assert calls == {("play", "stop"): 1, ("play", "full"): 1, ("play", "first"): 105,
                     ("dragon", "first"): 39, ("bewitch", "first"): 36, ("put_object", "first"): 7,
                     ("dragon", "full"): 67, ("bewitch", "full"): 70, ("end_turn", "full"): 70}
    calls.clear()
    with _keeping(False):
        again = agents.play_random_game(rules, 3, 0, coverage=False)
    assert again.to_json() == game.to_json()
    assert calls == {("play", "stop"): 106, ("dragon", "stop"): 39, ("bewitch", "stop"): 36,
                     ("put_object", "stop"): 7, ("play", "full"): 70, ("dragon", "full"): 70,
                     ("bewitch", "full"): 70, ("end_turn", "full"): 70, ("put_object", "full"): 7}


# ── a write between the can and the ask ───────────────────────────────────────

PROBE = """
game probe "Probe"
players 2..2
piece chip:
    size: int = 0
zone pool: public
zone held per player: public
var cap: int = 6
var squeeze: bool = false
setup:
    for s in [1, 2, 3, 4, 5, 6]:
        create 1 chip(size: s) in pool
flow:
    repeat 2 times:
        for p in players:
            if can(p, take):
                if squeeze:
                    set cap = 2
                ask p to take
action take(c in pool):
    label "take the chip of size {c.size}"
    require small: c.size <= cap else "that chip is too big now"
    move c to held(player)
    set cap = 6
    set squeeze = not squeeze
"""


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    path = tmp_path_factory.mktemp("kept") / "probe.rules"
    path.write_text(textwrap.dedent(PROBE), encoding="utf-8")
    return regnum.load(path)


def test_the_ask_takes_the_listing_of_the_can_when_nothing_was_written(probe):
    calls = _count_listings(probe)
    with _keeping(True):
        game = probe.new_game(2, 0, coverage=False)
        assert [m.args["c"] for m in game.legal_moves(0)] == [f"chip#{i}" for i in range(6)]
        assert calls == {("take", "stop"): 1, ("take", "full"): 1}   # the setup's can is no move's: not kept
        game.play(game.legal_moves(0)[4])   # squeeze is now true: the next can is followed by a write
        assert calls == {("take", "stop"): 1, ("take", "full"): 1, ("take", "first"): 1}
        assert [m.args["c"] for m in game.legal_moves(1)] == ["chip#0", "chip#1"]   # cap 2, not the can's six
        assert calls == {("take", "stop"): 1, ("take", "full"): 2, ("take", "first"): 1}
        game.play(game.legal_moves(1)[1])   # squeeze false: nothing written between
        assert [m.args["c"] for m in game.legal_moves(0)] == ["chip#0", "chip#2", "chip#3", "chip#5"]
        assert calls == {("take", "stop"): 1, ("take", "full"): 2, ("take", "first"): 2}


def test_a_refused_move_keeps_nothing(probe):
    with _keeping(True):
        game = probe.new_game(2, 0, coverage=False)
        before = game.to_json()
        move = game.legal_moves(0)[0]
        bad = regnum.Move(0, "take", {"c": 9})
        with pytest.raises(regnum.IllegalMove):
            game.play(bad)
        assert game.to_json() == before and "kept" not in game._cache
        game.play(move)
        assert "kept" not in game._cache   # the squeeze wrote after the can


def test_coverage_counted_keeps_nothing(probe):
    calls = _count_listings(probe)
    with _keeping(True):
        game = probe.new_game(2, 0, coverage=True)
        game.play(game.legal_moves(0)[0])
        game.play(game.legal_moves(1)[0])
    assert ("take", "first") not in calls and calls[("take", "stop")] == 3   # the setup's, and two moves''


# ── limits ─────────────────────────────────────────────────────────────────────

WIDE = """
game wide "Wide"
players 2..2
var used: int = 0
flow:
    repeat 3 times:
        for p in players:
            if count(range(30)) > 0 and can(p, take):   # the count's steps come first
                ask p to take
action take(a in range(40), b in range(40)):
    require apart: a != b and a + b <= used + 30
    set used = used + 10
"""


def test_a_listing_past_a_limit_changes_no_outcome(tmp_path):
    """A whole listing costs 1,720 steps here. Made by the can, after the 30 steps of the
    count and the flow's statements before it (a few more at each turn), it passes a limit
    of 1,720 to 1,753 that the ask's listing (from no step) keeps within, for every can of
    the game: the can still says yes, stopping at its first move, and keeps nothing; the
    ask lists. Likewise a limit of moves the second listing passes (480 moves, then 840).
    Every limit gives the same outcome with and without keeping."""
    path = tmp_path / "wide.rules"
    path.write_text(textwrap.dedent(WIDE), encoding="utf-8")
    rules = regnum.load(path)
    outcomes = []
    for steps in (1_719, 1_720, 1_753, 1_758, 1_800, 100_000):
        for moves in (50, 600, 2_000):
            limits = Limits(steps=steps, moves=moves)
            with _keeping(True):
                a = _outcome(rules, 2, 1, False, limits)
            with _keeping(False):
                b = _outcome(rules, 2, 1, False, limits)
            assert a == b, (steps, moves)
            outcomes.append("ok" if a[0] != "error" else a[1].split(": ", 2)[2].split("\n")[0])
    def too_many(n):
        return f"'take' offers more than {n} moves at once (runaway parameter domains?) (while listing the moves of 'take')"
    steps = "more than 1719 steps without a decision: a loop that never ends or asks a player? (while listing the moves of 'take')"
    assert outcomes == [too_many(50), steps, steps] + [too_many(50), too_many(600), "ok"] * 5
    calls = _count_listings(rules)
    with _keeping(True):
        _outcome(rules, 2, 1, False, Limits(steps=1_753))   # each can passes the limit
        assert calls == {("take", "full"): 6, ("take", "first"): 5, ("take", "stop"): 6}
        calls.clear()
        _outcome(rules, 2, 1, False, Limits(moves=600))   # the first can passes it: 600 moves, then 840
        assert calls == {("take", "full"): 2, ("take", "first"): 1, ("take", "stop"): 2}
        calls.clear()
        _outcome(rules, 2, 1, False, Limits(steps=1_758))
        assert calls == {("take", "full"): 1, ("take", "first"): 5, ("take", "stop"): 1}


def test_the_listers_stop_through_the_helper():
    rules = regnum.load(ROOT / "rulesets" / "kings_gate.rules")
    source = rules.model.actions["put_object"].lister.source
    assert "raise" not in source.replace("c.runaway()", "")
    assert source.count("stop = _m_stop(c, stop)") == 2
