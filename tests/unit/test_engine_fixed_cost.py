"""The engine's fixed cost per move, trimmed (engine/game.py, runtime.py, state.py, agents.py):
each shortcut is checked to be taken and to give exactly what the long way gives.

- a move in a simultaneous step copies only the stack it answers (Journal.stack/found); a
  thread's stack the flow runs on is kept first (Journal.keep); a failed move is undone in
  place (Journal.rollback), so the journal of the move before still rebuilds `previous`; a
  journal another game shares is made whole (Journal.freeze);
- a move after which every stack of the flow still waits skips advance's scan
  (`ctx.settled`) and keeps who waits and who is to move without a scan of the flow, and so
  does a move whose thread ended while the others wait on;
- the move played is made with its slots set directly, picks draw with `_randbelow`, a native
  action's arguments are read by one itemgetter and its faults located by native_fault;
- `_play_nth(seat, None)` is the listing `_listed` keeps.
"""
from __future__ import annotations

import random

import pytest

import regnum
from regnum import Move, RulesetError
from regnum.agents import RandomAgent, play_random_game, random_picks, seat_seed
from regnum.engine import game as game_module, runtime
from regnum.engine.runtime import waiting_seats
from regnum.engine.state import Journal
from toy_rules import load   # tests/unit is on the path of its tests


def _everything(game):
    return game.to_json(), dict(game.hits), list(game.events), game.to_move, game.move_count


def _scan(game):
    """Who waits and who is to move, scanned from the flow (what the caches must hold)."""
    seats = waiting_seats(game.state.flow)
    return list(seats.items()), sorted(seats)


# ── the journal of a move in a simultaneous step ──

def _in_a_step(kings_road, moves: int = 1):
    game = kings_road.new_game(players=4, seed=3)
    while game.state.flow["threads"] is None or game.move_count < moves:
        game.play(game.legal_moves(game.to_move[0])[0])
    return game


def test_a_move_in_a_step_copies_only_the_stack_it_answers(kings_road, monkeypatch):
    game = _in_a_step(kings_road)
    made = []
    real = game_module.Journal

    def spying(state, stack=None):
        journal = real(state, stack)
        made.append((journal, stack, stack[:]))
        return journal
    monkeypatch.setattr(game_module, "Journal", spying)
    player = game.to_move[0]
    answered = game._waiting()[player]
    game.play(game.legal_moves(player)[0])
    (journal, stack, found), = made
    assert stack is answered and journal.stack is answered and journal.found == found
    assert journal.kept is None   # no other thread's stack was copied
    assert [t["stack"] for t in journal.threads] == [t["stack"] for t in game.state.flow["threads"]]


def test_a_failed_move_in_a_step_is_undone_in_place(kings_road, monkeypatch):
    game = _in_a_step(kings_road, 3)
    flow = game.state.flow
    threads, stacks = flow["threads"], [t["stack"] for t in flow["threads"]]
    frames = [list(map(id, s)) for s in stacks]
    move = game.legal_moves(game.to_move[0])[0]
    before = _everything(game)
    previous = game._last
    reference = game._previous().to_dict()

    def failing(ctx, span):
        raise runtime.LimitExceeded("injected", span)
    with monkeypatch.context() as patch:
        patch.setattr(game_module, "check_size", failing)
        with pytest.raises(RulesetError):
            game.play(move)
    assert _everything(game) == before
    # the very records and stacks, holding the very frames, as the journal of the move before knows them
    assert [t["stack"] for t in flow["threads"]] == stacks and flow["threads"] is not threads
    assert all(a is b for a, b in zip([t["stack"] for t in flow["threads"]], stacks))
    assert [list(map(id, s)) for s in stacks] == frames
    assert game._last is previous
    game._prev_state = None   # rebuilt again from the journal, after the failed move
    assert game._previous().to_dict() == reference


def test_a_journal_shared_by_a_copy_is_made_whole(kings_road):
    game = _in_a_step(kings_road, 2)
    before = game.copy()
    game.play(game.legal_moves(game.to_move[0])[0])
    assert game._last.stack is not None   # refers to the flow's stacks
    other = game.copy()
    assert game._last.stack is None and game._last.kept is None   # frozen: its own copies
    live = {id(t["stack"]) for t in game.state.flow["threads"]}
    assert not live & {id(t["stack"]) for t in game._last.threads}
    for _ in range(3):   # the original plays on; the copy still knows the state before its last move
        game.play(game.legal_moves(game.to_move[0])[0])
    assert other._previous().to_dict() == before.state.to_dict()


