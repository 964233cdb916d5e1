"""`regnum bench --profile` at the command line: the games sampled and their JSON, the two
tables people read, and the timing's options refused beside it."""
from __future__ import annotations

import regnum
from regnum.agents import play_random_game

from test_cli import one_json_object, run   # tests/cli is on the path of its tests


def test_json_has_a_profile_of_each_player_count():
    result = run("bench", "kings_kilt", "-p", "2", "-p", "3", "--profile", "--games", "2", "--json")
    data = one_json_object(result.stdout)
    assert set(data) == {"profiles", "machine", "settings"}
    rules = regnum.load("kings_kilt")
    assert [(p["ruleset"], p["players"], p["games"], p["seed"], p["coverage"]) for p in data["profiles"]] \
        == [("kings_kilt", 2, 2, 0, False), ("kings_kilt", 3, 2, 0, False)]
    for found in data["profiles"]:
        players = found["players"]
        assert found["moves"] == sum(play_random_game(rules, players, seed).move_count for seed in range(2))
        assert found["engine_samples"] + sum(d["self_samples"] for d in found["declarations"]) == found["samples"]
        assert all(line["location"] == f"{line['file']}:{line['line']}" for line in found["lines"])
    settings = data["settings"]
    assert (settings["profile"], settings["games"], settings["players"], settings["coverage"]) == (True, 2, [2, 3], False)
    assert result.stderr == ""


def test_the_tables_name_declarations_and_lines():
    # 40 games: some 0.5 s of CPU, a hundred samples or more, a quarter of them in that listing
    result = run("bench", "kings_gate", "-p", "4", "--profile", "--games", "40", "--top", "3")
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert lines[0].startswith("kings_gate, 4 players: 40 random games (seeds 0–39), ")
    assert lines[0].endswith(" s of CPU")
    assert "Where the time goes, by declaration" in lines
    header = next(line for line in lines if line.strip().startswith("self"))
    assert header.split() == ["self", "with", "calls", "declaration", "where"]
    listing = next(line for line in lines if "listing the moves of put_object" in line)
    assert listing.split()[-1] == "rulesets/kings_gate.rules:292"
    assert any(line.split()[-4:] == ["the", "engine's", "own", "bookkeeping"] for line in lines)
    title = next(line for line in lines if line.startswith("The costliest lines"))
    shown = lines.index(next(line for line in lines[lines.index(title):] if line.strip().startswith("share")))
    rows = [line for line in lines[shown + 2:] if line.strip()][:4]
    assert [row.split()[2].rpartition(":")[0] for row in rows[:3]] == ["rulesets/kings_gate.rules"] * 3
    assert rows[3].startswith("Sampled: ")
    assert "profiling kings_gate, 4 players…" in result.stderr


def test_counting_coverage_is_said_in_the_heading():
    result = run("bench", "kings_road", "-p", "2", "--profile", "--games", "1", "--coverage", "--top", "1")
    assert result.stdout.splitlines()[0].startswith("kings_road, 2 players: 1 random games (seed 0, counting coverage), ")


def test_the_timing_options_are_refused_beside_it():
    result = run("bench", "kings_road", "--profile", "--rounds", "3", "--load-runs", "0", code=2)
    assert "--profile samples games and times nothing: --rounds, --load-runs do not apply" in result.stderr
    result = run("bench", "kings_road", "--profile", "--memory", "10", code=2)
    assert "--profile samples games and times nothing: --memory does not apply" in result.stderr


FAULTY = """\
game faulty "Faulty"
players 2..2
var turns: int = 0
flow:
    repeat until turns >= 5:
        for p in players:
            ask p to tick
action tick(n in [1, 2]):
    set turns = turns + 1
    if turns == 3:
        set turns = [1, 2][turns]
"""


def test_a_game_that_faults_is_one_located_message(tmp_path):
    path = tmp_path / "faulty.rules"
    path.write_text(FAULTY, encoding="utf-8")
    result = run("bench", str(path), "-p", "2", "--profile", "--games", "2", code=1)
    assert result.stdout == ""
    (message,) = [line for line in result.stderr.splitlines() if "faulty.rules:11:" in line]
    assert "error" in message


def test_no_sample_is_said_plainly(monkeypatch):
    from regnum import profiler

    class Idle(profiler._Sampler):
        def _handler(self, _signum, frame):   # every tick lost
            pass
    monkeypatch.setattr(profiler, "_Sampler", Idle)
    result = run("bench", "kings_road", "-p", "2", "--profile", "--games", "1")
    lines = result.stdout.splitlines()
    assert lines[1] == ("no sample was taken: the games took less CPU time than the timer's tick; play more "
                        "of them (--games, --profile-seconds)")
    assert len(lines) == 2


def test_a_listings_domains_are_told_by_parameter():
    # King's Gate's `put_object` computes the places next to a token, `anchors()`, for every
    # listing: a tenth of the game, on the action's line, named as the domain of `at`.
    result = run("bench", "kings_gate", "-p", "4", "--profile", "--games", "40", "--json")
    (found,) = one_json_object(result.stdout)["profiles"]
    domain = [line for line in found["lines"] if line["part"] == "the domain of at"
              and line["declaration"] == "listing the moves of put_object"]
    assert [line["location"] for line in domain] == ["rulesets/kings_gate.rules:292"]
    assert domain[0]["text"] == 'action put_object(at in anchors(), way in ["east", "south"]):'
    assert all(line["part"] is None for line in found["lines"] if not line["declaration"].startswith("listing"))
    result = run("bench", "kings_gate", "-p", "4", "--profile", "--games", "40", "--top", "60")
    rows = [line.split() for line in result.stdout.splitlines() if "put_object: the domain of at" in line]
    assert len(rows) == 1 and rows[0][2] == "rulesets/kings_gate.rules:292"
