"""A random playout nobody sees between moves is undone by a checkpoint, not a journal
(engine/checkpoint.py, Game._unjournaled, agents.play_random_game without `after_move`).

- its games are the games the journaled playout plays: the same moves, final state, events,
  coverage and peak steps, for every bundled ruleset and variant;
- it makes no journal, and copies no frame it writes;
- a fault at any write of any move (or at the end of a move, or before the flow goes on)
  leaves the game — the very state object — as a journaled game holding the same moves,
  and the move it failed on then plays as in that game;
- `previous(…)` after it is the state before the last move, also in a copy whose original
  played on; no checkpoint outlives the playout;
- `random_rollout` plays a copy of a position on as the journaled playout does from there,
  leaving the position as it was.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import regnum
from regnum import Move
from regnum.agents import play_random_game, playout, random_picks, random_rollout
from regnum.builtins import EvalError
from regnum.diagnostics import LimitExceeded, RulesetError
from regnum.engine import game as game_module
from regnum.engine.checkpoint import Checkpoint
from regnum.engine.runtime import Ctx
from regnum.engine.state import Journal

ROOT = Path(__file__).parents[2]
GAMES = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"]
VARIANTS = ["permanent_nobles", "lords_ties_use_up_second", "recruit", "harsh_tournament"]
PLAYERS = {"kings_gate": 3, "harsh_tournament": 3}


def _load(name: str) -> regnum.Ruleset:
    if name in VARIANTS:
        return regnum.load(ROOT / "rulesets" / "variants" / f"{name}.rules")
    return regnum.load(name)


def _journaled(rules, seed, **kw):
    """The same playout, journaled: an `after_move` that does nothing keeps the journal."""
    return play_random_game(rules, PLAYERS.get(rules.model.name, 4), seed, after_move=lambda game: None, **kw)


def _everything(game):
    return (game.to_json(), game.hits, list(game.events), game.to_move, game.move_count, game.peak_steps)


@pytest.fixture(scope="module")
def rulesets():
    return {name: _load(name) for name in GAMES + VARIANTS}


@pytest.mark.parametrize("name", GAMES + VARIANTS)
def test_a_checkpointed_playout_plays_the_journaled_game(rulesets, name):
    rules = rulesets[name]
    players = PLAYERS.get(name, 4)
    for seed, coverage, narrate in ((1, False, False), (2, True, True)):
        game = play_random_game(rules, players, seed, coverage=coverage, narrate=narrate)
        reference = play_random_game(rules, players, seed, coverage=coverage, narrate=narrate,
                                     after_move=lambda g: None)
        assert game.is_over and game.move_count > 20
        assert _everything(game) == _everything(reference)
        assert type(game._last) is Checkpoint and type(reference._last) is Journal


def test_it_makes_no_journal_and_copies_no_frame(kings_road, monkeypatch):
    made = []
    real = game_module.Journal

    def spying(state, stack=None):
        made.append(stack)
        return real(state, stack)
    monkeypatch.setattr(game_module, "Journal", spying)
    game = play_random_game(kings_road, 4, 3, coverage=False)
    assert made == [] and game.move_count > 100
    reference = _journaled(kings_road, 3, coverage=False)
    assert len(made) == reference.move_count
    # The frame a move answers (a seat's first pick, which asks for the next in the same
    # frame) is written in place by a checkpointed move, and replaced by a journaled one.
    for checkpointed in (True, False):
        game = kings_road.new_game(players=4, seed=3, coverage=False)
        seat = game.to_move[0]
        stack = game._waiting()[seat]
        answered = stack[-1]
        if checkpointed:
            with game._unjournaled():
                game._play_nth(seat, lambda n: 0)
        else:
            game._play_nth(seat, lambda n: 0)
        assert seat in game._waiting() and game._waiting()[seat] is stack
        assert (stack[-1] is answered) == checkpointed


def test_no_checkpoint_outlives_the_playout(kings_road, monkeypatch):
    games = []
    game = play_random_game(kings_road, 4, 4, coverage=False, started=games.append)
    assert game._checkpoint is None and type(game._last) is Checkpoint

    def failing(ctx, span):
        raise LimitExceeded("injected at the end of the move", span)
    monkeypatch.setattr(game_module, "check_size", failing)
    games.clear()
    with pytest.raises(LimitExceeded):
        play_random_game(kings_road, 4, 4, coverage=False, started=games.append)
    monkeypatch.undo()
    # The first move failed: the game is as it started (nothing to play again).
    assert games[0]._checkpoint is None and games[0].move_count == 0
    started = kings_road.new_game(players=4, seed=4, narrate=False, coverage=False)
    assert games[0].to_json() == started.to_json() and games[0].to_move == started.to_move
    assert games[0]._last is None   # no move accepted: previous(…) reads the present state


def _replayed(rules, game, moves=None):
    """A journaled game holding `game`'s moves (or `moves`), played one by one."""
    again = rules.new_game(players=game.players, seed=game.seed, narrate=game.narrate,
                           coverage=game.hits is not None)
    for move in game._moves if moves is None else moves:
        again.play(move)
    return again


