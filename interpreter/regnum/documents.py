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
              limits: Limits | None = None, members: "MembersRead | None" = None):
    """Parse a log or saved game, refusing what would cost more than its size: more than
    `limits.json_bytes` bytes, arrays and objects nested deeper than `limits.json_depth`
    (measured before parsing, in linear time, because json.loads recurses), numbers with more
    digits than any number a game holds, NaN or Infinity, and a key twice in one object.
    `members`: the members of one object of the document as an earlier read found them,
    taken as read where this text has them again (see MembersRead)."""
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
    if members is not None:
        data = members.walk(text, _scanner(parse_int))
        if data is not None:
            return data
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


# ── a document read again ──

_SCANNERS: dict = {}


def _scanner(parse_int):
    """json's own scanner of one value at an index (`scan(text, at)` -> (value, end)), reading
    as read_json's json.loads does: made once for each way of reading whole numbers."""
    scan = _SCANNERS.get(parse_int)
    if scan is None:
        scan = _SCANNERS[parse_int] = json.JSONDecoder(
            parse_int=parse_int, parse_constant=_no_constant, object_pairs_hook=_object).scan_once
    return scan


class Member:
    """A member's value and the text it was read from (an array or an object)."""

    __slots__ = ("text", "value")

    def __init__(self, text: str, value):
        self.text = text
        self.value = value


# A member's text shorter than this is read again rather than kept (comparing costs as much).
MEMBER_KEPT_FROM = 64


class MembersRead:
    """The members of the object `inner` of a document (a saved game's "state"), as the last
    read of such a document found them, for the next one: the fuzzer reads a game back at every
    step, and most of its state's parts are the ones it read a step before.

    A text laid out as `canonical_json` writes it (no space, each member once) is read member
    by member with json's own scanner, as json.loads reads it; a member of `inner` whose text
    there is the text of a kept member is taken as read — the same value, not read again. That
    accepts what json.loads accepts and gives the same values: a kept text is an array or an
    object, whose end is its closing bracket, read before under the same limits (read_json
    measures the nesting and the digits of the whole text first, as it does for any text);
    the text around it is read as it would be. Anything else (a space, a key twice, a text
    the scanner refuses) is read by json.loads, which says what is wrong.

    After a read that walked, `found` holds the members of `inner` kept for the next read
    (those at least MEMBER_KEPT_FROM characters long) and `taken` the names of those taken as
    kept; both are empty after a read that did not walk. A kept value is shared by every
    document it is taken into: readers copy what they change (State.from_dict)."""

    def __init__(self, inner: str, kept: "dict[str, Member] | None" = None):
        self.inner = inner
        self.kept = kept or {}
        self.found: dict[str, Member] = {}
        self.taken: frozenset = frozenset()

    def walk(self, text: str, scan) -> dict | None:
        """The document `text` holds, read member by member; None when it is not laid out so."""
        self.found, self.taken = {}, frozenset()
        found: dict = {}
        taken: list = []
        try:
            data, at = self._object(text, 0, scan, found, taken, False)
        except (StopIteration, IndexError, ValueError, RecursionError):   # _Refused is a ValueError
            return None
        if data is None or at != len(text):
            return None
        self.found, self.taken = found, frozenset(taken)
        return data

    def _object(self, text: str, at: int, scan, found: dict, taken: list, inner: bool):
        """(the object at `at`, the index after it), or (None, at) when it is laid out
        otherwise. In the object `inner` (`inner` true), kept members are taken and the
        others noted in `found`."""
        if text[at] != "{":
            return None, at
        at += 1
        out: dict = {}
        if text[at] == "}":
            return out, at + 1
        kept = self.kept if inner else None
        while True:
            if text[at] != '"':
                return None, at
            key, at = scan(text, at)
            if text[at] != ":":
                return None, at
            at += 1
            if not inner and key == self.inner and text[at] == "{":
                value, end = self._object(text, at, scan, found, taken, True)
                if value is None:
                    return None, end
            else:
                member = kept.get(key) if kept else None
                if member is not None and text.startswith(member.text, at):
                    value, end = member.value, at + len(member.text)
                    taken.append(key)
                    found[key] = member
                else:
                    value, end = scan(text, at)
                    if inner and end - at >= MEMBER_KEPT_FROM and text[at] in "[{":
                        found[key] = Member(text[at:end], value)
            if key in out:
                return None, at   # a key twice: json.loads refuses it, and says so
            out[key] = value
            at = end
            c = text[at]
            at += 1
            if c == "}":
                return out, at
            if c != ",":
                return None, at


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
                  format_name: str, members: MembersRead | None = None) -> dict:
    """A log or saved game as a JSON object, from its text (read_json, with `members`) or from
    Python objects (check_depth), refused unless it is an object that names its format."""
    if isinstance(data, (str, bytes)):
        data = read_json(data, what, error, limits, members)
    else:
        check_depth(data, what, error, limits)
    if not isinstance(data, dict):
        raise error(f"a {what} must be a JSON object, not {type(data).__name__}")
    if "format" not in data:
        field = "state" if error is StateError else "log"
        raise error(f"{field} field 'format': missing (a {what} says which format it follows: "
                    f"{format_name!r})")
    return data
