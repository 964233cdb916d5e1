"""Game logs: a versioned JSON format, validated by pydantic at the edge; full, or for one seat.

Logs and saved games come from strangers (a bug report, a bot, a forum), so reading one is
bounded before anything else is done with it (`read_json`: size, nesting depth, digits of a
number, duplicate keys) and every field is typed strictly: a `true` or a `2.0` where a whole
number belongs is an error naming the field, never a value that compares equal to 1 or 2 and
is then written back differently. `regnum.Log.model_json_schema()` gives the JSON Schema
(docs/log-format.md).
"""
from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (AfterValidator, BaseModel, ConfigDict, Field, StrictInt, StrictStr,
                      ValidationError, field_validator, model_serializer)

# What reading needs without the models lives in documents.py; named here too, where callers
# have always found it.
from .documents import (LOG_FORMAT, BadValue, LogError, StateError, check_depth, field_path,  # noqa: F401
                        first_error, json_value, read_document, read_json)
from .limits import Limits


def _args(value: dict) -> dict:
    return json_value(value)


Seat = Annotated[StrictInt, Field(ge=0)]


class LogMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: StrictInt = Field(ge=0, description="seat of the deciding player")
    hidden: bool = Field(default=False, strict=True, description=(
        "in a log written for one seat: a move of another seat that this seat may not know, "
        "of which only the player is kept (no action, no args)"))
    action: StrictStr | None = Field(default=None, min_length=1, validate_default=True)
    args: Annotated[dict[StrictStr, Any], AfterValidator(_args)] = Field(default_factory=dict)

    @field_validator("action")
    @classmethod
    def _named_unless_hidden(cls, action, info):
        hidden = info.data.get("hidden", False)
        if action is None and not hidden:
            raise ValueError("a move names its action (only a hidden move has none)")
        if action is not None and hidden:
            raise ValueError("a hidden move keeps only its player: no action, no args")
        return action

    @field_validator("args")
    @classmethod
    def _no_args_when_hidden(cls, args, info):
        if args and info.data.get("hidden", False):
            raise ValueError("a hidden move keeps only its player: no action, no args")
        return args

    @model_serializer(mode="wrap")
    def _written(self, handler):
        # A hidden move is written as {"player", "hidden": true}; any other move exactly as
        # before the field existed, so full logs are unchanged.
        if self.hidden:
            return {"player": self.player, "hidden": True}
        data = handler(self)
        data.pop("hidden", None)
        return data


class LogResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scores: list[StrictInt]
    winners: list[Seat]


def _require_format(schema: dict) -> None:
    """`format` has a default for logs built in Python, but a log read from JSON must say it."""
    schema["required"] = ["format"] + [r for r in schema.get("required", []) if r != "format"]


class HiddenZone(BaseModel):
    model_config = ConfigDict(extra="forbid")
    count: int = Field(ge=0, strict=True, description="how many pieces the zone holds")
    revealed: list[dict[str, Any]] = Field(description="those of its pieces shown to everyone, in the order shown")
    top: dict[str, Any] | None = Field(default=None, description=(
        "for a zone whose top piece only is public (visibility `top`): that piece, null when empty"))

    @model_serializer(mode="wrap")
    def _top_only_for_top_zones(self, handler):
        """As the observation has it: only a `top` zone has a `top` key."""
        data = handler(self)
        if self.top is None and "top" not in self.model_fields_set:
            data.pop("top", None)
        return data


class SeatView(BaseModel):
    """What one seat saw: `Game.observation(seat)`, as a log written for that seat keeps it."""

    model_config = ConfigDict(extra="forbid")
    ruleset: str
    seat: int = Field(ge=0, strict=True)
    players: int = Field(ge=1, strict=True)
    to_move: list[int]
    is_over: bool = Field(strict=True)
    scores: list[int]
    winners: list[int]
    vars: dict[str, Any]
    player_vars: list[dict[str, Any]]
    tables: dict[str, Any]
    options: dict[str, Any]
    zones: dict[str, list[dict[str, Any]] | HiddenZone] = Field(
        description="a zone the seat sees as its pieces, any other as its count and revealed pieces")
    moves: int = Field(ge=0, strict=True, description="how many moves had been made")


