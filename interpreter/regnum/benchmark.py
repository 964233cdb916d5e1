"""The measurements behind ``regnum bench``: fair, interleaved, in CPU time.

Speed (:func:`bench_ruleset`)
    One ruleset at one player count, in this process. A warm-up plays seed 0 on each side
    (untimed in the results; it also sizes the rounds when no number of games is given). Then
    ``rounds`` rounds each play the same seeds ``0 .. games - 1`` on both sides, interleaved:
    round 1 times the interpreter then the baseline, round 2 the baseline then the
    interpreter, and so on. Each side of each round is timed with ``time.process_time`` (CPU
    time of this process, so other programs on the machine matter less than with wall time);
    the figures are the median over the rounds of games/s and moves/s, and ``ratio`` is the
    interpreter's median games/s divided by the baseline's.

Coverage counted (``coverage=True``)
    A third side in every round: the interpreter again, counting which rules each move
    reached, as ``regnum fuzz`` and ``regnum replay`` play (``regnum simulate`` and the first
    side count none). The three sides take turns being first from round to round. Its games
    must be the interpreter's (counting changes no move, no score: ``coverage_same_games``);
    ``coverage_cost`` is how many times as long a game takes counted: the median games/s
    without ÷ the median games/s counted.

The random policy
    Both sides play :func:`regnum.agents.play_random_game`'s policy: seat ``p`` of the game
    seeded ``s`` has its own ``random.Random(seat_seed(s, p))`` (the string
    ``"regnum-bot:<s>:<p>"``); the seats listed in ``to_move`` (read again after each move)
    each pick ``moves[rng.randrange(len(moves))]`` among their own legal moves, in the
    interpreter's order of legal moves; a game stops when over or after ``max_moves`` moves.
    A baseline must reproduce it (see :func:`load_baseline`), and the games are compared: per
    seed, the number of moves and the final scores of both sides must be equal
    (``same_games``), in every round. A variant is compared with its base game's baseline
    when that one plays it (:func:`baseline_for`).

Load, copy and memory (:func:`load_times`, :func:`copy_cost`, :func:`peak_memory`)
    Cold load = CPU time of the first ``regnum.load`` in a fresh ``python -c`` subprocess
    (after ``import regnum``, which is reported apart); warm load = a further ``regnum.load``
    of the same file in the same process. Nothing of a ruleset is cached between loads; only
    the Lark parser (built from the grammar once per process, ``regnum.parse.parser``) and
    Python's imports are, so the warm figure is what parsing, checking and compiling cost.
    ``Game.copy()`` is timed on the state halfway through the game of seed 0. Peak memory is
    the high-water mark of a subprocess that loads the ruleset and runs ``regnum.simulate`` of
    N games in one process (``jobs=1``), as ``regnum simulate`` would keep them.
"""
from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from pydantic import BaseModel

from . import heap, resources
from .agents import play_random_game, seat_seed
from .diskcache import CACHE_ENV

__all__ = [
    "BenchResult",
    "BaselineError",
    "baseline_for",
    "bench_ruleset",
    "clamp_players",
    "copy_cost",
    "load_baseline",
    "load_times",
    "machine_info",
    "peak_memory",
    "timed_playouts",
]

Clock = Callable[[], float]
Outcome = tuple[int, tuple[int, ...]]   # (moves played, final scores) of one game


class BaselineError(RuntimeError):
    """The baseline failed while playing (the message names the seed)."""


class BenchResult(BaseModel):
    """One row of ``regnum bench``; baseline fields are None when no baseline applies.

    ``games_per_second`` and ``moves_per_second`` are medians over ``rounds`` rounds of
    ``games`` games each (seeds ``0 .. games - 1``), in CPU time; ``ratio`` is
    ``games_per_second / baseline_games_per_second``. ``same_games`` is None when the
    baseline cannot play the same games (it has only the old ``games_per_second``), else
    whether every seed gave the same number of moves and final scores on both sides.
    """

    ruleset: str
    players: int
    games_per_second: float
    moves_per_second: float
    baseline_games_per_second: float | None = None
    ratio: float | None = None
    baseline_moves_per_second: float | None = None
    moves_ratio: float | None = None
    same_games: bool | None = None
    mismatch: str | None = None
    rounds: int = 1
    games: int = 0
    moves: int = 0
    cpu_seconds: float = 0.0
    baseline_cpu_seconds: float | None = None
    round_games_per_second: list[float] = []
    baseline_round_games_per_second: list[float] | None = None
    interleaved: bool = False
    coverage_games_per_second: float | None = None
    coverage_cost: float | None = None
    coverage_round_games_per_second: list[float] | None = None
    coverage_cpu_seconds: float | None = None
    coverage_same_games: bool | None = None


