"""The optional compiled backend (regnum.compiled), both ways: what runs without a build (the
pure-Python modules, and why), what a build must be to be loaded, and, where Cython and a C
compiler are installed (CI installs them: the `compiled` extra), a real build that plays the
same games, with the same coverage, refusals and faults, and passes the engine's own suites.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import regnum.compiled as compiled

ROOT = Path(__file__).resolve().parents[2]

STATUS = "import json, regnum, regnum.compiled as c; print(json.dumps(c.status()))"


def _env(cache, **more) -> dict:
    env = {k: v for k, v in os.environ.items() if k != compiled.ENV}
    env["PYTHONPATH"] = str(ROOT / "interpreter")
    env["REGNUM_CACHE_DIR"] = str(cache)
    env.update(more)
    return env


def _python(code: str, env: dict, *args: str) -> subprocess.CompletedProcess:
    """Run `code` in a fresh Python, which must succeed: a failure shows its own error, not
    the empty output a caller would go on to parse."""
    ran = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                         timeout=600)
    assert ran.returncode == 0, f"the subprocess failed ({ran.returncode}):\n{ran.stderr[-3000:]}"
    return ran


def _private_dir(path: Path) -> Path:
    path.mkdir(mode=0o700, exist_ok=True)
    os.chmod(path, 0o700)
    return path


def test_without_the_variable_the_pure_python_modules_run(tmp_path):
    report = json.loads(_python(STATUS, _env(_private_dir(tmp_path / "cache"))).stdout)
    assert report["backend"] == "python"
    assert report["compiled_modules"] == []
    assert report["requested"] is False
    assert report["reason"] == "pure Python (REGNUM_COMPILED is not set)"


def test_asked_for_without_a_build_the_pure_python_modules_run_and_say_why(tmp_path):
    report = json.loads(_python(STATUS, _env(_private_dir(tmp_path / "cache"), REGNUM_COMPILED="1")).stdout)
    assert (report["backend"], report["requested"], report["build"]) == ("python", True, None)
    assert report["reason"] == "pure Python: no build of this version (make one with `regnum compiled build`)"
    off = json.loads(_python(STATUS, _env("off", REGNUM_COMPILED="1")).stdout)
    assert off["reason"] == "pure Python: no safe cache folder to hold a build"


def test_the_key_is_made_of_the_sources_the_python_and_the_way_of_building(monkeypatch, tmp_path):
    key = compiled.build_key()
    assert len(key) == 24 and int(key, 16) >= 0
    assert compiled.build_key() == key   # stable
    monkeypatch.setattr(compiled, "FORMAT", compiled.FORMAT + "+")
    assert compiled.build_key() != key
    monkeypatch.undo()
    edited = tmp_path / "runtime.py"
    edited.write_bytes(compiled._source_path("regnum.engine.runtime").read_bytes() + b"\n# edited\n")
    original = compiled._source_path
    monkeypatch.setattr(compiled, "_source_path",
                        lambda m: edited if m == "regnum.engine.runtime" else original(m))
    assert compiled.build_key() != key
    monkeypatch.undo()
    monkeypatch.setattr(compiled.sys, "version", sys.version + " (another)")
    assert compiled.build_key() != key


def _fake_build(cache: Path) -> Path:
    """A build folder of this version with placeholder files: enough for built() to judge."""
    folder = cache / f"compiled-{compiled.build_key()}"
    for module in compiled.MODULES:
        path = compiled._extension(folder, module)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"not a real extension")
    (folder / compiled.MANIFEST).write_text("{}")
    for path in [folder, *folder.rglob("*")]:
        os.chmod(path, 0o700 if path.is_dir() else 0o600)
    return folder


def test_only_a_complete_build_that_nobody_else_can_write_is_used(monkeypatch, tmp_path):
    cache = _private_dir(tmp_path / "cache")
    monkeypatch.setenv("REGNUM_CACHE_DIR", str(cache))
    folder = _fake_build(cache)
    assert compiled.built() == folder
    last = compiled._extension(folder, compiled.MODULES[-1])
    os.chmod(last, 0o620)                  # writable by the group: native code others could change
    assert compiled.built() is None
    os.chmod(last, 0o600)
    os.chmod(folder, 0o770)
    assert compiled.built() is None
    os.chmod(folder, 0o700)
    last.unlink()                          # incomplete
    assert compiled.built() is None
    assert compiled.clean() == 1 and not folder.exists()


def test_without_a_c_compiler_the_build_fails_in_one_line_and_the_game_plays_on(tmp_path):
    cache = _private_dir(tmp_path / "cache")
    env = _env(cache, CC=str(tmp_path / "no-such-compiler"))
    ran = subprocess.run([sys.executable, "-m", "regnum.cli", "compiled", "build"], env=env,
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 1
    assert ran.stderr.splitlines()[-1] == ("error: no C compiler found (set CC, or install gcc or clang); "
                                           "the pure-Python modules run meanwhile")
    assert "Traceback" not in ran.stderr
    assert not list(cache.glob("compiled-*"))
    played = _python("import regnum, regnum.agents as a, regnum.compiled as c; "
                     "g = a.play_random_game(regnum.load('kings_road'), 4, 3); "
                     "print(c.status()['backend'], g.scores)", dict(env, REGNUM_COMPILED="1"))
    assert played.stdout.split()[0] == "python"


# ── a real build (needs Cython and a C compiler) ──

GAMES = """
import hashlib, json, sys
import regnum, regnum.agents as agents, regnum.compiled as compiled
from regnum import IllegalMove, Move
out = {"status": compiled.status()}
for name, seeds in (("kings_road", 6), ("permanent_nobles", 3), ("kings_kilt", 6), ("recruit", 2),
                    ("kings_gate", 2), ("kingdom_builder", 1)):
    rules = regnum.load(name)
    for seed in range(seeds):
        game = agents.play_random_game(rules, 4, seed)
        moves = [[m.player, m.action, sorted(m.args.items())] for m in game.log.moves]
        out[f"{name}:{seed}"] = {
            "moves": hashlib.sha256(json.dumps(moves, default=str).encode()).hexdigest(),
            "count": len(moves), "scores": game.scores, "winners": game.winners,
            "hits": dict(sorted(game.hits.items())),
            "state": hashlib.sha256(json.dumps(game.to_dict(), sort_keys=True, default=str).encode()).hexdigest()}
