"""Failed games kept as logs that reproduce the failure.

A game fails when the rules raise an error (a fault, a limit hit), when one of the ruleset's
invariants stops holding, or when it gets stuck (not over, and a seat to move has no legal
move). Whoever meets such a game — `regnum simulate`, `regnum play`, a test — saves its log
with a `failure` record: the move that failed is the log's last (even though the game never
accepted it), so that `reproduce` can play the log again and see the same thing go wrong at
the same place. See docs/log-format.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .agents import StuckGame
from .diagnostics import RulesetError
from .documents import LogError
from .moves import IllegalMove, Move

if TYPE_CHECKING:
    from .log import Log, LogFailure

__all__ = ["InvariantBroken", "Reproduction", "assert_invariants", "failure_of", "failed_log", "log_of_failure",
           "one_line", "reproduce", "setup_failed_log"]


class InvariantBroken(Exception):
    """An invariant of the ruleset that does not hold (or cannot be evaluated), as an error, so
    that a run checking invariants stops at the first one like at any other failure."""

    def __init__(self, name: str, message: str, location: str | None):
        super().__init__(message)
        self.name = name
        self.message = message
        self.location = location


def assert_invariants(game) -> None:
    """Raise InvariantBroken for the first invariant that does not hold in `game`.

    An invariant whose evaluation faults is broken too: the failure is the invariant's, and
    reproducing it means checking the invariants again, not playing a move."""
    try:
        broken = game.check_invariants()
    except RulesetError as err:
        name = _faulting_invariant(game, err)
        raise InvariantBroken(name, one_line(err), _location(err)) from None
    if broken:
        text = broken[0]
        name = text.partition(":")[0]
        span = next((inv.span for inv in game.model.invariants if inv.name == name), None)
        raise InvariantBroken(name, f"the state breaks invariant {text}",
                              None if span is None else str(span))


def _faulting_invariant(game, err: RulesetError) -> str:
    """The invariant whose evaluation raised `err`: the one the error is located at."""
    where = _location(err)
    return next((inv.name for inv in game.model.invariants if str(inv.span) == where),
                game.model.invariants[0].name)


def one_line(err: BaseException) -> str:
    """A failure as one line: a ruleset's diagnostic by its location, code and message."""
    diagnostics = getattr(err, "diagnostics", None)
    if diagnostics:
        d = diagnostics[0]
        return f"{d.span}: {d.code}: {d.message}"
    if isinstance(err, (InvariantBroken, StuckGame)):
        return str(err)
    return f"{type(err).__name__}: {err}".splitlines()[0]


def _code(err: RulesetError) -> str:
    return err.diagnostics[0].code if err.diagnostics else "error"


def _location(err: RulesetError) -> str | None:
    return str(err.diagnostics[0].span) if err.diagnostics else None


def failure_of(game, error: BaseException) -> LogFailure | None:
    """The failure record of `error` met while playing `game`, or None for an error that is
    not the game's failure (an illegal move, a bug of regnum). A fault raised by `play` names
    its move (`error.move`); any other failure comes after the game's moves."""
    from .log import LogFailure   # the log's models, built on first use
    if isinstance(error, InvariantBroken):
        return LogFailure(kind="invariant", check=error.name,
                          move=game.move_count - 1 if game.move_count else None, message=error.message)
    if isinstance(error, StuckGame):
        return LogFailure(kind="stuck", move=None, message=str(error))
    if isinstance(error, RulesetError):
        move = game.move_count if getattr(error, "move", None) is not None else None
        return LogFailure(kind="fault", check=_code(error), move=move, message=one_line(error))
    return None


def failed_log(game, error: BaseException) -> Log:
    """The log of `game` up to its failure: its moves, the move that failed (a fault's, which
    the game refused) and the failure record. `result` stays null: a failed game has none,
    and deciding its winners may be what fails."""
    failure = failure_of(game, error)
    if failure is None:
        raise ValueError(f"{type(error).__name__} is not a failure of the game: "
                         "a fault (RulesetError), a broken invariant or a stuck game")
    failing = getattr(error, "move", None) if failure.kind == "fault" else None
    return log_of_failure(game.model, game.players, game.seed, game.options, game._moves, failing, failure)


def log_of_failure(model, players: int, seed: int, options: dict, played: list, failing, failure: LogFailure) -> Log:
    """A failed game's log: the moves it played, then the failing move it never accepted (a
    Move, or None), then the failure record; no result."""
    from .log import Log, LogMove
    moves = [LogMove(player=m.player, action=m.action, args=m.args) for m in played]
    if failing is not None:
        moves.append(LogMove(player=failing.player, action=failing.action, args=dict(failing.args)))
    return Log(ruleset=model.name, ruleset_hash=model.hash, variant=model.variant, players=players,
               seed=seed, options=options, moves=moves, result=None, failure=failure)


