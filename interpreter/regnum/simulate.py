"""Many random games of one ruleset: the engine behind ``regnum simulate`` and ``regnum bench``.

Game ``i`` of a simulation seeded ``S`` uses seed ``S + i`` for the game and its bots, so any
single game can be replayed on its own. With several jobs the games are spread over worker
processes by :mod:`regnum.backends` (a local pool, whose workers forked on Linux inherit the
ruleset loaded here and spawned ones load it again by path, or Ray actors with
``backend="ray"``, which load it by path); results are always returned in seed order, so the
outcome depends neither on the number of jobs nor on the backend.
"""
from __future__ import annotations

import re
import time
from pathlib import Path
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict

from . import backends, heap, resources
from .resources import ruleset_label
from .agents import play_random_game
from .failures import assert_invariants, one_line, setup_failed_log

__all__ = [
    "GameResult",
    "SimulationResult",
    "SimulationError",
    "BenchResult",
    "simulate",
    "timed_playouts",
    "bench_ruleset",
    "load_baseline",
    "ruleset_label",
    "default_jobs",
]

Progress = Callable[[int, int], None]  # (games done, games in all)


class SimulationError(RuntimeError):
    """A game of a simulation failed (the message names its seed)."""


class GameResult(BaseModel):
    """The outcome of one random game; ``truncated`` games hit the move bound (winners []);
    a game that failed (a limit hit, a fault of the rules, a broken invariant, no move to
    make) has its ``error``, the scores it had when it stopped and, when the simulation saves
    failures, the path of its ``log`` (which `regnum replay` reproduces); the simulation goes
    on."""

    model_config = ConfigDict(frozen=True)

    seed: int
    scores: list[int]
    winners: list[int]
    moves: int
    truncated: bool = False
    error: str | None = None
    log: str | None = None
    statistics: dict[str, int] = {}   # the ruleset's `statistic`s, read at the end of a finished game


class SimulationResult(BaseModel):
    """All games of a simulation in seed order (the ``--json`` output of ``regnum simulate``)."""

    ruleset: str
    players: int
    games: list[GameResult]
    games_per_second: float

    def wins(self) -> list[int]:
        """Wins per seat; a shared victory counts once for each winner."""
        wins = [0] * self.players
        for game in self.games:
            for seat in game.winners:
                if 0 <= seat < self.players:
                    wins[seat] += 1
        return wins

    def score_stats(self) -> list[tuple[float, int, int]]:
        """(mean, min, max) score per seat over all games."""
        stats = []
        for seat in range(self.players):
            scores = [game.scores[seat] for game in self.games if seat < len(game.scores)]
            if scores:
                stats.append((sum(scores) / len(scores), min(scores), max(scores)))
            else:
                stats.append((0.0, 0, 0))
        return stats

    def statistic_means(self) -> dict[str, float]:
        """The mean of each `statistic` over the games that finished, in declaration order."""
        sums: dict[str, list] = {}
        for game in self.games:
            for name, value in game.statistics.items():
                sums.setdefault(name, []).append(value)
        return {name: sum(values) / len(values) for name, values in sums.items()}

    @property
    def mean_moves(self) -> float:
        return sum(g.moves for g in self.games) / len(self.games) if self.games else 0.0

    @property
    def truncated(self) -> int:
        return sum(1 for g in self.games if g.truncated and g.error is None)

    @property
    def failed(self) -> list[GameResult]:
        """The games that stopped on an error, in seed order."""
        return [g for g in self.games if g.error is not None]


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    return backends.default_workers()


def _result(game, seed: int) -> GameResult:
    truncated = not game.is_over
    return GameResult(
        seed=seed,
        scores=list(game.scores),
        winners=[] if truncated else list(game.winners),
        moves=game.move_count,
        truncated=truncated,
        statistics={} if truncated else game.statistics(),   # a statistic that fails fails the game
    )


