"""Confinement on the command line (issue 7): `--rules-path`, rulesets refused unread, and the
rules a log names — found only as bundled rulesets or `.rules` files in allowed folders, and
replayed only when their hash is the log's."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import regnum
from regnum.cli import cli

SECRET = "SECRET-LINE-7f3a: hunter2"
DASH = """\
game dash "Dash"
players 2..2
const goal = 3
flow:
    let p = 0
    repeat until any(score(q) >= goal for q in players):
        ask p to run_ahead
        set p = (p + 1) % count(players)
action run_ahead(n in [1, 2]):
    add n to score(player)
winner p: highest score(p)
"""
LOG_NAMES = ("hint: a log names a bundled ruleset, or a .rules file in the log's folder or below it, or in a "
             "folder of --rules-path or REGNUM_RULES_PATH")


def run(*args, code: int = 0):
    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(cli, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"regnum {args} raised {result.exception!r}") from result.exception
    output = result.stdout + result.stderr
    assert "Traceback" not in output and SECRET not in output and "hunter2" not in output
    assert "root:" not in output
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    return result


@pytest.fixture(autouse=True)
def no_rules_path_from_outside(monkeypatch):
    monkeypatch.delenv("REGNUM_RULES_PATH", raising=False)


@pytest.fixture()
def tree(tmp_path, monkeypatch):
    """tmp/secret.rules, tmp/secret.txt (outside everything), tmp/bases/dash.rules, tmp/game/."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "secret.rules").write_text(SECRET + "\n", encoding="utf-8")
    (tmp_path / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    (tmp_path / "bases").mkdir()
    (tmp_path / "bases" / "dash.rules").write_text(DASH, encoding="utf-8")
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "long.rules").write_text('variant long of "dash.rules"\nconst goal = 4\n',
                                                 encoding="utf-8")
    return tmp_path


# ── check ──

@pytest.mark.parametrize("target", ["/etc/passwd", "/proc/self/environ", "secret.txt"])
def test_check_never_reads_a_file_that_is_not_a_ruleset(tree, target):
    result = run("check", target, code=1)
    assert result.stderr == f"error: {target} is not a ruleset file (.rules)\n"


def test_check_json_reports_the_refusal(tree):
    report = json.loads(run("check", "secret.txt", "--json", code=1).stdout)
    assert report["rulesets"][0]["diagnostics"][0]["message"] == "secret.txt is not a ruleset file (.rules)"


@pytest.mark.parametrize("base,message", [
    ('"/etc/passwd"', "variant base '/etc/passwd' is not a ruleset file (.rules)"),
    ('"../../../../etc/passwd"', "variant base '../../../../etc/passwd' is not a ruleset file (.rules)"),
    ('"/proc/self/environ"', "variant base '/proc/self/environ' is not a ruleset file (.rules)"),
    ('"../secret.rules"', "variant base '../secret.rules' is outside the variant's folder and the rules path"),
])
def test_check_refuses_a_variant_base_outside_with_a_located_error(tree, base, message):
    (tree / "game" / "v.rules").write_text(f"variant v of {base}\n", encoding="utf-8")
    result = run("check", "game/v.rules", code=1)
    assert result.stderr.startswith(f"game/v.rules:1:14: error[E507]: {message}\n"
                                    f" 1 | variant v of {base}\n"
                                    f"   |              {'^' * len(base)}\n")


def test_rules_path_option_and_environment_variable(tree, monkeypatch):
    result = run("check", "game/long.rules", code=1)
    assert "error[E503]: variant base 'dash.rules' not found" in result.stderr
    assert run("check", "game/long.rules", "--rules-path", "bases").stdout.startswith("ok: game/long.rules")
    monkeypatch.setenv("REGNUM_RULES_PATH", os.pathsep.join(["nowhere", str(tree / "bases")]))
    assert run("check", "game/long.rules").stdout.startswith("ok: game/long.rules")


def test_rules_path_must_be_a_folder(tree):
    result = run("check", "game/long.rules", "--rules-path", "nowhere", code=2)
    assert "'--rules-path'" in result.stderr and "does not exist" in result.stderr


def test_a_name_on_the_rules_path_is_a_ruleset_argument(tree):
    assert run("check", "dash", "--rules-path", "bases").stdout.startswith(f"ok: {tree / 'bases' / 'dash.rules'}")


def test_every_command_that_loads_a_ruleset_takes_the_rules_path(tree):
    run("play", "game/long.rules", "--rules-path", "bases", "--bots", "all", "--seed", "1", "--quiet-board")
    out = json.loads(run("simulate", "game/long.rules", "--rules-path", "bases", "--games", "4", "--jobs", "2",
                         "--json").stdout)
    assert len(out["games"]) == 4
    out = json.loads(run("bench", "game/long.rules", "--rules-path", "bases", "--games", "1", "--rounds", "1",
                         "--load-runs", "1", "-p", "2", "--json").stdout)
    assert out["results"][0]["ruleset"] == "long"
    run("replay", "--help")


# ── replay ──

def dash_log(tree: Path, rules_path=None, **changes) -> dict:
    rules = regnum.load(tree / "game" / "long.rules", rules_path=rules_path or [tree / "bases"])
    game = rules.new_game(2, seed=3)
    while not game.is_over:
        game.play(game.all_legal_moves()[0])
    return {**json.loads(game.log.to_json()), **changes}


