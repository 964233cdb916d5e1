"""``regnum bench``: random playouts per second of rulesets, against hand-written baselines.

Only the command line side lives here (options, warnings, the results table); the
measurements themselves are :mod:`regnum.benchmark`'s job (its docstring says how they are
taken).
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich import box
from rich.table import Table
from rich.text import Text

from .. import compiled, resources
from ..resources import ruleset_label
from ..terminal import safe
from .common import echo, make_console, rules_path, rules_path_flag, wide_enough
from .errors import api_error, describe_error, fail

if TYPE_CHECKING:
    from ..benchmark import BenchResult

FOOTNOTE = ("Medians of {rounds} rounds, CPU time (time.process_time), one process. Each round plays the same "
            "seeds on both sides, interleaved (odd rounds regnum first, even rounds the baseline first), after "
            "a warm-up game. Both play regnum's random policy (one seeded RNG per seat, as `regnum simulate`). "
            "ratio = regnum games/s ÷ hand-written Python games/s (benchmarks/<ruleset>_baseline.py; for a "
            "variant, its base game's playing it); same = every seed gave equal move counts and final scores on "
            "both sides.")
COVERAGE_NOTE = (" counted = regnum again, counting the rules each move reaches (as `regnum fuzz` plays; the first "
                 "regnum side counts none, as `regnum simulate`), a third side in every round, each side first in "
                 "turn; cost = regnum games/s ÷ counted games/s.")


def _baseline(name: str, rules, path: Path | None):
    from ..benchmark import baseline_for
    try:
        return baseline_for(name, rules, path)
    except Exception as err:  # a broken baseline must not stop the benchmark
        echo(f"warning: baseline not available: {type(err).__name__}: {err}", err=True)
        return None


def _num(value, digits: int) -> str:
    if value is None:
        return "—"
    if abs(value) >= 10_000:
        return f"{value / 1000:,.1f}k"
    return f"{value:,.{digits if abs(value) < 100 else 0}f}"


def _bench_table(rows: list[BenchResult], load: dict, copy_us: dict, memory: dict | None, rounds: int) -> None:
    console = make_console()
    counted = any(row.coverage_games_per_second is not None for row in rows)
    caption = FOOTNOTE.format(rounds=rounds) + (COVERAGE_NOTE if counted else "")
    table = Table(title="Random playouts (games = seeds per round × rounds)", caption=caption,
                  caption_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    table.add_column("ruleset", no_wrap=True)
    columns = ("pl", "games", "games/s", "moves/s", "base\ngames/s", "base\nmoves/s", "ratio", "same")
    for name in columns + (("counted\ngames/s", "cost") if counted else ()):
        table.add_column(name, justify="right", min_width=min(7, len(name)))
    for row in rows:
        same = "—" if row.same_games is None else ("yes" if row.same_games else "NO")
        cells = (row.ruleset, str(row.players), f"{row.games}×{row.rounds}", _num(row.games_per_second, 1),
                 _num(row.moves_per_second, 0), _num(row.baseline_games_per_second, 1),
                 _num(row.baseline_moves_per_second, 0), _num(row.ratio, 3), same)
        if counted:
            cells += (_num(row.coverage_games_per_second, 1), _num(row.coverage_cost, 3))
        table.add_row(*(Text(safe(cell)) for cell in cells))
    wide_enough(console, table)
    console.print(table)
    if load or copy_us or memory:
        costs = Table(title="Load and copy", caption="load = regnum.load (parse, check, compile), CPU ms; cold = first "
                      "load in a fresh process (median of subprocesses), without and with the disk cache (the parser's tables, the ruleset's trees and code), warm = again in the same process (the "
                      "Lark parser and the file's syntax tree are kept: checking and compiling). copy = Game.copy() halfway through seed 0's game, CPU µs. "
                      "memory = peak RSS (VmHWM on Linux, else ru_maxrss) of a subprocess simulating N games.", caption_justify="left")
        costs.add_column("ruleset", no_wrap=True)
        for name in ("cold load ms", "cold, disk cache ms", "warm load ms", "copy µs", "peak MB (games)"):
            costs.add_column(name, justify="right")
        for name in dict.fromkeys([*load, *copy_us]):
            times = load.get(name, {})
            mem = (memory or {}).get(name)
            peak = "—" if not mem else f"{mem['peak_mb']:.0f} ({mem['games']})"
            costs.add_row(*(Text(safe(c)) for c in (name, _num(times.get("cold_ms"), 0), _num(times.get("cold_cached_ms"), 0), _num(times.get("warm_ms"), 0),
                                                     _num(copy_us.get(name), 1), peak)))
        console.print(costs)


def _timing_only(names: tuple[str, ...]) -> None:
    """Refuse, as a usage error, an option of the timing given with --profile (it times nothing)."""
    ctx = click.get_current_context()
    given = [param for param in ctx.command.params
             if param.name in names and ctx.get_parameter_source(param.name) is not click.core.ParameterSource.DEFAULT]
    if given:
        flags = ", ".join(param.opts[0] for param in given)
        raise click.UsageError(f"--profile samples games and times nothing: {flags} "
                               f"{'does' if len(given) == 1 else 'do'} not apply")


def _profiles(targets: list, counts: list, games, seconds: float, coverage: bool, max_moves: int, top: int,
              as_json: bool, wall: float) -> None:
    """`regnum bench --profile`: each ruleset and player count sampled (regnum.profiler)."""
    import regnum

    from ..benchmark import clamp_players, machine_info
    from ..profiler import ProfileUnavailable, profile_games
    from .profiling import print_profile
    found = []
    for name, path in targets:
        rules = regnum.load(str(path), rules_path=list(rules_path()))
        for players in dict.fromkeys(clamp_players(rules, n) for n in counts):
            if not as_json:
                echo(f"profiling {name}, {players} players…", err=True)
            try:
                one = profile_games(rules, players, games=games, seconds=seconds, coverage=coverage,
                                    max_moves=max_moves)
            except ProfileUnavailable as err:
                fail(f"error: {err}")
            if as_json:
                found.append(one)
                continue
            print_profile(one, top)
    if as_json:
        settings = {"profile": True, "games": games, "profile_seconds": seconds, "players": counts,
                    "max_moves": max_moves, "coverage": coverage, "top": top, "clock": "ITIMER_PROF",
                    "wall_seconds": round(time.perf_counter() - wall, 2)}
        click.echo(json.dumps({"profiles": [one.model_dump() for one in found], "machine": machine_info(),
                               "settings": settings}, ensure_ascii=False))


@click.command()
@click.argument("rulesets", nargs=-1, metavar="[RULESET]...")
@click.option("--players", "-p", "player_counts", type=click.IntRange(min=1), multiple=True,
              help="Players per game; repeat for several (default: 2 and 4, each clamped to what the "
                   "ruleset allows).")
@click.option("--rounds", type=click.IntRange(min=1), default=5, show_default=True,
              help="Timed rounds per ruleset and player count; the median is reported.")
@click.option("--games", type=click.IntRange(min=1), default=None,
              help="Games (seeds 0..N-1) per round and side (default: as many as fit in --seconds).")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=0.5, show_default=True,
              help="Without --games: CPU seconds of regnum per round, judged from the warm-up game.")
@click.option("--max-moves", type=click.IntRange(min=1), default=10_000, show_default=True, help="Move bound per game.")
@click.option("--baseline", "baseline_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Hand-written implementation to compare with, for a single ruleset "
                   "(default: benchmarks/<ruleset>_baseline.py of the checkout, or benchmarks/unseen/…).")
@click.option("--load-runs", type=click.IntRange(min=0), default=3, show_default=True,
              help="Fresh subprocesses timing a cold load (0: skip the cold load).")
@click.option("--memory", "memory_games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Also measure the peak memory of a simulation of this many games (1000 is the issue's "
                   "figure; it takes minutes on Kingdom Builder) in a subprocess; 0: skip.")
@click.option("--coverage", is_flag=True,
              help="Also play every round counting coverage, as `regnum fuzz` plays, and report games/s so and "
                   "the cost (games/s without ÷ with).")
@click.option("--profile", is_flag=True,
              help="Instead of timing, sample random games of each ruleset and show where their CPU time goes, "
                   "by the ruleset's declarations and lines (--games, or --profile-seconds of them).")
@click.option("--profile-seconds", type=click.FloatRange(min=0, min_open=True), default=4.0, show_default=True,
              help="With --profile and without --games: CPU seconds of games sampled per ruleset and player count.")
@click.option("--top", type=click.IntRange(min=1), default=15, show_default=True,
              help="With --profile: the lines shown in the table of the costliest (--json lists them all).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object and nothing else.")
@rules_path_flag
def bench(rulesets, player_counts, rounds, games, seconds, max_moves, baseline_path, load_runs, memory_games,
          coverage, profile, profile_seconds, top, as_json) -> None:
    """Measure random playouts per second of every bundled ruleset, against hand-written Python.

    For each bundled ruleset (or each RULESET given) and each player count, in one process and
    in CPU time: a warm-up game, then --rounds rounds, each playing the same seeds 0..N-1 with
    regnum and, where benchmarks/<ruleset>_baseline.py (or benchmarks/unseen/<ruleset>_baseline.py)
    exists in the checkout, with that hand-written implementation, interleaved (regnum first
    in odd rounds, the baseline first in even ones);
    a variant without a baseline of its own, with its base game's when that one plays it (names
    it in its VARIANTS).
    Both sides play regnum's random policy, so they play the same games: per seed the move
    count and final scores are compared ("same"). The medians of the rounds are printed, with
    the ratio regnum games/s ÷ baseline games/s. Also printed: load+check+compile time, cold (a
    fresh subprocess, without and with the disk cache) and warm (same process), and the CPU cost of Game.copy(); with --memory N,
    the peak memory of an N-game simulation. With --coverage, a third side in every round: regnum
    counting coverage (as `regnum fuzz` plays), its games/s and the cost of counting.

    With --profile, nothing is timed: for each ruleset and player count, random games (seeds
    0 on: --games of them, or --profile-seconds of CPU time; a first one unsampled) are
    sampled by a timer of CPU time (a thousand times a second asked; a kernel whose timer ticks
    less often gives fewer), and each sample goes to the ruleset's code that was running: a statement of a rule, an action, the flow or the setup; the listing of
    an action's moves; a def, a prefer or a scoring. Two tables: each declaration's share, of
    its own and with what it calls, and the --top costliest lines, with their text (a
    listing's line once for each part of it: the domain of a parameter, the loop over its
    choices, at the parameter's line); what runs under no code of the ruleset is the engine's
    own bookkeeping. With --coverage the games
    count coverage, as `regnum fuzz` plays them. With --json: {"profiles": [{"ruleset",
    "players", "seed", "games", "moves", "coverage", "rate", "cpu_seconds", "samples",
    "engine_samples", "engine_share", "declarations": [{"declaration", "kind", "name",
    "location", "self_samples", "self_share", "total_samples", "total_share"}], "lines":
    [{"location", "file", "line", "declaration", "part", "text", "samples", "share"}]}], "machine",
    "settings"}, shares from 0 to 1. Needs a timer of CPU time (SIGPROF): Linux, macOS and other
    Unix systems.

    With --json prints one object: {"results": [{"ruleset", "players", "games_per_second",
    "moves_per_second", "baseline_games_per_second", "ratio", "baseline_moves_per_second",
    "same_games", "rounds", "games", "cpu_seconds", "coverage_games_per_second", "coverage_cost",
    ...}], "load": {ruleset: {"cold_ms", "cold_cached_ms", "warm_ms", ...}}, "copy_us": {ruleset:
    µs}, "memory": {ruleset: {...}} or null, "machine": {...}, "settings": {...}}.

    Exits 1 when a ruleset fails to load or play, and when a baseline, or regnum counting
    coverage, played different games than regnum (same_games or coverage_same_games false): the
    figures are printed all the same, with a warning.

    \b
    Example:
      regnum bench
      regnum bench kings_road -p 4 --rounds 9 --games 50 --json
      regnum bench kingdom_builder --memory 1000
      regnum bench kings_gate -p 4 --coverage
      regnum bench my_game.rules -p 3 --profile --top 30
      regnum bench benchmarks/unseen/*.rules -p 4     # games it was not tuned on
    """
    from ..benchmark import bench_ruleset, clamp_players, copy_cost, load_times, machine_info, peak_memory
    from ..simulate import SimulationError   # the models and workers: imported when a benchmark runs
    wall = time.perf_counter()
    if rulesets:
        paths = [resources.find_ruleset(argument, rules_path()) for argument in rulesets]
        targets = [(resources.ruleset_name(p), p) for p in paths]
    else:
        targets = list(resources.bundled_names().items())
    if not targets:
        fail(f"error: no bundled rulesets in {resources.data_dir('rulesets')}")
    counts = list(dict.fromkeys(player_counts or (2, 4)))
    if profile:
        _timing_only(("rounds", "seconds", "baseline_path", "load_runs", "memory_games"))
        _profiles(targets, counts, games, profile_seconds, coverage, max_moves, top, as_json, wall)
        return
    rows: list[BenchResult] = []
    load: dict = {}
    copies: dict = {}
    memory: dict | None = {} if memory_games else None
    failed = False

    def warn(message: str) -> None:
        echo(f"warning: {message}", err=True)

    import regnum

    for name, path in targets:
        if not as_json:
            echo(f"benchmarking {name}…", err=True)
        try:
            rules = regnum.load(str(path), rules_path=list(rules_path()))
            label = ruleset_label(rules, path)
            baseline = _baseline(name, rules, baseline_path if len(targets) == 1 else None)
            for players in dict.fromkeys(clamp_players(rules, n) for n in counts):
                try:
                    row = bench_ruleset(label, rules, players, rounds=rounds, games=games, seconds=seconds,
                                        max_moves=max_moves, baseline=baseline, warn=warn, coverage=coverage)
                except RuntimeError as err:
                    raise SimulationError(f"{label}, {players} players: {err}") from None
                if row.same_games is False:
                    warn(f"{label}, {players} players: regnum and the baseline played DIFFERENT games "
                         f"({row.mismatch}): the ratio compares different work")
                    failed = True
                if row.coverage_same_games is False:
                    warn(f"{label}, {players} players: counting coverage changed the games regnum played")
                    failed = True
                rows.append(row)
            load[label] = load_times(path, rules_path(), cold_runs=load_runs)
            copies[label] = copy_cost(rules, counts[-1], max_moves)
            if memory is not None:
                memory[label] = peak_memory(path, clamp_players(rules, counts[-1]), memory_games, max_moves,
                                            rules_path())
        except (api_error("RulesetError"), SimulationError) as err:
            echo(describe_error(err), err=True)
            failed = True
    backend = compiled.status()   # which modules ran: pure Python, or a build (REGNUM_COMPILED=1)
    settings = {"rounds": rounds, "games": games, "seconds": seconds, "players": counts, "max_moves": max_moves,
                "coverage": coverage,
                "clock": "time.process_time", "load_runs": load_runs, "memory_games": memory_games,
                "wall_seconds": round(time.perf_counter() - wall, 2), "backend": backend["backend"],
                "compiled_modules": backend["compiled_modules"]}
    if as_json:
        click.echo(json.dumps({"results": [row.model_dump() for row in rows], "load": load, "copy_us": copies,
                               "memory": memory, "machine": machine_info(), "settings": settings}))
    else:
        _bench_table(rows, load, copies, memory, rounds)
        echo(f"{settings['wall_seconds']:.0f} s wall; backend: {backend['reason']}", err=True)
    if failed:
        raise click.exceptions.Exit(1)
