"""Per-item work spread over worker processes, on this machine or on a Ray cluster.

One job, one function: :func:`run_all` calls ``setup(*setup_args)`` once in each worker to
build a context (a loaded ruleset, say), then ``work(context, item)`` for every item, and
returns the results in item order, whatever the backend and the number of workers. So the
same items give the same results on one core, on every core of this machine
(``backend="local"``: a ``multiprocessing`` spawn pool) or on a Ray cluster
(``backend="ray"``: one actor per worker, each holding its context).

``setup`` and ``work`` must be module-level functions (they travel by reference) and
``work`` must return plain picklable data: an exception raised in a worker may not survive
pickling, so it travels as its message and comes back as a :class:`BackendError`.
Ray is an optional extra (``pip install 'regnum[ray]'``); it is imported only when asked for.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import socket
from collections.abc import Callable
from typing import Any

__all__ = ["BACKENDS", "BackendError", "BackendUnavailable", "default_workers", "run_all"]

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


def run_all(setup: Callable[..., Any], setup_args: tuple, work: Callable[[Any, Any], Any], items: list, *,
            workers: int | None = None, backend: str = "local", address: str | None = None,
            progress: Progress | None = None) -> list:
    """``[work(context, item) for item in items]`` with ``context = setup(*setup_args)`` built
    once per worker process.

    ``workers`` None means every core (of this machine, or of the Ray cluster); with one
    worker the local backend runs everything in this process. ``address`` names an existing
    Ray cluster (else a local Ray instance is started, and shut down at the end).
    ``progress(done, total)`` is called as results come in. Raises :class:`BackendError`
    when a setup or a work item raises, :class:`BackendUnavailable` when the backend cannot
    run.
    """
    items = list(items)
    if backend == "local":
        if not items:
            return []
        workers = default_workers() if workers is None else max(1, workers)
        if workers == 1 or len(items) <= 1:
            return _run_serial(setup, setup_args, work, items, progress)
        return _run_pool(setup, setup_args, work, items, workers, progress)
    if backend == "ray":
        return _run_ray(setup, setup_args, work, items, workers, address, progress)
    raise BackendUnavailable(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")


def _chunk_size(items: int, workers: int) -> int:
    """Items per dispatch: about eight dispatches per worker, at most 16 items each."""
    return max(1, min(16, items // (workers * 8)))


def _message(err: BaseException) -> str:
    return f"{type(err).__name__}: {err}".splitlines()[0]


def _setup_failed(err: BaseException) -> str:
    return f"worker setup failed: {_message(err)}"


def _run_serial(setup, setup_args, work, items, progress) -> list:
    try:
        context = setup(*setup_args)
    except Exception as err:
        raise BackendError(_setup_failed(err)) from err
    results = []
    for done, item in enumerate(items, 1):
        try:
            results.append(work(context, item))
        except Exception as err:
            raise BackendError(_message(err)) from err
        if progress:
            progress(done, len(items))
    return results


# --- local: a spawn pool -------------------------------------------------------------------

_worker: dict = {}


def _pool_init(setup, setup_args: tuple, work) -> None:
    # An initializer that raises makes the pool respawn workers forever: keep the error.
    try:
        _worker.update(context=setup(*setup_args), work=work, error=None)
    except Exception as err:
        _worker.update(error=_setup_failed(err))


def _pool_work(indexed: tuple[int, Any]) -> tuple[int, Any, str | None]:
    index, item = indexed
    if _worker.get("error"):
        return index, None, _worker["error"]
    try:
        return index, _worker["work"](_worker["context"], item), None
    except Exception as err:
        return index, None, _message(err)


def _run_pool(setup, setup_args, work, items, workers, progress) -> list:
    workers = min(workers, len(items))
    context = multiprocessing.get_context("spawn")
    results: dict[int, Any] = {}
    with context.Pool(workers, initializer=_pool_init, initargs=(setup, setup_args, work)) as pool:
        indexed = pool.imap_unordered(_pool_work, enumerate(items), chunksize=_chunk_size(len(items), workers))
        for index, result, error in indexed:
            if error is not None:
                pool.terminate()
                raise BackendError(error)
            results[index] = result
            if progress:
                progress(len(results), len(items))
        pool.close()   # every result is in: let the workers exit, and reap them, before returning
        pool.join()
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


def _run_ray(setup, setup_args, work, items, workers, address, progress) -> list:
    ray = _import_ray()
    if not items:
        return []
    started = _start_ray(ray, workers, address)
    try:
        # An actor takes one CPU: more actors than the cluster's CPUs would wait forever.
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        workers = cpus if workers is None else max(1, min(workers, cpus))
        return _dispatch(ray, setup, setup_args, work, items, workers, progress)
    finally:
        if started:
            ray.shutdown()


def _dispatch(ray, setup, setup_args, work, items, workers, progress) -> list:
    """Chunks of items over the actors, two in flight per actor so none waits for the driver;
    results gathered by index."""
    size = _chunk_size(len(items), workers)
    chunks = [list(enumerate(items))[start:start + size] for start in range(0, len(items), size)]
    chunks.reverse()  # popped from the end: dispatched in item order
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