# --- the random policy --------------------------------------------------------------------


def interpreter_games(rules, players: int, seeds, max_moves: int, coverage: bool = False) -> list[Outcome]:
    """Plays ``seeds`` with :func:`play_random_game`, counting no coverage (as `regnum simulate`
    plays) unless ``coverage``; (moves, scores) per seed."""
    out = []
    for seed in seeds:
        try:
            game = play_random_game(rules, players, seed, max_moves, coverage=coverage)
        except Exception as err:  # noqa: BLE001 — named with its seed by the caller
            raise RuntimeError(f"seed {seed}: {type(err).__name__}: {err}") from err
        out.append((game.move_count, tuple(game.scores)))
    return out


def policy_game(game, players: int, seed: int, max_moves: int) -> tuple[int, list[int]]:
    """A hand-written game played with the random policy (see this module's docstring), one
    seat at a time: `game` has `over`, `seat` (the one to move), `scores`, `legal_moves()` (in
    the interpreter's order) and `play(move)`. Returns (moves played, final scores), what a
    baseline's `bench_game` returns; the loop a baseline of the one-seat kind would write."""
    picks = [random.Random(seat_seed(seed, p)).randrange for p in range(players)]
    legal_moves, play = game.legal_moves, game.play
    moves = 0
    while not game.over and moves < max_moves:
        options = legal_moves()
        play(options[picks[game.seat](len(options))])
        moves += 1
    return moves, game.scores


def baseline_games(baseline, players: int, seeds, max_moves: int) -> list[Outcome]:
    """Plays ``seeds`` with the baseline's ``bench_game``; (moves, scores) per seed."""
    play = baseline.bench_game
    out = []
    for seed in seeds:
        try:
            moves, scores = play(players, seed, max_moves)
        except Exception as err:  # noqa: BLE001 — someone else's script
            raise BaselineError(f"seed {seed}: {type(err).__name__}: {err}") from err
        out.append((int(moves), tuple(scores)))
    return out


def _first_difference(seeds, ours: list[Outcome], theirs: list[Outcome]) -> str | None:
    for seed, (m1, s1), (m2, s2) in zip(seeds, ours, theirs):
        if (m1, s1) != (m2, s2):
            return (f"seed {seed}: regnum played {m1} moves, scores {list(s1)}; "
                    f"the baseline {m2} moves, scores {list(s2)}")
    return None


# --- speed --------------------------------------------------------------------------------


def clamp_players(rules, players: int) -> int:
    return max(rules.min_players, min(rules.max_players, players))


