"""Moves and refusals: the public Move value and the IllegalMove error."""
from __future__ import annotations

import json
from dataclasses import dataclass, field


# The text a move's arguments are hashed by: json.dumps(args, sort_keys=True, default=repr),
# from one encoder (dumps makes one at every call, most of a hash's cost).
_ARGS_TEXT = json.JSONEncoder(sort_keys=True, default=repr)


@dataclass(frozen=True, slots=True)
class Move:
    """A decision: seat `player` takes `action` with JSON-valued `args`."""

    player: int
    action: str
    args: dict = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.player, self.action, _ARGS_TEXT.encode(self.args)))

    def __str__(self) -> str:
        if not isinstance(self.args, dict):
            return f"P{self.player} {self.action}({self.args!r})"
        inner = ", ".join(f"{k}={_show(v)}" for k, v in self.args.items())
        return f"P{self.player} {self.action}({inner})"

    def to_dict(self) -> dict:
        return {"player": self.player, "action": self.action, "args": dict(self.args)}

    @classmethod
    def from_dict(cls, data: dict) -> "Move":
        """A move from its JSON form, refusing (ValueError) a seat that is not a whole number:
        `true` or `1.0` would compare equal to seat 1 and be written back differently."""
        player, action, args = data["player"], data["action"], data.get("args", {})
        if type(player) is not int or type(action) is not str or type(args) is not dict:
            raise ValueError(f"a move is {{\"player\": seat, \"action\": name, \"args\": {{…}}}}, not {data!r}")
        return cls(player, action, dict(args))


# What Move(player, action, args) does, without its frozen dataclass __init__ (which sets each
# field by name through object.__setattr__): the object made, each slot set by its descriptor
# (tests/unit/test_engine_fixed_cost.py compares the two).
_new_move = object.__new__
_set_player, _set_action, _set_args = Move.player.__set__, Move.action.__set__, Move.args.__set__


def made_move(player: int, action: str, args: dict) -> Move:
    """Move(player, action, args) with its slots set directly, no checks: for values that are
    a move's already (a listing's; a saved game's, read and checked). The game keeps moves
    made so, its own: a caller who changes a move it played changes neither the log nor the
    saved game."""
    move = _new_move(Move)
    _set_player(move, player)
    _set_action(move, action)
    _set_args(move, args)
    return move


def _show(value) -> str:
    """An argument as JSON; a value too deep to print (a hostile move) as an ellipsis."""
    try:
        return json.dumps(value, default=repr)
    except (RecursionError, ValueError):
        return "…"


class IllegalMove(Exception):
    """A move the rules forbid. Names the rule and where it is written; the state is unchanged."""

    def __init__(self, move: Move, reason: str, rule: str | None = None, location: str | None = None,
                 index: int | None = None):
        self.move = move
        self.reason = reason
        self.rule = rule
        self.location = location
        self.index = index
        super().__init__(self._text())

    def _text(self) -> str:
        text = f"illegal move {self.move}: {self.reason}"
        if self.rule:
            text += f" (rule '{self.rule}'"
            text += f" at {self.location})" if self.location else ")"
        return text

    def __str__(self) -> str:
        return self._text()
