"""Diagnostics: what the checker and parser say, rendered like a compiler.

Every message carries a code from docs/errors.md, a span and, where a name
was misspelt, a suggestion taken from the symbol table.
"""
from __future__ import annotations

import difflib
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Iterable

from .source import NO_SPAN, SourceRegistry, Span
from .terminal import safe


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    severity: str  # "error" | "warning"
    message: str
    span: Span = NO_SPAN
    hint: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def render(self) -> str:
        # The message and the excerpt quote the ruleset, which may hold characters that drive
        # a terminal; `safe` keeps each in place, so the caret still points right.
        head = safe(f"{self.span}: {self.severity}[{self.code}]: {self.message}")
        lines = [head]
        text = SourceRegistry.line(self.span.file, self.span.line)
        if text is not None:
            number = str(self.span.line)
            pad = " " * len(number)
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                width = self.span.end_column - self.span.column
            shown, column, width = _excerpt(text, self.span.column - 1, width)
            lines.append(f" {number} | {safe(shown)}")
            lines.append(f" {pad} | {' ' * column}{'^' * width}")
        if self.hint:
            lines.append(safe(f"hint: {self.hint}"))
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "hint": self.hint,
        }


EXCERPT_WIDTH = 160   # characters of a source line quoted under a diagnostic


def _excerpt(text: str, column: int, width: int) -> tuple[str, int, int]:
    """(the part of a line to quote, the caret's column in it, the caret's width): a line
    longer than EXCERPT_WIDTH is cut to a window around the caret, marked with "…" where it
    was cut, so that a ruleset of one huge line cannot fill the terminal."""
    if len(text) <= EXCERPT_WIDTH:
        return text, column, width
    start = max(0, min(column - EXCERPT_WIDTH // 4, len(text) - EXCERPT_WIDTH))
    end = start + EXCERPT_WIDTH
    shown = ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")
    caret = column - start + (1 if start else 0)
    return shown, caret, max(1, min(width, end - column))


def render_all(diagnostics: Iterable[Diagnostic]) -> str:
    return "\n\n".join(d.render() for d in diagnostics)


# Comparisons "did you mean" may still make while checking one ruleset (None: no bound).
# Each unknown name is compared with every known one: thousands of mistakes in a ruleset of
# thousands of names would cost minutes, so past this many the hints stop; errors do not.
_SUGGESTIONS: ContextVar[list[int] | None] = ContextVar("suggestions", default=None)
SUGGESTION_BUDGET = 300_000


@contextmanager
def suggestion_budget(comparisons: int = SUGGESTION_BUDGET):
    token = _SUGGESTIONS.set([comparisons])
    try:
        yield
    finally:
        _SUGGESTIONS.reset(token)


def suggesting() -> bool:
    """Whether did_you_mean may still compare (so a caller can spare gathering candidates)."""
    budget = _SUGGESTIONS.get()
    return budget is None or budget[0] > 0


# True while the hints asked for are dropped unread (the checker's quiet walks: quietly()).
_QUIET: ContextVar[bool] = ContextVar("quiet_hints", default=False)


@contextmanager
def quietly():
    """Within, did_you_mean spends its budget as it would and finds no hint: the walks that
    drop what they find (the checker's fixpoint) spared the comparisons."""
    token = _QUIET.set(True)
    try:
        yield
    finally:
        _QUIET.reset(token)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest known name, or None when nothing is close."""
    if not suggesting():
        return None
    candidates = sorted(set(candidates))
    budget = _SUGGESTIONS.get()
    if budget is not None:
        budget[0] -= len(candidates)
        if budget[0] < 0:
            return None
    if _QUIET.get():
        return None
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


class RulesetError(Exception):
    """A ruleset that cannot be loaded or run; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__(render_all(self.diagnostics))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]


class LimitExceeded(RulesetError):
    """A ruleset ran past a step or size limit (a runaway loop or growth)."""

    def __init__(self, message: str, span: Span, hint: str | None = None):
        super().__init__([Diagnostic("E901", "error", message, span, hint)])