def _timed(clock: Clock, play, *args) -> tuple[list[Outcome], float]:
    start = clock()
    result = play(*args)
    return result, clock() - start


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def bench_ruleset(name: str, rules, players: int, *, rounds: int = 5, games: int | None = None,
                  seconds: float = 0.5, max_moves: int = 10_000, baseline=None,
                  warn: Callable[[str], None] | None = None, clock: Clock = time.process_time,
                  max_games: int = 1_000, coverage: bool = False) -> BenchResult:
    """Random-playout speed of loaded ``rules`` at ``players`` (clamped), against ``baseline``.

    ``games`` per round, or (None) as many as fit in about ``seconds`` of CPU time per side
    and round judging by the warm-up game (at least 1, at most ``max_games``). A baseline with
    ``bench_game`` is interleaved with the interpreter and its games compared; one with only
    the old ``games_per_second(players, seconds)`` is timed after, for ``seconds`` × rounds,
    not compared (``same_games`` None). A failing baseline is reported through ``warn`` and
    leaves the baseline fields None; a failing interpreter game raises RuntimeError.
    ``coverage``: a third side, the interpreter counting coverage (see the module's docstring).
    ``clock`` is injectable for tests.
    """
    warn = warn or (lambda message: None)
    players = clamp_players(rules, players)
    rounds = max(1, rounds)
    paired = baseline is not None and callable(getattr(baseline, "bench_game", None))
    if baseline is not None and not paired:
        if callable(getattr(baseline, "games_per_second", None)):
            warn(f"{name}: the baseline has no bench_game(players, seed, max_moves): timed apart "
                 "with its own games_per_second, its games not compared with regnum's")
        else:
            warn(f"{name}: the baseline has neither bench_game nor games_per_second: ignored")
            baseline = None

    # Warm-up: seed 0 on each side (imports, caches, lazily built tables); sizes the rounds.
    (_, warm) = _timed(clock, interpreter_games, rules, players, [0], max_moves)
    if paired:
        try:
            baseline_games(baseline, players, [0], max_moves)
        except BaselineError as err:
            warn(f"{name}, {players} players: baseline failed: {err}")
            baseline, paired = None, False
    if coverage:   # its own warm-up: what counting coverage builds on first use
        interpreter_games(rules, players, [0], max_moves, coverage=True)
    if games is None:
        games = max(1, min(max_games, round(seconds / warm))) if warm > 0 else max_games
    seeds = list(range(games))

    ours_times, theirs_times, counted_times = [], [], []
    ours_first: list[Outcome] | None = None
    theirs_first: list[Outcome] | None = None
    counted_same = True
    mismatch = None
    with heap.frozen_for_run():   # both sides, as `regnum simulate` plays its games
        for number in range(rounds):
            if coverage:   # each side first in turn
                sides = ("ours", "theirs", "counted")
                order = sides[number % 3:] + sides[:number % 3]
            else:
                order = ("ours", "theirs") if number % 2 == 0 else ("theirs", "ours")
            for side in order:
                if side == "ours":
                    result, elapsed = _timed(clock, interpreter_games, rules, players, seeds, max_moves)
                    ours_times.append(elapsed)
                    if ours_first is None:
                        ours_first = result
                    elif result != ours_first and mismatch is None:
                        mismatch = f"regnum played different games in round {number + 1} than in round 1"
                elif side == "counted":
                    result, elapsed = _timed(clock, interpreter_games, rules, players, seeds, max_moves, True)
                    counted_times.append(elapsed)
                    counted_same = counted_same and result == ours_first   # ours is first in round 1
                elif paired:
                    try:
                        result, elapsed = _timed(clock, baseline_games, baseline, players, seeds, max_moves)
                    except BaselineError as err:
                        warn(f"{name}, {players} players: baseline failed: {err}")
                        paired, baseline, theirs_times = False, None, []
                        continue
                    theirs_times.append(elapsed)
                    if theirs_first is None:
                        theirs_first = result
                    elif result != theirs_first and mismatch is None:
                        mismatch = f"the baseline played different games in round {number + 1} than in round 1"
    assert ours_first is not None
    moves = sum(m for m, _ in ours_first)
    per_round = [_rate(games, t) for t in ours_times]
    row = BenchResult(
        ruleset=name, players=players, rounds=rounds, games=games, moves=moves,
        games_per_second=statistics.median(per_round),
        moves_per_second=statistics.median(_rate(moves, t) for t in ours_times),
        cpu_seconds=sum(ours_times), round_games_per_second=per_round,
    )
    if coverage:
        counted = [_rate(games, t) for t in counted_times]
        row.coverage_round_games_per_second = counted
        row.coverage_games_per_second = statistics.median(counted)
        row.coverage_cost = row.games_per_second / row.coverage_games_per_second
        row.coverage_cpu_seconds = sum(counted_times)
        row.coverage_same_games = counted_same
    if paired and theirs_first is not None:
        base_moves = sum(m for m, _ in theirs_first)
        base_rounds = [_rate(games, t) for t in theirs_times]
        mismatch = mismatch or _first_difference(seeds, ours_first, theirs_first)
        row.baseline_games_per_second = statistics.median(base_rounds)
        row.baseline_moves_per_second = statistics.median(_rate(base_moves, t) for t in theirs_times)
        row.baseline_round_games_per_second = base_rounds
        row.baseline_cpu_seconds = sum(theirs_times)
        row.same_games = mismatch is None
        row.mismatch = mismatch
        row.interleaved = True
    elif baseline is not None:   # the old convention: timed apart, in its own clock
        try:
            rates = [float(baseline.games_per_second(players=players, seconds=seconds)) for _ in range(rounds)]
            row.baseline_games_per_second = statistics.median(rates)
            row.baseline_round_games_per_second = rates
        except Exception as err:  # noqa: BLE001 — someone else's script: never fatal
            warn(f"{name}, {players} players: baseline failed: {type(err).__name__}: {err}")
    if row.baseline_games_per_second:
        row.ratio = row.games_per_second / row.baseline_games_per_second
    if row.baseline_moves_per_second:
        row.moves_ratio = row.moves_per_second / row.baseline_moves_per_second
    return row


def timed_playouts(rules, players: int, seconds: float, max_moves: int = 100_000,
                   clock: Clock = time.process_time) -> tuple[int, int, float]:
    """Random games (seeds 0, 1, 2, ...) for at least ``seconds`` of CPU time and at least one
    game. Returns (games, moves, elapsed seconds)."""
    games = moves = 0
    start = clock()
    while True:
        moves += play_random_game(rules, players, games, max_moves, coverage=False).move_count
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return games, moves, elapsed


