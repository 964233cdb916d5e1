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
import re
from itertools import accumulate
from typing import Annotated, Any, Literal

from pydantic import (AfterValidator, BaseModel, ConfigDict, Field, StrictInt, StrictStr,
                      ValidationError, field_validator, model_serializer)

from .limits import DEFAULT as DEFAULT_LIMITS, Limits

LOG_FORMAT = "regnum-log/1"


class LogError(ValueError):
    """A log that is not valid JSON or does not follow the log format; names the field."""


class StateError(LogError):
    """A saved game (`Game.to_json()`) that is not valid JSON, does not follow the state
    format or does not fit the ruleset; names the field path. A LogError, so that code
    catching LogError for every input file keeps working."""


# ── reading untrusted JSON ──

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.S)   # "?: an unterminated string ends the text
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH = {"[": 1, "{": 1, "]": -1, "}": -1}
_MAX_DIGITS = 20   # 2^64 has 20 digits: no number in a log or state is longer


def read_json(text: "str | bytes", what: str, error: type[LogError] = LogError,
              limits: Limits | None = None):
    """Parse a log or saved game, refusing what would cost more than its size: more than
    `limits.json_bytes` bytes, arrays and objects nested deeper than `limits.json_depth`
    (measured before parsing, in linear time, because json.loads recurses), numbers with more
    digits than any number a game holds, NaN or Infinity, and a key twice in one object."""
    limits = limits or DEFAULT_LIMITS
    size = len(text)
    if isinstance(text, str) and size * 4 > limits.json_bytes:
        size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.json_bytes:
        raise error(f"the {what} is {size:_} bytes; {limits.hint('json_bytes')}")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise error(f"the {what} is not UTF-8 text ({err.reason} at byte {err.start})") from None
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if brackets and max(accumulate(map(_DEPTH.__getitem__, brackets))) > limits.json_depth:
        raise error(f"the {what} nests arrays and objects more than {limits.json_depth} deep; "
                    f"{limits.hint('json_depth')}")
    try:
        return json.loads(text, parse_int=_parse_int, parse_constant=_no_constant,
                          object_pairs_hook=_object)
    except json.JSONDecodeError as err:
        refusal = error(f"the {what} is not valid JSON: {err.msg} at line {err.lineno} "
                        f"column {err.colno}")
        refusal.json_error = err   # where, for a caller that prints FILE:LINE:COL
        raise refusal from None
    except _Refused as err:
        raise error(f"the {what} is not valid: {err}") from None
    except RecursionError:   # only with a json_depth set above Python's own recursion limit
        raise error(f"the {what} nests arrays and objects too deeply to be read") from None


class _Refused(ValueError):
    pass


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_DIGITS:
        raise _Refused(f"a number of {len(digits)} digits ({digits[:12]}…)")
    return int(digits)


def _no_constant(name: str):
    raise _Refused(f"{name} is not a number a game can hold")


def _object(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(f"the key {key!r} appears twice in one object")
            seen.add(key)
    return out


def field_path(loc) -> str:
    """A pydantic error location as a path people read: `moves[3].args.card`."""
    out = ""
    for part in loc:
        if type(part) is int:
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"


def first_error(err: ValidationError) -> tuple[str, str]:
    """(field path, message) of the first thing a model refused."""
    first = err.errors()[0]
    loc, message = tuple(first["loc"]), first["msg"]
    cause = first.get("ctx", {}).get("error")
    if isinstance(cause, BadValue):
        loc, message = loc + cause.where, cause.reason
    elif first["type"] == "missing":
        message = "missing"
    elif first["type"] == "value_error":   # a validator's own sentence, whole
        message = str(cause) if cause is not None else message.removeprefix("Value error, ")
    elif first["type"] != "extra_forbidden" and "input" in first:
        message = f"{message}, not {_show(first['input'])}"
    return field_path(loc), message


def _show(value) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 60 else text[:57] + "…"


class BadValue(ValueError):
    """A value that is not plain JSON of whole numbers; `where` is its path inside the value."""

    def __init__(self, where: tuple, reason: str):
        super().__init__(f"{field_path(where)}: {reason}")
        self.where = where
        self.reason = reason


def json_value(value, where: tuple = (), depth: int = DEFAULT_LIMITS.json_depth):
    """A move argument or stored value: JSON made of texts, whole numbers, true/false, null,
    lists and objects — no fraction (the language has none; 2.0 is not 2) — nested at most
    `depth` deep (comparing or printing a deeper value would recurse)."""
    stack = [(value, where)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, float):
            raise BadValue(at, f"{_show(item)} is not a whole number (regnum has no fractions)")
        if isinstance(item, (list, dict)):
            if len(at) - len(where) >= depth:
                raise BadValue(where, f"nests lists and objects more than {depth} deep")
            pairs = enumerate(item) if isinstance(item, list) else item.items()
            stack.extend((x, at + (k,)) for k, x in pairs)
        elif not isinstance(item, (str, int)) and item is not None:   # str: ZoneRef too
            raise BadValue(at, f"a {type(item).__name__} is not a JSON value")
    return value


def check_depth(data, what: str, error: type[LogError], limits: Limits | None = None) -> None:
    """A log or saved game handed over as Python objects, not text: the same depth bound
    `read_json` applies, checked without recursing."""
    limit = (limits or DEFAULT_LIMITS).json_depth
    stack = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if type(item) is dict or type(item) is list:
            if depth >= limit:
                raise error(f"the {what} nests arrays and objects more than {limit} deep; "
                            f"{(limits or DEFAULT_LIMITS).hint('json_depth')}")
            stack.extend((x, depth + 1) for x in (item.values() if type(item) is dict else item))


def read_document(data: "str | bytes | dict", what: str, error: type[LogError], limits: Limits | None,
                  format_name: str) -> dict:
    """A log or saved game as a JSON object, from its text (read_json) or from Python objects
    (check_depth), refused unless it is an object that names its format."""
    if isinstance(data, (str, bytes)):
        data = read_json(data, what, error, limits)
    else:
        check_depth(data, what, error, limits)
    if not isinstance(data, dict):
        raise error(f"a {what} must be a JSON object, not {type(data).__name__}")
    if "format" not in data:
        field = "state" if error is StateError else "log"
        raise error(f"{field} field 'format': missing (a {what} says which format it follows: "
                    f"{format_name!r})")
    return data


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
