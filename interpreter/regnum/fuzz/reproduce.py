"""Meeting again a failure that only the fuzzer checks for (docs/fuzzing.md).

`regnum replay` reproduces every failure a log records; the kinds that `failures.reproduce`
does not know — a refused offered move, an unclean refusal, a round trip, secrecy, replay or
a move bound broken — are rerun here: the log's moves are played, then the one check that
failed is run again at the same place. The checks are deterministic, so the same moves meet
the same failure.
"""
from __future__ import annotations

import re

from ..moves import IllegalMove, Move
from . import checks
from .checks import CheckFailed

#: The failure kinds found only by the fuzzer, reproduced here.
KINDS = ("refused", "unclean", "round_trip", "secrecy", "replay", "unending")


def reproduce_check(rules, log, expected):
    """A `failures.Reproduction` of `log`, whose failure is one of KINDS."""
    from ..failures import Reproduction
    from ..log import LogFailure
    records = list(log.moves)
    extra = None
    if expected.kind in ("refused", "unclean") and records and expected.move == len(records) - 1:
        extra = records.pop()
    game = rules.new_game(log.players, log.seed, options=log.options, narrate=False)
    for index, record in enumerate(records):
        move = Move(record.player, record.action, dict(record.args))
        try:
            game.play(move)
        except IllegalMove as err:   # the log is wrong before its failure
            raise IllegalMove(move, f"move #{index}: {err.reason}", err.rule, err.location, index) from None
    try:
        _rerun(game, expected, None if extra is None else Move(extra.player, extra.action, dict(extra.args)))
    except CheckFailed as failed:
        from .playout import failure_record
        seen = LogFailure(**{k: v for k, v in failure_record(game, failed).items() if k != "extra"})
        return Reproduction(expected, seen, game, failed)
    return Reproduction(expected, None, game)


def _rerun(game, expected, extra: Move | None) -> None:
    kind, check = expected.kind, expected.check or ""
    if kind == "refused" and extra is not None:
        checks.offered_move_accepted(game, extra)
    elif kind == "unclean" and extra is not None:
        checks.wrong_moves_refused(game, [(check, extra)])
    elif kind == "round_trip":
        checks.round_trip(game)
    elif kind == "secrecy":
        seat = None if check == "spectator" else int(check.rpartition(" ")[2])
        checks.secrecy(game, seat)
    elif kind == "replay":
        checks.replays(game)
    elif kind == "unending":
        bound = re.search(r"\d+", check)
        checks.ends_in_time(game, int(bound.group()) if bound else game.move_count)