# --- load, copy, memory -------------------------------------------------------------------


def _child_env(extra: dict | None = None) -> dict:
    """The environment of a measuring subprocess: it imports this very regnum."""
    env = dict(os.environ)
    env.update(extra or {})
    here = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = here + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _child(code: str, *args: str, timeout: float | None = None, env: dict | None = None) -> dict:
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=_child_env(env), timeout=timeout, check=False)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"measuring subprocess failed: {tail}")
    return json.loads(done.stdout.strip().splitlines()[-1])


_COLD = """
import json, sys, time
t0 = time.process_time()
import regnum
t1 = time.process_time()
regnum.load(sys.argv[1], rules_path=json.loads(sys.argv[2]))
t2 = time.process_time()
print(json.dumps({"import_ms": (t1 - t0) * 1e3, "load_ms": (t2 - t1) * 1e3}))
"""


@contextlib.contextmanager
def _filled_cache(path: str, rules_path: str) -> Iterator[dict]:
    """The environment of a subprocess that reads a disk cache of its own, a temporary folder
    that one load in another subprocess has filled (the parser's tables, the ruleset's trees
    and code): what a user's second run finds, whatever the user's folder holds."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="regnum-bench-cache-") as folder:
        env = {CACHE_ENV: folder}
        _child(_COLD, path, rules_path, env=env)
        yield env


def load_times(path: Path, rules_path: tuple = (), cold_runs: int = 3, warm_runs: int = 9,
               clock: Clock = time.process_time) -> dict:
    """Load+check+compile times of a ruleset, in CPU milliseconds (medians): cold in fresh
    processes, without the disk cache (`cold_ms`) and with it filled (`cold_cached_ms`: the
    parser's tables, the ruleset's trees and code read back, see diskcache.py); warm in this
    process, the median of nine by default (a few tenths of a second: of three, one slow
    moment of a shared machine moved it by half)."""
    import regnum

    args = (str(path), json.dumps([str(p) for p in rules_path]))
    runs = max(0, cold_runs)
    cold = [_child(_COLD, *args, env={CACHE_ENV: "off"}) for _ in range(runs)]
    cached = []
    if runs:
        with _filled_cache(*args) as env:
            cached = [_child(_COLD, *args, env=env) for _ in range(runs)]
    regnum.load(str(path), rules_path=list(rules_path))   # this process's first load is not a warm one
    warm = []
    for _ in range(max(1, warm_runs)):
        start = clock()
        regnum.load(str(path), rules_path=list(rules_path))
        warm.append((clock() - start) * 1e3)
    return {
        "cold_ms": statistics.median(c["load_ms"] for c in cold) if cold else None,
        "cold_cached_ms": statistics.median(c["load_ms"] for c in cached) if cached else None,
        "warm_ms": statistics.median(warm),
        "import_ms": statistics.median(c["import_ms"] for c in cold) if cold else None,
        "cold_runs": len(cold),
        "warm_runs": len(warm),
    }


def copy_cost(rules, players: int, max_moves: int = 10_000, batches: int = 5, seconds: float = 0.05,
              clock: Clock = time.process_time) -> float:
    """Microseconds of CPU per ``Game.copy()`` of the state halfway through the game of seed 0
    (the median of ``batches`` batches of about ``seconds`` each)."""
    players = clamp_players(rules, players)
    length = play_random_game(rules, players, 0, max_moves).move_count
    game = play_random_game(rules, players, 0, max(0, length // 2)) if length > 1 else rules.new_game(
        players=players, seed=0, narrate=False)
    count, start = 0, clock()   # size a batch
    while clock() - start < seconds / 5 or count < 10:
        game.copy()
        count += 1
    per_batch = max(10, count * 5)
    results = []
    for _ in range(max(1, batches)):
        start = clock()
        for _ in range(per_batch):
            game.copy()
        results.append((clock() - start) / per_batch * 1e6)
    return statistics.median(results)


# The child's own peak: on Linux its memory's high-water mark (VmHWM, in KiB), which starts
# afresh at exec; `ru_maxrss` keeps the largest of the process and of its parent at the fork,
# so it would report the bench's own size whenever that is the larger (it was, by 20 MiB).
# Elsewhere ru_maxrss, the only figure there is.
_MEMORY = """
import json, resource, sys
import regnum
from regnum.simulate import simulate

def peak():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]), "VmHWM"
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "ru_maxrss"

