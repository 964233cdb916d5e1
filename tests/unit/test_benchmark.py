"""regnum.benchmark: the structure and invariants of the measurements, never a timed threshold.

A fake clock makes the medians exact; a fake baseline records the order in which the sides
play, so the interleaving is checked too.
"""
from __future__ import annotations

import importlib.util
import statistics
from pathlib import Path
from types import SimpleNamespace

import pytest

import regnum
from regnum import benchmark
from regnum.agents import play_random_game

BASELINE = Path(__file__).resolve().parents[2] / "benchmarks" / "kings_road_baseline.py"


@pytest.fixture(scope="module")
def rules():
    return regnum.load("kings_road")


class FakeClock:
    """Each call to a side's timed play moves the clock by the next duration of a list."""

    def __init__(self, durations):
        self.now, self.durations, self.started = 0.0, list(durations), False

    def __call__(self):
        if self.started:                 # the end of a timed call: the time it took
            self.now += self.durations.pop(0)
        self.started = not self.started
        return self.now


def honest_baseline(rules, log):
    def bench_game(players, seed, max_moves):
        log.append("theirs")
        game = play_random_game(rules, players, seed, max_moves)
        return game.move_count, game.scores
    return SimpleNamespace(bench_game=bench_game)


def test_rounds_are_interleaved_and_the_medians_exact(rules, monkeypatch):
    log: list = []
    real = benchmark.play_random_game

    def logged(*args, **kwargs):
        log.append("ours")
        return real(*args, **kwargs)

    monkeypatch.setattr(benchmark, "play_random_game", logged)
    # warm-up (ours), then rounds: ours, theirs | theirs, ours | ours, theirs
    clock = FakeClock([9.0, 1.0, 0.1, 0.2, 2.0, 4.0, 0.4])
    row = benchmark.bench_ruleset("kings_road", rules, 2, rounds=3, games=2, baseline=honest_baseline(rules, log),
                                  clock=clock)
    assert log == (["ours", "theirs"]                       # warm-up: seed 0 on each side
                   + ["ours"] * 2 + ["theirs"] * 2 + ["theirs"] * 2 + ["ours"] * 2 + ["ours"] * 2 + ["theirs"] * 2)
    assert row.rounds == 3 and row.games == 2 and row.players == 2
    assert row.round_games_per_second == pytest.approx([2.0, 1.0, 0.5])
    assert row.baseline_round_games_per_second == pytest.approx([20.0, 10.0, 5.0])
    assert row.games_per_second == pytest.approx(1.0) and row.baseline_games_per_second == pytest.approx(10.0)
    assert row.ratio == pytest.approx(0.1) == pytest.approx(row.games_per_second / row.baseline_games_per_second)
    moves = sum(play_random_game(rules, 2, seed, 10_000).move_count for seed in (0, 1))
    assert row.moves == moves and row.moves_per_second == pytest.approx(statistics.median([moves / 1, moves / 2, moves / 4]))
    assert row.cpu_seconds == pytest.approx(7.0) and row.baseline_cpu_seconds == pytest.approx(0.7)
    assert row.same_games is True and row.mismatch is None and row.interleaved


def test_other_games_are_reported(rules):
    other = SimpleNamespace(bench_game=lambda players, seed, max_moves: (3, [0] * players))
    row = benchmark.bench_ruleset("kings_road", rules, 2, rounds=2, games=2, baseline=other)
    assert row.same_games is False and row.mismatch.startswith("seed 0: ")


def test_an_old_style_baseline_is_timed_apart_and_not_compared(rules):
    warnings: list = []
    old = SimpleNamespace(games_per_second=lambda players, seconds: 40.0)
    row = benchmark.bench_ruleset("kings_road", rules, 4, rounds=2, games=1, baseline=old, warn=warnings.append)
    assert row.same_games is None and row.baseline_games_per_second == 40.0 and not row.interleaved
    assert row.ratio == pytest.approx(row.games_per_second / 40.0)
    assert warnings and "bench_game" in warnings[0]


def test_a_failing_baseline_is_a_warning(rules):
    def broken(players, seed, max_moves):
        raise ValueError("nope")
    warnings: list = []
    row = benchmark.bench_ruleset("kings_road", rules, 2, rounds=2, games=1,
                                  baseline=SimpleNamespace(bench_game=broken), warn=warnings.append)
    assert row.baseline_games_per_second is None and row.ratio is None and row.same_games is None
    assert "nope" in warnings[0]


