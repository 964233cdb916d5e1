"""`regnum.profiler`: random games sampled, each sample given to the ruleset's declaration and
line that were running. A ruleset whose time goes to one line is profiled with that line on
top; the games played are those `play_random_game` plays; every line shown is the ruleset's
own, with its text; the shares add up; the signal handler and timer are put back."""
from __future__ import annotations

import signal
import threading

import pytest

import regnum
from regnum.agents import play_random_game
from regnum.profiler import ProfileUnavailable, profile_games

from toy_rules import load

# One line of `tick` takes nearly all of a move's time: a search of 20,000 numbers.
COSTLY = """\
game costly "Costly"
players 2..4
var turns: int = 0
var found: int = 0
def small(n) = n < 3
flow:
    repeat until turns >= 40:
        for p in players:
            ask p to tick
action tick(n in [1, 2, 3]):
    require not_four: n != 4 else "never"
    set turns = turns + 1
    set found = count(x for x in range(20000) where x % 7 == n)
    run tally(n)
rule tally(n):
    if small(n):
        set found = found + 1
"""


# The same search, as a statement of the flow (which asks, so the VM runs it) and in a rule
# the flow runs (which never waits, so it is compiled to a Python function).
COSTLY_FLOW = """\
game costly_flow "Costly flow"
players 2..4
var turns: int = 0
var found: int = 0
flow:
    repeat until turns >= 40:
        for p in players:
            set found = count(x for x in range(20000) where x % 7 == turns % 3)
            run search(turns)
            ask p to tick
action tick(n in [1, 2, 3]):
    set turns = turns + 1
rule search(t):
    set found = count(x for x in range(20000) where x % 5 == t % 2)
"""


# The search as a require, judged for each of the three choices of every listing.
COSTLY_REQUIRE = """\
game costly_require "Costly require"
players 2..4
var turns: int = 0
flow:
    repeat until turns >= 40:
        for p in players:
            ask p to tick
action tick(n in [1, 2, 3]):
    require plenty: count(x for x in range(20000) where x % 7 == n) > 0 else "never"
    require early: count(x for x in range(30000) where x % 7 == turns % 7) > 0 else "never"
    set turns = turns + 1
"""


@pytest.fixture(scope="module")
def costly(tmp_path_factory):
    return load(tmp_path_factory.mktemp("profiler"), COSTLY, "costly.rules")


@pytest.fixture(scope="module")
def costly_profile(costly):
    return profile_games(costly, 2, games=6, seed=3, rate=1000)


def test_the_costly_line_takes_the_most_samples(costly_profile):
    top = costly_profile.lines[0]
    assert (top.line, top.declaration) == (13, "action tick")
    assert top.text == "set found = count(x for x in range(20000) where x % 7 == n)"
    assert top.file.endswith("costly.rules") and top.location == f"{top.file}:13"
    assert top.share > 0.8
    first = costly_profile.declarations[0]
    assert (first.declaration, first.kind, first.name) == ("action tick", "action", "tick")
    assert first.location.endswith("costly.rules:10")
    assert first.self_share > 0.8 and first.total_share >= first.self_share


def test_a_statement_the_vm_runs_is_told_by_its_line(tmp_path):
    rules = load(tmp_path, COSTLY_FLOW, "costly_flow.rules")
    found = profile_games(rules, 2, games=4, seed=0)
    first, second = found.lines[:2]
    assert {(first.line, first.declaration), (second.line, second.declaration)} == {(8, "the flow"), (14, "rule search")}
    assert first.share + second.share > 0.85 and min(first.share, second.share) > 0.25
    assert second.text in ("set found = count(x for x in range(20000) where x % 7 == turns % 3)",
                           "set found = count(x for x in range(20000) where x % 5 == t % 2)")
    shares = {d.declaration: d for d in found.declarations}
    # The rule runs within the flow: the flow's share with what it calls holds the rule's.
    assert shares["the flow"].total_samples >= shares["the flow"].self_samples + shares["rule search"].self_samples
    assert shares["rule search"].location.endswith("costly_flow.rules:13")


def test_a_listing_is_told_by_the_line_of_the_require_it_judges(tmp_path):
    rules = load(tmp_path, COSTLY_REQUIRE, "costly_require.rules")
    found = profile_games(rules, 2, games=3, seed=0)
    # `plenty` is judged for each of the three choices, `early` (which reads no choice) once a
    # listing, before them.
    top, second = found.lines[:2]
    assert (top.line, top.declaration, second.line, second.declaration) \
        == (9, "listing the moves of tick", 10, "listing the moves of tick")
    assert top.share + second.share > 0.85 and second.share > 0.15
    assert top.text == 'require plenty: count(x for x in range(20000) where x % 7 == n) > 0 else "never"'
    assert second.text == 'require early: count(x for x in range(30000) where x % 7 == turns % 7) > 0 else "never"'
    listing = found.declarations[0]
    assert (listing.declaration, listing.location.rpartition(":")[2]) == ("listing the moves of tick", "8")
    lister = rules.model.actions["tick"].lister
    assert set(span.line for span in lister.line_spans.values()) == {9, 10}
    assert "#@" not in lister.source   # the tags are in the code compiled, not in what is shown


