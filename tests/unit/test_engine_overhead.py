"""The engine's per-move bookkeeping, trimmed (engine/game.py, state.py, agents.py): each
shortcut must give exactly what the long way gives — the same moves, steps, coverage and
events."""
from __future__ import annotations

import pytest

import regnum
from regnum import Move
from regnum.engine import decisions
from toy_rules import load   # tests/unit is on the path of its tests


# ── the listing context: only its counters are reset ──

def _listed_afresh(game, player: int):
    """The legal moves of `player` listed with a new context: (moves by action, steps)."""
    ctx = game._ctx(game.state.copy())
    ctx.hits = {}
    stack = game._waiting()[player]
    out = [(name, decisions.candidates(ctx, game.model.actions[name], player))
           for name in stack[-1][2]["$actions"]]
    return out, ctx.steps, ctx.hits


@pytest.mark.parametrize("name", ["kings_kilt", "kings_gate"])
def test_a_listing_after_moves_counts_as_a_listing_with_a_new_context(name):
    game = regnum.load(name).new_game(players=4, seed=3)
    for turn in range(30):
        if game.is_over:
            break
        player = game.to_move[0]
        expected, steps, hits = _listed_afresh(game, player)
        before = dict(game.hits)
        listed = game._listed(player)
        assert listed == expected
        assert game._list_ctx.steps == steps   # counted from 0, not from the last listing's
        assert {k: n - before.get(k, 0) for k, n in game.hits.items() if n != before.get(k, 0)} == hits
        game._play_nth(player, lambda n: (turn * 7) % n)


def test_a_listing_counts_into_the_games_present_hits_and_events(kings_road):
    game = kings_road.new_game(players=4, seed=0)
    game._listed(0)
    game.play(game.legal_moves(0)[0])
    game.hits = mine = {}
    game._listed(1)
    assert game._list_ctx.hits is mine
    game.events = said = []
    game.narrate = False
    game._listed(2)
    assert game._list_ctx.events is said and game._list_ctx.narrate is False


def test_the_listing_context_is_the_games_own_and_not_a_copys(kings_road):
    game = kings_road.new_game(players=4, seed=0)
    game._listed(0)
    other = game.copy()
    other._listed(0)
    assert other._list_ctx is not game._list_ctx and other._list_ctx.state is other.state
    assert other._list_ctx.hits is other.hits and game._list_ctx.hits is game.hits


# ── _play_nth with several actions asked for: no triples made ──

def test_the_nth_move_of_several_actions_is_the_nth_legal_move():
    game = regnum.load("kings_kilt").new_game(players=4, seed=1)
    seen = 0
    for turn in range(40):
        if game.is_over:
            break
        player = game.to_move[0]
        moves = game.legal_moves(player)
        if len({m.action for m in moves}) > 1:
            seen += 1
            for i in range(len(moves)):
                fast, slow = game.copy(), game.copy()
                asked = []
                played = fast._play_nth(player, lambda n: asked.append(n) or i)
                slow.play(slow.legal_moves(player)[i])
                assert asked == [len(moves)] and played == moves[i]
                assert fast.to_json() == slow.to_json() and fast.hits == slow.hits
        game.play(moves[(turn * 3) % len(moves)])
    assert seen > 3


def test_a_seat_asked_for_actions_without_moves_plays_nothing(tmp_path):
    rules = load(tmp_path, """
    game none "None"
    players 2..2
    var total: int = 0
    flow:
        ask 0 to give or take
    action give(k in [1, 2]):
        require never: k > 5 else "never"
    action take(k in [1]):
        require never: k > 5 else "never"
    """)
    game = rules.new_game(players=2, seed=0)
    asked = []
    assert game._play_nth(0, asked.append) is None and asked == [] and game.move_count == 0
    assert game.hits == {"require:give.never": 2, "require:take.never": 1}   # one per choice excluded


# ── play_random_game: the first seat is not checked again ──

@pytest.mark.parametrize("bound", [1, 2, 3, 5, 6])
def test_the_random_playout_stops_at_a_bound_within_a_round(kings_road, bound):
    from regnum.agents import RandomAgent, play_random_game, seat_seed
    fast = play_random_game(kings_road, 4, 2, max_moves=bound)
    slow = kings_road.new_game(players=4, seed=2, narrate=False)
    agents = [RandomAgent(seat_seed(2, seat)) for seat in range(4)]
    while not slow.is_over and slow.move_count < bound:
        for player in list(slow.to_move):
            if slow.is_over or slow.move_count >= bound:
                break
            if player not in slow.to_move:
                continue
            slow.play(agents[player].choose(slow, player))
    assert fast.move_count == bound == slow.move_count
    assert fast.to_json() == slow.to_json() and fast.hits == slow.hits
    assert [Move(m.player, m.action, m.args) for m in fast._moves] == slow._moves
