"""Failures are reproducible everywhere: `simulate` and `play` save the log of a game that faults,
breaks an invariant or gets stuck, up to and including the failing move, and `replay` of that
log meets the same failure again and exits 1 (docs/log-format.md, "Failed games")."""
from __future__ import annotations

import json
import textwrap

import pytest

import regnum
from regnum import resources
from regnum.failures import reproduce
from test_cli import one_json_object, run
from test_limits_cli import LOOPING

# k grows by 1 or 2 per move; `points[k]` faults once k passes 6, and the invariant breaks
# when k is 5. Seeds 5 and 7 end cleanly (k goes 2, 4, 6).
COUNTING = """
game f "F"
players 2..2
var k: int = 0
flow:
    repeat until k >= 6:
        ask 0 to step
        ask 1 to step
action step(n in [1, 2]):
    set k = k + n
    let points = [0, 1, 2, 3, 4, 5, 6]
    add points[k] to score(player)
invariant not_five: k != 5 else "k never equals 5"
"""

# Once k is 2, no step is allowed: the game waits for a move nobody can make.
STUCK = """
game s "S"
players 2..2
var k: int = 0
flow:
    repeat until k >= 6:
        ask 0 to step
        ask 1 to step
action step(n in [x for x in [1, 2] where k + x != 3 and k + x != 4]):
    set k = k + n
"""

# The setup draws 0, 1 or 2 and indexes a list of two: seed 4 draws 2.
SETUP = """
game u "U"
players 2..2
var k: int = 0
flow:
    set k = random one of [0, 1, 2]
    let sizes = [1, 2]
    add sizes[k] to score(0)
    ask 0 to step
action step():
    pass
"""


def _write(tmp_path, text: str, name: str):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


@pytest.fixture()
def counting(tmp_path):
    return _write(tmp_path, COUNTING, "counting.rules")


def _simulate(path, folder, *extra, games="8", code=1):
    result = run("simulate", path, "--games", games, "--jobs", "1", "--json", "--failures-dir", folder,
                 *extra, code=code)
    return one_json_object(result.stdout)["games"]


def _moves(*steps):
    return [{"player": i % 2, "action": "step", "args": {"n": n}} for i, n in enumerate(steps)]


# ── simulate ──

def test_simulate_saves_the_log_of_each_failed_game_and_names_it(tmp_path, counting):
    folder = tmp_path / "failed"
    games = _simulate(counting, folder)
    assert [(g["seed"], g["moves"], g["log"]) for g in games] == [
        (0, 5, f"{folder}/f-seed0.json"), (1, 5, f"{folder}/f-seed1.json"), (2, 3, f"{folder}/f-seed2.json"),
        (3, 3, f"{folder}/f-seed3.json"), (4, 3, f"{folder}/f-seed4.json"), (5, 4, None),
        (6, 3, f"{folder}/f-seed6.json"), (7, 4, None)]
    assert games[5]["winners"] == [1] and games[5]["error"] is None
    assert sorted(p.name for p in folder.iterdir()) == [
        "f-seed0.json", "f-seed1.json", "f-seed2.json", "f-seed3.json", "f-seed4.json", "f-seed6.json"]
    # Seed 2: k goes 2, 4, 5, then 7: the fourth move faults, and is the log's last.
    log = json.loads((folder / "f-seed2.json").read_text())
    assert log["moves"] == _moves(2, 2, 1, 2)
    assert log["result"] is None
    assert log["failure"] == {"kind": "fault", "check": "E902", "move": 3,
                              "message": f"{counting}:11:5: E902: no item 7 in [0, 1, 2, 3, 4, 5, 6]"}
    assert games[2]["error"] == log["failure"]["message"]


def test_simulate_table_names_the_saved_logs(tmp_path, counting):
    folder = tmp_path / "failed"
    table = run("simulate", counting, "--games", "3", "--jobs", "1", "--failures-dir", folder, code=1).stdout
    lines = [line.rstrip() for line in table.splitlines()]
    assert f"    log: {folder}/f-seed2.json" in lines
    assert "failed (no winner): 3 games" in lines
    assert lines[-1] == (f"logs of the failed games saved in {folder}: `regnum replay LOG --ruleset {counting}` "
                         "reproduces each failure")


