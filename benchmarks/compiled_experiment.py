"""What a Cython build would buy today, measured, before a compiled backend is built.

Two experiments, each against plain CPython in the same conditions (CPU time, four-player
random games of `regnum.agents.play_random_game`, the best of three batches):

- ``runtime``: the interpreter's hot modules (engine, codegen helpers, boards, open grid,
  builtins, agents, rng) compiled with Cython in a copy of the checkout, untyped;
- ``listers``: the generated move listers of each ruleset written into one module, compiled
  with Cython, and put in place of the Python ones in the loaded ruleset.

It needs Cython and a C compiler (`pip install cython setuptools`; neither is a dependency of
regnum) and takes a few minutes, most of it compiling. Usage, from the checkout:

    .venv/bin/python benchmarks/compiled_experiment.py [runtime|listers|both] [RULESET...]

The figures are in docs/performance.md ("What would reach the targets").
"""
from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOT_MODULES = ["regnum/engine/runtime.py", "regnum/engine/game.py", "regnum/engine/decisions.py",
               "regnum/engine/state.py", "regnum/compiler/codegen.py", "regnum/opengrid.py",
               "regnum/boards.py", "regnum/builtins.py", "regnum/agents.py", "regnum/rng.py"]
GAMES = {"kings_road": 60, "kingdom_builder": 4, "kings_gate": 12, "kings_kilt": 60}
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}

_TIMER = """
import sys, time, json
import regnum, regnum.agents as agents
out = {}
for name, n in json.loads(sys.argv[1]).items():
    rules = regnum.load(name)
    agents.play_random_game(rules, 4, 0)
    times = []
    for _ in range(3):
        start = time.process_time()
        for seed in range(n):
            agents.play_random_game(rules, 4, seed)
        times.append(time.process_time() - start)
    out[name] = round(n / min(times), 1)
print(json.dumps(out))
"""


def _games_per_second(pythonpath: Path, games: dict) -> dict:
    import json
    env = dict(os.environ, PYTHONPATH=str(pythonpath))
    done = subprocess.run([sys.executable, "-c", _TIMER, json.dumps(games)], env=env, check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _cythonize(sources: list[str], where: Path) -> None:
    """Build extension modules next to `sources` (paths relative to `where`)."""
    script = ("from setuptools import setup\nfrom Cython.Build import cythonize\n"
              f"setup(ext_modules=cythonize({sources!r}, quiet=True, compiler_directives={DIRECTIVES!r}),"
              " script_args=['build_ext', '--inplace'])\n")
    subprocess.run([sys.executable, "-c", script], cwd=where, check=True, capture_output=True)


def runtime(games: dict) -> None:
    with tempfile.TemporaryDirectory(prefix="regnum-cython-") as folder:
        copy = Path(folder) / "checkout"
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", ".venv", "*.so", "build"))
        interpreter = copy / "interpreter"
        marker = interpreter / "regnum" / "engine" / "__init__.py"   # a package, for Cython's names
        made_marker = not marker.exists()
        marker.touch()
        _cythonize(HOT_MODULES, interpreter)
        if made_marker:
            marker.unlink()
        for label, path in (("python", ROOT / "interpreter"), ("cython", interpreter)):
            print(label, _games_per_second(path, games), flush=True)


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
    which = sys.argv[1] if len(sys.argv) > 1 else "both"
    chosen = {n: GAMES[n] for n in sys.argv[2:]} or GAMES
    if which in ("runtime", "both"):
        runtime(chosen)
    if which in ("listers", "both"):
        listers(chosen)