@pytest.mark.parametrize("name", GAMES + ["permanent_nobles", "recruit"])
def test_a_fault_at_any_write_leaves_the_game_as_the_journaled_one(rulesets, name, monkeypatch):
    """The k-th write (a value stored or a piece moved) of the m-th move fails: the game is
    then the journaled game of the moves before, its very state object restored, and the move
    plays as there."""
    rules = rulesets[name]
    players = PLAYERS.get(name, 4)
    picker = random.Random(name)
    real_fit, real_move = Ctx.fit, Ctx.move_piece
    armed = {"at": None, "count": 0}

    def tick(ctx):
        if armed["at"] is not None and ctx.state.moves >= armed["at"]:
            armed["count"] -= 1
            if armed["count"] == 0:
                raise EvalError("injected in the middle of the move")

    def fit(self, value):
        tick(self)
        return real_fit(self, value)

    def move_piece(self, piece, key):
        tick(self)
        return real_move(self, piece, key)
    monkeypatch.setattr(Ctx, "fit", fit)
    monkeypatch.setattr(Ctx, "move_piece", move_piece)
    faults = 0
    for seed in range(6):
        length = play_random_game(rules, players, seed, coverage=False).move_count
        armed["at"], armed["count"] = picker.randrange(1, length), picker.randrange(1, 4)
        coverage = seed % 2 == 1
        games, states = [], []
        try:
            play_random_game(rules, players, seed, coverage=coverage, narrate=True,
                             started=lambda g: (games.append(g), states.append(g.state)))
        except RulesetError as err:
            assert "injected in the middle of the move" in str(err)
            faults += 1
            game = games[0]
            armed["at"] = None
            reference = _replayed(rules, game)
            reference.legal_moves(err.move.player)   # the position was listed before the move failed
            assert game.state is states[0]
            assert _everything(game)[:5] == _everything(reference)[:5]
            assert err.move.player in game.to_move
            assert game.legal_moves(err.move.player) == reference.legal_moves(err.move.player)
            game.play(err.move)
            reference.play(err.move)
            assert game.to_json() == reference.to_json() and game.events == reference.events
        armed["at"] = None
    assert faults == 6   # every game met the fault before it ended


