"""`import regnum` does not build the pydantic models of logs and saved games (a third of the
import): they are imported when a log or saved game is first made or read, and every name of
the public API is still there (regnum/__init__.py, documents.py)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import regnum

INTERPRETER = str(Path(regnum.__file__).resolve().parents[1])


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": INTERPRETER, "REGNUM_CACHE_DIR": "off"}, check=True)
    return done.stdout


def test_importing_regnum_and_playing_builds_no_model():
    out = run("import sys, regnum\n"
              "g = regnum.load('kings_kilt').new_game(2, 3)\n"
              "g.play(g.legal_moves(g.to_move[0])[0])\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'"
              " or m in ('regnum.log', 'regnum.engine.saved')))")
    assert out.strip() == "[]"


def test_the_models_come_when_a_log_is_made_or_read():
    out = run("import sys, json, regnum\n"
              "g = regnum.load('kings_kilt').new_game(2, 3)\n"
              "text = g.log.to_json()\n"
              "print('regnum.log' in sys.modules, type(regnum.Log.from_json(text)).__name__,"
              " regnum.replay(g.ruleset, text) == g)")
    assert out.split() == ["True", "Log", "True"]


def test_every_public_name_is_there():
    for name in regnum.__all__:
        assert getattr(regnum, name) is not None, name
    assert regnum.Log.__module__ == "regnum.log"
    assert issubclass(regnum.StateError, regnum.LogError)
    from regnum import log   # the names callers have always found in regnum.log
    assert (log.LogError, log.StateError, log.read_json, log.BadValue) == \
        (regnum.LogError, regnum.StateError, regnum.documents.read_json, regnum.documents.BadValue)
    assert json.loads(regnum.load("kings_kilt").new_game(2).to_json())["format"] == "regnum-state/1"


def test_the_command_line_imports_what_a_command_needs_only():
    """`regnum check` imports no model, simulation, fuzzer or benchmark; `regnum simulate`
    does, and a pydantic error is still told apart once pydantic is there (cli/errors.loaded)."""
    out = run("import sys\nfrom regnum.cli import cli\n"
              "try:\n    cli.main(args=['check', 'kings_kilt'], prog_name='regnum')\n"
              "except SystemExit as done:\n    assert done.code == 0, done.code\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic' or m in "
              "('regnum.log', 'regnum.simulate', 'regnum.fuzz', 'regnum.benchmark', 'regnum.engine.saved')))")
    assert out.strip().splitlines()[-1] == "[]"
    from regnum.cli import errors
    assert errors.loaded("regnum.no_such_module", "Error") == ()
    import pydantic
    assert errors.loaded("pydantic", "ValidationError") is pydantic.ValidationError
