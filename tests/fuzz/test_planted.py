"""`regnum fuzz` finds the faults planted in tests/fuzz/rulesets: each is caught, shrunk to
its known shortest game, saved as a log that `regnum replay` reproduces, and the rule that
never fires is reported by coverage. Each ruleset's header says what is planted."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import regnum
from regnum.cli import cli
from regnum.fuzz.playout import Settings
from regnum.fuzz.shrink import replay_choices, shrink

PLANTED = Path(__file__).resolve().parent / "rulesets"


def run(*args, code: int):
    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(cli, [str(a) for a in args])
    assert not (result.exception and not isinstance(result.exception, SystemExit)), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    return result


@pytest.fixture(autouse=True)
def in_planted(monkeypatch):
    """Run from the rulesets' folder, so that locations read `vanishing_gem.rules:28:1`."""
    monkeypatch.chdir(PLANTED)


def fuzzed(name: str, tmp_path: Path, code: int, *extra) -> dict:
    out = run("fuzz", f"{name}.rules", "--games", 60, "--seed", 0, "--workers", 1,
              "--failures-dir", tmp_path, "--json", *extra, code=code)
    return json.loads(out.stdout)


def test_a_gem_lost_after_a_rare_sequence_is_caught_shrunk_and_reproduced(tmp_path):
    report = fuzzed("vanishing_gem", tmp_path, 1)
    assert report["games"] == 60 and report["policies"] == {"random": 20, "rare": 20, "endgame": 20}
    [failure] = report["failures"]
    assert (failure["kind"], failure["check"]) == ("invariant", "gems_conserved")
    # The shortest game that loses a gem: 3 polishes end round 5, the 4th opens round 6.
    assert (failure["players"], failure["moves"], failure["reproduced"]) == (2, 11, True)
    assert failure["last_rule"] == ("P0 polish (vanishing_gem.rules:28:1); it ran "
                                    "branch:action:polish@30")
    log = json.loads(Path(failure["log"]).read_text())
    assert [m["action"] for m in log["moves"]][-4:] == ["polish"] * 4
    assert log["failure"] == {"kind": "invariant", "check": "gems_conserved", "move": 10,
                              "message": failure["message"]}
    replayed = run("replay", failure["log"], "--ruleset", "vanishing_gem.rules", code=1)
    assert "happens again: invariant 'gems_conserved' broken after move #10" in replayed.stdout + replayed.stderr


def test_the_shrinker_takes_a_long_failing_game_down_to_the_shortest(tmp_path):
    rules = regnum.load("vanishing_gem.rules")
    game = rules.new_game(players=2, seed=5)
    choices = []
    for action in ["rest"] * 12 + ["polish"] * 4:   # found late: four polishes in round 7
        legal = game.all_legal_moves()
        choices.append(next(i for i, m in enumerate(legal) if m.action == action))
        game.play(legal[choices[-1]])
    settings = Settings(bound=rules.move_bound)
    _, failure, _ = replay_choices(rules, 2, 5, choices, settings)
    assert (failure["kind"], failure["move"]) == ("invariant", 15)
    small = shrink(rules, 2, 5, choices, failure, settings)
    assert small.shrunk and small.players == 2 and len(small.choices) == 11
    _, again, moves = replay_choices(rules, 2, 5, small.choices, settings)
    assert again["move"] == 10 and [m.action for m in moves][-4:] == ["polish"] * 4
    assert shrink(rules, 2, 5, choices, failure, settings).choices == small.choices   # deterministic


def test_an_action_that_can_deadlock_is_caught_at_its_shortest(tmp_path):
    report = fuzzed("deadlock", tmp_path, 1)
    [failure] = report["failures"]
    # The shortest deadlock: P0 draws three cards, P1 draws the fourth and throws it away.
    assert (failure["kind"], failure["check"], failure["players"], failure["moves"]) == ("stuck", None, 2, 5)
    assert failure["message"] == "seat 1 must move but has no legal move (after 5 moves, game not over)"
    assert failure["reproduced"] and failure["others"] == 59
    # Nothing else is wrong with it, and the flow never reaches its end.
    assert [(c["kind"], c["rule"]) for c in report["coverage"] if c["hits"] == 0] == [("end", "flow")]
    run("replay", failure["log"], "--ruleset", "deadlock.rules", code=1)


