"""Golden diagnostics: each `NAME.rules` here sits next to `NAME.expected`, what loading it prints.

Regenerate every `.expected` after a deliberate change, then review the diff:

    python tests/golden/update.py            # all goldens
    python tests/golden/update.py E101 W4    # those whose name starts so

A golden ruleset is small and complete (players, flow…) so that only the
diagnostics it is about appear; an inline comment `# error: E101` or
`# warning: W401` on the offending line says which (tests/unit/test_checker.py
checks both the comments and the `.expected` text). Paths in the output are
relative to the repository root, so the output is the same from any checkout.
"""
from __future__ import annotations

import os
import re
import sys
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXPECTATION = re.compile(r"\b(error|warning):\s*([EW]\d{3})\b")

try:
    import regnum
except ImportError:  # run from a checkout without an installed package
    sys.path.insert(0, str(ROOT / "interpreter"))
    import regnum

from regnum.diagnostics import render_all  # noqa: E402


def golden_files() -> list[Path]:
    return sorted(HERE.glob("*.rules"))


@contextmanager
def at_root():
    before = os.getcwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(before)


def diagnostics(path: Path) -> list:
    """Every diagnostic of a golden ruleset: all of them when it fails to load, else its warnings."""
    with at_root():
        try:
            return list(regnum.load(path.relative_to(ROOT).as_posix()).warnings)
        except regnum.RulesetError as err:
            return list(err.diagnostics)


def render(path: Path) -> str:
    text = render_all(diagnostics(path))
    return text + "\n" if text else ""


def expectations(path: Path) -> set[tuple[int, str, str]]:
    """(line, severity, code) of every inline `# error: CODE` / `# warning: CODE` comment."""
    found = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if "#" not in line:
            continue
        comment = line[line.index("#"):]
        for severity, code in EXPECTATION.findall(comment):
            found.add((number, severity, code))
    return found


def main(argv: list[str]) -> int:
    prefixes = argv or [""]
    changed = 0
    for path in golden_files():
        if not any(path.stem.startswith(p) for p in prefixes):
            continue
        expected = path.with_suffix(".expected")
        text = render(path)
        if not expected.exists() or expected.read_text(encoding="utf-8") != text:
            expected.write_text(text, encoding="utf-8")
            changed += 1
            print(f"updated {expected.relative_to(ROOT)}")
    print(f"{changed} golden file(s) changed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
