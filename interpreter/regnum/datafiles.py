"""Data files: `const NAME from "data/file.json"` reads a JSON or YAML file beside the ruleset.

A data file is untrusted input like the ruleset itself: it is read only from the ruleset's
own folder (or below it) or a folder of the rules path (confine.py), it is size-limited, and whatever is wrong with it — a syntax error,
a number with a fraction, a value the language has no type for — is reported as a diagnostic
that points into the file, never as a traceback.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from . import confine, loading
from .diagnostics import Diagnostic, RulesetError
from .source import SourceRegistry, Span

MAX_BYTES = 10_000_000
MAX_DEPTH = 100
MAX_VALUES = 1_000_000     # values in all (YAML aliases can make a small file stand for a huge tree)
SUFFIXES = (".json", ".yaml", ".yml")


def _error(code: str, message: str, span: Span, hint: str | None = None) -> RulesetError:
    return RulesetError([Diagnostic(code, "error", message, span, hint)])


def load(folder: Path, relative: str, span: Span, display_folder: str,
         search: tuple[Path, ...] = ()) -> tuple[object, str]:
    """(value, digest) of the data file `relative` to `folder` (or to a folder of the rules path
    `search`, see confine.py); raises RulesetError (E008, E009)."""
    path = Path(relative)
    if path.is_absolute() or not relative:
        raise _error("E008", f"a data file is named relative to the ruleset, not {relative!r}", span,
                     'write for example: const boards from "data/boards.json"')
    if path.suffix.lower() not in SUFFIXES:
        raise _error("E008", f"data file {relative!r} is neither JSON nor YAML", span,
                     f"name it with one of: {', '.join(SUFFIXES)}")
    try:
        target = confine.find_data(folder, relative, search, SUFFIXES)
    except confine.Refused as refused:
        if refused.code == "not-found":
            loading.asked_for(folder / path)   # where it is first looked for: it may appear
        hint = confine.DATA_HINT if refused.code == "outside" else refused.hint
        raise _error("E008", refused.message, span, hint) from None
    except (ValueError, OSError) as err:  # a NUL in the name…
        raise _error("E008", f"data file {relative!r} cannot be named: {err}", span) from None
    loading.asked_for(target)
    try:
        if target.exists() and not target.is_file():
            raise _error("E008", f"data file {relative!r} is not a regular file", span)
        size = target.stat().st_size
        if size > MAX_BYTES:
            raise _error("E008", f"data file {relative!r} has {size} bytes, more than the limit of "
                         f"{MAX_BYTES}", span)
        raw = target.read_bytes()
    except OSError as err:
        raise _error("E008", f"cannot read data file {relative!r}: {err.strerror or err}", span) from None
    if target.is_relative_to(folder.resolve()):
        display = f"{display_folder}/{relative}" if display_folder not in ("", ".") else relative
    else:   # found on the rules path
        display = confine.display(target)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise _error("E009", f"data file {relative!r} is not UTF-8 text (byte {err.start})",
                     Span(display, 1, 1, 1, 2)) from None
    SourceRegistry.remember(display, text)
    value = _parse(text, target.suffix.lower(), display)
    _check(value, "", display, span, 0, [0])
    return value, hashlib.sha256(raw).hexdigest()[:16]


def _parse(text: str, suffix: str, display: str):
    if suffix == ".json":
        try:
            return json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as err:
            raise _error("E009", f"malformed JSON: {err.msg}", Span(display, err.lineno, err.colno,
                                                                    err.lineno, err.colno + 1)) from None
        except RecursionError:
            raise _error("E009", "the data is nested too deeply", Span(display, 1, 1, 1, 2)) from None
        except ValueError as err:
            raise _error("E009", str(err), Span(display, 1, 1, 1, 2)) from None
    import yaml
    try:
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        raise _error("E009", f"malformed YAML: {err.problem or err.context}",
                     Span(display, line, column, line, column + 1)) from None
    except (yaml.YAMLError, RecursionError, ValueError) as err:
        raise _error("E009", f"malformed YAML: {str(err).split(';')[0][:120]}",
                     Span(display, 1, 1, 1, 2)) from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a value of the language")


def _check(value, where: str, display: str, span: Span, depth: int, seen: list) -> None:
    """Every value must be one the language has: whole numbers, texts, booleans, none, lists
    and maps (with text or number keys)."""
    here = where or "the top level"
    if depth > MAX_DEPTH:
        raise _error("E009", f"data file {display}: nested more than {MAX_DEPTH} deep at {here}", span)
    seen[0] += 1
    if seen[0] > MAX_VALUES:
        raise _error("E009", f"data file {display}: more than {MAX_VALUES} values", span,
                     "a YAML alias repeats what it names: the data it stands for counts")
    if value is None or type(value) in (bool, str):
        return
    if type(value) is int:
        if abs(value) >= 2 ** 62:
            raise _error("E009", f"data file {display}: the number at {here} is too large", span)
        return
    if type(value) is list:
        for i, item in enumerate(value):
            _check(item, f"{where}[{i}]", display, span, depth + 1, seen)
        return
    if type(value) is dict:
        for key, item in value.items():
            if type(key) not in (str, int):
                raise _error("E009", f"data file {display}: the key {key!r} at {here} is neither a text "
                             "nor a whole number", span)
            _check(item, f"{where}.{key}" if type(key) is str else f"{where}[{key}]", display, span, depth + 1,
                   seen)
        return
    what = "a number with a fraction" if type(value) is float else f"a {type(value).__name__}"
    raise _error("E009", f"data file {display}: the value at {here} is {what}, which the language "
                 "does not have", span, "use whole numbers, texts, booleans, lists and maps")
