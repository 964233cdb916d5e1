"""What the checker keeps to go faster: made types, and the method for each node type.

Kept things must never change an answer: a kept type equals a new one, a full cache
is emptied and still answers, and a subclass of a checker dispatches to its own methods.
"""
from __future__ import annotations

from regnum import ast
from regnum.check import types as T
from regnum.check.exprs import ExprChecker, Scope
from regnum.check.report import QuietReport
from regnum.check.symbols import Symbols
from regnum.program import Program
from regnum.source import NO_SPAN


def test_a_type_made_twice_is_kept_and_equals_a_new_one():
    board = T.node_of("land")
    assert T.list_of(board) is T.list_of(board) == T.Ty("list", item=T.Ty("node", name="land"))
    assert T.member_of("colour") == T.Ty("member", name="colour")
    assert T.zone_of("hand", frozenset({"a"})) == T.Ty("zone", name="hand", pieces=frozenset({"a"}))
    assert T.zone_of("hand", frozenset()) != T.zone_of("hand", None)
    assert T.piece_of(["a", "b"]) == T.Ty("piece", pieces=frozenset({"a", "b"}))
    assert T.piece_of(None) == T.ANY_PIECE
    assert T.item_of(T.zone_of("hand", frozenset({"a"}))) == T.piece_of({"a"})


def test_the_kept_types_are_bounded(monkeypatch):
    monkeypatch.setattr(T, "_MADE_MOST", 10)
    made = [T.node_of(f"b{i}") for i in range(25)]
    assert len(T._MADE) <= 10
    assert [t.name for t in made] == [f"b{i}" for i in range(25)]
    assert T.node_of("b3") == made[3]


def test_a_subclass_dispatches_to_its_own_methods():
    class Louder(ExprChecker):
        def _IntLit(self, node, scope):
            return T.STR

    program = Program(path="x.rules", text_hash="")
    node = ast.IntLit(NO_SPAN, 3)
    plain = ExprChecker(Symbols(program), QuietReport())
    louder = Louder(Symbols(program), QuietReport())
    assert plain.infer(node, Scope()) == T.INT
    assert louder.infer(node, Scope()) == T.STR
    assert plain.infer(node, Scope()) == T.INT


def _name(name: str):
    return ast.Name(NO_SPAN, name)


def test_free_names_are_kept_per_node_and_bound_set():
    from regnum.check import walk

    node = ast.Call(NO_SPAN, "f", NO_SPAN, (_name("x"), _name("y")))
    everything = walk.free_names(node)
    assert [(n, call) for n, _, call in everything] == [("f", True), ("x", False), ("y", False)]
    assert walk.free_names(node) is everything                       # kept
    assert [n for n, _, _ in walk.free_names(node, frozenset({"x"}))] == ["f", "y"]   # another bound set
    assert [n for n, _, _ in walk.free_names(node, {"y"})] == ["f", "x"]              # a plain set is fine
    other = ast.Call(NO_SPAN, "g", NO_SPAN, (_name("x"),))
    assert [n for n, _, _ in walk.free_names(other)] == ["g", "x"]


def test_the_kept_free_names_are_bounded(monkeypatch):
    from regnum.check import walk

    monkeypatch.setattr(walk, "_KEPT_MOST", 5)
    nodes = [_name(f"n{i}") for i in range(12)]
    assert [walk.free_names(n)[0][0] for n in nodes] == [f"n{i}" for i in range(12)]
    assert len(walk._KEPT) <= 5
    assert walk.free_names(nodes[0])[0][0] == "n0"


def test_a_data_file_type_is_kept_per_node():
    program = Program(path="x.rules", text_hash="")
    checker = ExprChecker(Symbols(program), QuietReport())
    ints = ast.DataFile(NO_SPAN, "a.json", [1, 2, 3])
    texts = ast.DataFile(NO_SPAN, "a.json", {"a": "x"})
    assert checker.infer(ints, Scope()) == T.list_of(T.INT)
    assert checker.infer(texts, Scope()).item == T.STR
    assert checker.infer(ints, Scope()) == T.list_of(T.INT)
