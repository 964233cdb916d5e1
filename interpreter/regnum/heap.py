"""A run of many games, with what was loaded before it left out of the cyclic collector's way.

A loaded ruleset — its model, its generated code, the caches a load fills — and the modules
imported before it are tens of thousands of objects that outlive any run of games. Each full
collection of CPython's cyclic garbage collector walks every one of them again, although none
is garbage, and games that keep values across moves (the indexes of Kingdom Builder) set off
such collections. Frozen for the length of a run (`gc.freeze`), they are left out; unfrozen
after it, anything among them that became garbage is collected as before, so nothing is kept
longer than the run. Kingdom Builder's games take 3 % less CPU time so (docs/performance.md,
the twenty-third step).

Within a run the collector also waits for more new objects before it walks the youngest
(`YOUNG`, CPython's default is 700): a game makes and drops many lists, dicts and tuples,
freed as soon as they are dropped (none of them ever formed a cycle in the bundled games),
so a walk every 700 of them found nothing to collect. Cyclic garbage, should any be made,
is still collected, a little later. Put back as it was after the run.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager

# False: runs leave the collector as it is (tests compare the two).
FREEZE = True
# New container objects the collector waits for before it walks the youngest, within a run.
YOUNG = 50_000
_depth = 0   # runs within runs (a fuzz that simulates): frozen by the first, unfrozen by it
_threshold = None   # the collector's thresholds before the outer run


@contextmanager
def frozen_for_run():
    """Within: the objects alive when it began are frozen out of the collector's walks, and
    the youngest objects are walked every YOUNG new ones."""
    global _depth, _threshold
    if not FREEZE:
        yield
        return
    _depth += 1
    if _depth == 1:
        gc.freeze()
        _threshold = gc.get_threshold()
        gc.set_threshold(max(YOUNG, _threshold[0]), *_threshold[1:])
    try:
        yield
    finally:
        _depth -= 1
        if not _depth:
            gc.set_threshold(*_threshold)
            gc.unfreeze()
