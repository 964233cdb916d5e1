"""Secrecy at the command line: logs for one seat (`play --log-for`, `log redact`, `replay`)
and ruleset strings that try to drive the terminal."""
from __future__ import annotations

import json

import pytest

import regnum
from regnum.terminal import safe

from test_cli import one_json_object, run  # tests/cli is on the path of its tests

PLAY = ("play", "kings_road", "--players", "3", "--bots", "all", "--seed", "4", "--quiet-board",
        "--max-moves", "12")


@pytest.fixture(scope="module")
def full_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "full.json"
    run(*PLAY, "--log", path)
    return path


def expected_for(seat: int, full) -> str:
    rules = regnum.load("kings_road")
    return regnum.replay(rules, full.read_text(encoding="utf-8")).log_for(seat).to_json()


def test_play_log_for_writes_what_the_seat_saw(tmp_path, full_log):
    path = tmp_path / "mine.json"
    out = run(*PLAY, "--log", path, "--log-for", "1").stdout
    assert out.splitlines()[-1] == f"log written to {path} (what seat 1 saw)"
    text = path.read_text(encoding="utf-8")
    assert text == expected_for(1, full_log)
    data = json.loads(text)
    assert data["seat"] == 1 and data["seed"] is None
    assert [m.get("hidden", False) for m in data["moves"]] == [True, False, True] * 4
    assert [m["args"]["card"] for m in data["moves"] if m["player"] == 1] == [
        "temple_ruins", "kings_altar", "knight", "witch"]


def test_play_log_for_needs_a_log_and_a_seat_at_the_table(tmp_path):
    result = run("play", "kings_road", "--bots", "all", "--log-for", "1", code=2)
    assert "--log-for SEAT says whose log --log FILE writes; give --log FILE too" in result.stderr
    result = run("play", "kings_road", "--players", "2", "--bots", "all", "--log", tmp_path / "x.json",
                 "--log-for", "2", code=2)
    assert "Invalid value for '--log-for': seat 2 does not exist in a 2-player game (seats 0–1)" in result.stderr


def test_log_redact_writes_the_log_for_one_seat(tmp_path, full_log):
    out = tmp_path / "seat2.json"
    result = run("log", "redact", full_log, "--seat", "2", "-o", out)
    assert result.stdout == f"log for seat 2 written to {out}\n"
    assert out.read_text(encoding="utf-8") == expected_for(2, full_log)
    printed = run("log", "redact", full_log, "--seat", "2").stdout
    assert regnum.Log.from_json(printed).to_json() == expected_for(2, full_log)
    assert printed.isascii() and printed.count("\n") == 1
    # A log for seat 2 redacted for seat 2 again is itself.
    again = run("log", "redact", out, "--seat", "2").stdout
    assert regnum.Log.from_json(again).to_json() == expected_for(2, full_log)


def test_log_redact_refuses_what_it_cannot_do(tmp_path, full_log):
    result = run("log", "redact", full_log, "--seat", "3", code=2)
    assert "Invalid value for '--seat': the log's game has seats 0–2, not 3" in result.stderr
    seat_log = tmp_path / "seat1.json"
    run("log", "redact", full_log, "--seat", "1", "-o", seat_log)
    result = run("log", "redact", seat_log, "--seat", "0", code=1)
    assert result.stderr == (f"{seat_log}: this log was written for seat 1: it holds nothing to redact for "
                             "seat 0 (redact the full log)\n")
    data = json.loads(full_log.read_text(encoding="utf-8"))
    data["moves"][0]["args"]["card"] = "knight"          # the Knight cannot come first
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    result = run("log", "redact", bad, "--seat", "1", code=1)
    assert result.stderr.startswith("move #0: illegal move P0 pick(card=\"knight\"): the Knight must be "
                                    "the last card chosen (rule 'pick.knight_last' at ")
    missing = run("log", "redact", tmp_path / "none.json", "--seat", "1", code=1)
    assert "No such file or directory" in missing.stderr


def test_replay_of_a_log_for_one_seat_shows_that_seats_view(tmp_path, full_log):
    seat_log = tmp_path / "seat1.json"
    run("log", "redact", full_log, "--seat", "1", "-o", seat_log)
    lines = run("replay", seat_log).stdout.splitlines()
    assert lines[:4] == [
        f"{seat_log}: a log for seat 1 of kings_road: 12 moves, 8 of them hidden from seat 1",
        "its moves cannot be re-verified: a log for one seat holds neither the seed nor the moves hidden "
        "from that seat; this is the game as seat 1 saw it at the end of the log",
        "King's Road — 3 players, move 12 — to move: P0, P1, P2  (seen by P1)",
        "scores  P0 0  P1 0  P2 7"]
    assert "  P0: 9 hidden" in lines and "  P1 (you): witch" in lines
    assert "the log ends before the game is over" in lines
    outcome = one_json_object(run("replay", seat_log, "--json").stdout)
    view = outcome.pop("view")
    assert outcome == {"ok": True, "ruleset": "kings_road", "players": 3, "seat": 1, "seed": None,
                       "moves": 12, "hidden_moves": 8, "verified": False, "is_over": False,
                       "scores": [0, 0, 7], "winners": []}
    assert view["seat"] == 1 and view["zones"]["chosen#0"] == {"count": 1, "revealed": []}
    # A full log still replays move by move.
    assert run("replay", full_log).stdout.splitlines()[0] == f"{full_log}: 12 legal moves of kings_road"


