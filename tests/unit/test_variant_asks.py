"""What a variant's asks offer: `remove action A` takes A out of the base's asks, an action
`offered with A` joins every ask that offers A, right after it; neither writes the flow again."""
from __future__ import annotations

from pathlib import Path

import pytest

import regnum

BASE = """\
game turns "Turns"
players 2..2
var rested: int = 0
flow:
    repeat 2 times:
        ask 0 to step or rest
action step(n in [1, 2]):
    add n to score(player)
action rest():
    add 1 to rested
"""


def load(tmp_path: Path, variant: str) -> regnum.Ruleset:
    (tmp_path / "turns.rules").write_text(BASE)
    (tmp_path / "v.rules").write_text('variant v of "turns.rules"\n' + variant)
    return regnum.load(str(tmp_path / "v.rules"))


def offered(rules) -> list[tuple[str, dict]]:
    game = rules.new_game(players=2, seed=0)
    return [(m.action, m.args) for m in game.legal_moves(0)]


def errors(tmp_path: Path, variant: str) -> list[tuple[str, str, str | None]]:
    with pytest.raises(regnum.RulesetError) as err:
        load(tmp_path, variant)
    return [(d.code, f"{Path(d.span.file).name}:{d.span.line}:{d.span.column}", d.hint)
            for d in err.value.diagnostics if d.is_error]


def test_an_action_offered_with_another_joins_its_asks_right_after_it(tmp_path):
    rules = load(tmp_path, "action leap():\n    offered with step\n    add 3 to score(player)\n"
                           "action hop():\n    offered with leap\n    add 4 to score(player)\n")
    assert offered(rules) == [("step", {"n": 1}), ("step", {"n": 2}), ("leap", {}), ("hop", {}), ("rest", {})]
    assert rules.warnings == []          # offered, so not "never offered to a player"
    game = rules.new_game(players=2, seed=0)
    game.play(regnum.Move(0, "hop", {}))
    game.play(regnum.Move(0, "leap", {}))
    assert game.scores == [7, 0] and game.is_over


def test_a_removed_action_leaves_the_asks_that_offered_it(tmp_path):
    rules = load(tmp_path, "remove action rest\n")
    assert offered(rules) == [("step", {"n": 1}), ("step", {"n": 2})]
    game = rules.new_game(players=2, seed=0)
    with pytest.raises(regnum.IllegalMove) as refused:
        game.play(regnum.Move(0, "rest", {}))
    assert str(refused.value.reason) == "'rest' is not possible now; P0 may step"


def test_an_ask_left_with_nothing_is_refused_at_the_remove_line(tmp_path):
    assert errors(tmp_path, "remove action step\nremove action rest\n") == [
        ("E508", "v.rules:2:15", "offer another action there: write the ask again, or declare one 'offered "
                                 "with' an action the ask still offers")]


def test_offered_with_an_unknown_or_removed_action(tmp_path):
    assert errors(tmp_path, "action leap():\n    offered with stepp\n    pass\n") == [
        ("E110", "v.rules:3:18", "did you mean 'step'?")]
    assert errors(tmp_path, "remove action rest\naction nap():\n    offered with rest\n    pass\n")[0] == \
        ("E110", "v.rules:4:18", "'rest' is removed by the variant at " + str(tmp_path / "v.rules") +
         ":2:1 (remove action rest); the base still uses it here")
    assert errors(tmp_path, "action nap():\n    offered with rested\n    pass\n")[0][:2] == ("E205", "v.rules:3:18")


def test_a_removed_name_the_base_still_uses_points_at_the_remove_line(tmp_path):
    found = errors(tmp_path, "remove var rested\n")
    assert found == [("E101", "turns.rules:10:14", "'rested' is removed by the variant at "
                      + str(tmp_path / "v.rules") + ":2:1 (remove var rested); the base still uses it here")]


def test_an_action_is_offered_with_one_action_only(tmp_path):
    found = errors(tmp_path, "action leap():\n    offered with step\n    offered with rest\n    pass\n")
    assert [code for code, _, _ in found] == ["E006"]
