"""`--backend ray`: the same seeds give the same games on a local Ray instance as on the local
backend, seed for seed (scores, winners, moves), through `regnum simulate` and through
`regnum.backends.run_all`. Skipped where Ray is not installed (`pip install 'regnum[ray]'`),
except the test that its absence is a one-line usage error.

Starting a local Ray instance costs a few seconds: two tests start (and stop) their own, the
failure tests share one started by a fixture (run_all then leaves it running)."""
from __future__ import annotations

import operator
import sys

import pytest

from regnum import backends, resources
from regnum.backends import BackendError, BackendUnavailable, run_all
from regnum.simulate import _worker_play, _worker_setup, simulate

from test_cli import MAX_MOVES, RULESET, one_json_object, run

SIMULATION = ("simulate", RULESET, "--players", "3", "--games", "12", "--seed", "21", "--json",
              "--max-moves", MAX_MOVES)


@pytest.fixture(scope="module")
def ray_module():
    return pytest.importorskip("ray")


@pytest.fixture
def no_ray_running(ray_module):
    if ray_module.is_initialized():
        ray_module.shutdown()
    yield ray_module
    assert not ray_module.is_initialized(), "run_all left the Ray instance it started running"


@pytest.fixture(scope="module")
def running_ray(ray_module):
    ray_module.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray_module
    ray_module.shutdown()


def test_simulate_on_ray_gives_the_local_games(no_ray_running):
    local = one_json_object(run(*SIMULATION, "--workers", "2").stdout)
    serial = one_json_object(run(*SIMULATION, "--jobs", "1").stdout)
    on_ray = one_json_object(run(*SIMULATION, "--backend", "ray", "--workers", "2").stdout)
    assert [game["seed"] for game in on_ray["games"]] == list(range(21, 33))
    assert on_ray["games"] == local["games"] == serial["games"]
    assert any(game["winners"] for game in on_ray["games"])


def test_run_all_on_ray_gives_the_local_results(no_ray_running):
    setup_args = (str(resources.find_ruleset(RULESET)), 4, int(MAX_MOVES))
    seeds = list(range(7, 7 + 9))
    seen = []
    on_ray = run_all(_worker_setup, setup_args, _worker_play, seeds, workers=2, backend="ray",
                     progress=lambda done, total: seen.append((done, total)))
    local = run_all(_worker_setup, setup_args, _worker_play, seeds, workers=2)
    assert on_ray == local
    assert [result["seed"] for result, _log in on_ray] == seeds
    assert seen[-1] == (9, 9)


def test_a_setup_that_raises_on_ray_is_one_backend_error(running_ray):
    with pytest.raises(BackendError, match=r"worker setup failed: ValueError: invalid literal"):
        run_all(int, ("x",), operator.add, [1, 2, 3], workers=2, backend="ray")
    assert running_ray.is_initialized()  # not started by run_all, so not stopped by it


def test_work_that_raises_on_ray_is_one_backend_error(running_ray):
    with pytest.raises(BackendError, match=r"^ZeroDivisionError: division by zero$"):
        run_all(int, ("1",), operator.truediv, [1, 2, 0, 4, 5], workers=2, backend="ray")
    assert run_all(str, ("ab",), operator.mul, [3, 1, 2], backend="ray") == ["ababab", "ab", "abab"]


def test_simulate_on_ray_without_ray_is_a_usage_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    with pytest.raises(BackendUnavailable, match=r"pip install 'regnum\[ray\]'"):
        backends.run_all(int, ("1",), operator.add, [1], backend="ray")
    with pytest.raises(BackendUnavailable):
        simulate(RULESET, 2, 2, backend="ray")
    result = run("simulate", RULESET, "--games", "2", "--backend", "ray", code=2)
    assert result.stderr.strip() == "error: the Ray backend needs Ray: pip install 'regnum[ray]'"


def test_address_without_the_ray_backend_is_a_usage_error():
    result = run("simulate", RULESET, "--games", "2", "--address", "auto", code=2)
    assert "--backend ray" in result.stderr


def test_more_workers_than_the_cluster_has_cpus_do_not_wait_forever(running_ray):
    assert run_all(str, ("ab",), operator.mul, list(range(10)), workers=5, backend="ray") == \
        ["ab" * i for i in range(10)]


def test_fuzz_on_ray_finds_what_the_local_backend_finds(no_ray_running, tmp_path):
    planted = resources.checkout_root() / "tests" / "fuzz" / "rulesets" / "vanishing_gem.rules"
    args = ("fuzz", planted, "--games", "30", "--seed", "30", "--json")
    reports = [one_json_object(run(*args, *more, "--failures-dir", tmp_path / name, code=1).stdout)
               for name, more in (("serial", ("--workers", "1")), ("local", ("--workers", "2")),
                                  ("ray", ("--backend", "ray", "--workers", "2")))]
    for report in reports:
        del report["seconds"], report["steps_per_second"]
        for failure in report["failures"]:
            del failure["log"]
    serial, local, on_ray = reports
    assert on_ray == local == serial
    assert [(f["kind"], f["check"], f["players"], f["moves"]) for f in on_ray["failures"]] == \
        [("invariant", "gems_conserved", 2, 11)]


def test_fuzz_address_without_the_ray_backend_is_a_usage_error():
    result = run("fuzz", RULESET, "--games", "2", "--address", "auto", code=2)
    assert "--backend ray" in result.stderr


@pytest.mark.parametrize("address, message", [
    ("127.0.0.1:9", "error: no Ray cluster answers at 127.0.0.1:9: Connection refused (start one with "
                    "`ray start --head`, or leave out --address for a local instance)"),
    ("nonsense", "error: the Ray address 'nonsense' is not HOST:PORT, ray://HOST:PORT or auto"),
])
def test_a_cluster_address_with_nothing_there_is_refused_at_once(ray_module, address, message):
    # Ray itself would retry for minutes, printing its own logs; the answer is one line, exit 2.
    for command in ("simulate", "fuzz"):
        result = run(command, RULESET, "--games", "2", "--backend", "ray", "--address", address, code=2)
        assert result.stderr.strip() == message
