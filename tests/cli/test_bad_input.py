"""Every class of bad input gets its clean error on the command line: a message that names the
place and the reason, exit code 1, and never a Python traceback (DESIGN §5)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

HEADER = """
game broken "Broken"
players 2..2
piece chip:
    value: int = 1
zone pool: public
var total: int = 0
"""

CASES = {
    "syntax error": (HEADER + "flow:\n    if total = 1:\n        pass\n",
                     "check", ["broken.rules:8:14: error[E001]", "compare with '=='"]),
    "unknown name": (HEADER + "flow:\n    add 1 to totl\n",
                     "check", ["broken.rules:8:14: error[E101]", "did you mean 'total'?"]),
    "type error": (HEADER + "flow:\n    add \"one\" + 1 to total\n",
                   "check", ["error[E202]"]),
    "runaway loop": (HEADER + "flow:\n    while true:\n        add 1 to total\n",
                     "play", ["error[E901]", "broken.rules:8:5"]),
    "runaway growth": (HEADER + "flow:\n    while true:\n        create 1 chip() in pool\n",
                       "play", ["error[E901]", "pieces"]),
}


def regnum(*args: str, cwd) -> subprocess.CompletedProcess:
    """Run the real command in a subprocess, as a user would."""
    return subprocess.run([sys.executable, "-m", "regnum.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_ruleset_gets_a_clean_error(tmp_path, case):
    text, command, expected = CASES[case]
    (tmp_path / "broken.rules").write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    args = ["check", "broken.rules"] if command == "check" else \
        ["play", "broken.rules", "--players", "2", "--bots", "all", "--seed", "1"]
    result = regnum(*args, cwd=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Traceback" not in output
    for piece in expected:
        assert piece in output, output


def test_malformed_log_json_gets_a_clean_error(tmp_path):
    (tmp_path / "game.json").write_text('{"format": "regnum-log/1", "ruleset": ', encoding="utf-8")
    result = regnum("replay", "game.json", cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stdout + result.stderr
    assert "game.json:1:39: invalid JSON" in result.stderr


def test_illegal_move_in_a_log_gets_its_index_and_rule(tmp_path):
    moves = [{"player": 0, "action": "pick", "args": {"card": "knight"}}]   # the Knight cannot come first
    import regnum as api
    log = {"format": "regnum-log/1", "ruleset": "kings_road", "ruleset_hash": api.load("kings_road").hash,
           "players": 2, "seed": 0, "moves": moves}
    (tmp_path / "game.json").write_text(json.dumps(log), encoding="utf-8")
    result = regnum("replay", "game.json", cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert "move #0" in result.stderr and "pick.knight_last" in result.stderr

    result = regnum("replay", "game.json", "--json", cwd=tmp_path)
    assert result.returncode == 1
    outcome = json.loads(result.stdout)
    assert outcome["ok"] is False and outcome["error"]["index"] == 0
    assert outcome["error"]["rule"] == "pick.knight_last"


def test_a_log_of_another_version_of_the_ruleset_is_refused_unless_asked(tmp_path):
    log = {"format": "regnum-log/1", "ruleset": "kings_road", "ruleset_hash": "0123456789abcdef",
           "players": 2, "seed": 0, "moves": []}
    (tmp_path / "game.json").write_text(json.dumps(log), encoding="utf-8")
    result = regnum("replay", "game.json", cwd=tmp_path)
    assert result.returncode == 2 and "ruleset_hash" in result.stderr
    result = regnum("replay", "game.json", "--any-version", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
