"""Write a large, valid ruleset, to measure how reading and checking scale with size.

A ruleset written by a stranger may be megabytes long; parsing, building, merging,
checking and compiling it must stay linear in its size (issue 7). This generator writes
a realistic mix rather than one kind of declaration repeated: each section holds constants
(some unused, so there are warnings to report), an enum, a piece, zones and variables,
definitions calling each other, an action with requires, rules with nested blocks and
announce templates, and a phase; the flow runs the phases, one long expression on one line
sums a section's constants, and some sections sit on a long single line.

Usage:

    python benchmarks/big_ruleset.py OUT.rules [SIZE]     # SIZE in bytes: 1000000, 1MB, 400KB
    /usr/bin/time -v regnum check OUT.rules               # time and peak memory (max RSS)

The written file checks without errors (warnings only: W401 for the unused constants).
"""
from __future__ import annotations

import sys

HEADER = """\
# A generated ruleset (benchmarks/big_ruleset.py): many sections of every kind.
game big "Big generated ruleset"

players 2..4

piece token:
    owner: player
    level: int = 0

zone bank: public
"""


def section(i: int) -> str:
    """One section: about 1.7 kB of declarations that refer to each other."""
    terms = " + ".join(f"c{i}_{k}" for k in range(8))
    return f"""
# ── section {i} ──
const c{i}_0 = {i % 97}
const c{i}_1 = {i % 13 + 1}
const c{i}_2 = [1, 2, 3, {i % 7}]
const c{i}_3 = {{low: 1, high: {i % 5 + 2}}}
const c{i}_4 = {i % 3}
const c{i}_5 = {i % 11}
const c{i}_6 = "label {i}"
const c{i}_7 = {i % 17}
const c{i}_total = {terms.replace(f"c{i}_2", f"count(c{i}_2)").replace(f"c{i}_3", f"c{i}_3.high").replace(f"c{i}_6", "1")}
const c{i}_unused = c{i}_total * 2
enum kind{i}: k{i}_a, k{i}_b, k{i}_c

zone pool{i} per player: public
var v{i} per player: int = 0
var mode{i}: kind{i} = k{i}_a

def d{i}_limit(p) = c{i}_1 + v{i}(p) // 2
def d{i}_score(p) = count(m for m in pool{i}(p) where m.level >= d{i}_limit(p)) + sum(c{i}_2)
def d{i}_best(p) = if d{i}_score(p) > c{i}_3.high and mode{i} != k{i}_c then c{i}_total else c{i}_0 - 1

action act{i}(m in pool{i}(player)):
    label "raise {{m.level}} in {i}"
    require low{i}: m.level < c{i}_3.high + d{i}_limit(player) and v{i}(player) <= c{i}_total
        else "too high already"
    require turn{i}: mode{i} != k{i}_c or d{i}_score(player) == 0
    set m.level = m.level + 1
    add 1 to v{i}(player)
    run settle{i}(player)

rule settle{i}(p):
    if v{i}(p) > c{i}_1:
        for m in pool{i}(p) where m.level > c{i}_4:
            if m.level > c{i}_5 and mode{i} == k{i}_a:
                set mode{i} = k{i}_b
                announce "{{p}} tips section {i} with {{m.level}}"
            elif m.level > c{i}_7:
                set m.level = m.level - 1
            else:
                pass
    elif v{i}(p) == 0:
        create 1 token(owner: p, level: c{i}_0 % 3) in pool{i}(p)
    else:
        add d{i}_best(p) to score(p)

phase ph{i}:
    for p in players where count(pool{i}(p)) > 0:
        ask p to act{i}
"""


def ruleset(size: int) -> str:
    """A ruleset of at most `size` bytes in UTF-8 (but at least one section), close to it."""
    tail = "\nwinner p: highest score(p) then shared\n"
    parts = [HEADER]
    flow = ["\nflow:\n", "    for p in players:\n", "        create 1 token(owner: p) in bank\n"]
    total = _bytes(HEADER) + _bytes(tail) + sum(map(_bytes, flow))
    i = 0
    while True:
        text = section(i)
        if i % 10 == 9:   # a long line: the totals of ten sections, four times over
            text += f"def long{i}() = " + " + ".join([f"c{j}_total" for j in range(i - 9, i + 1)] * 4) + "\n"
        run = f"    run ph{i}\n"
        if i and total + _bytes(text) + _bytes(run) > size:
            break
        parts.append(text)
        flow.append(run)
        total += _bytes(text) + _bytes(run)
        i += 1
    return "".join(parts + flow) + tail


def _bytes(text: str) -> int:
    return len(text.encode())


def parse_size(text: str) -> int:
    text = text.strip().upper().replace("_", "")
    for suffix, factor in (("KB", 1000), ("MB", 1000_000), ("K", 1000), ("M", 1000_000), ("B", 1)):
        if text.endswith(suffix):
            return int(float(text[:-len(suffix)]) * factor)
    return int(text)


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print(__doc__.split("Usage:")[1].strip().splitlines()[0].strip(), file=sys.stderr)
        return 2
    size = parse_size(argv[1]) if len(argv) > 1 else 1_000_000
    text = ruleset(size)
    with open(argv[0], "w", encoding="utf-8") as out:
        out.write(text)
    print(f"wrote {argv[0]}: {len(text.encode()):_} bytes, {text.count(chr(10)):_} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
