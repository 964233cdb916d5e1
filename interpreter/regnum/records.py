"""Frozen, slotted dataclasses made for less at start-up: the syntax tree's node classes.

``dataclass(frozen=True, slots=True)`` writes the source of six methods for each class
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``) and
compiles each with ``exec`` when the class is made, in every process: for the syntax tree's
seventy-odd node classes that was 28 ms of CPU, a quarter of ``import regnum`` and a seventh
of a whole ``regnum check``. ``record`` writes and compiles ``__init__`` alone; the other
methods are shared functions that read the class's field names. The class is still a
dataclass made by ``dataclasses`` itself (``fields``, ``replace``, ``is_dataclass`` and
``__match_args__`` are its own), and behaves as the frozen one did: the same equality, the
same hash values, the same ``repr``, assignment and deletion refused with
``FrozenInstanceError``, and pickling and copying that go around the refusal. Only
``__dataclass_params__`` differs, since ``dataclasses`` is told not to write those methods.
"""
from __future__ import annotations

import dataclasses
from operator import attrgetter

__all__ = ["record"]


def record(cls: type) -> type:
    """``cls`` as ``dataclass(frozen=True, slots=True)`` would make it. Fields are the class's
    own annotations, in order; a default is a plain value or ``field(default=…)``."""
    if any(dataclasses.is_dataclass(base) for base in cls.__mro__[1:]):
        raise TypeError(f"{cls.__name__}: a record does not inherit fields")
    names = tuple(cls.__dict__.get("__annotations__", {}))
    defaults = {}
    for name in names:
        if name in cls.__dict__:
            value = cls.__dict__[name]
            if isinstance(value, dataclasses.Field):
                if value.default is dataclasses.MISSING:
                    raise TypeError(f"{cls.__name__}.{name}: a record's default is a value, not a factory")
                value = value.default
            if type(value).__hash__ is None:   # as dataclasses refuses a list, a dict, a set
                raise TypeError(f"{cls.__name__}.{name}: a record's default is a value that cannot change, "
                                f"not a {type(value).__name__}")
            defaults[name] = value
    fields = _fields(names)
    cls.__init__ = _init(cls, names, defaults)
    cls.__eq__ = _eq(fields)
    cls.__hash__ = _hash(fields)
    cls.__repr__ = _repr
    cls.__setattr__ = _refuse_assignment
    cls.__delattr__ = _refuse_deletion
    cls.__getstate__ = _getstate
    cls.__setstate__ = _setstate
    if not cls.__dict__.get("__doc__"):
        cls.__doc__ = _signature_text(cls, names, defaults)
    return dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=True)


def _fields(names: tuple[str, ...]):
    """A function from an instance to the tuple of its field values, as the methods that
    ``dataclasses`` writes compare and hash them."""
    if not names:
        return lambda self: ()
    if len(names) == 1:
        name = names[0]
        return lambda self: (getattr(self, name),)
    return attrgetter(*names)


def _init(cls: type, names: tuple[str, ...], defaults: dict):
    """The one method written and compiled per class: it sets the slots directly, as a
    frozen dataclass's ``__init__`` does."""
    params = ", ".join(f"{name}=_default_{name}" if name in defaults else name for name in names)
    body = "".join(f"\n    _set(self, {name!r}, {name})" for name in names) or "\n    pass"
    namespace = {"_set": object.__setattr__, **{f"_default_{name}": value for name, value in defaults.items()}}
    exec(f"def __init__(self{', ' if params else ''}{params}):{body}", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {**{name: cls.__annotations__[name] for name in names}, "return": None}
    return init


def _eq(fields):
    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return fields(self) == fields(other)
        return NotImplemented
    return __eq__


def _hash(fields):
    def __hash__(self):
        return hash(fields(self))
    return __hash__


def _repr(self) -> str:
    values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
    return f"{self.__class__.__qualname__}({values})"


def _refuse_assignment(self, name, value):
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_deletion(self, name):
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self) -> list:
    return [getattr(self, name) for name in self.__match_args__]


def _setstate(self, state: list) -> None:
    for name, value in zip(self.__match_args__, state):
        object.__setattr__(self, name, value)


def _signature_text(cls: type, names: tuple[str, ...], defaults: dict) -> str:
    """The docstring ``dataclasses`` gives a class without one, written without ``inspect``."""
    params = (f"{name}: {cls.__annotations__[name]!r}" + (f" = {defaults[name]!r}" if name in defaults else "")
              for name in names)
    return f"{cls.__name__}({', '.join(params)})"
