"""benchmarks/saved_game_costs.py: what writing, reading back and showing a saved game costs;
the game it times and the shape of its report, never a timed threshold."""
from __future__ import annotations

import json
import random

import regnum
from benchmark_scripts import script   # tests/unit is on the path of its tests

OPERATIONS = ["to_json after a move", "to_json, again", "to_json, read back", "read_json",
              "game_from_json", "saved.check", "observation"]


def test_the_game_timed_is_the_seeds_and_each_move_is_written_once():
    module = script("saved_game_costs")
    ticks = iter(range(1000))
    game, writes = module.played(regnum.load("kings_kilt"), 12, 5, clock=lambda: next(ticks))
    assert game.move_count == 12 and writes == [1] * 12
    again = regnum.load("kings_kilt").new_game(players=4, seed=5)
    picker = random.Random(5)
    for _ in range(12):
        legal = again.all_legal_moves()
        again.play(legal[picker.randrange(len(legal))])
    assert again.to_json() == game.to_json()


def test_an_operation_is_the_median_of_its_rounds_of_one_call():
    module = script("saved_game_costs")
    calls = []
    seconds = iter([0.0, 3.0, 3.0, 4.0, 4.0, 10.0])   # rounds of 3 calls: 1.0, 0.333…, 2.0 a call
    assert module.timed(lambda: calls.append(1), rounds=3, repeat=3, clock=lambda: next(seconds)) == 1.0
    assert len(calls) == 1 + 3 * 3   # the warming call, then the rounds


def test_the_report_names_every_operation(capsys):
    module = script("saved_game_costs")
    assert module.main(["kings_kilt", "--moves", "8", "--rounds", "1", "--repeat", "1", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert (found["ruleset"], found["moves"]) == ("kings_kilt", 8)
    assert found["json_chars"] == len(module.played(regnum.load("kings_kilt"), 8, 3)[0].to_json())
    assert list(found["us"]) == OPERATIONS and all(us > 0 for us in found["us"].values())
    assert module.main(["kings_kilt", "--moves", "8", "--rounds", "1", "--repeat", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("kings_kilt: 8 moves, a saved game of ") and len(lines) == 1 + len(OPERATIONS)
    assert [line.split("  ")[1].strip() for line in lines[1:]] == OPERATIONS
