"""Where a ruleset, a variant, a data file or a log may lead the interpreter to read.

Rulesets, variants, data files and logs come from strangers (DESIGN §5). Whatever file they
name, the interpreter reads it only if it lies, once `..` and links are resolved, inside one of
the allowed folders: the folder of the file that names it (and the folders below it), the
folders of the rules path (`--rules-path`, `REGNUM_RULES_PATH`, `regnum.load(rules_path=…)`)
and the bundled rulesets. A ruleset is read only from a `.rules` file, so a name that leads
to `/etc/passwd` or `/proc/self/environ` is refused before the file is opened: its content can
never come back as a syntax error.

Every decision here is made from the names and the file system's links, never from what a
refused file holds.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from . import resources

RULES_PATH_ENV = "REGNUM_RULES_PATH"
RULES_SUFFIX = resources.RULES_SUFFIX
# What Game.log writes in `ruleset` and `variant`: a game's or a variant's NAME (the bundled
# spelling with '-' is accepted too).
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


@dataclass(eq=False)
class Refused(Exception):
    """A name that leads nowhere the interpreter may read, or to nothing: a message for people."""

    code: str          # "outside", "not-rules", "not-found", "bad-name"
    message: str
    hint: str | None = None

    def __str__(self) -> str:
        return self.message


def rules_path(explicit: "Iterable[str | Path] | str | Path | None" = None) -> tuple[Path, ...]:
    """The folders of the rules path: those given (resolved), then those of REGNUM_RULES_PATH.

    A folder given explicitly must exist (ValueError otherwise: a typo should not silently
    hide a base); an entry of the environment variable that is not a folder is skipped, as
    PATH does."""
    if isinstance(explicit, (str, Path)):
        explicit = [explicit]
    folders: list[Path] = []
    for entry in explicit or ():
        folder = resolved(Path(entry).expanduser())
        if folder is None or not folder.is_dir():
            raise ValueError(f"rules path: {entry} is not a folder")
        folders.append(folder)
    for entry in os.environ.get(RULES_PATH_ENV, "").split(os.pathsep):
        if entry.strip():
            folder = resolved(Path(entry.strip()).expanduser())
            if folder is not None and folder.is_dir():
                folders.append(folder)
    return tuple(dict.fromkeys(folders))


def resolved(path: Path) -> Path | None:
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):   # a loop of links, a NUL in the name…
        return None


def allowed_folders(own: Path, search: Iterable[Path]) -> list[Path]:
    """The folders whose trees a file found from `own` may be in."""
    folders = [f for f in (resolved(own), *search, resolved(resources.data_dir("rulesets"))) if f]
    return list(dict.fromkeys(folders))


def inside(target: Path, folders: Iterable[Path]) -> bool:
    return any(target.is_relative_to(folder) for folder in folders)


def display(path: Path) -> str:
    """A path as people read it: relative to the working folder when below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


def _where(own: Path, search: Iterable[Path]) -> str:
    label = display(own)
    places = [label if label != "." else str(own.resolve())] + [display(f) for f in search]
    places.append("the bundled rulesets")
    return ", ".join(places[:-1]) + " and " + places[-1]


def _pick(candidates: list[Path], folders: list[Path], suffixes: tuple[str, ...],
          subject: str, place: str) -> Path | None:
    """The first candidate that is inside the allowed folders and exists; None when none
    exists. Raises Refused when one that exists is of another kind, or when none exists and
    one leads outside (so a refusal never tells whether a file outside exists)."""
    outside = None
    for candidate in candidates:
        target = resolved(candidate)
        if target is None:
            raise Refused("outside", f"{subject} cannot be followed (a loop of links, or a character "
                          "no file name may hold)")
        if not inside(target, folders):
            outside = outside or (candidate, target)
            continue
        try:
            if not target.exists():
                continue
            regular = target.is_file()
        except OSError:   # a name too long for the file system: there is no such file
            continue
        if target.suffix.lower() not in suffixes:
            raise Refused("not-rules", f"{subject} leads to {display(target)}, which is not a "
                          f"{_kind(suffixes)}")
        if not regular:
            raise Refused("not-rules", f"{subject} is not a regular file")
        return target
    if outside is not None:
        candidate, target = outside
        plain = Path(os.path.normpath(candidate.absolute()))
        lexical = (resolved(plain.parent) or plain.parent) / plain.name
        link = "" if lexical == target else f" (it is a link to {target})"
        raise Refused("outside", f"{subject} is outside {place} and the rules path{link}")
    return None


def _kind(suffixes: tuple[str, ...]) -> str:
    return "ruleset file (.rules)" if suffixes == (RULES_SUFFIX,) else "JSON or YAML file"


def is_rules_name(text: str) -> bool:
    return text.endswith(RULES_SUFFIX)


