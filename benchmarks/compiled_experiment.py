"""What a Cython build buys, measured: the compiled backend against plain CPython.

Two measurements, each against plain CPython in the same conditions (CPU time of four-player
random games of `regnum.agents.play_random_game`, coverage off, as `regnum simulate` plays):

- ``runtime``: the compiled backend itself (`regnum.compiled`: the engine's hottest modules
  built with Cython, untyped, into the cache folder). Each round runs one subprocess per
  backend (REGNUM_COMPILED=0, then 1; the order alternates from round to round), each playing
  the same seeds after a warm-up game; the figures are the medians of the rounds, in four-player
  games per CPU second, and their ratio.
- ``listers``: the generated move listers of each ruleset written into one module, compiled
  with Cython, and put in place of the Python ones in the loaded ruleset (not part of the
  backend: it measured no faster).

It needs Cython and a C compiler (`pip install -e '.[compiled]'`) and takes a few minutes, most
of it compiling (once: the build is kept in the cache folder). Usage, from the checkout:

    .venv/bin/python benchmarks/compiled_experiment.py [runtime|listers|both] [RULESET...] [--rounds N]

The figures are in docs/performance.md ("The compiled backend").
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"kings_road": 60, "kingdom_builder": 4, "kings_gate": 12, "kings_kilt": 60}
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}

_TIMER = """
import sys, time, json
import regnum, regnum.agents as agents, regnum.compiled as compiled
name, n = sys.argv[1], int(sys.argv[2])
rules = regnum.load(name)
agents.play_random_game(rules, 4, 0, coverage=False)
start = time.process_time()
for seed in range(n):
    agents.play_random_game(rules, 4, seed, coverage=False)
print(json.dumps([n / (time.process_time() - start), compiled.status()["backend"]]))
"""


def _games_per_second(name: str, n: int, compiled: bool) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "interpreter"), REGNUM_COMPILED="1" if compiled else "0")
    done = subprocess.run([sys.executable, "-c", _TIMER, name, str(n)], env=env, check=True,
                          capture_output=True, text=True)
    rate, backend = json.loads(done.stdout.strip().splitlines()[-1])
    if backend != ("compiled" if compiled else "python"):
        raise SystemExit(f"expected the {'compiled' if compiled else 'python'} backend, ran {backend}")
    return rate


def _cythonize(sources: list[str], where: Path) -> None:
    """Build extension modules next to `sources` (paths relative to `where`)."""
    script = ("from setuptools import setup\nfrom Cython.Build import cythonize\n"
              f"setup(ext_modules=cythonize({sources!r}, quiet=True, compiler_directives={DIRECTIVES!r}),"
              " script_args=['build_ext', '--inplace'])\n")
    subprocess.run([sys.executable, "-c", script], cwd=where, check=True, capture_output=True)


def runtime(games: dict, rounds: int) -> None:
    sys.path.insert(0, str(ROOT / "interpreter"))
    from regnum import compiled
    started = time.monotonic()
    folder = compiled.build()
    print(f"build: {folder} ({time.monotonic() - started:.0f} s)", flush=True)
    for name, n in games.items():
        rates = {False: [], True: []}
        for i in range(rounds):
            for flag in ((False, True) if i % 2 == 0 else (True, False)):
                rates[flag].append(_games_per_second(name, n, flag))
        python, fast = statistics.median(rates[False]), statistics.median(rates[True])
        print(f"{name}: python {python:.1f}, compiled {fast:.1f} games/s, ratio {fast / python:.3f} "
              f"(medians of {rounds} rounds of {n} games)", flush=True)


def listers(games: dict) -> None:
    sys.path.insert(0, str(ROOT / "interpreter"))
    import regnum
    import regnum.agents as agents
    build = Path(tempfile.mkdtemp(prefix="regnum-cython-listers-"))
    sys.path.insert(0, str(build))
    for name, n in games.items():
        rules = regnum.load(name)
        actions = [a for a in rules.model.actions.values() if a.lister is not None]
        names = actions[0].lister.__globals__
        source = "\n".join(f"{k} = None" for k in names if k.isidentifier() and not k.startswith("__"))
        source += "\n" + "\n".join(a.lister.source for a in actions)
        module = f"listers_{name}_{hashlib.sha256(source.encode()).hexdigest()[:10]}"
        (build / f"{module}.pyx").write_text(source, encoding="utf-8")
        _cythonize([f"{module}.pyx"], build)
        compiled = importlib.import_module(module)
        for key, value in names.items():
            if not key.startswith("__"):
                setattr(compiled, key, value)
        python = {a.name: a.lister for a in actions}
        figures = {}
        for label in ("python", "cython", "python again", "cython again"):
            for action in actions:
                own = python[action.name]
                action.lister = getattr(compiled, own.__name__) if label.startswith("cython") else own
            agents.play_random_game(rules, 4, 0)
            start = time.process_time()
            for seed in range(n):
                agents.play_random_game(rules, 4, seed)
            figures[label] = round(n / (time.process_time() - start), 1)
        print(name, figures, flush=True)
    shutil.rmtree(build, ignore_errors=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    rounds = 5
    if "--rounds" in args:
        at = args.index("--rounds")
        rounds = int(args[at + 1])
        del args[at:at + 2]
    which = args[0] if args else "both"
    chosen = {n: GAMES[n] for n in args[1:]} or GAMES
    if which in ("runtime", "both"):
        runtime(chosen, rounds)
    if which in ("listers", "both"):
        listers(chosen)
