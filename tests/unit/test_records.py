"""`regnum.records.record` makes the syntax tree's node classes as `dataclass(frozen=True,
slots=True)` does, with one method compiled per class instead of six: every node class
behaves as its frozen dataclass twin would."""
from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest

from regnum import ast
from regnum.build import build_module
from regnum.records import record
from regnum.resources import find_ruleset
from regnum.source import Span

SPAN = Span("t.rules", 3, 5, 3, 9)
NODES = sorted((cls for cls in vars(ast).values()
                if isinstance(cls, type) and cls.__module__ == ast.__name__ and dataclasses.is_dataclass(cls)),
               key=lambda cls: cls.__name__)


def twin(cls: type) -> type:
    """The class as the frozen dataclass it was written as, made by `dataclasses` alone."""
    namespace = {"__annotations__": dict(cls.__annotations__), "__qualname__": cls.__qualname__,
                 "__module__": cls.__module__}
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            namespace[f.name] = f.default
    return dataclasses.dataclass(frozen=True, slots=True)(type(cls.__name__, (), namespace))


def sample(cls: type, salt: int = 0) -> dict:
    """Field values for an instance: a span, then pairs that tell the fields apart; another
    salt changes every field."""
    span = Span("t.rules", 3 + salt, 5, 3 + salt, 9)
    return {f.name: span if f.name == "span" else (salt, i) for i, f in enumerate(dataclasses.fields(cls))}


def test_the_tree_has_its_node_classes():
    assert len(NODES) == 74
    assert {"IntLit", "ListComp", "MoveStmt", "Module"} <= {cls.__name__ for cls in NODES}


@pytest.mark.parametrize("cls", NODES, ids=lambda cls: cls.__name__)
def test_every_node_class_behaves_as_its_frozen_dataclass_twin(cls):
    other = twin(cls)
    assert [f.name for f in dataclasses.fields(cls)] == [f.name for f in dataclasses.fields(other)]
    assert [f.default for f in dataclasses.fields(cls)] == [f.default for f in dataclasses.fields(other)]
    assert cls.__slots__ == other.__slots__ and cls.__match_args__ == other.__match_args__
    assert not hasattr(cls(**sample(cls)), "__dict__")
    assert str(inspect.signature(cls)) == str(inspect.signature(other))
    if cls.__doc__.startswith(f"{cls.__name__}("):        # no docstring of its own: the dataclasses' one
        assert cls.__doc__ == other.__doc__

    mine, theirs = cls(**sample(cls)), other(**sample(other))
    assert repr(mine) == repr(theirs)
    assert hash(mine) == hash(theirs)
    assert mine == cls(**sample(cls)) and mine != cls(**sample(cls, 1))
    assert mine != theirs                          # another class, even with the same fields
    assert (mine == 1) is False and (mine != 1) is True

    positional = cls(*sample(cls).values())
    assert positional == mine
    name = dataclasses.fields(cls)[-1].name
    with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot assign to field '{name}'"):
        setattr(mine, name, 1)
    with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot delete field '{name}'"):
        delattr(mine, name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        mine.elsewhere = 1
    assert pickle.loads(pickle.dumps(mine)) == mine
    assert copy.copy(mine) == mine and copy.deepcopy(mine) == mine
    changed = dataclasses.replace(mine, **{name: "new"})
    assert getattr(changed, name) == "new" and changed != mine and getattr(mine, name) != "new"


def test_a_default_is_kept_plain_or_from_field():
    assert ast.ListComp(SPAN, None, "x", None, None).more == ()
    assert ast.Module(SPAN, ()).imports == ()
    with pytest.raises(TypeError):
        ast.IntLit(SPAN)


def test_a_record_without_fields_and_one_refused_a_factory():
    @record
    class Empty:
        pass

    assert Empty() == Empty() and hash(Empty()) == hash(())
    assert repr(Empty()) == "test_a_record_without_fields_and_one_refused_a_factory.<locals>.Empty()"
    with pytest.raises(TypeError, match="Listed.items: a record's default is a value, not a factory"):
        @record
        class Listed:
            items: list = dataclasses.field(default_factory=list)


def test_a_record_refuses_a_default_that_can_change():
    with pytest.raises(TypeError, match="Listed.items: a record's default is a value that cannot change, not a list"):
        @record
        class Listed:
            items: list = []


def test_a_record_does_not_inherit_fields():
    @record
    class Base:
        span: Span

    with pytest.raises(TypeError, match="Child: a record does not inherit fields"):
        @record
        class Child(Base):
            value: int


def test_a_loaded_ruleset_reads_the_same_trees():
    """The bundled game's syntax tree: every node equal to itself rebuilt from its fields,
    hashed alike, and the tree's repr reads as the dataclasses wrote it."""
    path = find_ruleset("kings_road")
    module = build_module(path.read_text(encoding="utf-8"), path.name)
    seen = 0
    stack = [module]
    while stack:
        node = stack.pop()
        if dataclasses.is_dataclass(node) and type(node).__module__ == ast.__name__:
            seen += 1
            again = type(node)(**{f.name: getattr(node, f.name) for f in dataclasses.fields(node)})
            assert again == node and hash(again) == hash(node) and again is not node
            stack.extend(getattr(node, f.name) for f in dataclasses.fields(node))
        elif isinstance(node, tuple):
            stack.extend(node)
    assert seen > 500          # 800 nodes at the time of writing
    assert repr(module).startswith(
        "Module(file='kings_road.rules', decls=(GameDecl(span=Span(file='kings_road.rules', line=4,")
