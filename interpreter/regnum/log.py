"""Game logs: a versioned JSON format, validated by pydantic at the edge.

`regnum.Log.model_json_schema()` gives the JSON Schema (docs/log-format.md).
"""
from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

LOG_FORMAT = "regnum-log/1"


class LogError(ValueError):
    """A log that is not valid JSON or does not follow the log format; names the field."""


class LogMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: int = Field(ge=0, strict=True, description="seat of the deciding player")
    action: str = Field(min_length=1)
    args: dict[str, Any] = Field(default_factory=dict)


class LogResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scores: list[int]
    winners: list[int]


class Log(BaseModel):
    """Everything needed to replay a game: ruleset, seed, players and the moves in order."""

    model_config = ConfigDict(extra="forbid")
    format: str = Field(default=LOG_FORMAT, pattern=r"^regnum-log/1$")
    ruleset: str = Field(description="the ruleset's game name")
    ruleset_hash: str = Field(description="hash of the ruleset text the game was played with")
    variant: str | None = None
    players: int = Field(ge=1, strict=True)
    seed: int = Field(strict=True)
    options: dict[str, Any] = Field(default_factory=dict, description="the game's options, by name")
    moves: list[LogMove] = Field(default_factory=list)
    result: LogResult | None = None

    def to_json(self) -> str:
        return self.model_dump_json(indent=None)

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