def test_the_failures_folder_is_made_only_when_a_game_fails(tmp_path):
    folder = tmp_path / "failed"
    stuck_free = _write(tmp_path, COUNTING.replace("points[k]", "points[k % 7]"), "fine.rules")
    games = _simulate(stuck_free, folder, code=0)
    assert [g["log"] for g in games] == [None] * 8
    assert not folder.exists()


def test_replay_of_a_saved_fault_meets_it_again_and_exits_1(tmp_path, counting):
    folder = tmp_path / "failed"
    _simulate(counting, folder, games="3")
    replayed = run("replay", folder / "f-seed2.json", "--ruleset", counting, code=1)
    assert replayed.stdout == ""
    assert replayed.stderr.splitlines() == [
        f"{folder}/f-seed2.json: the failure the log records happens again: a fault (E902) at move #3",
        f"{counting}:11:5: error[E902]: no item 7 in [0, 1, 2, 3, 4, 5, 6]",
        " 11 |     add points[k] to score(player)",
        "    |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"]
    data = one_json_object(run("replay", folder / "f-seed2.json", "--ruleset", counting, "--json", code=1).stdout)
    assert data == {"ok": False, "error": {
        "kind": "fault", "message": f"{counting}:11:5: E902: no item 7 in [0, 1, 2, 3, 4, 5, 6]", "check": "E902",
        "index": 3, "location": f"{counting}:11:5", "reproduced": True}}


def test_check_invariants_fails_a_game_at_the_move_that_breaks_one(tmp_path, counting):
    folder = tmp_path / "failed"
    games = _simulate(counting, folder, "--check-invariants")
    broken = f"the state breaks invariant not_five: k never equals 5 ({counting}:12:1)"
    assert [(g["seed"], g["moves"], g["error"]) for g in games if g["error"]] == [
        (0, 4, broken), (1, 4, broken), (2, 3, broken), (3, 3, broken),
        (4, 3, f"{counting}:11:5: E902: no item 7 in [0, 1, 2, 3, 4, 5, 6]"), (6, 3, broken)]
    # Seed 2 breaks it at its third move (k goes 2, 4, 5), which is the log's last; seed 4
    # (k goes 2, 4, 6, 7) faults and never breaks it.
    log = json.loads((folder / "f-seed2.json").read_text())
    assert log["moves"] == _moves(2, 2, 1)
    assert log["failure"] == {"kind": "invariant", "check": "not_five", "move": 2, "message": broken}
    replayed = run("replay", folder / "f-seed2.json", "--ruleset", counting, code=1)
    assert replayed.stderr.splitlines() == [
        f"{folder}/f-seed2.json: the failure the log records happens again: invariant 'not_five' broken "
        "after move #2", broken]
    data = one_json_object(run("replay", folder / "f-seed2.json", "--ruleset", counting, "--json", code=1).stdout)
    assert data["error"] == {"kind": "invariant", "message": broken, "check": "not_five", "index": 2,
                             "location": f"{counting}:12:1", "reproduced": True}


def test_without_check_invariants_simulate_does_not_check_them(tmp_path, counting):
    games = _simulate(counting, tmp_path / "failed")
    assert {g["error"].split(" in ")[0] for g in games if g["error"]} == {
        f"{counting}:11:5: E902: no item 7", f"{counting}:11:5: E902: no item 8"}


def test_workers_save_the_same_logs_as_one_process(tmp_path, counting):
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    one = _simulate(counting, serial, "--check-invariants", games="6")
    two = one_json_object(run("simulate", counting, "--games", "6", "--jobs", "2", "--json", "--check-invariants",
                              "--failures-dir", parallel, code=1).stdout)["games"]
    assert [g["log"] for g in two] == [None if g["log"] is None else g["log"].replace(str(serial), str(parallel))
                                       for g in one]
    assert [{k: v for k, v in g.items() if k != "log"} for g in two] == [
        {k: v for k, v in g.items() if k != "log"} for g in one]
    files = sorted(p.name for p in serial.iterdir())
    assert files == sorted(p.name for p in parallel.iterdir()) == [
        "f-seed0.json", "f-seed1.json", "f-seed2.json", "f-seed3.json", "f-seed4.json"]
    assert all((serial / name).read_bytes() == (parallel / name).read_bytes() for name in files)


