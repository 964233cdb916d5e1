"""Per-item work spread over worker processes, on this machine or on a Ray cluster.

One job, one function: :func:`run_all` calls ``setup(*setup_args)`` once in each worker to
build a context (a loaded ruleset, say), then ``work(context, item)`` for every item, and
returns the results in item order, whatever the backend and the number of workers. So the
same items give the same results on one core, on every core of this machine
(``backend="local"``: a ``multiprocessing`` pool) or on a Ray cluster
(``backend="ray"``: one actor per worker, each holding its context).

How the local pool starts: on Linux, when this process runs no other thread, its workers are
forked from it and inherit the context built here once (``context=``, or ``setup`` called in
this process), so a loaded ruleset is neither read nor parsed again; elsewhere, or beside
other threads (forking a process that runs threads may copy a lock some thread holds), they
are spawned and each calls ``setup``. Items go out in chunks that shrink towards the end
(:func:`plan`), the costliest first when the caller can tell (``cost=``), and are taken by
whichever worker is free, so that the workers finish together; the results still come back in
item order.

``setup`` and ``work`` must be module-level functions (they travel by reference) and
``work`` must return plain picklable data: an exception raised in a worker may not survive
pickling, so it travels as its message and comes back as a :class:`BackendError`.
Ray is an optional extra (``pip install 'regnum[ray]'``); it is imported only when asked for.
"""
from __future__ import annotations

import gc
import logging
import math
import multiprocessing
import os
import socket
import sys
import threading
from collections.abc import Callable
from typing import Any

from . import heap

__all__ = ["BACKENDS", "BackendError", "BackendUnavailable", "default_workers", "plan", "run_all",
           "start_method"]

BACKENDS = ("local", "ray")

Progress = Callable[[int, int], None]  # (items done, items in all)


class BackendError(RuntimeError):
    """A worker failed: its setup or the work on one item raised (the message says what)."""


class BackendUnavailable(BackendError):
    """The backend cannot run here: an unknown name, Ray not installed, no cluster at the
    address given. A usage error, not a failure of the work."""