def test_replay_of_a_log_for_one_seat_checks_the_rules_it_names(tmp_path, full_log):
    data = json.loads(expected_for(1, full_log))
    data["ruleset_hash"] = "0123456789abcdef"
    path = tmp_path / "seat1.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run("replay", path, code=2)
    assert result.stderr.startswith(f"{path}: log field 'ruleset_hash': the log was made with rules of "
                                    "hash 0123456789abcdef; ")
    assert run("replay", path, "--any-version").stdout.startswith(f"{path}: a log for seat 1 of kings_road")
    data.update(ruleset_hash=regnum.load("kings_road").hash, seed=4)
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run("replay", path, code=2)
    assert result.stderr == (f"{path}: invalid log: log field 'seat': a log written for one seat "
                             "holds no seed: it would let that seat recompute every hidden draw\n")


# ── control characters ──

EVIL = ('game evil "Evil\x1b[2J\x07Title\u202eX"\n'
        'players 2..2\n\n'
        'piece coin:\n    worth: int = 1\n\n'
        'zone pot: public\nzone taken per player: public\n\n'
        'flow:\n'
        '    create 1 coin(worth: 1) in pot named "c\x1b[31mred"\n'
        '    create 1 coin(worth: 2) in pot named "d\u009b2J"\n'
        '    announce "boom\x1b[2J\x07\u202edone"\n'
        '    ask 0 to take\n'
        '    ask 1 to take\n\n'
        'action take(c in pot):\n'
        '    label "take \x1b]0;pwned\x07{c.label}"\n'
        '    require cheap: c.worth == 1 or player == 1 else "too dear\x1b[2J\x07"\n'
        '    move c to taken(player)\n\n'
        'winner p: highest score(p) then shared\n')


def raw_controls(text: str) -> list[str]:
    return [c for c in text if c not in "\n\t" and safe(c) != c]


@pytest.fixture()
def evil(tmp_path):
    path = tmp_path / "evil.rules"
    path.write_text(EVIL, encoding="utf-8")
    return path


def test_play_shows_a_rulesets_strings_made_safe(evil, tmp_path):
    log = tmp_path / "evil.json"
    typed = "take d\u009b2J"                             # the dear coin, typed by name
    result = run("play", evil, "--bots", "1", "--seed", "1", "--log", log, input=f"{typed}\n1\n")
    # (CliRunner echoes what is typed, as a terminal would: that is the player's own text.)
    assert raw_controls(result.stdout.replace(typed, "") + result.stderr) == []
    out = result.stdout.splitlines()
    assert "boom␛[2J␇\ufffddone" in out
    assert "Evil␛[2JTitle\ufffdX — 2 players, move 0 — to move: P0  (you are P0)" in out
    assert "pot: c␛[31mred, d\ufffd2J" in out
    assert "   1. take ␛]0;pwned␇c␛[31mred" in out
    assert "P1: take ␛]0;pwned␇d\ufffd2J" in out
    assert result.stderr.startswith("refused: too dear␛[2J␇ (rule 'take.cheap' at ")
    # JSON keeps them escaped: the log file, and replay --json.
    assert "\\u001b[31mred" in log.read_text(encoding="utf-8") and log.read_text(encoding="utf-8").isascii()
    replayed = run("replay", log, "--ruleset", evil)
    assert raw_controls(replayed.stdout + replayed.stderr) == []
    redacted = run("log", "redact", log, "--seat", "0", "--ruleset", evil).stdout
    assert redacted.isascii() and "\\u001b[31mred" in redacted and "\\u009b2J" in redacted


def test_replay_of_a_seat_log_and_simulate_and_check_are_safe_too(evil, tmp_path):
    log = tmp_path / "evil.json"
    run("play", evil, "--bots", "all", "--seed", "1", "--log", log, "--log-for", "0")
    shown = run("replay", log, "--ruleset", evil)
    assert raw_controls(shown.stdout + shown.stderr) == []
    assert "Evil␛[2JTitle\ufffdX — 2 players, move 2 — the game is over  (seen by P0)" in shown.stdout
    assert "  P0 (you): c␛[31mred" in shown.stdout.splitlines()
    simulated = run("simulate", evil, "--games", "2", "--jobs", "1")
    assert raw_controls(simulated.stdout + simulated.stderr) == []
    assert one_json_object(run("simulate", evil, "--games", "1", "--jobs", "1", "--json").stdout)["games"]
    checked = run("check", evil)
    assert raw_controls(checked.stdout + checked.stderr) == []
    broken = tmp_path / "broken.rules"
    broken.write_text(EVIL.replace("ask 1 to take", "ask 1 to take\n    announce \"\x1b[2J\" + nosuch"),
                      encoding="utf-8")
    failed = run("check", broken, code=1)
    assert raw_controls(failed.stdout + failed.stderr) == []
    assert ' 16 |     announce "␛[2J" + nosuch' in failed.stderr.splitlines()
    printed = run("check", broken, "--json", code=1).stdout
    assert printed.isascii()                                  # json.dumps escapes them
    diagnostic = one_json_object(printed)["rulesets"][0]["diagnostics"][0]
    assert (diagnostic["line"], diagnostic["code"]) == (16, "E001")