def test_a_stuck_game_is_saved_after_its_last_move(tmp_path):
    path = _write(tmp_path, STUCK, "stuck.rules")
    folder = tmp_path / "failed"
    games = _simulate(path, folder, games="1")
    message = "seat 0 must move but has no legal move (after 2 moves, game not over)"
    assert games[0]["error"] == message
    log = json.loads((folder / "s-seed0.json").read_text())
    assert log["moves"] == _moves(1, 1)
    assert log["failure"] == {"kind": "stuck", "check": None, "move": None, "message": message}
    replayed = run("replay", folder / "s-seed0.json", "--ruleset", path, code=1)
    assert replayed.stderr.splitlines() == [
        f"{folder}/s-seed0.json: the failure the log records happens again: a stuck game after move #1", message]


def test_a_setup_that_faults_is_saved_with_no_move(tmp_path):
    path = _write(tmp_path, SETUP, "setup.rules")
    folder = tmp_path / "failed"
    games = _simulate(path, folder, games="6")
    assert [g["seed"] for g in games if g["error"]] == [4]
    log = json.loads((folder / "u-seed4.json").read_text())
    assert (log["seed"], log["moves"], log["failure"]) == (4, [], {
        "kind": "fault", "check": "E902", "move": None, "message": f"{path}:7:5: E902: no item 2 in [1, 2]"})
    replayed = run("replay", folder / "u-seed4.json", "--ruleset", path, code=1)
    assert replayed.stderr.splitlines()[:2] == [
        f"{folder}/u-seed4.json: the failure the log records happens again: a fault (E902) in the setup",
        f"{path}:7:5: error[E902]: no item 2 in [1, 2]"]


# ── replay of a log whose failure does not happen again ──

def test_a_recorded_failure_that_does_not_happen_again_is_reported(tmp_path, counting):
    folder = tmp_path / "failed"
    _simulate(counting, folder, games="3")
    log = json.loads((folder / "f-seed2.json").read_text())
    log["moves"][3]["args"]["n"] = 1   # k goes to 6, not 7: the game ends
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(log))
    recorded = f"{counting}:11:5: E902: no item 7 in [0, 1, 2, 3, 4, 5, 6]"
    message = (f"the failure the log records does not happen again: it records a fault (E902) at move #3 "
               f"({recorded}); replaying it, all 4 moves are accepted and the game goes on")
    replayed = run("replay", edited, "--ruleset", counting, code=1)
    assert replayed.stderr.splitlines() == [f"{edited}: {message}"]
    data = one_json_object(run("replay", edited, "--ruleset", counting, "--json", code=1).stdout)
    assert data == {"ok": False, "error": {
        "kind": "not_reproduced", "message": message, "reproduced": False, "observed": None,
        "expected": {"kind": "fault", "check": "E902", "move": 3, "message": recorded}}}
    # Failing at another move is another failure. Seed 0: k goes 1, 2, 4, 5, 6, then 8 at move #5;
    # with 2 at move #4, k is 7 there.
    log = json.loads((folder / "f-seed0.json").read_text())
    assert [m["args"]["n"] for m in log["moves"]] == [1, 1, 2, 1, 1, 2]
    log["moves"][4]["args"]["n"] = 2
    edited.write_text(json.dumps(log))
    error = one_json_object(run("replay", edited, "--ruleset", counting, "--json", code=1).stdout)["error"]
    assert (error["kind"], error["expected"]["move"], error["observed"]) == ("not_reproduced", 5, {
        "kind": "fault", "check": "E902", "move": 4, "message": f"{counting}:11:5: E902: no item 7 in [0, 1, 2, 3, 4, 5, 6]"})
    # A move before the failure that the rules refuse: the log is wrong, as for any log.
    log["moves"][3]["args"]["n"] = 2   # k goes 1, 2, 4, 6: the game is over after move #3
    edited.write_text(json.dumps(log))
    refused = run("replay", edited, "--ruleset", counting, code=1)
    assert refused.stderr.splitlines() == [
        "move #4: illegal move P0 step(n=2): P0 is not to move; waiting for nobody (the game is over) "
        f"(rule 'flow' at {counting}:4:1)"]


