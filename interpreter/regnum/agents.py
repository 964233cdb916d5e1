"""Bots that play any ruleset: they only use the public Game API.

``RandomAgent`` picks uniformly among the legal moves of its seat with its own seeded RNG,
so a game played by random agents is a pure function of (ruleset, players, seed).
``play_random_game`` is the random playout used by ``regnum simulate`` and ``regnum bench``:
it plays exactly the moves RandomAgents would, through a shortcut of the game that makes a
Move of the chosen move only (``Game._play_nth``).
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the core imports nothing from here, but keep this module import-light
    from regnum import Game, Move, Ruleset

__all__ = ["RandomAgent", "StuckGame", "moves_of", "play_random_game", "playout", "random_picks", "random_rollout",
           "seat_seed"]


class StuckGame(RuntimeError):
    """A game that is not over offers no legal move to a player who must decide.

    That is a ruleset (or engine) failure: the flow waits for a choice nobody can make.
    """


def moves_of(game: Game, player: int) -> list[Move]:
    """The legal moves of seat ``player``: a bot sees only what its own seat may see."""
    return game.legal_moves(player)


class RandomAgent:
    """Chooses uniformly at random among the legal moves of one seat."""

    __slots__ = ("seed", "rng")

    def __init__(self, seed: int | str = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, game: Game, player: int) -> Move:
        """One of ``player``'s legal moves, uniformly; raises StuckGame if there is none."""
        moves = moves_of(game, player)
        if not moves:
            raise StuckGame(
                f"seat {player} must move but has no legal move "
                f"(after {game.move_count} moves, game not over)"
            )
        return moves[self.rng.randrange(len(moves))]

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"


def seat_seed(seed: int, seat: int) -> str:
    """The seed of seat ``seat``'s bot in a game seeded ``seed``: distinct per seat, stable."""
    return f"regnum-bot:{seed}:{seat}"


def play_random_game(rules: Ruleset, players: int, seed: int, max_moves: int = 100_000,
                     narrate: bool = False, options: dict | None = None, started=None,
                     after_move=None, coverage: bool = True) -> Game:
    """Play a game of ``rules`` with a RandomAgent in every seat.

    The game uses ``seed``; seat ``p``'s agent uses ``seat_seed(seed, p)``. At each step every
    player listed in ``game.to_move`` (in order) who still has to move — ``to_move`` is read
    again after each move — chooses and plays. Stops when the game is over or after
    ``max_moves`` moves (then ``game.is_over`` is false). Raises StuckGame when a game that
    is not over waits for nobody or for a seat without legal moves. Narration is off unless
    asked for: nobody reads it in a simulation, and formatting it costs time. ``options`` are
    the game's options; ``started(game)``, when given, is called once the game exists (so that
    a caller still has it if a move fails); ``after_move(game)``, after every move (to check
    the invariants, say: it may raise to stop the game). A fault of the rules raised by a move
    carries that move (``error.move``), so ``game.failed_log(error)`` records it.
    ``coverage=False`` plays the same game without counting coverage (``game.hits`` is None).
    Without ``after_move`` nobody sees the game between two moves: its moves journal nothing,
    and a fault is undone from the state the playout began with (engine/checkpoint.py) — the
    same games, the same state after a fault, for less.
    """
    game = rules.new_game(players=players, seed=seed, narrate=narrate, options=options, coverage=coverage)
    if started is not None:
        started(game)
    if after_move is None:   # nobody sees the game between moves: undone by a checkpoint
        with game._unjournaled():
            for _ in playout(game, random_picks(seed, players), max_moves):
                pass
        return game
    for _ in playout(game, random_picks(seed, players), max_moves):
        after_move(game)
    return game


def random_rollout(game: Game, seed: int, max_moves: int = 100_000) -> Game:
    """A copy of ``game`` played on by a RandomAgent in every seat, seeded with ``seed`` as
    play_random_game seeds them, until it is over or ``max_moves`` more moves were played:
    what a search (Monte Carlo tree search, say) plays out from a position it weighs. ``game``
    is left as it is. Nobody sees the copy between its moves, so they journal nothing
    (engine/checkpoint.py). A fault of the rules raises, the move on it (``error.move``);
    StuckGame as play_random_game raises it."""
    rollout = game.copy()
    with rollout._unjournaled():
        for _ in playout(rollout, random_picks(seed, rollout.players), rollout.move_count + max_moves):
            pass
    return rollout


def random_picks(seed: int, players: int) -> list:
    """Each seat's RandomAgent.choose, without the Move values of the moves not chosen: the
    game picks the index with the seat's generator, as choose() does over legal_moves(seat).
    A pick is the generator's `_randbelow`, which is what `randrange(n)` returns for every
    n > 0 (the game never picks among no moves), one call sooner."""
    return [RandomAgent(seat_seed(seed, seat)).rng._randbelow for seat in range(players)]


def playout(game: Game, picks: list, max_moves: int = 100_000):
    """Play ``game`` on, seat p choosing with ``picks[p]``, yielding after every move: the loop
    of play_random_game, which `regnum compare` drives for two games in step.

    Once per move: `game.is_over`, `game.move_count` and `game._waiting()` are read from the
    game's flow, its list of moves (which only grows) and its cache, without the calls."""
    moves = game._moves
    while True:
        flow = game._state.flow
        if (not flow["main"] and flow["threads"] is None) or len(moves) >= max_moves:   # over, or enough
            return
        waiting = game._cache.get("to_move")
        if waiting is None:
            waiting = game._to_move()   # kept by the game for this position, replaced after a move
        if not waiting:
            raise StuckGame(f"the game is not over but nobody is to move (after {game.move_count} moves)")
        first = True
        for player in waiting:
            # The first seat is to move in the position the loop's test has just read; a later
            # one, only if the moves before it left the game going and it still asked.
            if first:
                first = False
            else:
                flow = game._state.flow
                if (not flow["main"] and flow["threads"] is None) or len(moves) >= max_moves:
                    break
                seats = game._cache.get("waiting")
                if player not in (seats if seats is not None else game._waiting()):
                    continue
            if game._play_nth(player, picks[player]) is None:
                raise StuckGame(
                    f"seat {player} must move but has no legal move "
                    f"(after {game.move_count} moves, game not over)"
                )
            yield
