"""A trigger whose condition reads only its zone's index and constants (`when c enters
place(s) where s.row == noble_row`) is judged once a zone (compiler `_of_the_zone_alone`,
`Trigger.known`, `Ctx._fire`): which conditions qualify, the games the same as when every
condition is judged at every piece, the answers kept per zone key, a condition that fails
never kept, and the bound on the zones kept."""
from __future__ import annotations

import pytest

import regnum
from regnum.agents import play_random_game
from regnum.diagnostics import RulesetError
from regnum.engine import runtime
from toy_rules import load   # tests/unit is on the path of its tests

TOWER = """
game tower "Tower"
players 2..2
enum colour: red, blue
const top = 3
const high = [2, 3]
board steps: pyramid
    rows = 3
piece stone:
    weight: int = 1
zone ground: public
zone step per steps: public
zone bin per colour: public
var log: list of str = []
var level: int = 1
setup:
    create 6 stone() in ground
flow:
    repeat 3 times:
        for p in players:
            ask p to climb
action climb(s in ground, at in [c for c in steps where c.row == level or c.row == level + 1]):
    move s to step(at)
    set level = if level < top then level + 1 else 1
trigger {name} when t enters {zone} where {cond}:
    set log = log + ["{name}"]
"""


def _tower(tmp_path, cond: str, zone: str = "step(s)", name: str = "watched"):
    return load(tmp_path, TOWER.replace("{cond}", cond).replace("{zone}", zone).replace("{name}", name),
                f"tower_{abs(hash(cond)) % 10**8}.rules")


@pytest.mark.parametrize(("cond", "alone"), [
    ("s.row == top", True),
    ("s.row in high and s.col == 0", True),
    ("not (s.row < top - 1) or s == \"(1,0)\"", True),
    ("if s.row == 1 then true else s.col > 0", True),
    ("t.weight == 1", False),                 # the piece
    ("s.row == level", False),                # a variable
    ("count(step(s)) == 1", False),           # a call, which may read the state
    ("s.row == top and t.weight > 0", False),
])
def test_which_conditions_are_judged_once_a_zone(tmp_path, cond, alone):
    rules = _tower(tmp_path, cond)
    (trigger,) = rules.model.triggers["step"]
    assert (trigger.known is not None) is alone


def test_an_enum_member_or_a_constant_named_as_the_piece_is_the_piece(tmp_path):
    rules = _tower(tmp_path, "k == red", zone="bin(k)")
    (trigger,) = rules.model.triggers["bin"]
    assert trigger.known is not None
    rules = load(tmp_path, TOWER.replace("{cond}", "top != none").replace("{zone}", "step(s)")
                 .replace("{name}", "shadowed").replace("when t enters", "when top enters"), "shadow.rules")
    (trigger,) = rules.model.triggers["step"]
    assert trigger.known is None   # `top` is the piece moved there, not the constant


def _without_known(rules):
    for triggers in list(rules.model.triggers.values()) + list(rules.model.leave_triggers.values()):
        for trigger in triggers:
            trigger.known = None
    return rules


@pytest.mark.parametrize("name", ["kings_kilt", "recruit"])
def test_the_games_are_those_judging_every_piece(name):
    def load_it():
        if name == "recruit":
            from pathlib import Path
            return regnum.load(Path(__file__).parents[2] / "rulesets" / "variants" / "recruit.rules")
        return regnum.load(name)
    rules = load_it()
    plain = _without_known(load_it())
    assert plain is not rules and all(t.known is not None for t in rules.model.triggers["place"])
    for seed in range(6):
        for players, coverage in ((4, False), (2, True)):
            a = play_random_game(rules, players, seed, coverage=coverage, narrate=True)
            b = play_random_game(plain, players, seed, coverage=coverage, narrate=True)
            assert (a.to_json(), a.hits, a.events, a.peak_steps) == (b.to_json(), b.hits, b.events, b.peak_steps)
    noblemen = next(t for t in rules.model.triggers["place"] if t.name == "noblemen")
    model = rules.model
    # What it keeps per zone is what the condition gives there.
    assert noblemen.known and all(type(v) is bool for v in noblemen.known.values())
    assert noblemen.known == {key: model.zones["place"].index_of[key].startswith("(4,")
                              for key in noblemen.known}


def test_the_answers_are_kept_per_zone_and_used(tmp_path):
    rules = _tower(tmp_path, "s.row == top")
    (trigger,) = rules.model.triggers["step"]
    judged = []
    cond = trigger.cond

    def counting(ctx, env):
        judged.append(env["s"])
        return cond(ctx, env)
    trigger.cond = counting
    for seed in range(5):
        game = play_random_game(rules, 2, seed)
        fired = sum(1 for line in game.state.vars["log"] if line == "watched")
        assert game.hits.get("trigger:watched", 0) == fired
        assert fired == sum(1 for i in game.state.where if i.startswith("step#(3,"))
    # Each cell judged once, however many stones entered it in five games.
    assert sorted(judged) == sorted(set(judged)) and len(judged) == len(trigger.known) >= 4
    assert trigger.known == {f"step#{cell}": cell.startswith("(3,") for cell in judged}


def test_a_condition_that_fails_is_not_kept_and_fails_again(tmp_path):
    rules = _tower(tmp_path, "top // (s.row - 1) > 0")   # at row 1: a division by zero
    (trigger,) = rules.model.triggers["step"]
    assert trigger.known is not None
    failed = 0
    for seed in range(4):
        game = rules.new_game(players=2, seed=seed)
        move = next(m for m in game.legal_moves(0) if m.args["at"].startswith("(1,"))
        for _ in range(2):
            with pytest.raises(RulesetError, match="divi"):
                game.play(move)
            failed += 1
        assert not any(key.startswith("step#(1,") for key in trigger.known)
    assert failed == 8


def test_past_the_bound_the_condition_is_judged_at_every_piece(tmp_path, monkeypatch):
    monkeypatch.setattr(runtime, "MOST_KNOWN_ZONES", 2)
    rules = _tower(tmp_path, "s.row == top")
    plain = _without_known(_tower(tmp_path, "s.row == top"))
    (trigger,) = rules.model.triggers["step"]
    for seed in range(4):
        a, b = play_random_game(rules, 2, seed), play_random_game(plain, 2, seed)
        assert a.to_json() == b.to_json() and a.hits == b.hits
    assert len(trigger.known) == 2
