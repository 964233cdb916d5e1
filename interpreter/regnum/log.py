"""Game logs: a versioned JSON format, validated by pydantic at the edge; full, or for one seat.

`regnum.Log.model_json_schema()` gives the JSON Schema (docs/log-format.md).
"""
from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_serializer

LOG_FORMAT = "regnum-log/1"


class LogError(ValueError):
    """A log that is not valid JSON or does not follow the log format; names the field."""


class LogMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: int = Field(ge=0, strict=True, description="seat of the deciding player")
    hidden: bool = Field(default=False, strict=True, description=(
        "in a log written for one seat: a move of another seat that this seat may not know, "
        "of which only the player is kept (no action, no args)"))
    action: str | None = Field(default=None, min_length=1, validate_default=True)
    args: dict[str, Any] = Field(default_factory=dict)

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
    scores: list[int]
    winners: list[int]


class HiddenZone(BaseModel):
    model_config = ConfigDict(extra="forbid")
    count: int = Field(ge=0, strict=True, description="how many pieces the zone holds")
    revealed: list[dict[str, Any]] = Field(description="those of its pieces shown to everyone")


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


class Log(BaseModel):
    """Everything needed to replay a game: ruleset, seed, players and the moves in order.

    A log written for one seat (`seat` set, `Game.log_for`) holds instead only what that seat
    saw, to be handed to it: no seed, the moves secret from it `hidden`, its final `view`."""

    model_config = ConfigDict(extra="forbid")
    format: str = Field(default=LOG_FORMAT, pattern=r"^regnum-log/1$")
    ruleset: str = Field(description="the ruleset's game name")
    ruleset_hash: str = Field(description="hash of the ruleset text the game was played with")
    variant: str | None = None
    players: int = Field(ge=1, strict=True)
    seed: int | None = Field(strict=True, description=(
        "the game's seed; null in a log written for one seat, whom it would let recompute "
        "every hidden shuffle and draw"))
    options: dict[str, Any] = Field(default_factory=dict, description="the game's options, by name")
    moves: list[LogMove] = Field(default_factory=list)
    result: LogResult | None = None
    seat: int | None = Field(default=None, ge=0, strict=True, validate_default=True, description=(
        "the seat this log was written for (it then holds only what that seat saw); "
        "absent in a full log"))
    view: SeatView | None = Field(default=None, validate_default=True, description=(
        "in a log written for one seat: that seat's observation at the end of the log"))

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

    @model_serializer(mode="wrap")
    def _written(self, handler):
        # A full log is written exactly as before logs for one seat existed.
        data = handler(self)
        if self.seat is None:
            data.pop("seat", None)
            data.pop("view", None)
        return data

    def to_json(self) -> str:
        # ASCII only: a log is read with `cat` as often as by a program, and its strings come
        # from rulesets and players; as \u escapes, control and bidi characters stay inert.
        return json.dumps(self.model_dump(mode="json"), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: "str | bytes | dict | Log") -> "Log":
        if isinstance(data, Log):
            return data
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as err:
                raise LogError(f"the log is not valid JSON: {err.msg} at line {err.lineno} "
                               f"column {err.colno}") from None
        if not isinstance(data, dict):
            raise LogError(f"a log must be a JSON object, not {type(data).__name__}")
        try:
            return cls.model_validate(data)
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(x) for x in first["loc"]) or "(top level)"
            raise LogError(f"log field '{where}': {first['msg']}") from None
