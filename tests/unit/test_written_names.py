"""What the compiler reads as written by some statement (compiler/memo.written: the names a
`set` or `add` targets, and the fields it sets), which a kept def may not read. Every load
finds them; the walk goes into declarations and statements and skips expressions, which hold
no statement. The same names as a walk through every node, for every bundled ruleset and
variant and for the rulesets the tests write."""
from __future__ import annotations

from pathlib import Path

import pytest

import regnum
from regnum import ast
from regnum.compiler import memo

from toy_rules import load

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"] + sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "rulesets" / "variants").glob("*.rules"))


def _every_statement(node):
    """Every set/add under `node`, through every field of every node (the walk as it was)."""
    if isinstance(node, (ast.SetStmt, ast.AddStmt)):
        yield node
    if isinstance(node, (tuple, list)):
        for item in node:
            yield from _every_statement(item)
    elif hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:
            if name != "span":
                yield from _every_statement(getattr(node, name))


def _by_every_node(program) -> tuple[set, set]:
    """memo.written with its walk replaced by one through every node."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(memo, "_statements", _every_statement)
        return memo.written(program)


@pytest.mark.parametrize("name", BUNDLED)
def test_the_bundled_rulesets_written_names_are_every_nodes(name):
    program = regnum.load(name).program
    assert memo.written(program) == _by_every_node(program)


def test_kingdom_builders_written_names():
    names, fields = memo.written(regnum.load("kingdom_builder").program)
    assert fields == {"taken_on", "used"}
    assert {"builds_left", "chosen", "game_ending", "goals", "gold"} <= names


def test_statements_in_every_place_a_statement_stands(tmp_path):
    # Statements under a rule, a phase, an action, a trigger, a setup, the flow; nested in
    # if/elif/else, loops, repeat, repeat until, while and simultaneously; none in defs or clauses.
    program = load(tmp_path, """
    game toy "Toy"
    players 2..2
    piece stone:
        owner: player
        mark: int = 0
        seen: bool = false
    zone pool per player: public
    zone heap: public
    var a: int = 0
    var b: int = 0
    var c: int = 0
    var d: int = 0
    var e: int = 0
    var f: int = 0
    var g: int = 0
    var h per player: int = 0
    var t: int = 0
    def untouched() = a + b
    setup:
        set a = 1
        for p in players:
            create 2 stone(owner: p) in pool(p)
    flow:
        repeat 2 times:
            if a > 5:
                set b = 1
            elif a > 3:
                add 1 to c
            else:
                while d < 1:
                    add 1 to d
        repeat until e > 0:
            set e = 1
        simultaneously for p in players:
            add 1 to h(p)
            ask p to put
        run tidy()
    rule tidy():
        for s in heap:
            set s.mark = 2
    phase later:
        set f = 1
    action put():
        require some: count(pool(player)) > 0 and untouched() >= 0 else "none left"
        move 1 from pool(player) to heap
        set g = 2
    trigger watch when s enters heap:
        set s.seen = true
        subtract 1 from t
    """).program
    names, fields = memo.written(program)
    assert (names, fields) == _by_every_node(program)
    assert names == {"a", "b", "c", "d", "e", "f", "g", "h", "t"}
    assert fields == {"mark", "seen"}