def test_a_failure_record_that_does_not_fit_its_moves_is_an_invalid_log(tmp_path, counting):
    folder = tmp_path / "failed"
    _simulate(counting, folder, games="3")
    log = json.loads((folder / "f-seed2.json").read_text())
    log["failure"]["move"] = 1
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(log))
    refused = run("replay", edited, "--ruleset", counting, code=2)
    assert refused.stderr.splitlines() == [
        f"{edited}: invalid log: log field 'failure': move #1 is not the failing move: that is the last move, #3"]
    log["failure"].update(kind="stuck", check="E902", move=None)
    edited.write_text(json.dumps(log))
    refused = run("replay", edited, "--ruleset", counting, code=2)
    assert refused.stderr.splitlines() == [
        f"{edited}: invalid log: log field 'failure.check': a stuck game names no check (null)"]


# ── play ──

def test_play_log_keeps_the_failing_move_and_replay_meets_the_fault_again(tmp_path, counting):
    log_file = tmp_path / "game.json"
    played = run("play", counting, "--bots", "all", "--seed", "2", "--quiet-board", "--log", log_file, code=1)
    assert played.stderr.splitlines() == [
        f"{counting}:11:5: error[E902]: no item 7 in [0, 1, 2, 3, 4, 5, 6]",
        " 11 |     add points[k] to score(player)",
        "    |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        f"log with the failing move saved to {log_file} (`regnum replay` of it reproduces the failure)"]
    log = json.loads(log_file.read_text())
    assert log["moves"] == _moves(2, 2, 1, 2)
    assert log["failure"]["move"] == 3
    replayed = run("replay", log_file, "--ruleset", counting, code=1)
    assert replayed.stderr.splitlines()[:2] == [
        f"{log_file}: the failure the log records happens again: a fault (E902) at move #3",
        f"{counting}:11:5: error[E902]: no item 7 in [0, 1, 2, 3, 4, 5, 6]"]


def test_play_check_invariants_stops_at_the_broken_one_and_saves_the_log(tmp_path, counting):
    log_file = tmp_path / "game.json"
    played = run("play", counting, "--bots", "all", "--seed", "2", "--quiet-board", "--log", log_file,
                 "--check-invariants", code=1)
    broken = f"the state breaks invariant not_five: k never equals 5 ({counting}:12:1)"
    assert played.stderr.splitlines() == [
        f"error: {broken}",
        f"log with the failing move saved to {log_file} (`regnum replay` of it reproduces the failure)"]
    log = json.loads(log_file.read_text())
    assert (log["moves"], log["failure"]) == (_moves(2, 2, 1), {
        "kind": "invariant", "check": "not_five", "move": 2, "message": broken})
    run("replay", log_file, "--ruleset", counting, code=1)


def test_play_without_log_still_stops_with_the_located_error(tmp_path, counting):
    played = run("play", counting, "--bots", "all", "--seed", "2", "--quiet-board", code=1)
    assert played.stderr.splitlines()[0] == f"{counting}:11:5: error[E902]: no item 7 in [0, 1, 2, 3, 4, 5, 6]"
    assert "saved" not in played.stderr


def test_play_log_of_a_setup_that_faults(tmp_path):
    path = _write(tmp_path, SETUP, "setup.rules")
    log_file = tmp_path / "game.json"
    played = run("play", path, "--bots", "all", "--seed", "4", "--log", log_file, code=1)
    assert played.stderr.splitlines()[-1] == (
        f"log of the failed game saved to {log_file} (`regnum replay` of it reproduces the failure)")
    assert json.loads(log_file.read_text())["failure"]["move"] is None
    run("replay", log_file, "--ruleset", path, code=1)


# ── the Python API ──

def test_failed_log_and_reproduce_from_python(tmp_path, counting):
    rules = regnum.load(str(counting))
    game = rules.new_game(2, seed=2)
    for move in _moves(2, 2, 1):
        game.play(regnum.Move(move["player"], "step", move["args"]))
    failing = regnum.Move(1, "step", {"n": 2})
    with pytest.raises(regnum.RulesetError) as fault:
        game.play(failing)
    assert fault.value.move == failing
    log = game.failed_log(fault.value)
    assert [m.model_dump() for m in log.moves] == _moves(2, 2, 1, 2)
    assert (log.failure.kind, log.failure.check, log.failure.move) == ("fault", "E902", 3)
    assert regnum.Log.from_json(log.to_json()) == log
    again = reproduce(rules, log)
    assert again.reproduced and again.game.move_count == 3 and again.location == f"{counting}:11:5"
    with pytest.raises(regnum.RulesetError):   # the plain replay raises the fault, as the game did
        regnum.replay(rules, log)
    with pytest.raises(ValueError, match="IllegalMove is not a failure of the game"):
        game.failed_log(regnum.IllegalMove(failing, "no"))


def test_a_log_without_failure_is_written_as_before(counting):
    game = regnum.load(str(counting)).new_game(2, seed=5)
    assert "failure" not in json.loads(game.log.to_json())
    assert "failure" not in regnum.Log.model_json_schema()["required"]


def test_the_example_of_the_docs_is_what_simulate_saves(tmp_path, monkeypatch):
    text = (resources.checkout_root() / "docs" / "log-format.md").read_text(encoding="utf-8")
    example = text.split("`COUNTING`, which checks these values)")[1].split("```text\n")[1].split("```")[0]
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, COUNTING, "counting.rules")
    _simulate("counting.rules", "failed", games="3")
    saved = json.loads((tmp_path / "failed" / "f-seed2.json").read_text())
    documented = json.loads(example)
    assert {**documented, "ruleset_hash": None} == {**saved, "ruleset_hash": None}