def find_base(variant_file: Path, base: str, quoted: bool, search: tuple[Path, ...]) -> Path:
    """The file of a variant's base. A bare name (`of kings_road`), or a quoted one without
    a folder or a suffix, is a bundled ruleset or NAME.rules in a folder of the rules path; a
    quoted `.rules` path is looked for beside the variant, then in each folder of the rules
    path, then among the bundled rulesets. Raises Refused (code "outside", "not-rules" or
    "not-found")."""
    own = variant_file.parent
    folders = allowed_folders(own, search)
    bundled = resources.data_dir("rulesets")
    if not quoted or _NAME.fullmatch(base):
        found = _pick([folder / (base + RULES_SUFFIX) for folder in search], folders, (RULES_SUFFIX,),
                      f"variant base '{base}'", "the variant's folder")
        found = found or resources.bundled_names().get(base.replace("-", "_"))
        if found is None:
            names = list(resources.bundled_names())
            from .diagnostics import did_you_mean
            raise Refused("not-found", f"variant base '{base}' not found",
                          did_you_mean(base, names) or
                          f"a name is a bundled ruleset ({', '.join(names)}) or NAME.rules in a folder "
                          "of the rules path (--rules-path, REGNUM_RULES_PATH)")
        return found
    if not is_rules_name(base):
        raise Refused("not-rules", f"variant base '{base}' is not a ruleset file (.rules)", BASE_HINT)
    relative = Path(base)
    if relative.is_absolute():
        candidates = [relative]
    else:
        candidates = [own / relative] + [folder / relative for folder in search] + [bundled / relative]
    try:
        found = _pick(candidates, folders, (RULES_SUFFIX,), f"variant base '{base}'", "the variant's folder")
    except Refused as refused:
        refused.hint = refused.hint or BASE_HINT
        raise
    if found is None:
        raise Refused("not-found", f"variant base '{base}' not found",
                      f"looked in {_where(own, search)}; add a folder with --rules-path or REGNUM_RULES_PATH")
    return found


BASE_HINT = ("a base is a bundled ruleset (variant NAME of kings_road) or a .rules file in the "
             "variant's folder or below it, or in a folder of --rules-path or REGNUM_RULES_PATH")
DATA_HINT = ("a ruleset reads data only from its own folder and the folders below it, and from the "
             "folders of --rules-path or REGNUM_RULES_PATH")


def find_data(folder: Path, relative: str, search: tuple[Path, ...], suffixes: tuple[str, ...]) -> Path:
    """The data file `relative` names: below the ruleset's folder, else below a folder of the
    rules path. Raises Refused ("outside", "not-rules", "not-found")."""
    name = Path(relative)
    candidates = [folder / name] + [root / name for root in search]
    found = _pick(candidates, allowed_folders(folder, search), suffixes, f"data file '{relative}'",
                  "the ruleset's folder")
    if found is None:
        raise Refused("not-found", f"cannot read data file '{relative}': no such file")
    return found


def find_logged(field: str, value: str, log_folder: Path, search: tuple[Path, ...]) -> list[Path]:
    """The files a log's `ruleset` or `variant` field may mean, best first: NAME.rules in the
    log's folder, then in each folder of the rules path, then the bundled ruleset NAME; or a
    `.rules` path below the log's folder or a folder of the rules path. Raises Refused ("bad-name",
    "outside", "not-rules", "not-found"); never opens a file."""
    folders = allowed_folders(log_folder, search)
    subject, place = f"log field '{field}': '{value}'", "the log's folder"
    if _NAME.fullmatch(value):
        found = []
        for folder in (log_folder, *search):
            try:
                path = _pick([folder / (value + RULES_SUFFIX)], folders, (RULES_SUFFIX,), subject, place)
            except Refused as refused:
                refused.hint = LOG_NAMES
                raise
            if path is not None:
                found.append(path)
        bundled = resources.bundled_names().get(value.replace("-", "_"))
        if bundled is not None:
            found.append(bundled)
        if not found:
            raise Refused("not-found", f"log field '{field}': no ruleset '{value}' found: looked for "
                          f"{value}{RULES_SUFFIX} in {_where(log_folder, search)}", LOG_HINT)
        return list(dict.fromkeys(found))
    if not is_rules_name(value):
        raise Refused("bad-name", f"{subject} is neither a ruleset name nor a .rules path", LOG_NAMES)
    relative = Path(value)
    candidates = [relative] if relative.is_absolute() else [log_folder / relative] + [f / relative for f in search]
    try:
        path = _pick(candidates, folders, (RULES_SUFFIX,), subject, place)
    except Refused as refused:
        refused.hint = LOG_NAMES
        raise
    if path is None:
        raise Refused("not-found", f"{subject} not found in {_where(log_folder, search)}", LOG_HINT)
    return [path]


LOG_HINT = "pass the ruleset with --ruleset, or its folder with --rules-path"
LOG_NAMES = ("a log names a bundled ruleset, or a .rules file in the log's folder or below it, or in a "
             "folder of --rules-path or REGNUM_RULES_PATH")
