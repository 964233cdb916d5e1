"""Every bundled ruleset played at random, a fault made to happen at the very end of moves
(after the action and the flow that follows it ran, every write done): the state must then
be byte-identical to the state before, with the coverage counts, the narration and the
seats to move as they were, and the same move must then play as if nothing had happened.

The undo journal is what restores the state (engine/state.py Journal): this plays every
kind of write the four games make — pieces moved, created and revealed, variables and
per-cell tables set, open-grid cells opened, the RNG drawn, `once` triggers fired, the
flow's frames and threads changed — and rolls each back.
"""
from __future__ import annotations

import random

import pytest

import regnum
from regnum.diagnostics import LimitExceeded, RulesetError
from regnum.engine import game as game_module

RULESETS = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate", "variants/permanent_nobles"]


def _injected(monkeypatch, where: str):
    """Make the next move fail at `where`: "end" (after everything ran, in check_size) or
    "advance" (once the action ran, before the flow goes on)."""
    if where == "end":
        def failing(ctx, span):
            raise LimitExceeded("injected at the end of the move", span)
        monkeypatch.setattr(game_module, "check_size", failing)
    else:
        def failing(ctx):
            raise LimitExceeded("injected before the flow goes on", ctx.model.codes["flow"].span)
        monkeypatch.setattr(game_module, "advance", failing)


def _snapshot(game):
    return game.to_json(), dict(game.hits), list(game.events), game.to_move, game.move_count


def _load(name):
    from pathlib import Path
    if "/" in name:
        return regnum.load(Path(__file__).parents[2] / "rulesets" / f"{name}.rules")
    return regnum.load(name)


@pytest.mark.parametrize("name", RULESETS)
def test_a_fault_at_the_end_of_any_move_leaves_the_game_as_it_was(name, monkeypatch):
    rules = _load(name)
    picker = random.Random(name)
    for seed in (1, 2):
        game = rules.new_game(players=4 if name != "kings_gate" else 3, seed=seed, narrate=True)
        steps = 0
        while not game.is_over and steps < 400:
            steps += 1
            player = game.to_move[0]
            moves = game.legal_moves(player)
            move = moves[picker.randrange(len(moves))]
            if steps % 3 == 0 or steps < 6:
                before = _snapshot(game)
                with monkeypatch.context() as patch:
                    _injected(patch, "end" if steps % 2 else "advance")
                    with pytest.raises(RulesetError):
                        game.play(move)
                assert _snapshot(game) == before
                assert game.legal_moves(player) == moves
            reference = game.copy()
            game.play(move)
            reference.play(move)
            assert game.to_json() == reference.to_json()
        assert game.check_invariants() == []


@pytest.mark.parametrize("name", RULESETS)
def test_invariants_with_previous_agree_with_a_game_kept_one_move_behind(name):
    """previous(…) reads the state before the last move, rebuilt from its journal: it must be
    the state a copy taken before that move holds."""
    rules = _load(name)
    game = rules.new_game(players=4 if name != "kings_gate" else 3, seed=5)
    picker = random.Random(5)
    steps = 0
    while not game.is_over and steps < 150:
        steps += 1
        earlier = game.copy()
        moves = game.legal_moves(game.to_move[0])
        game.play(moves[picker.randrange(len(moves))])
        assert game.check_invariants() == []
        if steps % 10 == 0:
            assert game._previous().to_dict() == earlier.state.to_dict()


@pytest.mark.parametrize("name", RULESETS)
def test_a_fault_in_the_middle_of_a_move_leaves_the_game_as_it_was(name, monkeypatch):
    """The fault strikes at the k-th write of the move (a piece moved or a value stored),
    so the move has done part of its work: everything it did is undone."""
    from regnum.builtins import EvalError
    from regnum.engine.runtime import Ctx
    rules = _load(name)
    picker = random.Random(name + "/middle")
    real_fit, real_move = Ctx.fit, Ctx.move_piece
    countdown = [0]

    def tick():
        countdown[0] -= 1
        if countdown[0] == 0:
            raise EvalError("injected in the middle of the move")

    def fit(self, value):
        tick()
        return real_fit(self, value)

    def move_piece(self, piece, key):
        tick()
        return real_move(self, piece, key)

    game = rules.new_game(players=4 if name != "kings_gate" else 3, seed=3, narrate=True)
    faults = steps = 0
    while not game.is_over and steps < 300:
        steps += 1
        player = game.to_move[0]
        moves = game.legal_moves(player)
        move = moves[picker.randrange(len(moves))]
        before = _snapshot(game)
        reference = game.copy()
        countdown[0] = picker.randrange(1, 12)
        with monkeypatch.context() as patch:
            patch.setattr(Ctx, "fit", fit)
            patch.setattr(Ctx, "move_piece", move_piece)
            try:
                game.play(move)
            except RulesetError as err:
                assert "injected in the middle of the move" in str(err)
                faults += 1
                assert _snapshot(game) == before
                game.play(move)   # and now for real
        countdown[0] = 0
        reference.play(move)
        assert game.to_json() == reference.to_json()
    assert faults > 10