def test_players_are_clamped(rules):
    row = benchmark.bench_ruleset("kings_road", rules, 9, rounds=1, games=1)
    assert row.players == rules.max_players


def test_without_games_the_warm_up_sizes_the_rounds(rules):
    clock = FakeClock([0.25] + [1.0] * 4)
    row = benchmark.bench_ruleset("kings_road", rules, 2, rounds=2, seconds=1.0, clock=clock)
    assert row.games == 4   # 1 s per round / 0.25 s per warm-up game


@pytest.mark.skipif(not BASELINE.is_file(), reason="no King's Road baseline in this checkout")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_kings_road_baseline_plays_regnums_games(rules, players):
    spec = importlib.util.spec_from_file_location("kings_road_baseline_bench", BASELINE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for seed in range(15):
        game = play_random_game(rules, players, seed, 10_000)
        assert module.bench_game(players, seed, 10_000) == (game.move_count, game.scores)
    short = play_random_game(rules, players, 3, 25)           # the move bound is the same too
    assert module.bench_game(players, 3, 25) == (short.move_count, short.scores)


def test_copy_and_load_figures(rules):
    assert benchmark.copy_cost(rules, 4, batches=2, seconds=0.01) > 0
    times = benchmark.load_times(rules.path, cold_runs=1, warm_runs=2)
    assert times["cold_ms"] > 0 and times["warm_ms"] > 0 and times["cold_runs"] == 1 and times["warm_runs"] == 2


def test_peak_memory_of_a_small_simulation(rules):
    memory = benchmark.peak_memory(rules.path, 2, games=3)
    assert memory["games"] == 3 and memory["failed"] == 0
    assert memory["peak_mb"] >= memory["after_load_mb"] > 0


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no /proc: ru_maxrss is the only figure")
def test_peak_memory_is_the_child_s_own_not_the_parent_s(rules):
    """ru_maxrss keeps the parent's size at the fork: a bench grown large reported itself."""
    held = bytearray(300 << 20)
    held[::4096] = b"\1" * len(held[::4096])   # touched: resident
    memory = benchmark.peak_memory(rules.path, 2, games=3)
    assert memory["method"] == "VmHWM of a subprocess (/proc/self/status in the child)"
    assert 0 < memory["after_load_mb"] <= memory["peak_mb"] < 200
    del held


def test_peak_memory_is_measured_with_a_disk_cache_of_its_own_filled_first(rules, monkeypatch, tmp_path):
    """Whatever the user's cache folder holds, the measured process finds its ruleset's trees
    and code kept (a process that parses imports Lark and builds its parser: some 25 MiB)."""
    users = tmp_path / "users"
    users.mkdir()
    monkeypatch.setenv("REGNUM_CACHE_DIR", str(users))   # nothing kept there
    reported = benchmark._MEMORY.replace('"failed": len(result.failed)}',
                                         '"failed": len(result.failed), "parsed": "lark" in sys.modules}')
    monkeypatch.setattr(benchmark, "_MEMORY", reported)
    calls = []
    real = benchmark._child

    def child(code, *args, env=None, **kwargs):
        out = real(code, *args, env=env, **kwargs)
        calls.append((code, dict(env or {}), out))
        return out

    monkeypatch.setattr(benchmark, "_child", child)
    memory = benchmark.peak_memory(rules.path, 2, games=3)
    assert [code for code, _, _ in calls] == [benchmark._COLD, reported]
    (_, filling, _), (_, measured, out) = calls
    folder = filling["REGNUM_CACHE_DIR"]
    assert measured == {"REGNUM_CACHE_DIR": folder} and folder != str(users)
    assert out["parsed"] is False and memory["games"] == 3
    assert not Path(folder).exists() and list(users.iterdir()) == []


def test_the_engine_floor_plays_a_trivial_ruleset_and_king_s_road_in_one_run(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("engine_floor", BASELINE.with_name("engine_floor.py"))
    floor = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(floor)
    path = tmp_path / "trivial.rules"
    path.write_text(floor.TRIVIAL, encoding="utf-8")
    trivial = regnum.load(str(path))
    game = play_random_game(trivial, 4, 0, coverage=False)
    # A thousand moves, one variable set each: the engine's work only.
    assert (game.move_count, game.state.vars["turns"], game.is_over) == (1000, 1000, True)
    assert floor.main(["--rounds", "1", "--games", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line[:30].rstrip() for line in lines] == [
        "trivial move (regnum)", "King's Road move (regnum)", "King's Road move (baseline)",
        "baseline move / trivial move"]
