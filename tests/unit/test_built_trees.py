"""Syntax trees kept by build_module: loading a ruleset again in the same process reuses the
tree of a text already built (parsing is most of a warm load), within a budget of characters,
and a ruleset's messages still quote its lines."""
from __future__ import annotations

import pytest

import regnum
from regnum import build
from regnum.limits import DEFAULT as DEFAULT_LIMITS

GAME = '''game tiny "Tiny"
players 2..2
var n: int = 0
flow:
    set n = [1][n + 5]
'''


def test_the_same_text_gives_the_same_tree_and_another_text_another():
    first = build.build_module(GAME, "tiny.rules")
    assert build.build_module(GAME, "tiny.rules") is first
    assert build.build_module(GAME.replace("0", "2"), "tiny.rules") is not first
    assert build.build_module(GAME, "other.rules") is not first
    assert build.build_module(GAME, "tiny.rules", DEFAULT_LIMITS.with_overrides(["nesting=30"])) is not first


def test_a_ruleset_loaded_again_still_quotes_its_lines(tmp_path):
    path = tmp_path / "tiny.rules"
    path.write_text(GAME)
    for _ in range(2):   # the second load reuses the tree
        with pytest.raises(regnum.RulesetError) as err:
            regnum.load(str(path)).new_game(players=2, seed=1)
        assert "set n = [1][n + 5]" in str(err.value) and "5 |" in str(err.value)


def test_the_oldest_trees_go_first_beyond_the_budget(monkeypatch):
    monkeypatch.setattr(build, "_BUILT", type(build._BUILT)())
    monkeypatch.setattr(build, "_built_size", 0)
    monkeypatch.setattr(build, "_BUILT_CHARACTERS", 2 * len(GAME) + 10)
    texts = [GAME.replace("0", str(i)) for i in range(3)]
    trees = [build.build_module(t, "tiny.rules") for t in texts]
    assert [key[1] for key in build._BUILT] == texts[1:] and build._built_size == 2 * len(GAME)
    assert build.build_module(texts[2], "tiny.rules") is trees[2]
    assert build.build_module(texts[0], "tiny.rules") is not trees[0]   # built again
