"""Where the grammar, the stdlib and the bundled rulesets live.

A wheel carries them inside the package as ``regnum/_data/<kind>`` (hatchling's
``force-include``, see pyproject.toml). A checkout or an editable install has no ``_data``:
there they are the top-level folders of the repository, two levels above this file
(``interpreter/regnum/resources.py``). :func:`data_dir` looks in the package first and falls
back to the checkout, so the same code serves both.

Bundled rulesets are known by name: ``rulesets/kings_road.rules`` is ``kings_road`` (also
spelt ``kings-road``), and ``rulesets/variants/permanent_nobles.rules`` is
``permanent_nobles``.
"""
from __future__ import annotations

import difflib
from pathlib import Path

__all__ = ["KINDS", "data_dir", "bundled_rulesets", "bundled_names", "ruleset_name", "find_ruleset", "ruleset_label"]

KINDS = ("grammar", "stdlib", "rulesets")
RULES_SUFFIX = ".rules"

_PACKAGE_DIR = Path(__file__).resolve().parent
_CHECKOUT_ROOT = _PACKAGE_DIR.parent.parent


def data_dir(kind: str) -> Path:
    """The folder holding ``kind`` ("grammar", "stdlib" or "rulesets").

    The installed package's ``_data/<kind>`` when it exists, else the checkout's top-level
    folder of that name (which may be missing in an unusual layout; callers then get a
    FileNotFoundError naming the path when they open a file in it).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown data kind {kind!r}; expected one of {', '.join(KINDS)}")
    installed = _PACKAGE_DIR / "_data" / kind
    if installed.is_dir():
        return installed
    return _CHECKOUT_ROOT / kind


def checkout_root() -> Path:
    """The repository root when running from a checkout or an editable install."""
    return _CHECKOUT_ROOT


def bundled_rulesets() -> list[Path]:
    """Every ``*.rules`` file under the rulesets folder, recursively, sorted."""
    root = data_dir("rulesets")
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*" + RULES_SUFFIX) if p.is_file())


def _normalise(name: str) -> str:
    name = name.strip().replace("\\", "/").removesuffix(RULES_SUFFIX)
    return name.replace("-", "_").lower()


def ruleset_name(path: Path) -> str:
    """The bundled name of a ruleset file: its stem (``kings_road``)."""
    return path.name.removesuffix(RULES_SUFFIX) if path.name.endswith(RULES_SUFFIX) else path.stem


def bundled_names() -> dict[str, Path]:
    """Bundled rulesets by name, in path order.

    A file's name is its stem; top-level rulesets win over variants of the same stem, and
    a file whose stem is taken is named by its path below ``rulesets/`` instead
    (``variants/foo``).
    """
    root = data_dir("rulesets")
    paths = sorted(bundled_rulesets(), key=lambda p: (len(p.relative_to(root).parts), p))
    names: dict[str, Path] = {}
    for path in paths:
        name = ruleset_name(path)
        if name in names:
            name = path.relative_to(root).with_suffix("").as_posix()
        names[name] = path
    return dict(sorted(names.items(), key=lambda item: item[1]))


def find_ruleset(name_or_path: str | Path, search: "tuple[Path, ...]" = ()) -> Path:
    """Resolve a ruleset argument: an existing ``.rules`` file as given, else NAME.rules in a
    folder of the rules path ``search``, else a bundled ruleset by name.

    Names are matched without the ``.rules`` suffix, case-insensitively, with ``-`` and
    ``_`` alike, against the top-level rulesets, the variants, and paths relative to the
    rulesets folder (``variants/permanent_nobles``). Raises FileNotFoundError listing the
    bundled names (and the closest one) when nothing matches, and for a file whose name does
    not end in ``.rules``: no other file is ever read as a ruleset, so its lines can never be
    shown as syntax errors.
    """
    given = Path(name_or_path).expanduser()
    if given.is_file():
        try:
            target = given.resolve()
        except (OSError, RuntimeError):
            target = given
        if not given.name.endswith(RULES_SUFFIX) or not target.name.endswith(RULES_SUFFIX):
            raise FileNotFoundError(f"{name_or_path} is not a ruleset file (.rules)")
        return given
    if given.is_dir():
        raise FileNotFoundError(f"{name_or_path} is a folder, not a ruleset file")
    name = str(name_or_path).strip()
    if name and "/" not in name and "\\" not in name and not name.startswith("."):
        for folder in search:
            candidate = folder / (name.removesuffix(RULES_SUFFIX) + RULES_SUFFIX)
            try:
                if candidate.is_file() and candidate.resolve().is_relative_to(folder):
                    return candidate
            except (OSError, RuntimeError):   # a loop of links: not a ruleset
                continue
    names = bundled_names()
    wanted = _normalise(str(name_or_path))
    root = data_dir("rulesets")
    for name, path in names.items():
        if wanted in (_normalise(name), _normalise(path.relative_to(root).as_posix())):
            return path
    raise FileNotFoundError(_not_found_message(str(name_or_path), list(names)))


def _not_found_message(argument: str, names: list[str]) -> str:
    message = f"no ruleset file or bundled ruleset named '{argument}'"
    close = difflib.get_close_matches(_normalise(argument), names, n=1, cutoff=0.6)
    if close:
        message += f"; did you mean '{close[0]}'?"
    if names:
        message += "\nbundled rulesets: " + ", ".join(names)
    else:
        message += f"\n(no bundled rulesets found in {data_dir('rulesets')})"
    return message


def ruleset_label(rules, path: Path) -> str:
    """How results name a ruleset: a variant by its own name, a game by its game name."""
    return str(getattr(rules, "variant", None) or getattr(rules, "name", None) or ruleset_name(path))
