"""``regnum compiled``: build, inspect and delete the optional compiled backend (regnum.compiled).

The build is what a user asks for once per version of regnum; using it is a matter of the
environment (REGNUM_COMPILED=1), because the modules it replaces are imported before any
command runs. So `status` reports on this very process, and says how to get the other backend.
"""
from __future__ import annotations

import json
import time

import click

from .. import compiled
from .common import echo


@click.group("compiled")
def compiled_group() -> None:
    """The optional compiled backend: the engine's hottest modules built with Cython.

    Build it once (it needs Cython and a C compiler: pip install 'regnum[compiled]'), then
    set REGNUM_COMPILED=1 to use it; without a build of this version, or without the
    variable, the pure-Python modules run, with the same results.

    \b
    Example:
      regnum compiled build
      REGNUM_COMPILED=1 regnum simulate kings_road --players 4 --games 1000
    """


@compiled_group.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def status(as_json: bool) -> None:
    """Say which backend this process runs, and whether a build of this version exists."""
    report = compiled.status()
    if as_json:
        click.echo(json.dumps(report))
        return
    echo(f"backend: {report['backend']} — {report['reason']}")
    echo(f"build of this version: {report['build'] or 'none'} (key {report['key']})")
    if report["build"] and not report["requested"]:
        echo(f"set {compiled.ENV}=1 to use it")


@compiled_group.command("build")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=2, show_default=True,
              help="Modules compiled at once.")
def build(jobs: int) -> None:
    """Compile the engine's hottest modules into the cache folder (a minute or two).

    A build of this version already there is kept. Exits 1, saying why in one line, when it
    cannot be made (no Cython, no C compiler, no safe cache folder): the pure-Python modules
    then run as before.
    """
    if compiled.built() is not None:
        echo(f"already built: {compiled.built()}")
        return
    echo(f"compiling {len(compiled.MODULES)} modules with Cython…", err=True)
    started = time.monotonic()
    try:
        folder = compiled.build(jobs=jobs)
    except compiled.BuildError as err:
        echo(f"error: {err}", err=True)
        raise SystemExit(1) from None
    echo(f"built in {time.monotonic() - started:.0f} s: {folder}")
    echo(f"use it with {compiled.ENV}=1")


@compiled_group.command("clean")
def clean() -> None:
    """Delete every build in the cache folder (of any version)."""
    echo(f"deleted {compiled.clean()} build(s)")
