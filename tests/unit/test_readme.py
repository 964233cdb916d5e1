"""The README's Python example runs as printed."""
from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_python_example_runs(capsys):
    text = README.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    game, replayed = namespace["game"], namespace["replayed"]
    assert game.is_over and replayed == game
    assert max(game.scores) >= 40


def test_the_tutorial_python_example_runs():
    text = (README.parent / "docs" / "tutorial.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    namespace: dict = {}
    exec(compile(code, "docs/tutorial.md", "exec"), namespace)
    assert namespace["game"].is_over