path, players, games, max_moves = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rules = regnum.load(path, rules_path=json.loads(sys.argv[5]))
loaded, _ = peak()
result = simulate(path, players, games, jobs=1, max_moves=max_moves, rules=rules)
top, how = peak()
print(json.dumps({"loaded_kb": loaded, "peak_kb": top, "how": how, "games": len(result.games),
                  "failed": len(result.failed)}))
"""


def peak_memory(path: Path, players: int, games: int = 1_000, max_moves: int = 10_000,
                rules_path: tuple = ()) -> dict:
    """Peak resident memory of a subprocess that loads the ruleset and simulates ``games``
    random games in one process (read by the subprocess itself: on Linux its VmHWM, in KiB,
    reported in MiB; elsewhere its ``ru_maxrss``), and the same after loading only.

    The subprocess reads a disk cache of its own, filled by a load in another subprocess
    just before, as a user's second run would: a process that finds no trees kept parses,
    and importing Lark and building its parser costs it some 25 MiB more. With the user's
    cache folder the figure went with whatever that folder held (a variant gave 64.6 MiB after
    its load in a full run of the bench, 37.9 in a run of it alone)."""
    rules = json.dumps([str(p) for p in rules_path])
    with _filled_cache(str(path), rules) as env:
        out = _child(_MEMORY, str(path), str(players), str(games), str(max_moves), rules, env=env)
    bytes_counted = out["how"] == "ru_maxrss" and sys.platform == "darwin"   # macOS counts bytes
    scale = 1 / (1024 * 1024) if bytes_counted else 1 / 1024
    method = ("VmHWM of a subprocess (/proc/self/status in the child)" if out["how"] == "VmHWM"
              else "ru_maxrss of a subprocess (getrusage RUSAGE_SELF in the child)")
    return {"players": players, "games": out["games"], "failed": out["failed"],
            "after_load_mb": round(out["loaded_kb"] * scale, 1), "peak_mb": round(out["peak_kb"] * scale, 1),
            "method": method}


def machine_info() -> dict:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "cpu_count": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
    }


# --- baselines ----------------------------------------------------------------------------


def load_baseline(name: str, path: Path | None = None):
    """The hand-written implementation of ruleset ``name``, or None when there is none.

    By convention it is ``benchmarks/<name>_baseline.py`` of the checkout (not in the wheel),
    or, for the games kept to measure whether the speed holds for games it was not tuned on,
    ``benchmarks/unseen/<name>_baseline.py``, imported by path: only the checkout's own files,
    never a file found beside a ruleset given by path (a ruleset may come from anyone, and a
    baseline is Python that runs). It should expose ``bench_game(players, seed, max_moves) -> (moves,
    scores)``: one game played with regnum's random policy (see this module's docstring), so
    that both sides play the same games, interleaved and compared; a baseline with only the
    older ``games_per_second(players, seconds)`` is still timed, apart and not compared.
    Exceptions while importing it propagate: the caller reports them as a missing baseline.
    """
    if path is None:
        own = f"{name.replace('-', '_')}_baseline.py"
        folder = resources.checkout_root() / "benchmarks"
        path = next((p for p in (folder / own, folder / "unseen" / own) if p.is_file()), folder / own)
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"regnum_bench_baseline_{name.replace('-', '_')}", path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class VariantBaseline:
    """A base game's baseline playing one of its variants: the ``bench_game`` that
    :func:`bench_ruleset` calls, with the variant's name passed on."""

    def __init__(self, module, variant: str):
        self.module, self.variant = module, variant

    def bench_game(self, players: int, seed: int, max_moves: int):
        return self.module.bench_game(players, seed, max_moves, variant=self.variant)


def baseline_for(name: str, rules, path: Path | None = None):
    """The baseline ``regnum bench`` compares ruleset ``name`` (loaded as ``rules``) with: its
    own (:func:`load_baseline`, or the file at ``path``); else, for a variant, its base game's
    baseline when that one plays it — when its module-level ``VARIANTS`` names the variant (as
    its ``variant NAME of …`` line does) and its ``bench_game`` takes ``variant=NAME``. The
    games are compared as for any baseline, so a variant that only shares the name is caught
    as playing other games. None when there is none."""
    baseline = load_baseline(name, path)
    variant = rules.model.variant
    if baseline is not None or path is not None or variant is None:
        return baseline
    base = load_baseline(rules.model.name)
    if base is None or variant not in getattr(base, "VARIANTS", ()) or not callable(getattr(base, "bench_game", None)):
        return None
    return VariantBaseline(base, variant)