def setup_failed_log(rules, players: int, seed: int, options: dict | None, error: BaseException) -> Log:
    """The log of a game whose setup failed: no game exists, so no move either; replaying it
    runs the same setup again. ValueError for an error that is not the game's failure."""
    from .log import LogFailure
    if not isinstance(error, RulesetError):
        raise ValueError(f"{type(error).__name__} is not a failure of the game's setup")
    failure = LogFailure(kind="fault", check=_code(error), move=None, message=one_line(error))
    return log_of_failure(rules.model, players, seed, dict(options or {}), [], None, failure)


@dataclass
class Reproduction:
    """What replaying a failure log gave: `game` as it stood when it failed (before a faulting
    move, which it refused) or at the end of the log, None when its setup failed; `observed`,
    the failure met (None: none), with `error`, the exception itself (its full diagnostic)."""

    expected: LogFailure
    observed: LogFailure | None
    game: object | None
    error: BaseException | None = None

    @property
    def location(self) -> str | None:
        """Where the failure met is written in the ruleset (None for a stuck game)."""
        if isinstance(self.error, InvariantBroken):
            return self.error.location
        if isinstance(self.error, RulesetError):
            return _location(self.error)
        return None

    @property
    def reproduced(self) -> bool:
        """The same kind of failure, of the same check, at the same move. The message may
        differ: it names the ruleset's file, which may have moved since."""
        seen, wanted = self.observed, self.expected
        return seen is not None and (seen.kind, seen.check, seen.move) == (wanted.kind, wanted.check, wanted.move)


def reproduce(rules, log, check_hash: bool = True) -> Reproduction:
    """Replay a log that records a failure and tell whether the failure happens again.

    The moves are played in order; a fault stops the replay at its move. When the recorded
    failure is an invariant, the invariants are checked after the setup and after every move,
    as `simulate --check-invariants` did. After the last move, the seats to move are asked for
    their moves (a fault there, or a seat without a move, is met again) and, once the game is
    over, its winners are decided. Raises LogError for a log that records no failure or cannot
    be replayed (as `regnum.replay`), IllegalMove (with `index`) for a move before the failure
    that the rules refuse."""
    from .log import Log, LogFailure
    from . import _check_fits, OptionError
    log = Log.from_json(log)
    if log.failure is None:
        raise LogError("log field 'failure': missing: the log records no failure to reproduce")
    _check_fits(rules, log, check_hash)
    expected = log.failure
    from .fuzz.reproduce import KINDS as CHECKED_BY_THE_FUZZER, reproduce_check
    if expected.kind in CHECKED_BY_THE_FUZZER:
        try:
            return reproduce_check(rules, log, expected)
        except OptionError as err:
            raise LogError(f"log field 'options': {err}") from None
    invariants = expected.kind == "invariant"
    try:
        game = rules.new_game(log.players, log.seed, options=log.options)
    except OptionError as err:
        raise LogError(f"log field 'options': {err}") from None
    except RulesetError as err:
        return Reproduction(expected, LogFailure(kind="fault", check=_code(err), move=None,
                                                 message=one_line(err)), None, err)
    try:
        if invariants:
            assert_invariants(game)
        for index, record in enumerate(log.moves):
            move = Move(record.player, record.action, dict(record.args))
            try:
                game.play(move)
            except IllegalMove as err:   # the log is wrong before its failure
                raise IllegalMove(move, f"move #{index}: {err.reason}", err.rule, err.location, index) from None
            if invariants:
                assert_invariants(game)
        _after_the_moves(game)
    except (RulesetError, InvariantBroken, StuckGame) as err:
        return Reproduction(expected, failure_of(game, err), game, err)
    return Reproduction(expected, None, game)


def _after_the_moves(game) -> None:
    """What a playout meets between moves: the seats to move list their moves (or have none),
    and a game over decides its winners."""
    if game.is_over:
        game.winners   # deciding them may fault, as at the end of a playout
        return
    waiting = game.to_move
    if not waiting:
        raise StuckGame(f"the game is not over but nobody is to move (after {game.move_count} moves)")
    for seat in waiting:
        if not game.legal_moves(seat):
            raise StuckGame(f"seat {seat} must move but has no legal move "
                            f"(after {game.move_count} moves, game not over)")
