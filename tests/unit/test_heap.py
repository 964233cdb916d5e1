"""A run of games (simulate, fuzz, bench, any serial run of backends) freezes what was alive
when it began out of the cyclic collector's walks, and unfreezes it after: nothing stays
frozen once the run is over, however it ends, and a run within a run leaves the freezing to
the outer one. Within a run the collector waits for more new objects (heap.YOUNG) before it
walks the youngest; its thresholds are put back after."""
from __future__ import annotations

import gc

import pytest

import regnum
from regnum import backends, heap
from regnum.benchmark import bench_ruleset
from regnum.fuzz import fuzz
from regnum.simulate import simulate


@pytest.fixture(autouse=True)
def thawed():
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_a_run_freezes_what_was_alive_and_unfreezes_it_after():
    assert gc.get_freeze_count() == 0
    kept = [object() for _ in range(10)]   # noqa: F841 (alive when the run begins)
    with heap.frozen_for_run():
        frozen = gc.get_freeze_count()
        assert frozen > 10
        with heap.frozen_for_run():   # within: the outer run's
            assert gc.get_freeze_count() == frozen
        assert gc.get_freeze_count() == frozen
    assert gc.get_freeze_count() == 0


def test_a_run_waits_for_more_new_objects_and_puts_the_thresholds_back():
    before = gc.get_threshold()
    try:
        gc.set_threshold(900, 11, 12)
        with heap.frozen_for_run():
            assert gc.get_threshold() == (heap.YOUNG, 11, 12)
            with heap.frozen_for_run():   # within: the outer run's
                assert gc.get_threshold() == (heap.YOUNG, 11, 12)
            assert gc.get_threshold() == (heap.YOUNG, 11, 12)
        assert gc.get_threshold() == (900, 11, 12)
        with pytest.raises(ZeroDivisionError):
            with heap.frozen_for_run():
                1 // 0
        assert gc.get_threshold() == (900, 11, 12)
        gc.set_threshold(100_000, 11, 12)   # a program's own larger threshold is kept
        with heap.frozen_for_run():
            assert gc.get_threshold() == (100_000, 11, 12)
        assert gc.get_threshold() == (100_000, 11, 12)
    finally:
        gc.set_threshold(*before)


def test_switched_off_a_run_leaves_the_thresholds(monkeypatch):
    monkeypatch.setattr(heap, "FREEZE", False)
    before = gc.get_threshold()
    with heap.frozen_for_run():
        assert gc.get_threshold() == before


def test_a_run_that_fails_unfreezes_too():
    with pytest.raises(ZeroDivisionError):
        with heap.frozen_for_run():
            assert gc.get_freeze_count() > 0
            1 // 0
    assert gc.get_freeze_count() == 0
    with heap.frozen_for_run():   # and the next run freezes again
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_switched_off_a_run_freezes_nothing(monkeypatch):
    monkeypatch.setattr(heap, "FREEZE", False)
    with heap.frozen_for_run():
        assert gc.get_freeze_count() == 0
    assert gc.get_freeze_count() == 0


def _counting():
    """A progress callback that notes the objects frozen at each game."""
    seen = []
    return seen, lambda done, total: seen.append(gc.get_freeze_count())


def test_simulate_plays_its_games_frozen_and_unfreezes():
    rules = regnum.load("kings_road")
    seen, progress = _counting()
    result = simulate("kings_road", 2, 3, 1, jobs=1, rules=rules, progress=progress)
    assert len(result.games) == 3 and len(seen) == 3 and min(seen) > 1000
    assert gc.get_freeze_count() == 0


def test_a_serial_run_of_backends_is_frozen():
    seen = []
    out = backends.run_all(lambda: "built", (), lambda context, item: seen.append(gc.get_freeze_count()) or item * 2,
                           [1, 2, 3], workers=1)
    assert out == [2, 4, 6] and len(seen) == 3 and min(seen) > 0
    assert gc.get_freeze_count() == 0


def test_fuzz_plays_its_games_frozen_and_unfreezes(tmp_path):
    rules = regnum.load("kings_road")
    seen, progress = _counting()
    report = fuzz("kings_road", rules, games=2, seed=3, players=[2], workers=1, progress=progress,
                  failures_dir=tmp_path)
    assert report.games == 2 and len(seen) == 2 and min(seen) > 1000
    assert gc.get_freeze_count() == 0


def test_bench_times_both_sides_frozen_and_unfreezes():
    rules = regnum.load("kings_road")
    seen = []

    def clock():
        seen.append(gc.get_freeze_count())
        return float(len(seen))

    row = bench_ruleset("kings_road", rules, 2, rounds=2, games=1, clock=clock)
    assert row.rounds == 2 and seen[0] == 0   # the warm-up, before the run
    assert min(seen[2:]) > 1000               # every round
    assert gc.get_freeze_count() == 0
