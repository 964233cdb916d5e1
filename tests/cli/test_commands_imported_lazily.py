"""A `regnum` process imports the module of the command it runs, and rich only where that
command prints through it (cli/lazy.py); every command is still named by the group, found by
its name and listed by `regnum --help`."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest

import regnum
from regnum.cli import cli
from regnum.cli.lazy import LazyCommands

INTERPRETER = str(Path(regnum.__file__).resolve().parents[1])
COMMANDS = ["bench", "check", "compare", "compiled", "diff", "fuzz", "list", "log", "play", "replay",
            "simulate"]


def loaded_after(args: list[str]) -> str:
    """The command-line modules, and whether rich, a fresh process has imported once the
    command `args` ran."""
    code = ("import sys\nfrom regnum.cli import cli\n"
            f"try:\n    cli.main(args={args!r}, prog_name='regnum')\n"
            "except SystemExit as done:\n    assert done.code == 0, done.code\n"
            "print(sorted(m for m in sys.modules if m.startswith('regnum.cli')), 'rich' in sys.modules,"
            " file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": INTERPRETER, "REGNUM_CACHE_DIR": "off"}, check=True)
    return done.stderr.strip().splitlines()[-1]


def test_the_group_names_every_command_and_finds_each_by_its_name():
    assert sorted(cli.commands) == COMMANDS
    for name in COMMANDS:
        command = cli.get_command(click.Context(cli), name)
        assert isinstance(command, click.Command) and command.name == name
    assert cli.get_command(click.Context(cli), "frobnicate") is None


def test_check_imports_its_own_module_and_no_rich():
    assert loaded_after(["check", "kings_kilt"]) == (
        "['regnum.cli', 'regnum.cli.check_list', 'regnum.cli.common', 'regnum.cli.errors', 'regnum.cli.lazy'] False")


def test_list_imports_rich_to_print_its_table():
    assert loaded_after(["list"]) == (
        "['regnum.cli', 'regnum.cli.check_list', 'regnum.cli.common', 'regnum.cli.errors', 'regnum.cli.lazy'] True")


def test_the_table_imports_a_module_once_and_keeps_what_is_added():
    table = LazyCommands("regnum.cli", {"check": ("check_list", "check"), "list": ("check_list", "list_rulesets")})
    check = table["check"]
    assert table["check"] is check and table.get("check") is check and check.name == "check"
    assert table.get("nothing") is None
    extra = click.Command("extra")
    table["extra"] = extra
    assert list(table) == ["check", "list", "extra"] and len(table) == 3 and table["extra"] is extra
    del table["extra"]
    assert "extra" not in table
    with pytest.raises(KeyError):
        table["extra"]
