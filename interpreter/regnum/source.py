"""Source files and spans: every AST node, diagnostic and refusal points back here.

Kept apart from diagnostics so the runtime can carry spans without importing
rendering code.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file, 1-based lines and columns, end exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        if self.line < 1:
            return self.file
        return f"{self.file}:{self.line}:{self.column}"

    @property
    def location(self) -> str:
        return str(self)


NO_SPAN = Span("<builtin>", 0, 0, 0, 0)


class SourceRegistry:
    """Remembers the text of every loaded file so diagnostics can quote it."""

    _texts: dict[str, str] = {}

    @classmethod
    def remember(cls, file: str, text: str) -> None:
        cls._texts[file] = text

    @classmethod
    def line(cls, file: str, line: int) -> str | None:
        text = cls._texts.get(file)
        if text is None or line < 1:
            return None
        lines = text.splitlines()
        return lines[line - 1] if line <= len(lines) else None
