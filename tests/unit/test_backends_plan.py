"""How the local backend spreads items: the plan of chunks (costliest first, shrinking towards
the end) as a pure function, the start method (fork only in a process that runs no other
thread), a context built in this process and inherited by forked workers, and results in item
order whatever the order the work went out in. No timing is asserted."""
from __future__ import annotations

import operator
import subprocess
import sys
import threading

import pytest

from regnum import backends
from regnum.backends import BackendError, plan, run_all

FORK = sys.platform.startswith("linux")


def test_a_plan_cuts_the_items_in_order_into_chunks_that_shrink_to_single_items():
    assert plan(40, 2) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10], [11, 12], [13, 14], [15, 16], [17, 18],
                           [19, 20], [21, 22], [23, 24], *[[i] for i in range(25, 40)]]
    assert plan(3, 2) == [[0], [1], [2]]
    assert plan(0, 2) == []


def test_a_plan_of_many_items_caps_its_chunks_and_ends_with_single_items():
    chunks = plan(1000, 2)
    sizes = [len(chunk) for chunk in chunks]
    assert sizes[:48] == [16] * 48 and max(sizes) == 16
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-12:] == [1] * 12
    assert [index for chunk in chunks for index in chunk] == list(range(1000))
    assert len(chunks) == 100


def test_a_plan_sends_the_costliest_items_first_ties_in_item_order():
    assert plan([1, 3, 2, 3, 0.5], 2) == [[1], [3], [2], [0], [4]]
    costs = [i % 4 for i in range(40)]
    flat = [index for chunk in plan(costs, 2) for index in chunk]
    assert flat == [i for cost in (3, 2, 1, 0) for i in range(40) if i % 4 == cost]


def test_more_workers_mean_smaller_chunks():
    assert [len(chunk) for chunk in plan(64, 4)][:4] == [2, 2, 2, 2]
    assert [len(chunk) for chunk in plan(64, 1)][:4] == [8, 7, 7, 6]


def test_fork_only_without_other_threads(monkeypatch):
    assert backends.start_method() == ("fork" if FORK else "spawn")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert backends.start_method() == "spawn"
    finally:
        stop.set()
        other.join()
    monkeypatch.setattr(sys, "platform", "darwin")
    assert backends.start_method() == "spawn"


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_results_come_back_in_item_order_whatever_order_they_went_out_in(monkeypatch, method):
    if method == "fork" and not FORK:
        pytest.skip("fork is used on Linux only")
    monkeypatch.setattr(backends, "start_method", lambda: method)
    items = list(range(50))
    seen = []
    results = run_all(str, ("ab",), operator.mul, items, workers=2, cost=lambda i: i % 7,
                      progress=lambda done, total: seen.append((done, total)))
    assert results == ["ab" * i for i in items]
    assert seen[-1] == (50, 50) and [done for done, _ in seen] == sorted(done for done, _ in seen)


@pytest.mark.skipif(not FORK, reason="fork is used on Linux only")
def test_forked_workers_inherit_the_context_given_and_never_call_setup(monkeypatch):
    monkeypatch.setattr(backends, "start_method", lambda: "fork")
    # int("x") would raise: the context given is used instead, built here.
    assert run_all(int, ("x",), operator.add, [1, 2, 3, 4], workers=2, context=10) == [11, 12, 13, 14]
    assert backends._worker == {}   # nothing of the run stays behind in this process


def test_spawned_workers_build_their_own_context(monkeypatch):
    monkeypatch.setattr(backends, "start_method", lambda: "spawn")
    assert run_all(int, ("3",), operator.add, [1, 2, 3, 4], workers=2, context=10) == [4, 5, 6, 7]
    with pytest.raises(BackendError, match=r"worker setup failed: ValueError: invalid literal"):
        run_all(int, ("x",), operator.add, [1, 2, 3, 4], workers=2, context=10)


def test_one_worker_uses_the_context_given():
    assert run_all(int, ("x",), operator.add, [1, 2], workers=1, context=10) == [11, 12]


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_the_first_failing_item_is_the_error_chunks_or_not(monkeypatch, method):
    if method == "fork" and not FORK:
        pytest.skip("fork is used on Linux only")
    monkeypatch.setattr(backends, "start_method", lambda: method)
    with pytest.raises(BackendError, match=r"^ZeroDivisionError: division by zero$"):
        run_all(int, ("1",), operator.truediv, list(range(5, -40, -1)), workers=2)


@pytest.mark.skipif(not FORK, reason="fork is used on Linux only")
def test_forked_workers_do_not_write_again_what_this_process_had_not_flushed():
    program = ("import operator, sys\n"
               "from regnum.backends import run_all\n"
               "sys.stdout.write('before ')\n"
               "print(run_all(int, ('3',), operator.add, list(range(8)), workers=2))\n")
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout == "before [3, 4, 5, 6, 7, 8, 9, 10]\n"
