"""Where the checker's walkers put what they find: diagnostics and facts.

A Report collects diagnostics plus the facts later passes need (which
declaration names which, which rules run which, where players are asked).
A quiet Report drops everything: the walkers use one to infer the type of a
definition or constant without reporting its errors twice.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic


@dataclass
class Facts:
    refs: set = field(default_factory=set)       # (origin, name): `origin` names `name`
    runs: list = field(default_factory=list)     # (origin, target, span, in_simultaneous)
    asks: list = field(default_factory=list)     # (origin, span, in_simultaneous, action names)
    spawns: list = field(default_factory=list)   # (origin, span, in_simultaneous): simultaneously
    moves: list = field(default_factory=list)    # (dest family | None, piece types | None)
    expects: dict = field(default_factory=dict)  # origin -> {parameter: the type its body needs}


class Report:
    quiet = False

    def __init__(self):
        self.diagnostics: list[Diagnostic] = []
        self.facts = Facts()
        self.origin = ""          # "kind:name" of the declaration being walked
        self._seen: set = set()

    def error(self, code: str, message: str, span, hint: str | None = None) -> None:
        self._add(Diagnostic(code, "error", message, span, hint))

    def warning(self, code: str, message: str, span, hint: str | None = None) -> None:
        self._add(Diagnostic(code, "warning", message, span, hint))

    def _add(self, d: Diagnostic) -> None:
        key = (d.code, d.span, d.message)
        if key not in self._seen:
            self._seen.add(key)
            self.diagnostics.append(d)

    def ref(self, name: str) -> None:
        self.facts.refs.add((self.origin, name))

    def run(self, target: str, span, in_simultaneous: bool) -> None:
        self.facts.runs.append((self.origin, target, span, in_simultaneous))

    def ask(self, span, in_simultaneous: bool, actions: tuple) -> None:
        self.facts.asks.append((self.origin, span, in_simultaneous, actions))

    def spawn(self, span, in_simultaneous: bool) -> None:
        self.facts.spawns.append((self.origin, span, in_simultaneous))

    def move(self, family: str | None, pieces) -> None:
        self.facts.moves.append((family, pieces))

    def expect(self, param: str, want) -> None:
        self.facts.expects.setdefault(self.origin, {}).setdefault(param, want)


class QuietReport(Report):
    quiet = True

    def _add(self, d: Diagnostic) -> None:
        pass

    def ref(self, name: str) -> None:
        pass

    def run(self, target: str, span, in_simultaneous: bool) -> None:
        pass

    def ask(self, span, in_simultaneous: bool, actions: tuple) -> None:
        pass

    def spawn(self, span, in_simultaneous: bool) -> None:
        pass

    def move(self, family, pieces) -> None:
        pass

    def expect(self, param: str, want) -> None:
        pass