def test_a_rule_that_never_fires_is_reported_by_coverage(tmp_path):
    report = fuzzed("dead_rule", tmp_path, 0)
    assert report["failures"] == []
    assert report["coverage"] == [
        {"kind": "action", "rule": "deposit", "location": "dead_rule.rules:16:1", "hits": 360},
        {"kind": "trigger", "rule": "jackpot", "location": "dead_rule.rules:19:1", "hits": 0},
        {"kind": "end", "rule": "flow", "location": "dead_rule.rules:12:1", "hits": 60},
    ]
    text = run("fuzz", "dead_rule.rules", "--games", 6, "--workers", 1, "--failures-dir", tmp_path,
               code=0).stdout
    assert "jackpot" in text and "dead_rule.rules:19:1" in text
    assert "warning: 1 rule(s) never reached" in text and "no failure" in text


def test_a_game_longer_than_its_bound_is_unending(tmp_path):
    text = Path("dead_rule.rules").read_text() + "ends within 5 moves\n"
    path = tmp_path / "short.rules"
    path.write_text(text)
    report = json.loads(run("fuzz", path, "--games", 3, "--workers", 1, "--failures-dir", tmp_path, "--json",
                            code=1).stdout)
    [failure] = report["failures"]
    assert (failure["kind"], failure["check"], failure["moves"]) == ("unending", "ends within 5 moves", 5)
    assert failure["message"] == ("the game is not over after 5 moves; the ruleset says every game ends "
                                  "within 5 moves")
    run("replay", failure["log"], "--ruleset", path, code=1)


@pytest.mark.parametrize("args, message", [
    (("--players", 4), "Vanishing gem is for 2–3 players, not 4"),
    (("--games", 0), "0 is not in the range x>=1"),
])
def test_bad_options_are_usage_errors(args, message):
    result = run("fuzz", "vanishing_gem.rules", *args, code=2)
    assert message in result.stderr


def test_a_time_budget_stops_new_games_but_plays_the_first(tmp_path):
    report = json.loads(run("fuzz", "dead_rule.rules", "--games", 500, "--time", "0.000001", "--workers", 1,
                            "--failures-dir", tmp_path, "--json", code=0).stdout)
    assert report["games"] == 1 and report["policies"] == {"random": 1, "rare": 0, "endgame": 0}
    assert report["coverage"][0] == {"kind": "action", "rule": "deposit", "location": "dead_rule.rules:16:1",
                                     "hits": 6}


def test_the_variant_that_stacks_nobles_but_keeps_one_noble_per_region_is_caught(tmp_path):
    """The issue's first example: Permanent Nobles without its `remove invariant` line passed
    check, simulate and play without a word."""
    variant = (Path(regnum.load("permanent_nobles").path).read_text()
               .replace('variant permanent_nobles of "../kings_road.rules"', "variant stacked of kings_road"))
    variant = variant[:variant.index("remove invariant one_noble_per_region")]
    path = tmp_path / "stacked.rules"
    path.write_text(variant)
    report = json.loads(run("fuzz", path, "--games", 4, "--workers", 1, "--shrink-time", 0,
                            "--failures-dir", tmp_path, "--json", code=1).stdout)
    [failure] = report["failures"]
    assert (failure["kind"], failure["check"], failure["reproduced"], failure["shrunk"]) == \
        ("invariant", "one_noble_per_region", True, False)
    assert (failure["seed"], failure["players"], failure["moves"]) == (2, 4, 93)
    run("replay", failure["log"], "--ruleset", path, code=1)


def test_a_fault_of_the_rules_is_caught_with_its_failing_move(tmp_path):
    # k grows by 1 or 2 a move; `points[k]` faults once k passes 6 (three moves at the least).
    path = tmp_path / "counting.rules"
    path.write_text("game counting \"Counting\"\nplayers 2..2\nvar k: int = 0\nflow:\n"
                    "    repeat until k >= 9:\n        ask 0 to step\n        ask 1 to step\n"
                    "action step(n in [1, 2]):\n    set k = k + n\n    let points = [0, 1, 2, 3, 4, 5, 6]\n"
                    "    add points[k] to score(player)\n")
    report = json.loads(run("fuzz", path, "--games", 3, "--workers", 1, "--failures-dir", tmp_path, "--json",
                            code=1).stdout)
    [failure] = report["failures"]
    assert (failure["kind"], failure["check"], failure["moves"], failure["others"]) == ("fault", "E902", 4, 2)
    log = json.loads(Path(failure["log"]).read_text())
    assert [m["args"]["n"] for m in log["moves"]] == [2, 2, 2, 1]   # k = 7 on the failing move
    assert log["failure"]["move"] == 3 and failure["message"].endswith("counting.rules:11:5: E902: no item 7 in [0, 1, 2, 3, 4, 5, 6]")
    assert failure["last_rule"] == f"P1 step ({path}:8:1)"   # refused with the fault: it ran nothing
    run("replay", failure["log"], "--ruleset", path, code=1)