def default_workers() -> int:
    """The number of CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


_NOT_BUILT = object()


def run_all(setup: Callable[..., Any], setup_args: tuple, work: Callable[[Any, Any], Any], items: list, *,
            workers: int | None = None, backend: str = "local", address: str | None = None,
            progress: Progress | None = None, context: Any = _NOT_BUILT,
            cost: Callable[[Any], float] | None = None) -> list:
    """``[work(context, item) for item in items]`` with ``context = setup(*setup_args)`` built
    once per worker process.

    ``workers`` None means every core (of this machine, or of the Ray cluster); with one
    worker the local backend runs everything in this process. ``address`` names an existing
    Ray cluster (else a local Ray instance is started, and shut down at the end).
    ``progress(done, total)`` is called as results come in. ``context``, when given, is the
    context ``setup(*setup_args)`` would build, built already in this process: the serial run
    and forked workers use it, spawned workers and Ray actors still call ``setup``.
    ``cost(item)``, when given, guesses what an item costs: the costliest go out first, so
    that no worker is left with a long item at the end (only the order of the work changes,
    never the results). Raises :class:`BackendError` when a setup or a work item raises,
    :class:`BackendUnavailable` when the backend cannot run.
    """
    items = list(items)
    if backend == "local":
        if not items:
            return []
        workers = default_workers() if workers is None else max(1, workers)
        if workers == 1 or len(items) <= 1:
            return _run_serial(setup, setup_args, work, items, progress, context)
        return _run_pool(setup, setup_args, work, items, workers, progress, context, cost)
    if backend == "ray":
        return _run_ray(setup, setup_args, work, items, workers, address, progress, cost)
    raise BackendUnavailable(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")


#: A chunk is at most this many items, and about 1/(CHUNK_SHARE × workers) of the items left.
MAX_CHUNK = 16
CHUNK_SHARE = 8


def plan(costs: list[float] | int, workers: int) -> list[list[int]]:
    """The chunks of item indexes in the order they go out: the items by decreasing cost
    (ties, and every item when ``costs`` is only their number, in item order), cut into
    chunks that shrink as the items left run out — each about 1/(CHUNK_SHARE × workers) of
    what is left, at most MAX_CHUNK, at least one item — so that the last chunks are single
    items and the workers, each taking the next chunk when it is free, finish together."""
    if isinstance(costs, int):
        order = list(range(costs))
    else:
        order = sorted(range(len(costs)), key=lambda index: -costs[index])
    chunks, start = [], 0
    while start < len(order):
        size = max(1, min(MAX_CHUNK, math.ceil((len(order) - start) / (CHUNK_SHARE * max(1, workers)))))
        chunks.append(order[start:start + size])
        start += size
    return chunks


def _chunks(items: list, workers: int, cost) -> list[list[tuple[int, Any]]]:
    costs = len(items) if cost is None else [cost(item) for item in items]
    return [[(index, items[index]) for index in chunk] for chunk in plan(costs, workers)]


def _message(err: BaseException) -> str:
    return f"{type(err).__name__}: {err}".splitlines()[0]


def _setup_failed(err: BaseException) -> str:
    return f"worker setup failed: {_message(err)}"


def _built(setup, setup_args, context):
    """The context: the one given, else ``setup(*setup_args)``; a setup that raises is a
    BackendError."""
    if context is not _NOT_BUILT:
        return context
    try:
        return setup(*setup_args)
    except Exception as err:
        raise BackendError(_setup_failed(err)) from err


def _run_serial(setup, setup_args, work, items, progress, context=_NOT_BUILT) -> list:
    context = _built(setup, setup_args, context)
    results = []
    with heap.frozen_for_run():
        for done, item in enumerate(items, 1):
            try:
                results.append(work(context, item))
            except Exception as err:
                raise BackendError(_message(err)) from err
            if progress:
                progress(done, len(items))
    return results


# --- local: a pool of forked (or spawned) processes ------------------------------------------

_worker: dict = {}


def start_method() -> str:
    """How the local pool starts its workers now: ``fork`` on Linux when this process runs no
    other thread (the workers inherit the context built here), else ``spawn``."""
    if sys.platform.startswith("linux") and threading.active_count() == 1 \
            and "fork" in multiprocessing.get_all_start_methods():
        return "fork"
    return "spawn"


def _pool_init(setup, setup_args: tuple, work) -> None:
    # An initializer that raises makes the pool respawn workers forever: keep the error.
    try:
        _worker.update(context=setup(*setup_args), work=work, error=None)
    except Exception as err:
        _worker.update(error=_setup_failed(err))


def _pool_work(chunk: list[tuple[int, Any]]) -> list[tuple[int, Any, str | None]]:
    """One chunk of (index, item): (index, result, None) for each, or, for the first item that
    raises, (index, None, its message) and nothing after it."""
    if _worker.get("error"):
        return [(chunk[0][0], None, _worker["error"])]
    out = []
    for index, item in chunk:
        try:
            out.append((index, _worker["work"](_worker["context"], item), None))
        except Exception as err:
            out.append((index, None, _message(err)))
            break
    return out


def _run_pool(setup, setup_args, work, items, workers, progress, context=_NOT_BUILT, cost=None) -> list:
    chunks = _chunks(items, workers, cost)
    workers = min(workers, len(chunks))
    method = start_method()
    if method == "fork":
        # Built once, here; the forked workers inherit it (and this process's loaded modules).
        _worker.update(context=_built(setup, setup_args, context), work=work, error=None)
        initializer, initargs = None, ()
        for stream in (sys.stdout, sys.stderr):   # a forked worker would write their buffers again
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        gc.freeze()   # the inherited objects stay out of the workers' collections (and unwritten)
    else:
        initializer, initargs = _pool_init, (setup, setup_args, work)
    results: dict[int, Any] = {}
    try:
        with multiprocessing.get_context(method).Pool(workers, initializer=initializer, initargs=initargs) as pool:
            if method == "fork":
                gc.unfreeze()
            for chunk in pool.imap_unordered(_pool_work, chunks):
                for index, result, error in chunk:
                    if error is not None:
                        pool.terminate()
                        raise BackendError(error)
                    results[index] = result
                if progress:
                    progress(len(results), len(items))
            pool.close()   # every result is in: let the workers exit, and reap them, before returning
            pool.join()
    finally:
        if method == "fork":
            gc.unfreeze()
            _worker.clear()
    return [results[index] for index in range(len(items))]


# --- ray: one actor per worker ---------------------------------------------------------------


class _Holder:
    """The body of a Ray actor: the context built once, then chunks of items worked on."""

    def __init__(self, setup, setup_args: tuple, work) -> None:
        self.work, self.error, self.context = work, None, None
        try:
            self.context = setup(*setup_args)
        except Exception as err:
            self.error = _setup_failed(err)

    def run(self, chunk: list[tuple[int, Any]]) -> list[tuple[int, Any, str | None]]:
        if self.error:
            return [(index, None, self.error) for index, _ in chunk]
        out = []
        for index, item in chunk:
            try:
                out.append((index, self.work(self.context, item), None))
            except Exception as err:
                out.append((index, None, _message(err)))
                break
        return out


def _import_ray():
    try:
        import ray
    except ImportError:
        raise BackendUnavailable("the Ray backend needs Ray: pip install 'regnum[ray]'") from None
    return ray


def _start_ray(ray, workers: int | None, address: str | None) -> bool:
    """Connect to the cluster at ``address``, or start a quiet local instance; True when this
    call started (and so must shut down) the connection."""
    if ray.is_initialized():
        return False
    if address:
        _reachable(address)
    quiet = {"log_to_driver": False, "logging_level": logging.ERROR}
    try:
        if address:
            ray.init(address=address, **quiet)
        else:
            ray.init(num_cpus=workers or default_workers(), include_dashboard=False, **quiet)
    except Exception as err:  # no cluster there, a refused connection, a bad address…
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        raise BackendUnavailable(f"could not start {where}: {_message(err)}") from None
    return True


CONNECT_SECONDS = 5.0   # how long a cluster's address may take to answer before it is refused


def _reachable(address: str) -> None:
    """Refuse, within CONNECT_SECONDS, an address with nothing listening: Ray itself retries
    for minutes, printing its own logs. `auto` (and `local`) are Ray's to resolve."""
    if address in ("auto", "local"):
        return
    target = address.removeprefix("ray://")
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BackendUnavailable(f"the Ray address {address!r} is not HOST:PORT, ray://HOST:PORT or auto")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS):
            pass
    except OSError as err:
        raise BackendUnavailable(f"no Ray cluster answers at {address}: {err.strerror or err} "
                                 f"(start one with `ray start --head`, or leave out --address "
                                 f"for a local instance)") from None