def _load(path: str | Path, limits=None, rules_path: tuple = ()):
    import regnum

    return regnum.load(str(resources.find_ruleset(path, rules_path)), limits=limits, rules_path=rules_path)


def simulate(
    path: str | Path,
    players: int,
    games: int,
    seed: int = 0,
    jobs: int | None = None,
    max_moves: int = 100_000,
    progress: Progress | None = None,
    rules=None,
    options: dict | None = None,
    check_invariants: bool = False,
    failures_dir: str | Path | None = None,
    backend: str = "local",
    address: str | None = None,
) -> SimulationResult:
    """Play ``games`` random games of the ruleset at ``path`` (a path or a bundled name).

    Uses ``jobs`` worker processes (default: every CPU) when ``jobs > 1`` and there are at
    least two games per job, else plays in this process. ``progress(done, total)`` is called
    after each game. ``rules``, when given, is the already loaded ruleset of ``path`` (the
    workers load their own, with the same limits); ``options`` are the game options of every
    game. Ruleset errors (and options the ruleset refuses) are raised before any game starts;
    a game that fails on the way (a limit hit, a fault of the rules, a stuck game and, with
    ``check_invariants``, an invariant that stops holding after a move) is reported in its
    GameResult's ``error`` and the others are played. With ``failures_dir``, the log of each
    failed game, up to and including its failing move, is written there as
    ``<ruleset>-seed<seed>.json`` (the folder is created when a game fails) and named in its
    GameResult's ``log``.

    ``backend="ray"`` plays the games on Ray workers instead (see :mod:`regnum.backends`):
    on the cluster at ``address``, else on a local Ray instance; ``jobs`` None then means
    every CPU of the cluster. The results are the same as the local backend's, seed for seed.
    """
    search = tuple(getattr(rules, "rules_path", ()))   # the workers search where this load did
    file = resources.find_ruleset(path, search)
    rules = _load(file) if rules is None else rules
    if backend == "local":
        jobs = default_jobs() if jobs is None else max(1, jobs)
    elif jobs is not None:
        jobs = max(1, jobs)
    seeds = [seed + i for i in range(games)]
    options = dict(options or {})
    rules.new_game(players=players, seed=seed, narrate=False, options=options)  # refuses bad options now
    start = time.perf_counter()
    if backend != "local" or (jobs > 1 and games >= jobs * 2):
        played = _play_parallel(_worker_path(file, backend), players, seeds, jobs, max_moves, progress, options,
                                getattr(rules, "limits", None), search, check_invariants, backend, address,
                                rules=rules)
    else:
        played = _play_serial(rules, players, seeds, max_moves, progress, options, check_invariants)
    elapsed = time.perf_counter() - start
    label = ruleset_label(rules, file)
    results = [result if text is None or failures_dir is None
               else _saved(result, text, Path(failures_dir), label) for result, text in played]
    return SimulationResult(
        ruleset=label,
        players=players,
        games=results,
        games_per_second=games / elapsed if elapsed > 0 else 0.0,
    )


def _play_one(rules, players: int, seed: int, max_moves: int, options: dict | None = None,
              check_invariants: bool = False) -> tuple[GameResult, str | None]:
    """One game and, if it failed, its failure log as JSON text. A failure is the game's
    result (one line naming what stopped it): the simulation goes on. The invariants are
    checked only when asked, so that plain playouts cost what they did."""
    games: list = []
    started, after_move = games.append, None
    if check_invariants:
        def started(game):
            games.append(game)
            assert_invariants(game)
        after_move = assert_invariants
    try:
        # A simulation reports results, never coverage: it is not counted (regnum fuzz counts it).
        game = play_random_game(rules, players, seed, max_moves, options=options, started=started,
                                after_move=after_move, coverage=False)
        return _result(game, seed), None
    except Exception as err:  # whatever stopped it, the simulation reports it and goes on
        message = one_line(err)
        if not games:
            return (GameResult(seed=seed, scores=[], winners=[], moves=0, truncated=True, error=message),
                    _log_text(lambda: setup_failed_log(rules, players, seed, options, err)))
        game = games[0]
        return (GameResult(seed=seed, scores=list(game.scores), winners=[], moves=game.move_count,
                           truncated=True, error=message),
                _log_text(lambda: game.failed_log(err)))


