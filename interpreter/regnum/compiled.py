"""The optional compiled backend: the interpreter's hottest modules built with Cython.

Why it exists: the issue of speed asks for an optional compiled build, falling back to pure
Python, tested both ways. Compiled by Cython, untyped, the engine's loops and bookkeeping run
the same Python semantics with less of the interpreter's overhead — a few per cent of a
playout's instructions, up to about a tenth of its time on some rulesets and none on others
(docs/performance.md, "The compiled backend"). The generated code of a ruleset is left in
Python: compiled, it measured no faster (it spends its time in dict lookups and calls, which
Cython writes as the same C-API calls). It is also where typed code would go once the state
is held in arrays.

Why it is optional, and how it falls back: the pure-Python modules are the reference. A build
needs Cython and a C compiler, takes a minute or two, and is kept in the cache folder
(diskcache.cache_dir) under a key made of these modules' sources and the Python that built it;
`activate()` uses it only when asked (REGNUM_COMPILED=1) and only when a build of exactly these
sources for this Python is there. Anything else (no build, a stale one, no Cython, no compiler,
no safe cache folder) means the pure-Python modules, never an error: `status()` says which ran
and why. A build is native code loaded into the process, so only a folder and files owned by
the user and writable by nobody else are used (the cache's own rule).

    regnum compiled build         # once per version of regnum (and of Python)
    REGNUM_COMPILED=1 regnum simulate kings_road --games 1000

This module imports only the standard library and diskcache: `regnum/__init__.py` calls
`activate()` before the engine is imported.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

# Only what activate() needs when the variable is not set is imported here: every
# `import regnum` runs it. The rest (hashing, building) is imported where it is used.

ENV = "REGNUM_COMPILED"
# The modules compiled: the engine's loops and bookkeeping (the VM's loop, the move's
# journal and flow, the listings' plumbing, the state), majority scoring, the generator and
# the bots. Not the small helpers the generated code calls once per item (compiler/helpers,
# builtins, boards, opengrid, the VM's instructions): called from Python, a compiled function
# costs more per call than a Python one in CPython 3.11, and with them King's Road took 9 %
# more instructions than pure Python (docs/performance.md). Not the compiler either: a
# compiled function that recurses has no recursion limit, and its walks go as deep as a
# ruleset nests.
MODULES = ("regnum.engine.runtime", "regnum.engine.game", "regnum.engine.decisions",
           "regnum.engine.state", "regnum.scoring", "regnum.rng", "regnum.agents")
# Untyped: annotations are documentation here, not C types (an `int` parameter may get a
# sentinel); `binding` keeps functions introspectable and picklable as Python's are.
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}
FORMAT = "1"   # how a build is made: change it and every earlier build is stale
MANIFEST = "manifest.json"
BUILD_SECONDS = 1800   # a build that runs longer than this is stopped

_PACKAGE = Path(__file__).resolve().parent   # the folder of the package `regnum`
_finder = None   # the finder activate() installed, if it did


class BuildError(Exception):
    """A build that could not be made: the message says why in one line (no Cython, no C
    compiler, the compiler's last complaint)."""


def requested() -> bool:
    """Whether this process was asked to use a build (REGNUM_COMPILED=1, on, yes or true)."""
    return os.environ.get(ENV, "").strip().lower() in ("1", "on", "yes", "true")


def _source_path(module: str) -> Path:
    return _PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")


def build_key() -> str:
    """What a build is made of: the sources of the compiled modules, the Python version and
    the extensions' platform tag, and how it is built. Any change is another build."""
    import hashlib
    import json
    import sysconfig
    digest = hashlib.sha256()
    for part in (FORMAT, sys.version, sysconfig.get_config_var("EXT_SUFFIX") or "", json.dumps(DIRECTIVES)):
        digest.update(part.encode("utf-8") + b"\0")
    for module in MODULES:
        digest.update(module.encode("utf-8") + b"\0" + _source_path(module).read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def build_dir(key: str | None = None) -> Path | None:
    """Where the build of `key` (default: of these sources) lives, or None without a safe cache."""
    from . import diskcache
    folder = diskcache.cache_dir()
    if folder is None:
        return None
    return folder / f"compiled-{key or build_key()}"


def _extension(folder: Path, module: str) -> Path:
    import sysconfig
    return folder.joinpath(*module.split(".")).with_name(
        module.rpartition(".")[2] + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))


def built(key: str | None = None) -> Path | None:
    """The folder of a complete build of these sources, safe to load, or None."""
    from . import diskcache
    folder = build_dir(key)
    if folder is None:
        return None
    try:
        manifest = folder / MANIFEST
        if not (folder.is_dir() and diskcache._private(folder, is_dir=True) and manifest.is_file()):
            return None
        for module in MODULES:
            path = _extension(folder, module)
            if not (path.is_file() and diskcache._private(path, is_dir=False)):
                return None
    except OSError:
        return None
    return folder


class _BuildFinder:
    """Finds the compiled modules of one build before the package's own .py files (a
    sys.meta_path finder)."""

    def __init__(self, folder: Path):
        self.folder = folder

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in MODULES:
            return None
        import importlib.machinery
        import importlib.util
        location = str(_extension(self.folder, fullname))
        loader = importlib.machinery.ExtensionFileLoader(fullname, location)
        return importlib.util.spec_from_file_location(fullname, location, loader=loader)


def activate() -> list[str]:
    """Use the build of these sources for the compiled modules, when asked and when there is
    one; the names of the modules it will serve ([] when the pure-Python modules run). Call it
    before the engine is imported (a module imported already stays what it is)."""
    global _finder
    if _finder is not None or not requested():
        return list(MODULES) if _finder is not None else []
    try:
        folder = built()
    except OSError:
        folder = None
    if folder is None or any(module in sys.modules for module in MODULES):
        return []
    _finder = _BuildFinder(folder)
    sys.meta_path.insert(0, _finder)
    return list(MODULES)


def status() -> dict:
    """Which backend runs in this process, and why: for `regnum compiled status`, `regnum bench`
    and tests."""
    loaded = {m: getattr(sys.modules.get(m), "__file__", None) for m in MODULES}
    compiled = [m for m, f in loaded.items() if f and not f.endswith(".py")]
    try:
        folder = built()
        where = build_dir()
    except OSError:
        folder = where = None
    if compiled:
        reason = f"{len(compiled)} of {len(MODULES)} modules compiled, from {folder or where}"
    elif not requested():
        reason = f"pure Python ({ENV} is not set)"
    elif where is None:
        reason = "pure Python: no safe cache folder to hold a build"
    elif folder is None:
        reason = "pure Python: no build of this version (make one with `regnum compiled build`)"
    else:
        reason = "pure Python: the build was found after the engine was imported"
    return {"backend": "compiled" if compiled else "python", "compiled_modules": compiled,
            "requested": requested(), "build": str(folder) if folder else None,
            "key": build_key(), "reason": reason}


def _compiler() -> str | None:
    """The C compiler setuptools would call ($CC, else the one Python was built with), if found."""
    import shutil
    import sysconfig
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    program = command.split()[0] if command.split() else ""
    return shutil.which(program) if program else None


def build(jobs: int = 2, timeout: float = BUILD_SECONDS) -> Path:
    """Compile the modules into the cache, or raise BuildError saying why not. A build of
    these sources already there is returned as it is."""
    import importlib.util
    import json
    import shutil
    import subprocess
    import tempfile
    key = build_key()
    done = built(key)
    if done is not None:
        return done
    target = build_dir(key)
    if target is None:
        raise BuildError("no safe cache folder to keep a build in (see REGNUM_CACHE_DIR)")
    if _compiler() is None:
        raise BuildError("no C compiler found (set CC, or install gcc or clang); "
                         "the pure-Python modules run meanwhile")
    if importlib.util.find_spec("Cython") is None or importlib.util.find_spec("setuptools") is None:
        raise BuildError("Cython and setuptools are needed to build: pip install 'regnum[compiled]'")
    with tempfile.TemporaryDirectory(prefix="regnum-build-") as scratch:
        tree = Path(scratch)
        for module in MODULES:   # the package's layout, so that each module gets its full name
            parts = module.split(".")
            for depth in range(1, len(parts)):
                package = tree.joinpath(*parts[:depth])
                package.mkdir(parents=True, exist_ok=True)
                (package / "__init__.py").touch()
            shutil.copyfile(_source_path(module), tree.joinpath(*parts).with_suffix(".py"))
        sources = [str(Path(*m.split(".")).with_suffix(".py")) for m in MODULES]
        script = ("from setuptools import setup\nfrom Cython.Build import cythonize\n"
                  f"setup(ext_modules=cythonize({sources!r}, quiet=True, force=True, "
                  f"compiler_directives={DIRECTIVES!r}), "
                  f"script_args=['build_ext', '--inplace', '-j', '{max(1, jobs)}'])\n")
        env = dict(os.environ, CFLAGS=(os.environ.get("CFLAGS", "") + " -g0").strip())
        try:
            ran = subprocess.run([sys.executable, "-c", script], cwd=tree, env=env, capture_output=True,
                                 text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise BuildError(f"the build took more than {timeout:.0f} s and was stopped") from None
        if ran.returncode != 0:
            complaint = [line for line in (ran.stderr or ran.stdout).splitlines() if line.strip()]
            raise BuildError("the build failed: " + (complaint[-1].strip() if complaint else f"exit {ran.returncode}"))
        staging = Path(tempfile.mkdtemp(prefix=f"{target.name}.", dir=target.parent))
        try:
            for module in MODULES:
                made = _extension(tree, module)
                if not made.is_file():
                    raise BuildError(f"the build made no extension for {module}")
                placed = _extension(staging, module)
                placed.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(made, placed)
                os.chmod(placed, 0o700)
            import Cython
            (staging / MANIFEST).write_text(json.dumps({
                "key": key, "modules": list(MODULES), "python": sys.version, "cython": Cython.__version__,
                "directives": DIRECTIVES}, indent=1), encoding="utf-8")
            os.chmod(staging, 0o700)
            try:
                os.replace(staging, target)
            except OSError:   # another process placed the same build meanwhile
                if built(key) is None:
                    raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    done = built(key)
    if done is None:
        raise BuildError(f"the build could not be placed in {target}")
    return done


def clean() -> int:
    """Delete every build in the cache folder (of any version); how many there were."""
    import shutil
    from . import diskcache
    folder = diskcache.cache_dir()
    if folder is None:
        return 0
    removed = 0
    for entry in folder.glob("compiled-*"):
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
            removed += 1
    return removed
