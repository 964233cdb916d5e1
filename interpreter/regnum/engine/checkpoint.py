"""Moves undone by a checkpoint, not a journal: for a playout nobody looks at between moves.

A move journals every write (state.Journal) so that a fault undoes it in place, and keeps
the journal so that `previous(…)` can rebuild the state before it. A random playout (the
games `regnum simulate` and `regnum bench` play) pays for both at every move, though nobody
sees the game between two of its moves and a fault ends it. A game is the same game for the
same seed and moves, so the state the playout started from and the moves played since
undo just as well: the checkpoint. Its moves journal nothing and copy no frame before
writing it; a fault, or `previous(…)` after, plays the moves since the checkpoint again on
a copy of it, with journals, as any game plays them (one walk of the game, on the rare path).
"""
from __future__ import annotations

from .memo import EMPTY
from .state import State

_NO_FRAMES = frozenset()


class Unjournaled:
    """What a checkpointed move gives the VM for its journal (Ctx.frames): no frame is kept
    before it is written, no stack copied before the flow runs it on. Not None: the move is
    still a move (decisions.exists keeps a `can`'s listing for the ask after it)."""

    __slots__ = ()

    def frame_ids(self) -> frozenset:
        return _NO_FRAMES

    def keep(self, stack: list) -> None:
        pass


UNJOURNALED = Unjournaled()


class Checkpoint:
    """A game's state when its checkpointed run began (a copy, sharing its lists until either
    writes them), with how many moves the game had then and its bound on the state's size.

    `writes` is the undo list of the move being made: the effects append their entries as
    always, and only how many there are is read (a `can`'s listing is kept for the ask that
    follows when no write came after it: Game._keep_listings). It is emptied at each move."""

    __slots__ = ("state", "moves", "size_bound", "writes")

    def __init__(self, game):
        self.state = game._state.copy()
        self.moves = len(game._moves)
        self.size_bound = game._size_bound
        self.writes: list = []

    def replayed(self, game, upto: int) -> State:
        """The state after `game`'s moves up to `upto` (excluded), played again from here,
        each with its journal, as a game plays them."""
        again = type(game)(game.ruleset, game.players, game.seed, self.state.copy(), game._moves[:self.moves],
                           None, [], game.narrate, game.limits)
        again._size_bound = self.size_bound
        for move in game._moves[self.moves:upto]:
            again.play(move)
        return again._state

    def restore(self, game) -> None:
        """Undo the move of `game` that failed: its state, the very object, holds again what
        it held before the move (its moves played again from the checkpoint), its lists new
        ones. The moves listed in that position stand (Game._apply forgets who waits, whose
        stacks are new), as after a journal's rollback; the contexts go with the lists."""
        state = game._state
        again = self.replayed(game, len(game._moves))
        for name in State.__slots__:
            setattr(state, name, getattr(again, name))
        state.memo = EMPTY
        game._move_ctx = game._list_ctx = None

    def before_last(self, game) -> State:
        """The state before `game`'s last move (made since the checkpoint), for `previous(…)`."""
        return self.replayed(game, len(game._moves) - 1)

    def freeze(self) -> None:
        """Shared by a copy of the game as a journal is (Game.copy): it refers to no list of
        the flow, and the checkpoint's state is never written."""