def write_log(folder: Path, data: dict, name: str = "game.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("field", ["ruleset", "variant"])
@pytest.mark.parametrize("value", ["/etc/passwd", "../../../../etc/passwd", "/proc/self/environ"])
def test_a_log_naming_a_file_is_refused_unread(tree, field, value):
    log = {"format": "regnum-log/1", "ruleset": "kings_road", "ruleset_hash": regnum.load("kings_road").hash,
           "variant": None, "players": 2, "seed": 0, "moves": [], field: value}
    write_log(tree / "game", log)
    result = run("replay", "game/game.json", code=2)
    assert result.stderr == (f"game/game.json: log field '{field}': '{value}' is neither a ruleset name nor a "
                             f".rules path\n{LOG_NAMES}\n")


@pytest.mark.parametrize("value", ["../secret.rules", "SECRET"])
def test_a_log_naming_a_rules_file_outside_is_refused(tree, value):
    (tree / "game" / "SECRET.rules").symlink_to(tree / "secret.rules")
    write_log(tree / "game", dash_log(tree, variant=value))
    result = run("replay", "game/game.json", code=2)
    link = f" (it is a link to {(tree / 'secret.rules').resolve()})" if value == "SECRET" else ""
    assert result.stderr == (f"game/game.json: log field 'variant': '{value}' is outside the log's folder and "
                             f"the rules path{link}\n{LOG_NAMES}\n")


def test_a_log_names_its_variant_found_beside_it_or_through_the_rules_path(tree):
    data = dash_log(tree)
    assert (data["ruleset"], data["variant"]) == ("dash", "long")
    (tree / "logs").mkdir()
    write_log(tree / "logs", data)
    result = run("replay", "logs/game.json", code=2)
    assert result.stderr == ("logs/game.json: log field 'variant': no ruleset 'long' found: looked for long.rules "
                             "in logs and the bundled rulesets\n"
                             "hint: pass the ruleset with --ruleset, or its folder with --rules-path\n")
    replayed = run("replay", "logs/game.json", "--rules-path", "game", "--rules-path", "bases")
    assert replayed.stdout.startswith("logs/game.json: 7 legal moves of long\n")
    write_log(tree / "game", data)   # beside the variant, whose base is on the rules path
    assert run("replay", "game/game.json", "--rules-path", "bases").stdout.startswith(
        "game/game.json: 7 legal moves of long\n")


def test_a_log_may_name_a_rules_file_below_its_folder(tree):
    data = dash_log(tree, variant="rules/long.rules")
    (tree / "game" / "rules").mkdir()
    (tree / "game" / "long.rules").rename(tree / "game" / "rules" / "long.rules")
    write_log(tree / "game", data)
    result = run("replay", "game/game.json", "--rules-path", "bases", "--json")
    assert json.loads(result.stdout)["ok"] is True


def test_a_log_whose_hash_differs_is_refused_naming_both(tree):
    data = dash_log(tree)
    write_log(tree / "game", {**data, "ruleset_hash": "0123456789abcdef"})
    actual = regnum.load(tree / "game" / "long.rules", rules_path=[tree / "bases"]).hash
    assert actual == data["ruleset_hash"]
    result = run("replay", "game/game.json", "--rules-path", "bases", code=2)
    assert result.stderr == ("game/game.json: log field 'ruleset_hash': the log was made with rules of hash "
                             f"0123456789abcdef; game/long.rules has hash {actual}\n"
                             "hint: replay it anyway with --any-version, or pass the right rules with --ruleset\n")
    failure = json.loads(run("replay", "game/game.json", "--rules-path", "bases", "--json", code=2).stdout)
    assert failure["error"]["kind"] == "ruleset_hash"
    run("replay", "game/game.json", "--rules-path", "bases", "--any-version")


def test_a_log_takes_the_file_whose_hash_is_its_own(tree):
    """A stale copy beside the log does not hide the rules the game was played with."""
    data = dash_log(tree)
    (tree / "game" / "long.rules").rename(tree / "bases" / "long.rules")
    (tree / "game" / "long.rules").write_text('variant long of "dash.rules"\nconst goal = 5\n', encoding="utf-8")
    write_log(tree / "game", data)
    assert run("replay", "game/game.json", "--rules-path", "bases").stdout.startswith(
        "game/game.json: 7 legal moves of long\n")


def test_a_log_of_a_bundled_variant_replays(tree):
    rules = regnum.load("permanent_nobles")
    game = rules.new_game(2, seed=5)
    for _ in range(12):
        game.play(game.all_legal_moves()[0])
    path = write_log(tree / "game", json.loads(game.log.to_json()))
    assert json.loads(path.read_text())["variant"] == "permanent_nobles"
    result = run("replay", path, "--json")
    assert json.loads(result.stdout)["moves"] == 12


def test_a_log_of_a_bundled_ruleset_whose_hash_differs_names_both(tree):
    log = {"format": "regnum-log/1", "ruleset": "kings_road", "ruleset_hash": "0123456789abcdef",
           "players": 2, "seed": 0, "moves": []}
    write_log(tree, log)
    bundled = regnum.load("kings_road")
    result = run("replay", "game.json", code=2)
    assert result.stderr.startswith("game.json: log field 'ruleset_hash': the log was made with rules of hash "
                                    f"0123456789abcdef; ")
    assert result.stderr.split("\n")[0].endswith(f"kings_road.rules has hash {bundled.hash}")