# A refused move names its rule and changes nothing.
game = regnum.load("kings_road").new_game(players=4, seed=5)
before = json.dumps(game.to_dict(), sort_keys=True, default=str)
try:
    game.play(Move(0, "pick", {"card": "no such card"}))
except IllegalMove as err:
    out["refusal"] = [err.rule, str(err)]
out["unchanged"] = json.dumps(game.to_dict(), sort_keys=True, default=str) == before
print(json.dumps(out))
"""


def _have_build_tools() -> str | None:
    import importlib.util
    if importlib.util.find_spec("Cython") is None or importlib.util.find_spec("setuptools") is None:
        return "Cython is not installed (pip install 'regnum[compiled]'; CI installs it)"
    if compiled._compiler() is None:
        return "no C compiler"
    return None


@pytest.fixture(scope="module")
def build_cache(tmp_path_factory):
    missing = _have_build_tools()
    if missing:
        pytest.skip(missing)
    cache = _private_dir(tmp_path_factory.mktemp("compiled") / "cache")
    ran = subprocess.run([sys.executable, "-m", "regnum.cli", "compiled", "build", "--jobs", "2"],
                         env=_env(cache), capture_output=True, text=True, timeout=compiled.BUILD_SECONDS)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("built in ")
    return cache


def test_a_build_plays_the_same_games_counts_the_same_coverage_and_refuses_alike(build_cache):
    pure = json.loads(_python(GAMES, _env(build_cache)).stdout)
    fast = _python(GAMES, _env(build_cache, REGNUM_COMPILED="1"))
    assert fast.returncode == 0, fast.stderr
    fast = json.loads(fast.stdout)
    assert pure.pop("status")["backend"] == "python"
    status = fast.pop("status")
    assert status["backend"] == "compiled"
    assert status["compiled_modules"] == list(compiled.MODULES)
    assert fast == pure
    assert pure["refusal"][0] == "pick.card"   # the rule that refused the move, in both
    assert pure["unchanged"] is True
    assert pure["kings_road:0"]["count"] > 0


def test_the_engine_suites_pass_on_a_build(build_cache):
    """The engine's own suites, run again on the compiled modules: rollback after faults,
    limits, the listers against the walk, the shortcuts of the playout, and rulesets of
    thousands of chained defs and nesting at the limits (a compiled recursion has no
    recursion limit: with the compiler's walk compiled, loading them crashed the process)."""
    suites = ["tests/unit/test_rollback_random.py", "tests/unit/test_rollback_journal.py",
              "tests/unit/test_limits.py", "tests/unit/test_engine_shortcuts.py",
              "tests/unit/test_engine_overhead.py", "tests/unit/test_runtime.py",
              "tests/unit/test_play_nth.py", "tests/unit/test_move_listers_differential.py",
              "tests/unit/test_big_rulesets.py"]
    check = _python(STATUS, _env(build_cache, REGNUM_COMPILED="1"))
    assert json.loads(check.stdout)["backend"] == "compiled"
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *suites],
                         cwd=ROOT, env=_env(build_cache, REGNUM_COMPILED="1"), capture_output=True,
                         text=True, timeout=1800)
    assert ran.returncode == 0, ran.stdout[-3000:]
    assert " passed" in ran.stdout.splitlines()[-1] and "failed" not in ran.stdout.splitlines()[-1]