def test_the_games_are_those_a_random_playout_plays(costly, costly_profile):
    expected = sum(play_random_game(costly, 2, seed).move_count for seed in range(3, 9))
    assert (costly_profile.games, costly_profile.moves, costly_profile.seed, costly_profile.players) == (6, expected, 3, 2)
    assert expected == 6 * 40   # 40 turns a game, whoever plays them
    assert costly_profile.ruleset == "costly" and costly_profile.coverage is False and costly_profile.rate == 1000


def test_the_shares_add_up(costly_profile):
    found = costly_profile
    assert found.samples > 0
    assert found.engine_samples + sum(d.self_samples for d in found.declarations) == found.samples
    assert sum(line.samples for line in found.lines) == found.samples - found.engine_samples
    assert found.engine_share == pytest.approx(found.engine_samples / found.samples)
    for d in found.declarations:
        assert d.total_samples >= d.self_samples
        assert d.self_share == pytest.approx(d.self_samples / found.samples)
    assert [line.samples for line in found.lines] == sorted((line.samples for line in found.lines), reverse=True)


@pytest.mark.parametrize("name, players", [("kings_road", 4), ("kings_gate", 3)])
def test_every_line_is_the_rulesets_own_with_its_text(name, players):
    rules = regnum.load(name)
    found = profile_games(rules, players, games=40, seed=1)
    assert found.lines
    assert found.engine_samples > 0   # the move's bookkeeping, a seventh of the time and more
    assert found.engine_samples + sum(d.self_samples for d in found.declarations) == found.samples
    source = {}
    for line in found.lines:
        if line.file not in source:
            with open(line.file, encoding="utf-8") as handle:
                source[line.file] = handle.read().split("\n")
        assert line.text == source[line.file][line.line - 1].strip()
        assert line.location == f"{line.file}:{line.line}"
    kinds = {d.kind for d in found.declarations}
    assert kinds <= {"listing", "action", "rule", "phase", "def", "prefer", "scoring", "trigger", "flow", "setup"}
    listings = {d.name for d in found.declarations if d.kind == "listing"}
    assert listings <= set(rules.model.actions)
    assert {d.declaration for d in found.declarations if d.kind == "listing"} \
        == {f"listing the moves of {name}" for name in listings}


def test_kings_gate_names_its_listing_of_the_next_object():
    """King's Gate's `put_object` listing walks every cell next to a token for each object: it
    takes a large share (a quarter of the time, sampled a hundred times and more in 40 games),
    and is named by its action's line."""
    rules = regnum.load("kings_gate")
    found = profile_games(rules, 4, games=40, seed=0)
    listing = next(d for d in found.declarations if d.declaration == "listing the moves of put_object")
    assert listing.location.endswith("kings_gate.rules:292") and listing.self_share > 0.05


def test_counting_coverage_plays_the_same_games(costly, monkeypatch):
    from regnum import agents
    asked = []
    real = agents.play_random_game

    def spy(*args, **kwargs):
        asked.append(kwargs.get("coverage"))
        return real(*args, **kwargs)
    monkeypatch.setattr(agents, "play_random_game", spy)
    found = profile_games(costly, 2, games=2, seed=0, coverage=True)
    assert asked == [True, True, True]   # the first game, unsampled, then the two
    assert found.coverage is True
    assert found.moves == sum(play_random_game(costly, 2, seed).move_count for seed in range(2))


def test_without_games_it_plays_for_the_seconds_asked(costly):
    found = profile_games(costly, 2, seconds=0.05, seed=0)
    assert found.games >= 1 and found.cpu_seconds >= 0.05


def test_the_handler_and_timer_are_put_back(costly):
    def mine(_signum, _frame):
        pass
    previous = signal.signal(signal.SIGPROF, mine)
    try:
        profile_games(costly, 2, games=1)
        assert signal.getsignal(signal.SIGPROF) is mine
        assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    finally:
        signal.signal(signal.SIGPROF, previous)


def test_another_thread_is_told_why_it_cannot_profile(costly):
    failures = []

    def run():
        try:
            profile_games(costly, 2, games=1)
        except ProfileUnavailable as err:
            failures.append(str(err))
    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    assert failures == ["profiling samples through a signal, which only the main thread receives"]


def test_a_variant_is_named_and_located_as_itself():
    from regnum.profiler import _Attribution
    rules = regnum.load("permanent_nobles")
    found = profile_games(rules, 4, games=1, seed=0)
    assert found.ruleset == "permanent_nobles"
    attribution = _Attribution(rules.model, rules.program)
    replaced = attribution.declaration("rule", "crown_noble")[1]   # the variant's own rule
    kept = attribution.declaration("rule", "score_region")[1]      # the base game's
    assert (replaced.file.rpartition("/")[2], kept.file.rpartition("/")[2]) == ("permanent_nobles.rules", "kings_road.rules")
