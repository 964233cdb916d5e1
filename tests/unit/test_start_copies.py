"""A ruleset whose start draws nothing random starts every game after the first as a copy of
it, reseeded (Game.start, Ruleset.starts): the same game as running the setup again — the
state, narration, coverage, peak steps and size bound, and every move after — and a start
that draws, or whose options the state would hold as given, or with limits of its own, runs
the setup every time."""
from __future__ import annotations

import pytest

import regnum
from regnum import Move, OptionError
from regnum.agents import play_random_game
from regnum.engine import game as game_module
from regnum.limits import Limits
from toy_rules import load   # tests/unit is on the path of its tests

DEALT = """
game dealt "Dealt"
players 2..3
option shuffled: bool = false
option target: int = 3
piece card:
    rank: int
zone deck: hidden
zone hand per player: owner
var total: int = 0
setup:
    for r in range(1, 7):
        create 1 card(rank: r) in deck named "card " + text(r)
    if shuffled:
        shuffle deck
    for p in players:
        move 1 from deck to hand(p)
flow:
    announce "the first card of the deck is {deck[0].rank}"
    repeat until total >= target:
        for p in players:
            ask p to take or add
action take():
    require some: count(deck) > 0 else "the deck is empty"
    move 1 from deck to hand(player)
action add(n in [1, 2]):
    set total = total + n
"""

DRAWN_IN_FLOW = DEALT.replace('    announce "the first card', '    shuffle deck\n    announce "the first card')


def _started(game) -> tuple:
    return (game.to_json(), list(game.events), dict(game.hits) if game.hits is not None else None,
            game.peak_steps, game._size_bound, game.to_move, game.seed, game._state.rng)


def _both_ways(monkeypatch, rules, **kwargs) -> tuple[list, list]:
    """The starts (and whole random games) of seeds 0–4, with copies and with setups."""
    out = []
    for on in (True, False):
        monkeypatch.setattr(game_module, "START_COPIES", on)
        rules.starts.clear()
        out.append([_started(rules.new_game(seed=seed, **kwargs)) for seed in range(5)])
    return out[0], out[1]


def test_kings_road_starts_every_game_as_a_copy_of_the_first(monkeypatch):
    rules = regnum.load("kings_road")
    copied, setup = _both_ways(monkeypatch, rules, players=4)
    assert copied == setup
    assert [s[6] for s in copied] == [0, 1, 2, 3, 4]   # each reseeded
    assert len({s[7] for s in copied}) == 5
    monkeypatch.setattr(game_module, "START_COPIES", True)
    rules.starts.clear()
    rules.new_game(4, seed=9)
    assert list(rules.starts) == [(4, True, True, ())]
    first = rules.starts[(4, True, True, ())]
    assert first.move_count == 0 and first.peak_steps > 0


def test_whole_games_from_copies_are_the_games_from_setups(monkeypatch):
    results = {}
    for on in (True, False):
        monkeypatch.setattr(game_module, "START_COPIES", on)
        rules = regnum.load("kings_road")
        games = [play_random_game(rules, players, seed) for players in (2, 4) for seed in range(3)]
        results[on] = [(g.to_json(), g.scores, g.winners, dict(g.hits), g.peak_steps, list(g.events))
                       for g in games]
        assert len(rules.starts) == (2 if on else 0)
    assert results[True] == results[False]


def test_a_game_played_on_leaves_the_next_start_untouched(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "START_COPIES", True)
    rules = load(tmp_path, DEALT)
    first = rules.new_game(2, seed=1)
    fresh = _started(first)
    first.play(Move(0, "take", {}))
    first.play(Move(1, "add", {"n": 2}))
    second = rules.new_game(2, seed=1)
    assert _started(second) == fresh
    assert [c["rank"] for c in (second._state.pieces[i] for i in second._state.zones["hand#0"])] == [6]
    assert len(second._state.zones["deck"]) == 4 and len(first._state.zones["deck"]) == 3


def test_a_start_that_draws_is_made_every_time(tmp_path, monkeypatch):
    rules = load(tmp_path, DEALT)
    copied, setup = _both_ways(monkeypatch, rules, players=3, options={"shuffled": True})
    assert copied == setup and not rules.starts
    assert len({s[0] for s in copied}) > 1   # the seeds deal differently
    flow_draws = load(tmp_path, DRAWN_IN_FLOW, "flow.rules")
    copied, setup = _both_ways(monkeypatch, flow_draws, players=2)
    assert copied == setup and not flow_draws.starts


def test_each_kind_of_start_is_kept_apart(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "START_COPIES", True)
    rules = load(tmp_path, DEALT)
    rules.new_game(2, seed=1)
    rules.new_game(3, seed=1, narrate=False)
    rules.new_game(2, seed=1, coverage=False)
    rules.new_game(2, seed=1, options={"target": 5, "shuffled": False})
    rules.new_game(2, seed=1, options={"shuffled": True})   # draws: not kept
    assert sorted(rules.starts) == [
        (2, True, False, ()), (2, True, True, ()),
        (2, True, True, (("shuffled", "bool", False), ("target", "int", 5))),
        (3, False, True, ()),
    ]
    target = rules.new_game(2, seed=4, options={"target": 5, "shuffled": False})
    assert target._state.vars["target"] == 5 and target.seed == 4
    assert rules.new_game(2, seed=4, narrate=False).events == []
    assert rules.new_game(2, seed=4, coverage=False).hits is None


def test_what_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "START_COPIES", True)
    rules = load(tmp_path, DEALT)
    rules.new_game(2, seed=1, narrate=1)                     # narration that is not a truth value
    rules.new_game(2, seed=1, limits=Limits(steps=10_000))   # limits of its own
    assert not rules.starts
    assert game_module._start_key(2, True, {"target": [1]}, True) is None   # held as given
    assert game_module._start_key(2, True, {1: 3}, True) is None
    assert game_module._start_key(2, True, {"target": 1}, True) != game_module._start_key(2, True, {"target": True}, True)


def test_options_are_still_checked_after_a_start_was_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "START_COPIES", True)
    rules = load(tmp_path, DEALT)
    rules.new_game(2, seed=1, options={"target": 4})
    with pytest.raises(OptionError, match="has no option 'targt'"):
        rules.new_game(2, seed=2, options={"targt": 4})
    with pytest.raises(OptionError, match="option 'target'"):
        rules.new_game(2, seed=2, options={"target": "four"})
    assert len(rules.starts) == 1


def test_the_starts_kept_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "START_COPIES", True)
    monkeypatch.setattr(game_module, "MOST_STARTS", 3)
    rules = load(tmp_path, DEALT)
    for target in range(1, 8):
        rules.new_game(2, seed=0, options={"target": target})
        assert 1 <= len(rules.starts) <= 3
    assert (2, True, True, (("target", "int", 7),)) in rules.starts


def test_a_copy_keeps_the_peak_steps_of_the_game_so_far():
    game = play_random_game(regnum.load("kings_road"), 3, 5)
    assert game.peak_steps > 0 and game.copy().peak_steps == game.peak_steps