@pytest.mark.parametrize("where", ["end", "advance"])
@pytest.mark.parametrize("name", GAMES)
def test_a_fault_at_the_end_of_a_move_or_before_the_flow_goes_on(rulesets, name, where, monkeypatch):
    rules = rulesets[name]
    players = PLAYERS.get(name, 4)
    length = play_random_game(rules, players, 9, coverage=False).move_count
    at = length * 2 // 3
    real_check, real_advance = game_module.check_size, game_module.advance

    def check_size(ctx, span):
        if ctx.state.moves == at:
            raise LimitExceeded("injected at the end of the move", span)
        real_check(ctx, span)

    def advance(ctx):
        if ctx.state.moves == at and ctx.move_base is None and ctx.frames is not None:
            raise LimitExceeded("injected before the flow goes on", ctx.model.codes["flow"].span)
        real_advance(ctx)
    monkeypatch.setattr(game_module, *(("check_size", check_size) if where == "end" else ("advance", advance)))
    games = []
    with pytest.raises(LimitExceeded, match="injected") as caught:
        play_random_game(rules, players, 9, coverage=True, narrate=True, started=games.append)
    monkeypatch.undo()
    game = games[0]
    assert game.move_count == at and game._checkpoint is None
    reference = _replayed(rules, game)
    reference.legal_moves(caught.value.move.player)   # the position was listed before the move failed
    assert _everything(game)[:5] == _everything(reference)[:5]
    game.play(caught.value.move)
    reference.play(caught.value.move)
    assert game.to_json() == reference.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_previous_after_it_is_the_state_before_the_last_move(rulesets, name):
    rules = rulesets[name]
    players = PLAYERS.get(name, 4)
    length = play_random_game(rules, players, 5, coverage=False).move_count
    for cut in (1, 2, length // 2, length):
        game = play_random_game(rules, players, 5, coverage=False, max_moves=cut)
        before = play_random_game(rules, players, 5, coverage=False, max_moves=cut - 1)
        assert game._previous().to_dict() == before.state.to_dict()
        assert game.check_invariants() == []
        # A copy keeps it when its original plays on, journaled.
        game._prev_state = None
        copy = game.copy()
        if not game.is_over:
            for _ in range(3):
                if game.is_over:
                    break
                game.play(game.legal_moves(game.to_move[0])[0])
            assert type(game._last) is Journal
        assert copy._previous().to_dict() == before.state.to_dict()
        assert copy.state.to_dict() == _replayed(rules, copy).state.to_dict()


def test_a_playout_cut_short_plays_on_journaled(kings_gate):
    """A game a playout stopped (max_moves) plays on with journals, as the whole playout did."""
    whole = play_random_game(kings_gate, 3, 2, coverage=False)
    game = play_random_game(kings_gate, 3, 2, coverage=False, max_moves=40)
    for move in whole._moves[40:]:
        game.play(Move(move.player, move.action, dict(move.args)))
    assert game.to_json() == whole.to_json() and type(game._last) is Journal


@pytest.fixture(scope="module")
def kings_gate():
    return regnum.load("kings_gate")


# ── rollouts from a position, for a search ──

@pytest.mark.parametrize("name", GAMES)
def test_a_rollout_plays_on_from_a_position_as_the_playout_does(rulesets, name, monkeypatch):
    rules = rulesets[name]
    players = PLAYERS.get(name, 4)
    assert random_rollout(rules.new_game(players=players, seed=3, narrate=False), 3).to_json() == \
        play_random_game(rules, players, 3, coverage=True).to_json()   # from the start: the random game
    length = play_random_game(rules, players, 4, coverage=False).move_count
    made = []
    real = game_module.Journal

    def spying(state, stack=None):
        made.append(stack)
        return real(state, stack)
    for cut in (length // 3, length - 1):
        position = play_random_game(rules, players, 4, coverage=False, max_moves=cut)
        before = (position.to_json(), position.move_count, position.to_move, position._last)
        for seed in (11, 12):
            monkeypatch.setattr(game_module, "Journal", spying)
            rollout = random_rollout(position, seed)
            monkeypatch.undo()
            assert made == [] and rollout.is_over and rollout._checkpoint is None
            reference = position.copy()
            for _ in playout(reference, random_picks(seed, players)):   # journaled
                pass
            assert rollout.to_json() == reference.to_json() and rollout.scores == reference.scores
            assert (position.to_json(), position.move_count, position.to_move, position._last) == before
    short = random_rollout(position, 11, max_moves=1)
    assert short.move_count == position.move_count + 1


def test_a_fault_in_a_rollout_leaves_the_position(kings_road, monkeypatch):
    position = play_random_game(kings_road, 4, 6, coverage=False, max_moves=40)
    before = position.to_json()
    real = game_module.check_size

    def failing(ctx, span):
        if ctx.state.moves == 45:
            raise LimitExceeded("injected at the end of the move", span)
        real(ctx, span)
    monkeypatch.setattr(game_module, "check_size", failing)
    with pytest.raises(LimitExceeded, match="injected") as caught:
        random_rollout(position, 2)
    assert caught.value.move is not None and position.to_json() == before and position.move_count == 40