def test_a_stack_the_flow_runs_on_is_kept_first(tmp_path):
    rules = load(tmp_path, """
    game keep "Keep"
    players 2..2
    var total: int = 0
    flow:
        repeat until false:
            simultaneously for p in players:
                ask p to give
                add 1 to total
    action give(n in [1, 0]):
        add 10 // n to total
    """)
    game = rules.new_game(players=2, seed=0)
    stack = game._waiting()[1]
    journal = Journal(game.state, game._waiting()[0])
    journal.keep(stack)
    journal.keep(stack)
    assert list(journal.kept) == [id(stack)] and journal.kept[id(stack)][1] == stack
    stack.append(["x", 0, {}])
    assert [s for _, s in journal._stacks()][1] == stack[:-1]
    stack.pop()
    journal.keep(journal.stack)   # the stack it answers is kept already
    assert list(journal.kept) == [id(stack)]


# ── who waits, known without a scan ──

@pytest.mark.parametrize("name", ["kings_road", "kings_kilt", "kings_gate"])
def test_who_waits_after_a_move_is_what_a_scan_of_the_flow_gives(name):
    rules = regnum.load(name)
    game = rules.new_game(players=3, seed=4, coverage=False)
    picks = random_picks(4, 3)
    kept = 0
    for _ in range(150):
        if game.is_over:
            break
        player = game.to_move[0]
        game._play_nth(player, picks[player])
        seats = game._cache.get("waiting")
        if seats is not None:   # kept by the move: exactly the scan, in its order
            kept += 1
            assert (list(seats.items()), game._cache.get("to_move", sorted(seats))) == _scan(game)
            assert "to_move" not in game._cache or game._cache["to_move"] == sorted(seats)
    assert kept > 50


def test_a_thread_that_ended_is_dropped_from_who_waits(kings_road):
    game = kings_road.new_game(players=4, seed=1, coverage=False)
    picks = random_picks(1, 4)
    dropped = 0
    while game.move_count < 60:
        for player in list(game.to_move):
            threads = game.state.flow["threads"]
            before = len(threads) if threads is not None else None
            game._play_nth(player, picks[player])
            threads = game.state.flow["threads"]
            if before is not None and threads is not None and len(threads) == before - 1:
                assert "waiting" in game._cache   # known without a scan
                dropped += 1
                assert list(game._cache["waiting"].items()) == _scan(game)[0]
                assert game._cache["to_move"] == _scan(game)[1] and player not in game._cache["to_move"]
    assert dropped > 5


@pytest.mark.parametrize("name", ["kings_road", "kings_kilt"])
def test_the_settled_shortcut_plays_what_advance_would(name, monkeypatch):
    """With ASK unknown to Game._apply, no move is settled: every move runs advance's scan."""
    rules = regnum.load(name)
    settled = []
    real = game_module.advance

    def watching(ctx):
        settled.append(ctx.settled)
        return real(ctx)
    monkeypatch.setattr(game_module, "advance", watching)
    fast = play_random_game(rules, 4, 6, max_moves=120)
    assert sum(settled) > 40 and not all(settled)
    monkeypatch.setattr(game_module, "ASK", object())
    settled.clear()
    slow = play_random_game(rules, 4, 6, max_moves=120)
    assert not any(settled)
    assert fast.to_json() == slow.to_json() and fast.hits == slow.hits and fast.events == slow.events
    assert fast.peak_steps == slow.peak_steps and fast._size_bound == slow._size_bound


# ── the move played, the picks, a native action's arguments and faults ──

def test_the_move_played_is_the_move_the_constructor_makes(kings_road):
    game = kings_road.new_game(players=4, seed=0)
    player = game.to_move[0]
    listed = game.legal_moves(player)
    (_, found), = game._listed(player)
    played = game._play_nth(player, lambda n: n - 1)
    made = Move(player, listed[-1].action, dict(listed[-1].args))
    assert type(played) is Move and played == made and hash(played) == hash(made)
    assert (played.player, played.action, played.args) == (made.player, made.action, made.args)
    assert played is game._moves[-1] and played.args is not found[-1][0]   # its own arguments
    with pytest.raises(AttributeError):
        played.player = 1   # still frozen


@pytest.mark.parametrize("seed", [0, 7])
def test_a_pick_draws_what_randrange_draws(seed):
    picks = random_picks(seed, 3)
    agents = [RandomAgent(seat_seed(seed, seat)).rng for seat in range(3)]
    sizes = random.Random(seed).choices(range(1, 3000), k=400)
    assert [picks[i % 3](n) for i, n in enumerate(sizes)] == [agents[i % 3].randrange(n) for i, n in enumerate(sizes)]


NATIVE = """
game native "Native"
players 2..2
var total: int = 0
zone pile: public
flow:
    repeat until false:
        ask 0 to give or nothing
action give(n in [2, 1, 0], m in [3]):
    add m // n to total
action nothing():
    add 1 to total
"""


