"""regnum.backends.run_all on the local backend: results in item order whatever the number of
workers, progress as they come in, failures of a worker as one BackendError (a setup that
raises must not make the pool respawn its workers forever). The Ray backend is tested, when
Ray is installed, in tests/cli/test_ray_backend.py."""
from __future__ import annotations

import operator

import pytest

from regnum import backends
from regnum.backends import BackendError, BackendUnavailable, run_all


@pytest.mark.parametrize("workers", [1, 2])
def test_results_come_back_in_item_order(workers):
    items = list(range(40))
    seen = []
    results = run_all(str, ("ab",), operator.mul, items, workers=workers,
                      progress=lambda done, total: seen.append((done, total)))
    assert results == ["ab" * i for i in items]
    assert seen[-1] == (40, 40) and [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_one_worker_runs_in_this_process(monkeypatch):
    monkeypatch.setattr(backends, "_run_pool", lambda *args: pytest.fail("started a pool for one worker"))
    assert run_all(int, ("3",), operator.add, [1, 2], workers=1) == [4, 5]


def test_no_items_no_work():
    assert run_all(int, ("x",), operator.add, [], workers=2) == []


@pytest.mark.parametrize("workers", [1, 2])
def test_a_setup_that_raises_is_one_backend_error(workers):
    with pytest.raises(BackendError, match=r"worker setup failed: ValueError: invalid literal"):
        run_all(int, ("x",), operator.add, [1, 2, 3, 4], workers=workers)


@pytest.mark.parametrize("workers", [1, 2])
def test_work_that_raises_is_one_backend_error(workers):
    with pytest.raises(BackendError, match=r"^ZeroDivisionError: division by zero$"):
        run_all(int, ("1",), operator.truediv, [1, 2, 0, 4], workers=workers)


def test_an_unknown_backend_is_refused():
    with pytest.raises(BackendUnavailable, match="unknown backend 'dask'"):
        run_all(int, ("1",), operator.add, [1], backend="dask")