def _run_ray(setup, setup_args, work, items, workers, address, progress, cost=None) -> list:
    ray = _import_ray()
    if not items:
        return []
    started = _start_ray(ray, workers, address)
    try:
        # An actor takes one CPU: more actors than the cluster's CPUs would wait forever.
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        workers = cpus if workers is None else max(1, min(workers, cpus))
        return _dispatch(ray, setup, setup_args, work, items, workers, progress, cost)
    finally:
        if started:
            ray.shutdown()


def _dispatch(ray, setup, setup_args, work, items, workers, progress, cost=None) -> list:
    """Chunks of items (:func:`plan`) over the actors, two in flight per actor so none waits
    for the driver; results gathered by index."""
    chunks = _chunks(items, workers, cost)
    chunks.reverse()  # popped from the end: dispatched in the plan's order
    actor_class = ray.remote(num_cpus=1)(_Holder)
    actors = [actor_class.remote(setup, setup_args, work) for _ in range(min(workers, len(chunks)))]
    pending: dict = {}
    for actor in actors * 2:
        if chunks:
            pending[actor.run.remote(chunks.pop())] = actor
    results: dict[int, Any] = {}
    try:
        while pending:
            [ready], _ = ray.wait(list(pending), num_returns=1)
            actor = pending.pop(ready)
            for index, result, error in _fetched(ray, ready):
                if error is not None:
                    raise BackendError(error)
                results[index] = result
            if chunks:
                pending[actor.run.remote(chunks.pop())] = actor
            if progress:
                progress(len(results), len(items))
    finally:
        for actor in actors:
            ray.kill(actor)
    return [results[index] for index in range(len(items))]


def _fetched(ray, ref) -> list:
    try:
        return ray.get(ref)
    except Exception as err:  # the actor died, or its result could not be unpickled
        raise BackendError(f"a Ray worker failed: {_message(err)}") from None