def test_a_limit_hit_is_met_again_within_the_same_limits(tmp_path):
    path = _write(tmp_path, LOOPING, "looping.rules")
    folder = tmp_path / "failed"
    table = run("simulate", path, "--games", "2", "--jobs", "1", "--limit", "steps=1000", "--failures-dir", folder,
                code=1).stdout
    assert table.splitlines()[-1] == (f"logs of the failed games saved in {folder}: `regnum replay LOG --ruleset {path} "
                                      "--limit steps=1000` reproduces each failure")
    log = json.loads((folder / "f-seed0.json").read_text())
    assert log["moves"] == [{"player": 0, "action": "go", "args": {}}]
    assert log["failure"] == {"kind": "fault", "check": "E901", "move": 0, "message": (
        f"{path}:9:13: E901: more than 1000 steps without a decision: a loop that never ends or asks a player?")}
    replayed = run("replay", folder / "f-seed0.json", "--ruleset", path, "--limit", "steps=1000", code=1)
    assert replayed.stderr.splitlines()[:2] == [
        f"{folder}/f-seed0.json: the failure the log records happens again: a fault (E901) at move #0",
        f"{path}:9:13: error[E901]: more than 1000 steps without a decision: a loop that never ends or asks a player?"]


def test_play_log_for_one_seat_keeps_the_moves_before_the_failure(tmp_path, counting):
    log_file = tmp_path / "seat0.json"
    played = run("play", counting, "--bots", "all", "--seed", "2", "--quiet-board", "--log", log_file,
                 "--log-for", "0", code=1)
    assert played.stderr.splitlines()[-1] == (
        f"log of the moves before the failure written to {log_file} (what seat 0 saw)")
    log = json.loads(log_file.read_text())
    assert (log["seat"], len(log["moves"]), "failure" in log) == (0, 3, False)
