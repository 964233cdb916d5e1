"""Logs and saved games as JSON documents, before any model reads them.

Logs and saved games come from strangers (a bug report, a bot, a forum), so reading one is
bounded before anything else is done with it (`read_json`: size, nesting depth, digits of a
number, duplicate keys), and the errors name the field that is wrong. This part needs no
pydantic: `import regnum` does not pay for building the models (log.py, engine/saved.py,
about a third of the import) until a log or saved game is made or read.
"""
from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import TYPE_CHECKING

from .limits import DEFAULT as DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from pydantic import ValidationError

STATE_FORMAT = "regnum-state/1"
LOG_FORMAT = "regnum-log/1"


class LogError(ValueError):
    """A log that is not valid JSON or does not follow the log format; names the field."""


class StateError(LogError):
    """A saved game (`Game.to_json()`) that is not valid JSON, does not follow the state
    format or does not fit the ruleset; names the field path. A LogError, so that code
    catching LogError for every input file keeps working."""


# ── reading untrusted JSON ──

# A JSON string ("?: an unterminated one ends the text), as an unrolled loop: runs of plain
# characters between escapes (the same strings as `"(?:[^"\\]|\\.)*"?`, five times faster).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH = {"[": 1, "{": 1, "]": -1, "}": -1}
# The plain JSON values, by their exact types (a str subclass such as a zone reference is not
# one): what a game stores, writes and shows as it is.
PLAIN_TYPES = frozenset((str, int, bool, type(None)))


def all_plain(values) -> bool:
    """Whether every item of `values` is a plain JSON value (PLAIN_TYPES), their types
    gathered in C: a map or list of them (a table's value per cell) is taken whole."""
    return set(map(type, values)) <= PLAIN_TYPES

_MAX_DIGITS = 20   # 2^64 has 20 digits: no number in a log or state is longer


def read_json(text: "str | bytes", what: str, error: type[LogError] = LogError,
              limits: Limits | None = None):
    """Parse a log or saved game, refusing what would cost more than its size: more than
    `limits.json_bytes` bytes, arrays and objects nested deeper than `limits.json_depth`
    (measured before parsing, in linear time, because json.loads recurses), numbers with more
    digits than any number a game holds, NaN or Infinity, and a key twice in one object."""
    limits = limits or DEFAULT_LIMITS
    size = len(text)
    if isinstance(text, str) and size * 4 > limits.json_bytes:
        size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.json_bytes:
        raise error(f"the {what} is {size:_} bytes; {limits.hint('json_bytes')}")
    if isinstance(text, bytes):
        raw = text
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise error(f"the {what} is not UTF-8 text ({err.reason} at byte {err.start})") from None
    else:
        raw = text.encode("utf-8", "surrogatepass")
    if _deeper_than(raw, text, limits.json_depth):
        raise error(f"the {what} nests arrays and objects more than {limits.json_depth} deep; "
                    f"{limits.hint('json_depth')}")
    # Every whole number is read by _parse_int only where some run of digits is long enough
    # for it to refuse one; elsewhere int() reads them, as it would.
    parse_int = _parse_int if _LONG_DIGITS in raw.translate(_DIGITS) else None
    try:
        return json.loads(text, parse_int=parse_int, parse_constant=_no_constant,
                          object_pairs_hook=_object)
    except json.JSONDecodeError as err:
        refusal = error(f"the {what} is not valid JSON: {err.msg} at line {err.lineno} "
                        f"column {err.colno}")
        refusal.json_error = err   # where, for a caller that prints FILE:LINE:COL
        raise refusal from None
    except _Refused as err:
        raise error(f"the {what} is not valid: {err}") from None
    except RecursionError:   # only with a json_depth set above Python's own recursion limit
        raise error(f"the {what} nests arrays and objects too deeply to be read") from None


# The bytes of a JSON text that make its nesting (the brackets, the quotes around strings, the
# backslashes that may escape a quote): every other byte, to delete (bytes.translate).
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"\\')
# Digits as "0", anything else as a space: a run of more digits than any number has is a
# run of that many zeros (digits inside strings too: then _parse_int reads the numbers,
# which it leaves as they are).
_DIGITS = bytes.maketrans(bytes(range(256)), bytes(48 if 48 <= b <= 57 else 32 for b in range(256)))
_LONG_DIGITS = b"0" * (_MAX_DIGITS + 1)
_ROUNDS = 16   # innermost pairs taken away at most (a saved game nests about 6 deep): linear time


