"""Moves and refusals: the public Move value and the IllegalMove error."""
from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Move:
    """A decision: seat `player` takes `action` with JSON-valued `args`."""

    player: int
    action: str
    args: dict = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.player, self.action, json.dumps(self.args, sort_keys=True, default=repr)))

    def __str__(self) -> str:
        if not isinstance(self.args, dict):
            return f"P{self.player} {self.action}({self.args!r})"
        inner = ", ".join(f"{k}={json.dumps(v, default=repr)}" for k, v in self.args.items())
        return f"P{self.player} {self.action}({inner})"

    def to_dict(self) -> dict:
        return {"player": self.player, "action": self.action, "args": dict(self.args)}

    @classmethod
    def from_dict(cls, data: dict) -> "Move":
        return cls(int(data["player"]), str(data["action"]), dict(data.get("args") or {}))


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
