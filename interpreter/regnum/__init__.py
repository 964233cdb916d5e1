"""regnum: a declarative rules language for board and card games, and its interpreter.

The public API (DESIGN §4). Everything not named here is internal.

    rules = regnum.load("kings_road")
    game = rules.new_game(players=4, seed=7)
    while not game.is_over:
        game.play(game.all_legal_moves()[0])
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import compiled as _compiled

_compiled.activate()   # the optional compiled backend (REGNUM_COMPILED=1): before the engine is imported

from .diagnostics import Diagnostic, LimitExceeded, RulesetError
from .documents import LogError, StateError
from .engine.game import Game, OptionError
from .limits import Limits
from .moves import IllegalMove, Move
from .ruleset import Ruleset, load

if TYPE_CHECKING:
    from .log import Log

__all__ = ["load", "replay", "Ruleset", "Game", "Move", "IllegalMove", "RulesetError",
           "LimitExceeded", "Diagnostic", "Log", "LogError", "StateError", "OptionError", "Limits"]
__version__ = "0.1.0"


def __getattr__(name: str):
    """`regnum.Log`, imported when first asked for: its pydantic models are a third of the
    time `import regnum` would take, and most programs never make or read a log."""
    if name == "Log":
        from .log import Log
        return Log
    raise AttributeError(f"module 'regnum' has no attribute {name!r}")


def replay(rules: Ruleset, log, check_hash: bool = True, *, narrate: bool = True,
           coverage: bool = True) -> Game:
    """Replay a log (a Log, its JSON text or dict) move by move, validating each.
    `narrate=False` makes no narration and `coverage=False` counts no coverage, as for
    `Ruleset.new_game`: the same game, for a caller that reads neither.

    Raises IllegalMove with `.index` set to the position of the first illegal move,
    or LogError for a malformed log, one made with another ruleset, (unless
    check_hash=False) one made with other rules (the hash covers the ruleset, its bases, its
    data files and the stdlib modules it imports), or one written for a single seat
    (`Game.log_for`), which lacks the seed and hidden moves. Finding the rules a log names is
    the caller's part; `regnum replay` does it within the allowed folders (docs/log-format.md).
    """
    from .log import Log
    log = Log.from_json(log)
    if log.seat is not None:
        raise LogError(f"log field 'seat': this log holds only what seat {log.seat} saw (no seed, the "
                       "moves hidden from that seat left out), so it cannot be replayed move by move; "
                       "its 'view' is that seat's view of the game")
    _check_fits(rules, log, check_hash)
    try:
        game = rules.new_game(log.players, log.seed, narrate=narrate, options=log.options, coverage=coverage)
    except OptionError as err:
        raise LogError(f"log field 'options': {err}") from None
    for index, record in enumerate(log.moves):
        move = Move(record.player, record.action, dict(record.args))
        try:
            game.play(move)
        except IllegalMove as err:
            err.index = index
            raise IllegalMove(move, f"move #{index}: {err.reason}", err.rule, err.location, index) from None
    if log.result is not None and (log.result.scores != game.scores or log.result.winners != game.winners):
        raise LogError(f"log field 'result': the log says scores {log.result.scores}, winners "
                       f"{log.result.winners}; replaying gives scores {game.scores}, winners {game.winners}")
    return game


def _check_fits(rules: Ruleset, log: Log, check_hash: bool) -> None:
    """Refuse (LogError naming the field) a log made with other rules than `rules`."""
    # A field that names a .rules file says where the rules were found, not what they are
    # called (docs/log-format.md); the hash tells whether they are the same.
    if log.ruleset != rules.name and not log.ruleset.endswith(".rules"):
        raise LogError(f"log field 'ruleset': the log is for {log.ruleset!r}, not {rules.name!r}")
    if log.variant != rules.variant and not (log.variant or "").endswith(".rules"):
        raise LogError(f"log field 'variant': the log is for {log.variant or 'the base game'}, "
                       f"not {rules.variant or 'the base game'}")
    if check_hash and log.ruleset_hash != rules.hash:
        raise LogError(f"log field 'ruleset_hash': the log was made with another version of the "
                       f"ruleset ({log.ruleset_hash}, now {rules.hash}); replay it anyway with "
                       "check_hash=False (regnum replay --any-version)")
    if not rules.min_players <= log.players <= rules.max_players:
        raise LogError(f"log field 'players': {log.players} is outside {rules.min_players}–{rules.max_players}")