def test_a_native_actions_arguments_and_faults_are_run_natives(tmp_path):
    rules = load(tmp_path, NATIVE, "native.rules")
    give, nothing = rules.model.actions["give"], rules.model.actions["nothing"]
    assert give.native is not None and nothing.native is not None
    env = {"player": 1, "m": 3, "n": 2}
    assert runtime.arguments(give)(env) == (1, 2, 3)
    assert runtime.arguments(nothing)(env) == (1,)
    game = rules.new_game(players=2, seed=0)
    before = _everything(game)
    with pytest.raises(RulesetError) as written_out:
        game.play(Move(0, "give", {"n": 0, "m": 3}))
    assert _everything(game) == before
    ctx = game._ctx(game.state.copy())
    with pytest.raises(RulesetError) as called:
        runtime.run_native(ctx, give, {"player": 0, "n": 0, "m": 3})
    assert str(written_out.value) == str(called.value)
    assert [(d.code, d.message, str(d.span)) for d in written_out.value.diagnostics] \
        == [(d.code, d.message, str(d.span)) for d in called.value.diagnostics]
    game.play(Move(0, "give", {"n": 1, "m": 3}))
    game.play(Move(0, "nothing", {}))
    assert game.state.vars["total"] == 4 and give.native_args is not None


def test_native_fault_locates_each_kind_as_the_except_clauses_did(tmp_path):
    rules = load(tmp_path, NATIVE, "native.rules")
    action = rules.model.actions["give"]
    ctx = rules.new_game(players=2, seed=0)._ctx(rules.new_game(players=2, seed=0).state)
    cases = [(runtime.Overflow("too big", "hint"), runtime.LimitExceeded, "too big"),
             (runtime.EvalError("bad"), runtime.RuntimeFault, "bad"),
             (RecursionError("deep"), runtime.LimitExceeded, "rules call each other too deeply"),
             (ZeroDivisionError("zero"), runtime.RuntimeFault, "this statement failed: ZeroDivisionError: zero"),
             (KeyError("k"), runtime.RuntimeFault, "this statement failed: KeyError: 'k'")]
    for err, kind, message in cases:
        assert isinstance(err, runtime.NATIVE_FAULTS)
        fault = runtime.native_fault(ctx, action, err)
        assert type(fault) is kind and fault.diagnostics[0].message.startswith(message)
        assert str(fault.diagnostics[0].span) == str(action.span)


# ── the listing _listed keeps is the one _play_nth makes ──

def test_play_nth_without_a_pick_is_the_listing(kings_road):
    game = kings_road.new_game(players=4, seed=2)
    other = game.copy()
    for player in range(4):
        listed = game._play_nth(player, None)
        assert game._cache[player] is listed and game._listed(player) is listed
        assert listed == other._listed(player) and game._list_ctx.steps == other._list_ctx.steps
    assert game.move_count == 0 and game.hits == other.hits
    assert game._play_nth(0, None) is game._listed(0)   # kept: listed once per position


def test_moving_pieces_asks_for_triggers_only_in_a_ruleset_that_has_some(kings_road):
    assert kings_road.new_game(players=4, seed=0)._ctx(kings_road.new_game(players=4, seed=0).state).watched is False
    kilt = regnum.load("kings_kilt")
    assert kilt.model.triggers or kilt.model.leave_triggers
    assert kilt.new_game(players=4, seed=0)._ctx(kilt.new_game(players=4, seed=0).state).watched is True


ASKS = """
game asks "Asks"
players 2..2
var total: int = 0
flow:
    repeat until false:
        simultaneously for p in players:
            ask p to give
            add 10 to total
            ask p to give
            ask (p + 1) % count(players) to give
        add 1000 to total
action give(n in [1, 2]):
    add n to total
"""


def _asks_played(rules, seed: int, edit: bool):
    """Moves of seat-chosen picks, the cache compared with a scan after each; with `edit`, the
    second thread is made not to wait (its frame set on the op after its ask), so that the
    next move's flow has a stack to run besides the one it answers."""
    game = rules.new_game(players=2, seed=seed)
    picker = random.Random(seed)
    seen = []
    for turn in range(40):
        if edit and turn == 0:
            thread = game.state.flow["threads"][1]
            name, _, env = thread["stack"][-1]
            thread["stack"][-1] = [name, 1, {k: v for k, v in env.items() if not k.startswith("$")}]
            game._cache = {}
        player = game.to_move[0]
        game._play_nth(player, lambda n: picker.randrange(n))
        seats = game._cache.get("waiting")
        if seats is not None:
            assert (list(seats.items()), game._cache.get("to_move", sorted(seats))) == _scan(game)
        seen.append((_everything(game), seats is not None))
    return seen


@pytest.mark.parametrize("edit", [False, True])
def test_a_thread_that_asks_another_seat_or_does_not_wait_is_scanned(tmp_path, monkeypatch, edit):
    rules = load(tmp_path, ASKS, "asks.rules")
    fast = _asks_played(rules, 5, edit)
    assert any(kept for _, kept in fast) and not all(kept for _, kept in fast)
    monkeypatch.setattr(game_module, "ASK", object())   # no move settled, every cache scanned again
    slow = _asks_played(rules, 5, edit)
    assert [state for state, _ in fast] == [state for state, _ in slow]
