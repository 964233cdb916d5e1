"""The values of defs kept for one state (see compiler/memo.py for which defs, and why).

Here, what lives with a state as a game runs: the kept values and who read which zone,
which the effects (engine/runtime.py) consult to drop what a change of a zone undoes.
Never part of the state's data: a copy or a loaded state starts with `EMPTY`.
"""
from __future__ import annotations

from collections import defaultdict

# An evaluation that read more zones than this is not kept: recording and dropping it
# would cost more than the evaluations it saves.
MOST_READS = 64
# A state lists at most this many readers of zones (a value per zone it read); past it, all
# values are forgotten (memory stays bounded, however long the game).
MOST_ENTRIES = 1 << 16

# Values kept: plain, immutable, and apart by type (`true` is not `1`: no bool as a key).
KEPT_VALUES = frozenset({bool, int, str, type(None)})
KEYED = frozenset({int, str, type(None)})


class Memo:
    """The values kept for one state: (def, arguments) -> (value, steps, zone keys read),
    and for each zone key the entries that read it (an entry may be listed more than once:
    dropping it twice costs nothing)."""

    __slots__ = ("entries", "readers", "size", "hits", "kept")

    def __init__(self):
        self.entries: dict = {}
        self.readers: dict = defaultdict(list)   # zone key -> the keys of the values that read it
        self.size = 0    # readers listed, all zones together (bounded: see keep)
        self.hits = 0    # values met again (tests read it: the path was taken)
        self.kept = 0    # values kept

    def keep(self, key, value, steps: int, reads: list) -> None:
        if type(value) not in KEPT_VALUES or len(reads) > MOST_READS:
            return
        if self.size >= MOST_ENTRIES:
            self.entries.clear()
            self.readers.clear()
            self.size = 0
        self.entries[key] = (value, steps, reads)
        self.kept += 1
        self.size += len(reads)
        readers = self.readers
        for zone in reads:
            readers[zone].append(key)

    def drop(self, zone) -> None:
        """A zone changed: forget every value that read it."""
        keys = self.readers.pop(zone, None)
        if keys:
            entries = self.entries
            for key in keys:
                entries.pop(key, None)


def read(reads: list, zones, key):
    """A zone read by a kept def's body where Python allows no assignment expression."""
    value = zones[key]
    reads.append(key)
    return value


class _NoState:
    """The zones of a context without a state (the budget constants are computed with):
    reading one fails as `c.state.zones` fails there."""

    def __getitem__(self, key):
        return None.zones   # AttributeError: 'NoneType' object has no attribute 'zones'


NO_STATE = _NoState()



# The memo of a state that has kept nothing yet: shared, never written (the first value a
# state keeps gives it a Memo of its own), so that reading it needs no test for none.
EMPTY = Memo()


def verify(value, steps, again, steps_again) -> None:
    if type(value) is not type(again) or value != again or steps != steps_again:
        raise AssertionError(f"a kept value went stale: {value!r} ({steps} steps) kept, "
                             f"{again!r} ({steps_again} steps) computed")