def _log_text(make) -> str | None:
    """The failure log's text; None for an error that is not the game's (a bug of regnum),
    of which no log can say what went wrong."""
    try:
        return make().to_json()
    except Exception:  # noqa: BLE001 — the failure itself is already reported
        return None


def _saved(result: GameResult, text: str, folder: Path, label: str) -> GameResult:
    """Write a failed game's log into `folder` (created now: only a failure needs it)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', label)}-seed{result.seed}.json"
    path.write_text(text, encoding="utf-8")
    return result.model_copy(update={"log": str(path)})


def _play_serial(rules, players, seeds, max_moves, progress, options=None,
                 check_invariants=False) -> list[tuple[GameResult, str | None]]:
    results = []
    with heap.frozen_for_run():
        for done, seed in enumerate(seeds, 1):
            results.append(_play_one(rules, players, seed, max_moves, options, check_invariants))
            if progress:
                progress(done, len(seeds))
    return results


# --- worker processes ---------------------------------------------------------------------
# Workers (of regnum.backends: a local pool or Ray actors) get plain data in and give plain
# data back: exceptions from the engine may not survive pickling, so a failure travels as its
# message, and its log as JSON text that the parent writes (so that the files do not depend on
# which worker played which game).


def _worker_setup(path: str, players: int, max_moves: int, options: dict | None = None, limits=None,
                  rules_path: tuple = (), check_invariants: bool = False) -> dict:
    return dict(rules=_load(path, limits, rules_path), players=players, max_moves=max_moves, options=options,
                check_invariants=check_invariants)


def _worker_play(worker: dict, seed: int) -> tuple[dict, str | None]:
    result, log = _play_one(worker["rules"], worker["players"], seed, worker["max_moves"],
                            worker["options"], worker["check_invariants"])
    return result.model_dump(), log


def _worker_path(file: Path, backend: str) -> str:
    """How the workers find the ruleset: by its path, except that on Ray (whose workers may
    run on other machines, where regnum is installed elsewhere) a bundled ruleset goes by its
    name relative to the bundled folder."""
    if backend != "ray":
        return str(file)
    try:
        return file.resolve().relative_to(resources.data_dir("rulesets").resolve()).with_suffix("").as_posix()
    except (ValueError, OSError):
        return str(file)


def _play_parallel(path, players, seeds, jobs, max_moves, progress, options=None, limits=None,
                   rules_path=(), check_invariants=False, backend="local",
                   address=None, rules=None) -> list[tuple[GameResult, str | None]]:
    """The games on workers; `rules`, the ruleset of `path` loaded here, is what forked local
    workers inherit instead of loading it again."""
    setup_args = (path, players, max_moves, options, limits, rules_path, check_invariants)
    built = {} if rules is None else {"context": dict(rules=rules, players=players, max_moves=max_moves,
                                                      options=options, check_invariants=check_invariants)}
    try:
        played = backends.run_all(_worker_setup, setup_args, _worker_play, seeds, workers=jobs,
                                  backend=backend, address=address, progress=progress, **built)
    except backends.BackendUnavailable:
        raise
    except backends.BackendError as err:
        raise SimulationError(str(err)) from None
    return [(GameResult.model_validate(result), log) for result, log in played]


# --- benchmark ------------------------------------------------------------------------------
# The measurements of ``regnum bench`` live in regnum.benchmark; these names stay importable
# from here.

from .benchmark import BenchResult, bench_ruleset, load_baseline, timed_playouts  # noqa: E402