def _deeper_than(raw: bytes, text: str, limit: int) -> bool:
    """Whether arrays and objects nest more than `limit` deep outside the strings of `text`
    (`raw` in UTF-8): the most brackets open at once, `[` and `{` alike, in linear time and
    without recursing. The usual text is measured in C: its structure (brackets and quotes,
    the rest deleted) has every string as `""` when no string holds a bracket, and then
    taking the innermost pairs `[]` away `limit` times leaves nothing when it nests no
    deeper (a string holding a bracket, a backslash, brackets that do not pair or nest past
    _ROUNDS: counted one by one, as the bracket sequence's highest running count)."""
    structure = raw.translate(None, _NOT_STRUCTURE)
    if b"\\" not in structure:
        brackets = structure.replace(b'""', b"")
        # Every quote gone: each went with the quote next to it, which pairs every string's
        # two quotes (the first quote can only go with the second, and so on).
        if b'"' not in brackets:
            brackets = brackets.replace(b"{", b"[").replace(b"}", b"]")
            for _ in range(min(limit, _ROUNDS)):
                if not brackets:
                    return False
                brackets = brackets.replace(b"[]", b"")
            if not brackets:
                return False
    # What lies outside the strings; with no backslash in the text no string holds an
    # escaped quote, and splitting at the quotes gives the same, sooner.
    outside = "".join(text.split('"')[0::2]) if "\\" not in text else _STRING.sub("", text)
    brackets = _NOT_BRACKET.sub("", outside)
    return bool(brackets) and max(accumulate(map(_DEPTH.__getitem__, brackets))) > limit


class _Refused(ValueError):
    pass


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > _MAX_DIGITS:
        raise _Refused(f"a number of {len(digits)} digits ({digits[:12]}…)")
    return int(digits)


def _no_constant(name: str):
    raise _Refused(f"{name} is not a number a game can hold")


def _object(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(f"the key {key!r} appears twice in one object")
            seen.add(key)
    return out


def field_path(loc) -> str:
    """A pydantic error location as a path people read: `moves[3].args.card`."""
    out = ""
    for part in loc:
        if type(part) is int:
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"


def first_error(err: ValidationError) -> tuple[str, str]:
    """(field path, message) of the first thing a model refused."""
    first = err.errors()[0]
    loc, message = tuple(first["loc"]), first["msg"]
    cause = first.get("ctx", {}).get("error")
    if isinstance(cause, BadValue):
        loc, message = loc + cause.where, cause.reason
    elif first["type"] == "missing":
        message = "missing"
    elif first["type"] == "value_error":   # a validator's own sentence, whole
        message = str(cause) if cause is not None else message.removeprefix("Value error, ")
    elif first["type"] != "extra_forbidden" and "input" in first:
        message = f"{message}, not {_show(first['input'])}"
    return field_path(loc), message


def _show(value) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 60 else text[:57] + "…"


class BadValue(ValueError):
    """A value that is not plain JSON of whole numbers; `where` is its path inside the value."""

    def __init__(self, where: tuple, reason: str):
        super().__init__(f"{field_path(where)}: {reason}")
        self.where = where
        self.reason = reason


def json_value(value, where: tuple = (), depth: int = DEFAULT_LIMITS.json_depth):
    """A move argument or stored value: JSON made of texts, whole numbers, true/false, null,
    lists and objects — no fraction (the language has none; 2.0 is not 2) — nested at most
    `depth` deep (comparing or printing a deeper value would recurse)."""
    if type(value) is dict and depth > 0:
        # The usual move's arguments: a map of plain texts, whole numbers, truth values and
        # nulls, accepted without the walk (a loaded game checks every move of its log).
        if all_plain(value.values()):
            return value
    stack = [(value, where)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, float):
            raise BadValue(at, f"{_show(item)} is not a whole number (regnum has no fractions)")
        if isinstance(item, (list, dict)):
            if len(at) - len(where) >= depth:
                raise BadValue(where, f"nests lists and objects more than {depth} deep")
            pairs = enumerate(item) if isinstance(item, list) else item.items()
            stack.extend((x, at + (k,)) for k, x in pairs)
        elif not isinstance(item, (str, int)) and item is not None:   # str: ZoneRef too
            raise BadValue(at, f"a {type(item).__name__} is not a JSON value")
    return value


def check_depth(data, what: str, error: type[LogError], limits: Limits | None = None) -> None:
    """A log or saved game handed over as Python objects, not text: the same depth bound
    `read_json` applies, checked without recursing."""
    limit = (limits or DEFAULT_LIMITS).json_depth
    stack = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if type(item) is dict or type(item) is list:
            if depth >= limit:
                raise error(f"the {what} nests arrays and objects more than {limit} deep; "
                            f"{(limits or DEFAULT_LIMITS).hint('json_depth')}")
            stack.extend((x, depth + 1) for x in (item.values() if type(item) is dict else item))


def read_document(data: "str | bytes | dict", what: str, error: type[LogError], limits: Limits | None,
                  format_name: str) -> dict:
    """A log or saved game as a JSON object, from its text (read_json) or from Python objects
    (check_depth), refused unless it is an object that names its format."""
    if isinstance(data, (str, bytes)):
        data = read_json(data, what, error, limits)
    else:
        check_depth(data, what, error, limits)
    if not isinstance(data, dict):
        raise error(f"a {what} must be a JSON object, not {type(data).__name__}")
    if "format" not in data:
        field = "state" if error is StateError else "log"
        raise error(f"{field} field 'format': missing (a {what} says which format it follows: "
                    f"{format_name!r})")
    return data
