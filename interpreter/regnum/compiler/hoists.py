"""The values a generated lister or prefer computes at their first use and then only reads.

Such a value (a def call that reads no parameter, `black(current)`, or one several requires
of a choice make) is held in a local `hq<n>` that starts as `_UNSET`; each use reads
`(hq<n> if hq<n> is not _UNSET else <compute it>)`. Computing it takes one of two forms,
chosen once the function's whole text is known:

- an assignment expression at the use, `(hq<n> := value)`: the function needs nothing more,
  and its locals stay fast locals;
- a nested def `hf<n>()` that assigns the local through `nonlocal`, called at the use: the
  function then makes a closure per value at every call, and reads every local the closures
  read (the state's parts, the choices) through a cell. This is the form where an assignment
  expression cannot stand: inside a lambda, where it would assign the lambda's own local, or
  in a comprehension's source, where Python refuses it (the whole function is then written
  so, as before the thirty-third step); and the form of a value also kept in a table by the
  values it reads (listers._kept_by_values), whose def writes it there, and of the values
  such a def reads.

Both compute the same value at the same moment and charge the same steps. The text is
written in the first form, the value between marks, so that whatever rewrites the text
(state_reads, table_reads) sees and rewrites the value's source too; the marks are taken out,
or the value moved into its def, when the function is compiled.
"""
from __future__ import annotations

import re

# The marks: characters that can stand nowhere in Python source outside a literal, and that
# repr() escapes inside one, so that no text of a ruleset is taken for them and a mark left in
# fails to compile rather than running.
_OPEN, _CLOSE, DEFS = "\x01", "\x02", "\x03"
# A use whose value holds no other use (those inside are written first).
_INNERMOST = re.compile("\\(hq(\\d+) := \x01([^\x01\x02]*)\x02\\)")
_USES = re.compile("hq(\\d+) := \x01")

# A comment ending a line that names what the line was written from (the tags listers._tag
# and _tag_part write, which a profiler reads): a def's lines carry the one of the line that
# first calls it, so that its time is given there.
TAG = re.compile(r"  #@[a-z]+-\d+$", re.M)
_CALLED = re.compile(r"\bhf(\d+)\(\)")

# Whether a value is computed where it is used, where Python allows it (False: by its nested
# def always, the form of before; the tests compare the two).
INLINE = True


class Hoists:
    """The hoisted values of one generated function, and how its text is compiled."""

    def __init__(self):
        self.values: dict[int, str] = {}
        self.kept: dict[int, str] = {}   # number -> the line its def adds: the value kept in a table

    def use(self, number: int, value: str, put: str | None = None, kept: str | None = None) -> str:
        """The source of a use of value `number`, computed by `value`. With `put` ("table,
        key"), the value is also written into the table (a key of _UNSET: not written); with
        `kept` (a statement writing it into a table), it is computed by its nested def, which
        runs that statement after computing it, and so is every value it reads."""
        if put is not None:
            value = f"_m_put({put}, {value})"
        self.values[number] = value
        if kept is not None:
            self.kept[number] = kept
        return f"(hq{number} if hq{number} is not _UNSET else (hq{number} := {_OPEN}{value}{_CLOSE}))"

    def compile(self, g, source: str, filename: str) -> str:
        """Compile `source` (a function whose lines may hold uses, and a line DEFS where
        nested defs go) into g.ns, each value computed where it is used when Python allows
        it and nothing asks for its def; the source compiled."""
        if _OPEN in source and INLINE:
            lines = source.split("\n")
            if not any(_OPEN in line and ("lambda" in line or "def " in line) for line in lines):
                written = self._written(source, self._by_defs())
                try:
                    code = g.compiled(written, filename)
                except SyntaxError:   # a use in a comprehension's source
                    pass
                else:
                    exec(code, g.ns)
                    return written
        written = self._written(source, set(self.values)) if _OPEN in source else _without_defs(source)
        exec(g.compiled(written, filename), g.ns)
        return written

    def _by_defs(self) -> set[int]:
        """The values computed by their nested defs: those kept in a table, and those their
        values read (an assignment expression in a def would assign the def's own local)."""
        out, todo = set(), list(self.kept)
        while todo:
            number = todo.pop()
            if number not in out:
                out.add(number)
                todo += [int(n) for n in _USES.findall(self.values.get(number, ""))]
        return out

    def _written(self, source: str, by_defs: set[int]) -> str:
        """`source` with the values in `by_defs` computed by calls of their nested defs,
        written where DEFS is, and the others where they are used."""
        defs: dict[int, str] = {}

        def write(match) -> str:
            number = int(match[1])
            if number not in by_defs:
                return f"(hq{number} := {match[2]})"
            defs.setdefault(number, match[2])
            return f"hf{number}()"
        while True:
            source, found = _INNERMOST.subn(write, source)
            if not found:
                break
        lines = source.split("\n")
        at = next(i for i, line in enumerate(lines) if line.strip() == DEFS)
        indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
        tags: dict[int, str] = {}   # a def's number -> the tag of the first line calling it
        for line in lines if defs else ():
            if "hf" in line:
                for called in _CALLED.finditer(line):
                    if int(called[1]) not in tags:
                        tag = TAG.search(line)
                        tags[int(called[1])] = tag.group() if tag is not None else ""
        made = []
        for number in sorted(defs):
            body = [f"{indent}def hf{number}():", f"{indent}    nonlocal hq{number}",
                    f"{indent}    hq{number} = {defs[number]}"]
            if number in self.kept:
                body.append(f"{indent}    {self.kept[number]}")
            body.append(f"{indent}    return hq{number}")
            tag = tags.get(number, "")   # the def's own lines hold none
            made += [line + tag for line in body]
        lines[at:at + 1] = made
        return "\n".join(lines)


def _without_defs(source: str) -> str:
    return "\n".join(line for line in source.split("\n") if line.strip() != DEFS)
