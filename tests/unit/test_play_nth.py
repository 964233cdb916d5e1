"""play_random_game plays through Game._play_nth, which makes a Move of the chosen move only:
it must play what `play(legal_moves(seat)[i])` plays — the same states, coverage, narration,
log and errors — and the random policy must pick the same moves as RandomAgent.choose."""
from __future__ import annotations

import pytest

from regnum import Move, RulesetError
from regnum.agents import RandomAgent, StuckGame, play_random_game, seat_seed
from toy_rules import load   # tests/unit is on the path of its tests

FAULTY = """
game faulty "Faulty"
players 2..2
var total: int = 0
flow:
    repeat until false:
        for p in players:
            ask p to give
action give(k in [2, 1, 0]):
    add 10 // k to total
"""

STUCK = """
game stuck "Stuck"
players 2..2
flow:
    ask 0 to give
action give(k in [1, 2]):
    require never: k > 5 else "never"
"""


def _everything(game):
    return game.to_json(), dict(game.hits), list(game.events), game.to_move, game.move_count, game.log


def _played_by_agents(rules, players, seed, max_moves=100_000):
    """play_random_game as it was written before the shortcut: RandomAgent.choose and play."""
    game = rules.new_game(players=players, seed=seed, narrate=False)
    agents = [RandomAgent(seat_seed(seed, seat)) for seat in range(players)]
    while not game.is_over and game.move_count < max_moves:
        waiting = list(game.to_move)
        for player in waiting:
            if game.is_over or game.move_count >= max_moves:
                break
            if player not in game.to_move:
                continue
            game.play(agents[player].choose(game, player))
    return game


@pytest.mark.parametrize("players, seed", [(4, 0), (4, 7), (3, 2), (2, 5)])
def test_the_random_playout_picks_what_the_agents_pick(kings_road, players, seed):
    fast = play_random_game(kings_road, players, seed)
    slow = _played_by_agents(kings_road, players, seed)
    assert fast.is_over and _everything(fast) == _everything(slow)
    assert fast.peak_steps == slow.peak_steps


def test_the_random_playout_stops_at_the_same_bound(kings_road):
    fast = play_random_game(kings_road, 4, 3, max_moves=25)
    slow = _played_by_agents(kings_road, 4, 3, max_moves=25)
    assert fast.move_count == 25 and _everything(fast) == _everything(slow)


def test_the_nth_move_is_the_nth_legal_move(kings_road):
    fast = kings_road.new_game(players=4, seed=1)
    slow = kings_road.new_game(players=4, seed=1)
    for turn in range(40):
        player = slow.to_move[-1]
        moves = slow.legal_moves(player)
        i = (turn * 5) % len(moves)
        asked = []
        played = fast._play_nth(player, lambda n: asked.append(n) or i)
        slow.play(moves[i])
        assert asked == [len(moves)] and played == moves[i] and type(played.args) is dict
        assert _everything(fast) == _everything(slow)


def test_no_legal_move_plays_nothing_and_does_not_pick(tmp_path):
    rules = load(tmp_path, STUCK, "stuck.rules")
    game = rules.new_game(players=2, seed=0)
    assert game.legal_moves(0) == []   # listed (and counted) once per position
    before = _everything(game)
    assert game._play_nth(0, lambda n: pytest.fail("no move to pick")) is None
    assert _everything(game) == before
    with pytest.raises(StuckGame, match=r"seat 0 must move but has no legal move \(after 0 moves, game not over\)"):
        play_random_game(rules, 2, 0)


def test_a_fault_carries_the_move_and_leaves_the_game_as_it_was(tmp_path):
    rules = load(tmp_path, FAULTY, "faulty.rules")
    game = rules.new_game(players=2, seed=0, narrate=True)
    assert game._play_nth(0, lambda n: 0) == Move(0, "give", {"k": 2})
    before = _everything(game)
    with pytest.raises(RulesetError) as info:
        game._play_nth(1, lambda n: 2)   # 10 // 0
    assert info.value.move == Move(1, "give", {"k": 0})
    assert _everything(game) == before
    with pytest.raises(RulesetError) as again:
        game.play(Move(1, "give", {"k": 0}))
    assert str(again.value) == str(info.value)
    # and the playout records the failing move too, as play() did
    with pytest.raises(RulesetError) as played:
        for seed in range(50):
            play_random_game(rules, 2, seed, max_moves=200)
    assert played.value.move.args == {"k": 0}


TWO_ACTIONS = """
game two "Two actions"
players 2..2
var total: int = 0
flow:
    repeat until total > 20:
        for p in players:
            ask p to give or skip or never
action give(k in [3, 1, 2]):
    add k to total
action skip():
    add 1 to total
action never(k in [1]):
    require no: k > 1 else "never"
    pass
"""


def test_the_nth_move_among_several_actions_is_the_nth_legal_move(tmp_path):
    rules = load(tmp_path, TWO_ACTIONS, "two.rules")
    fast, slow = rules.new_game(players=2, seed=0), rules.new_game(players=2, seed=0)
    assert [m.action for m in slow.legal_moves(0)] == ["give", "give", "give", "skip"]
    turn = 0
    while not slow.is_over:
        player = slow.to_move[0]
        moves = slow.legal_moves(player)
        i = (turn * 3) % len(moves)
        assert fast._play_nth(player, lambda n: i) == moves[i]
        slow.play(moves[i])
        assert _everything(fast) == _everything(slow)
        turn += 1
    assert fast.is_over and turn > 5
