"""The Hypothesis example of docs/fuzzing.md runs as written: its strategies and state
machine are the public `regnum.testing` API."""
from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "fuzzing.md"


def _example() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) == 1, "docs/fuzzing.md has one Python example"
    return blocks[0]


namespace: dict = {}
exec(compile(_example(), "<docs/fuzzing.md>", "exec"), namespace)   # our own docs

test_a_copy_plays_like_the_game = namespace["test_a_copy_plays_like_the_game"]
TestKingsRoad = namespace["TestKingsRoad"]


def test_reachable_states_shrink_to_the_first_position_that_has_the_property():
    from hypothesis import find, settings
    from regnum.testing import reachable_states
    rules = namespace["rules"]
    middle = find(reachable_states(rules, players=[3], max_moves=40), lambda game: game.move_count >= 10,
                  settings=settings(max_examples=200, database=None, deadline=None))
    assert middle.move_count == 10 and middle.players == 3 and not middle.is_over
