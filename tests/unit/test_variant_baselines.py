"""regnum.benchmark.baseline_for: which hand-written baseline `regnum bench` compares a ruleset
with. A ruleset's own `benchmarks/<name>_baseline.py` first; a variant without one is played by
its base game's baseline when that module names the variant in `VARIANTS` (its `bench_game`
then takes `variant=`). Fake baselines in a temporary checkout make the choice exact; the
games of a variant that only shares a name with the baseline's are reported as different.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import regnum
from regnum import benchmark, resources
from regnum.agents import play_random_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def checkout(tmp_path, monkeypatch):
    """A checkout whose benchmarks/ holds the fake baselines a test writes."""
    (tmp_path / "benchmarks").mkdir()
    monkeypatch.setattr(resources, "checkout_root", lambda: tmp_path)
    return tmp_path / "benchmarks"


def _write(folder: Path, name: str, body: str) -> None:
    (folder / f"{name}_baseline.py").write_text(textwrap.dedent(body), encoding="utf-8")


FAKE_BASE = """
    VARIANTS = frozenset({"harsh_tournament"})
    calls = []

    def bench_game(players, seed, max_moves, variant=None):
        calls.append((players, seed, max_moves, variant))
        return 7, [seed] * players
"""


def test_a_variant_listed_by_its_base_is_played_by_the_base(checkout):
    _write(checkout, "kings_gate", FAKE_BASE)
    rules = regnum.load("harsh_tournament")
    baseline = benchmark.baseline_for("harsh_tournament", rules)
    assert isinstance(baseline, benchmark.VariantBaseline) and baseline.variant == "harsh_tournament"
    assert baseline.bench_game(3, 11, 500) == (7, [11, 11, 11])
    assert baseline.module.calls == [(3, 11, 500, "harsh_tournament")]


def test_no_baseline_for_a_variant_its_base_does_not_list(checkout):
    _write(checkout, "kings_gate", FAKE_BASE.replace('"harsh_tournament"', '"some_other_variant"'))
    assert benchmark.baseline_for("harsh_tournament", regnum.load("harsh_tournament")) is None


def test_no_baseline_when_the_base_has_none_or_no_variants(checkout):
    assert benchmark.baseline_for("harsh_tournament", regnum.load("harsh_tournament")) is None
    _write(checkout, "kings_gate", "def bench_game(players, seed, max_moves):\n    return 1, [0] * players\n")
    assert benchmark.baseline_for("harsh_tournament", regnum.load("harsh_tournament")) is None


def test_a_ruleset_s_own_baseline_comes_first(checkout):
    _write(checkout, "kings_gate", FAKE_BASE)
    _write(checkout, "harsh_tournament", "def bench_game(players, seed, max_moves):\n    return 2, [1] * players\n")
    own = benchmark.baseline_for("harsh_tournament", regnum.load("harsh_tournament"))
    assert not isinstance(own, benchmark.VariantBaseline) and own.bench_game(2, 0, 9) == (2, [1, 1])


def test_a_base_game_is_not_given_a_variant_s_baseline(checkout):
    _write(checkout, "kings_gate", FAKE_BASE)
    base = benchmark.baseline_for("kings_gate", regnum.load("kings_gate"))
    assert not isinstance(base, benchmark.VariantBaseline) and base.bench_game(2, 5, 9) == (7, [5, 5])
    assert base.calls == [(2, 5, 9, None)]


def test_a_baseline_given_by_path_is_the_only_one(checkout, tmp_path):
    _write(checkout, "kings_gate", FAKE_BASE)
    missing = tmp_path / "nowhere_baseline.py"
    assert benchmark.baseline_for("harsh_tournament", regnum.load("harsh_tournament"), missing) is None


def test_the_bundled_variants_have_their_base_s_baseline():
    """Each bundled variant is played by its base game's hand-written baseline, and plays
    regnum's games there (the seeds regnum bench plays first)."""
    pairs = {}
    for name in ("harsh_tournament", "permanent_nobles", "recruit", "lords_ties_use_up_second"):
        rules = regnum.load(name)
        baseline = benchmark.baseline_for(name, rules)
        assert isinstance(baseline, benchmark.VariantBaseline), name
        pairs[name] = (baseline.module.__file__, baseline.variant)
        players = 2
        for seed in range(3):
            game = play_random_game(rules, players, seed, coverage=False)
            assert tuple(baseline.bench_game(players, seed, 10_000)) == (game.move_count, game.scores), (name, seed)
    assert {name: (Path(f).name, v) for name, (f, v) in pairs.items()} == {
        "harsh_tournament": ("kings_gate_baseline.py", "harsh_tournament"),
        "permanent_nobles": ("kings_road_baseline.py", "permanent_nobles"),
        "recruit": ("kings_kilt_baseline.py", "recruit"),
        "lords_ties_use_up_second": ("kingdom_builder_baseline.py", "lords_ties_use_up_second"),
    }


def test_a_variant_that_only_shares_the_name_plays_other_games(tmp_path):
    """A variant of one's own named like a bundled one gets the baseline of that name, whose
    games then differ from regnum's: `regnum bench` reports them (same_games false)."""
    path = tmp_path / "harsh_tournament.rules"
    path.write_text(f'variant harsh_tournament of "{ROOT / "rulesets" / "kings_gate.rules"}"\n\n'
                    "const tournament_penalty = 9\n", encoding="utf-8")
    rules = regnum.load(str(path))
    baseline = benchmark.baseline_for("harsh_tournament", rules)
    assert isinstance(baseline, benchmark.VariantBaseline)
    row = benchmark.bench_ruleset("harsh_tournament", rules, 4, rounds=1, games=6, baseline=baseline)
    assert row.same_games is False and row.mismatch.startswith("seed ")