class LogFailure(BaseModel):
    """How the game of a log failed, so that the log reproduces it (`regnum replay` plays the
    moves and checks that the same thing goes wrong at the same place). Kept apart from the
    moves because the failing move is one the game never accepted."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["fault", "invariant", "stuck", "refused", "unclean", "round_trip", "secrecy", "replay",
                  "unending"] = Field(description=(
        "fault: the rules raised an error (a runtime fault E902, a limit E901, …); invariant: an "
        "invariant of the ruleset does not hold (or cannot be evaluated); stuck: the game is not "
        "over and a seat to move has no legal move, or nobody is to move. Found by `regnum fuzz`: "
        "refused: a move the game offered was refused; unclean: a move it did not offer was "
        "accepted, or refusing it changed the state; round_trip: the state read back from its JSON "
        "differs; secrecy: a seat's observation shows what it may not see; replay: replaying the "
        "moves gives another state; unending: the game is not over after the ruleset's move bound"))
    check: StrictStr | None = Field(default=None, description=(
        "the fault's diagnostic code (E902), the invariant's name, or which check of its kind "
        "failed (`seat 2` for secrecy, the kind of wrong move for unclean, `ends within N moves` "
        "for unending); null for a stuck game"))
    move: StrictInt | None = Field(ge=0, description=(
        "the index in moves of the move that failed, always the last one (for a fault, the move "
        "the game refused with the error; for refused and unclean, the move wrongly refused or "
        "accepted, which the game never played; for the other kinds, the move after which the "
        "check failed); null when the game failed after all its moves and not because of one: a "
        "fault in the setup or while listing the next moves, an invariant the setup broke, a "
        "stuck game, a check that failed before the first move"))
    message: StrictStr = Field(description="the error as it was reported, located in the ruleset")

    @field_validator("check")
    @classmethod
    def _checked_unless_stuck(cls, check, info):
        kind = info.data.get("kind")
        if kind == "stuck" and check is not None:
            raise ValueError("a stuck game names no check (null)")
        if kind not in ("stuck", None) and check is None:
            what = {"fault": "code", "invariant": "invariant"}.get(kind, "check")
            raise ValueError(f"a {kind} names its {what}")
        return check


class Log(BaseModel):
    """Everything needed to replay a game: ruleset, seed, players and the moves in order.

    A log written for one seat (`seat` set, `Game.log_for`) holds instead only what that seat
    saw, to be handed to it: no seed, the moves secret from it `hidden`, its final `view`."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_require_format)
    format: StrictStr = Field(default=LOG_FORMAT, pattern=r"^regnum-log/1$")
    ruleset: StrictStr = Field(description="the ruleset's game name")
    ruleset_hash: StrictStr = Field(description="hash of the ruleset text the game was played with")
    variant: StrictStr | None = None
    players: StrictInt = Field(ge=1)
    seed: StrictInt | None = Field(description=(
        "the game's seed; null in a log written for one seat, whom it would let recompute "
        "every hidden shuffle and draw"))
    options: Annotated[dict[StrictStr, Any], AfterValidator(_args)] = Field(
        default_factory=dict, description="the game's options, by name")
    moves: list[LogMove] = Field(default_factory=list)
    result: LogResult | None = None
    seat: int | None = Field(default=None, ge=0, strict=True, validate_default=True, description=(
        "the seat this log was written for (it then holds only what that seat saw); "
        "absent in a full log"))
    view: SeatView | None = Field(default=None, validate_default=True, description=(
        "in a log written for one seat: that seat's observation at the end of the log"))
    failure: LogFailure | None = Field(default=None, description=(
        "how the game failed, in the log of a game that faulted, broke an invariant or got stuck "
        "(its failing move is the last of moves); absent in the log of a game that did not fail"))

    @field_validator("seat")
    @classmethod
    def _one_seat_or_all(cls, seat, info):
        data = info.data
        moves = data.get("moves") or []
        if seat is None:
            if "seed" in data and data["seed"] is None:
                raise ValueError("a full log needs its seed (only a log written for one seat has none)")
            if any(m.hidden for m in moves):
                raise ValueError("hidden moves belong in a log written for one seat, which names it")
            return seat
        if "players" in data and seat >= data["players"]:
            raise ValueError(f"seat {seat} is not a seat of a {data['players']}-player game")
        if data.get("seed") is not None:
            raise ValueError("a log written for one seat holds no seed: it would let that seat "
                             "recompute every hidden draw")
        for index, move in enumerate(moves):
            if move.hidden and move.player == seat:
                raise ValueError(f"move #{index} of seat {seat} is hidden from seat {seat} itself")
        return seat

    @field_validator("view")
    @classmethod
    def _view_of_the_seat(cls, view, info):
        if "seat" not in info.data:
            return view
        seat = info.data["seat"]
        if seat is None and view is not None:
            raise ValueError("only a log written for one seat holds a view")
        if seat is not None and (view is None or view.seat != seat):
            raise ValueError(f"a log written for seat {seat} holds that seat's observation")
        return view

    @field_validator("failure")
    @classmethod
    def _failing_move_last(cls, failure, info):
        data = info.data
        if failure is None:
            return failure
        if data.get("seat") is not None:
            raise ValueError("a log written for one seat cannot be replayed, so it records no failure")
        moves = data.get("moves")
        if failure.move is not None and moves is not None and failure.move != len(moves) - 1:
            last = f"the last move, #{len(moves) - 1}" if moves else "null: the log has no move"
            raise ValueError(f"move #{failure.move} is not the failing move: that is {last}")
        if failure.kind == "stuck" and failure.move is not None:
            raise ValueError("a stuck game failed after its moves, not at one: 'move' is null")
        return failure

    @model_serializer(mode="wrap")
    def _written(self, handler):
        # A full log is written exactly as before logs for one seat, and failures, existed.
        data = handler(self)
        if self.seat is None:
            data.pop("seat", None)
            data.pop("view", None)
        if self.failure is None:
            data.pop("failure", None)
        return data

    def to_json(self) -> str:
        # ASCII only: a log is read with `cat` as often as by a program, and its strings come
        # from rulesets and players; as \u escapes, control and bidi characters stay inert.
        return json.dumps(self.model_dump(mode="json"), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: "str | bytes | dict | Log", limits: Limits | None = None) -> "Log":
        """A log from its JSON text or dict; raises LogError naming the first bad field."""
        if isinstance(data, Log):
            return data
        data = read_document(data, "log", LogError, limits, LOG_FORMAT)
        try:
            return cls.model_validate(data)
        except ValidationError as err:
            where, message = first_error(err)
            raise LogError(f"log field '{where}': {message}") from None
