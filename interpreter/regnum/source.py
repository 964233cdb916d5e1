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
    """Remembers the text of every loaded file so diagnostics can quote it.

    A file is split into lines once, at its first quotation, not once per diagnostic: a
    ruleset with thousands of warnings would otherwise cost time quadratic in its size.
    Lines end at "\n" only (a "\r" before it is dropped), as the parser counts them, so the
    quoted line is the one a diagnostic's line number means."""

    _texts: dict[str, str] = {}
    _lines: dict[str, list[str]] = {}

    @classmethod
    def remember(cls, file: str, text: str) -> None:
        cls._texts[file] = text
        cls._lines.pop(file, None)

    @classmethod
    def lines(cls, file: str) -> list[str] | None:
        """Every line of a remembered file (split once, then kept)."""
        lines = cls._lines.get(file)
        if lines is None:
            text = cls._texts.get(file)
            if text is None:
                return None
            lines = cls._lines[file] = _split(text)
        return lines

    @classmethod
    def line(cls, file: str, line: int) -> str | None:
        lines = cls.lines(file) if line >= 1 else None
        if lines is None or line > len(lines):
            return None
        return lines[line - 1]


def _split(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()   # the break that ends the last line does not start another
    return [line[:-1] if line.endswith("\r") else line for line in lines]
