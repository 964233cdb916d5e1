"""`regnum bench`'s warm load is the median of nine loads in the process by default: one slow
moment of a shared machine moved a median of three by half (Kingdom Builder's 36.8 ms read as
47.8 and 54.2 ms in slow hours, against the target of 50)."""
from __future__ import annotations

import itertools

from regnum import benchmark, resources

DURATIONS = [0.050, 0.030, 0.031, 0.032, 0.090, 0.033, 0.034, 0.035, 0.080]


def test_the_warm_figure_is_the_median_of_nine_loads():
    ticks = itertools.chain.from_iterable((10.0 * i, 10.0 * i + d) for i, d in enumerate(DURATIONS))
    times = benchmark.load_times(resources.find_ruleset("kings_kilt", ()), cold_runs=0,
                                 clock=lambda: next(ticks))
    assert times["warm_runs"] == 9
    assert round(times["warm_ms"], 6) == 34.0
    assert times["cold_ms"] is None and times["cold_runs"] == 0
