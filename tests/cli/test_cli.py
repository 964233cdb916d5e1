"""The `regnum` command line, end to end through click's CliRunner, on King's Road.

Every invocation goes through `run`, which also checks the promise of DESIGN §5: whatever
the input, no Python exception escapes the command (so no traceback is ever printed).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import regnum
from regnum import resources
from regnum.agents import RandomAgent, play_random_game
from regnum.cli import cli

RULESET = "kings_road"
MAX_MOVES = "20000"  # a safety bound: random King's Road games may stall on ties


def run(*args: str, input: str | None = None, code: int | None = 0):
    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        runner = CliRunner()  # click >= 8.2 keeps stderr apart by itself
    result = runner.invoke(cli, [str(a) for a in args], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"regnum {' '.join(args)} raised {result.exception!r}") from result.exception
    for stream in (result.stdout, result.stderr):
        assert "Traceback" not in stream
    if code is not None:
        assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    return result


def one_json_object(text: str) -> dict:
    """stdout of a --json command: exactly one JSON object and nothing else."""
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def rules():
    return regnum.load(RULESET)


@pytest.fixture(scope="module")
def finished_game(rules):
    """A finished random 4-player game (the first seed whose game ends within the bound)."""
    for seed in range(20):
        game = play_random_game(rules, 4, seed, max_moves=int(MAX_MOVES))
        if game.is_over:
            return game
    pytest.fail("no random 4-player game of King's Road ended within the bound")


@pytest.fixture()
def log_dict(finished_game) -> dict:
    return json.loads(finished_game.log.to_json())


def write_json(tmp_path: Path, data, name="game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


# --- help and version -------------------------------------------------------------------------


@pytest.mark.parametrize("command", sorted(cli.commands))
def test_every_command_has_help_with_an_example(command):
    result = run(command, "--help")
    assert "Example" in result.stdout
    assert f"regnum {command}" in result.stdout


def test_top_level_help_lists_the_commands():
    result = run("--help")
    for command in ("check", "list", "play", "simulate", "replay", "bench"):
        assert command in result.stdout


def test_unknown_command_and_option_are_usage_errors():
    run("frobnicate", code=2)
    run("simulate", RULESET, "--no-such-option", code=2)


# --- resources ----------------------------------------------------------------------------------


def test_data_dirs_exist():
    for kind in resources.KINDS:
        assert resources.data_dir(kind).is_dir(), kind
    assert (resources.data_dir("grammar") / "regnum.lark").is_file()
    with pytest.raises(ValueError):
        resources.data_dir("bogus")


def test_bundled_rulesets_are_found_by_name_in_both_spellings():
    path = resources.find_ruleset("kings_road")
    assert path.name == "kings_road.rules" and path.is_file()
    assert resources.find_ruleset("kings-road") == path
    assert resources.find_ruleset("kings_road.rules") == path
    assert path in resources.bundled_rulesets()
    assert resources.bundled_rulesets() == sorted(resources.bundled_rulesets())
    assert "kings_road" in resources.bundled_names()


def test_an_existing_path_is_taken_as_given(tmp_path):
    file = tmp_path / "mine.rules"
    file.write_text("", encoding="utf-8")
    assert resources.find_ruleset(str(file)) == file


def test_an_unknown_name_lists_the_bundled_ones():
    with pytest.raises(FileNotFoundError) as info:
        resources.find_ruleset("kings_raod")
    assert "kings_road" in str(info.value)
    assert "did you mean 'kings_road'" in str(info.value)


# --- check ----------------------------------------------------------------------------------------


def test_check_a_bundled_ruleset():
    result = run("check", RULESET)
    assert re.search(r"^ok: .*kings_road\.rules \(\d+ rules, \d+ warnings\)$", result.stdout, re.M)


def test_check_json(rules):
    result = run("check", RULESET, "kings-road", "--json")
    data = one_json_object(result.stdout)
    assert list(data) == ["rulesets"]
    assert len(data["rulesets"]) == 2
    for report in data["rulesets"]:
        assert {"path", "ok", "diagnostics"} <= set(report)
        assert report["ok"] is True
        assert len(report["diagnostics"]) == len(rules.warnings)


def test_check_a_broken_ruleset_reports_file_line_column(tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text('game broken "Broken"\nplayers 2..4\n@@@ not a declaration\n', encoding="utf-8")
    result = run("check", broken, code=1)
    assert re.search(r"broken\.rules:\d+:\d+: error\[\w+\]", result.stderr)
    data = one_json_object(run("check", broken, "--json", code=1).stdout)
    (report,) = data["rulesets"]
    assert report["ok"] is False
    errors = [d for d in report["diagnostics"] if d["severity"] == "error"]
    assert errors
    for diagnostic in errors:
        assert {"code", "severity", "message", "file", "line", "column"} <= set(diagnostic)
        assert isinstance(diagnostic["line"], int) and diagnostic["line"] >= 1


def test_check_an_unknown_ruleset_exits_1_with_the_bundled_names():
    result = run("check", "no_such_game", code=1)
    assert "kings_road" in result.stderr
    data = one_json_object(run("check", "no_such_game", "--json", code=1).stdout)
    assert data["rulesets"][0]["ok"] is False


def test_check_reports_every_ruleset_even_after_a_failure():
    result = run("check", "no_such_game", RULESET, code=1)
    assert "ok: " in result.stdout


# --- list -----------------------------------------------------------------------------------------


def test_list(rules):
    result = run("list")
    assert "kings_road" in result.stdout
    assert f"{rules.min_players}–{rules.max_players}" in result.stdout


def test_list_to_a_file_writes_each_path_whole():
    rows = [line for line in run("list").stdout.splitlines() if line.startswith("│")]
    paths = resources.bundled_names()
    assert len(rows) == len(paths)   # one line a ruleset: no path folded onto a second
    for row in rows:
        name, _, path = (cell.strip() for cell in row.strip("│").split("│"))
        assert path == str(paths[name])


def test_list_names_are_accepted_by_check():
    names = run("list", "--names").stdout.split()
    assert "kings_road" in names
    assert names == list(resources.bundled_names())
    run("check", "kings_road")


def test_list_json(rules):
    data = one_json_object(run("list", "--json").stdout)
    entry = next(r for r in data["rulesets"] if r["name"] == "kings_road")
    assert (entry["min_players"], entry["max_players"]) == (rules.min_players, rules.max_players)


# --- play -----------------------------------------------------------------------------------------


def test_play_with_bots_only_is_reproducible_and_writes_a_log(tmp_path):
    log = tmp_path / "game.json"
    args = ("play", RULESET, "--players", "4", "--bots", "all", "--seed", "1", "--quiet-board",
            "--max-moves", MAX_MOVES)
    first = run(*args, "--log", log)
    assert "standings" in first.stdout.lower()  # "Final standings" when the game ended
    assert "seed 1" in first.stdout
    assert run(*args).stdout == first.stdout.replace(f"log written to {log}\n", "")
    data = json.loads(log.read_text(encoding="utf-8"))
    assert isinstance(data["moves"], list) and data["moves"]
    replayed = one_json_object(run("replay", log, "--json").stdout)
    assert replayed["moves"] == len(data["moves"])


def test_play_prints_the_board_unless_quiet():
    quiet = run("play", RULESET, "--players", "4", "--bots", "all", "--seed", "1", "--quiet-board",
                "--max-moves", "3")
    loud = run("play", RULESET, "--players", "4", "--bots", "all", "--seed", "1", "--max-moves", "3")
    assert len(loud.stdout) > len(quiet.stdout)


def test_a_human_is_reprompted_on_bad_input_and_can_quit():
    result = run("play", RULESET, "--players", "4", "--bots", "1,2,3", "--seed", "2",
                 input="abc\n999\n1\nq\n")
    assert "is not a move" in result.stderr
    assert "abandoned" in result.stdout
    assert re.search(r"^\s+1\. ", result.stdout, re.M)  # the numbered legal moves


def test_a_human_whose_input_ends_abandons_with_exit_1():
    result = run("play", RULESET, "--players", "4", "--bots", "none", "--seed", "2", input="", code=1)
    assert "input ended" in result.stdout


@pytest.mark.parametrize("bots", ["x", "1,9", "-1"])
def test_bad_bot_spec_is_a_usage_error(bots):
    result = run("play", RULESET, "--players", "4", "--bots", bots, code=2)
    assert "--bots" in result.stderr


def test_a_player_count_out_of_range_is_a_usage_error(rules):
    run("play", RULESET, "--players", str(rules.max_players + 1), "--bots", "all", code=2)


# --- simulate -------------------------------------------------------------------------------------


def test_simulate_json_is_one_object_with_the_documented_keys():
    result = run("simulate", RULESET, "--players", "4", "--games", "6", "--seed", "3", "--json",
                 "--jobs", "1", "--max-moves", MAX_MOVES)
    data = one_json_object(result.stdout)
    assert set(data) == {"ruleset", "players", "games", "games_per_second"}
    assert data["players"] == 4 and data["games_per_second"] > 0
    assert [g["seed"] for g in data["games"]] == [3, 4, 5, 6, 7, 8]
    for game in data["games"]:
        assert {"seed", "scores", "winners", "moves", "truncated"} <= set(game)
        assert len(game["scores"]) == 4
        assert set(game["winners"]) <= {0, 1, 2, 3}
        assert game["truncated"] or game["winners"]


def test_simulate_results_do_not_depend_on_the_number_of_jobs():
    args = ("simulate", RULESET, "--players", "3", "--games", "4", "--seed", "11", "--json",
            "--max-moves", MAX_MOVES)
    serial = one_json_object(run(*args, "--jobs", "1").stdout)
    parallel = one_json_object(run(*args, "--jobs", "2").stdout)
    assert serial["games"] == parallel["games"]


def test_simulate_game_i_is_the_random_game_with_seed_s_plus_i(rules):
    data = one_json_object(run("simulate", RULESET, "--players", "4", "--games", "2", "--seed", "5",
                               "--json", "--jobs", "1", "--max-moves", MAX_MOVES).stdout)
    game = play_random_game(rules, 4, 6, max_moves=int(MAX_MOVES))
    assert data["games"][1]["scores"] == list(game.scores)
    assert data["games"][1]["moves"] == game.move_count


def test_simulate_flags_games_cut_by_the_move_bound():
    data = one_json_object(run("simulate", RULESET, "--players", "4", "--games", "3", "--json",
                               "--jobs", "1", "--max-moves", "5").stdout)
    for game in data["games"]:
        assert game["truncated"] is True and game["winners"] == [] and game["moves"] == 5


def test_simulate_table():
    result = run("simulate", RULESET, "--players", "4", "--games", "4", "--jobs", "1",
                 "--max-moves", MAX_MOVES)
    for text in ("seat", "wins", "mean score", "mean moves per game", "games per second"):
        assert text in result.stdout


def test_simulate_an_unknown_ruleset_exits_1():
    run("simulate", "no_such_game", "--games", "2", code=1)


# --- replay ---------------------------------------------------------------------------------------


def test_replay_a_log(tmp_path, log_dict, finished_game):
    log = write_json(tmp_path, log_dict)
    assert "Final standings" in run("replay", log).stdout
    data = one_json_object(run("replay", log, "--json", "--ruleset", RULESET).stdout)
    assert data["scores"] == list(finished_game.scores)
    assert data["winners"] == list(finished_game.winners)
    assert data["moves"] == finished_game.move_count and data["is_over"] is True


def test_replay_malformed_json_exits_2(tmp_path):
    result = run("replay", write_json(tmp_path, '{"ruleset": '), code=2)
    assert "invalid JSON" in result.stderr


def test_replay_a_log_with_a_bad_field_names_the_field(tmp_path, log_dict):
    log_dict["players"] = "four"
    result = run("replay", write_json(tmp_path, log_dict), code=2)
    assert "players" in result.stderr


def test_replay_a_log_that_is_not_an_object(tmp_path):
    run("replay", write_json(tmp_path, [1, 2, 3]), code=2)


def test_replay_an_illegal_move_names_its_index(tmp_path, log_dict):
    moves = log_dict["moves"]
    moves.insert(1, dict(moves[0]))  # the same seat makes the same choice twice
    result = run("replay", write_json(tmp_path, log_dict), code=1)
    assert result.stderr.startswith("move #1: ")


def test_replay_a_missing_file_exits_1(tmp_path):
    run("replay", tmp_path / "absent.json", code=1)


# --- bench ----------------------------------------------------------------------------------------


def test_bench_json():
    result = run("bench", RULESET, "--rounds", "3", "--games", "2", "--load-runs", "1", "--json")
    data = one_json_object(result.stdout)
    assert set(data) == {"results", "load", "copy_us", "memory", "machine", "settings"}
    assert [row["players"] for row in data["results"]] == [2, 4]   # the default player counts
    keys = {"ruleset", "players", "games_per_second", "moves_per_second", "baseline_games_per_second", "ratio",
            "baseline_moves_per_second", "same_games", "rounds", "games", "cpu_seconds",
            "round_games_per_second"}
    for row in data["results"]:
        assert keys <= set(row)
        assert row["ruleset"] == "kings_road" and row["rounds"] == 3 and row["games"] == 2
        assert len(row["round_games_per_second"]) == 3
        assert row["games_per_second"] > 0 and row["moves_per_second"] > 0 and row["cpu_seconds"] > 0
        assert row["games_per_second"] == pytest.approx(sorted(row["round_games_per_second"])[1])
        baseline = resources.checkout_root() / "benchmarks" / "kings_road_baseline.py"
        if baseline.is_file():
            assert row["same_games"] is True and row["interleaved"] is True
            assert row["baseline_games_per_second"] > 0 and row["baseline_moves_per_second"] > 0
            assert row["ratio"] == pytest.approx(row["games_per_second"] / row["baseline_games_per_second"])
    assert set(data["load"]) == {"kings_road"}
    assert data["load"]["kings_road"]["cold_ms"] > 0 and data["load"]["kings_road"]["warm_ms"] > 0
    assert data["copy_us"]["kings_road"] > 0 and data["memory"] is None
    assert {"python", "platform", "cpu_count"} <= set(data["machine"])
    assert data["settings"]["clock"] == "time.process_time" and data["settings"]["rounds"] == 3


def test_bench_table():
    result = run("bench", RULESET, "--rounds", "1", "--games", "1", "--load-runs", "0", "-p", "3")
    assert "games/s" in result.stdout and "kings_road" in result.stdout and "ratio" in result.stdout
    assert "CPU time" in result.stdout   # the footnote says how it was measured


def test_bench_table_to_a_file_keeps_every_column_and_word():
    """Output that is no terminal (here, the runner's) gets the width the table needs: a
    ruleset's long name once pushed the table past 80 columns, dropping `same` and cutting
    words of the notes."""
    result = run("bench", "lords_ties_use_up_second", "--rounds", "1", "--games", "1", "--load-runs", "0", "-p", "3")
    header = next(line for line in result.stdout.splitlines() if line.strip().startswith("ruleset"))
    assert header.split() == ["ruleset", "pl", "games", "games/s", "moves/s", "games/s", "moves/s", "ratio", "same"]
    words = " ".join(result.stdout.split())
    assert "same = every seed gave equal move counts and final scores on both sides." in words
    assert "Each round plays the same seeds on both sides" in words


def test_fuzz_coverage_to_a_file_keeps_the_rules_locations_whole(tmp_path):
    """The rules a fuzz run never reached are named with their file, line and column, which
    the table once cut to `rulesets/kingdom_builder.rul…` at 80 columns."""
    result = run("fuzz", "kingdom_builder", "--games", "3", "--seed", "0", "--workers", "1",
                 "--failures-dir", str(tmp_path))
    rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
    assert len(rows) == 14 and "…" not in result.stdout
    assert all(re.search(r"kingdom_builder\.rules:\d+:\d+ +│ +0 │$", row) for row in rows), rows


def test_bench_fails_loudly_when_the_baseline_plays_other_games(tmp_path):
    fake = tmp_path / "fake_baseline.py"
    fake.write_text("def bench_game(players, seed, max_moves):\n    return 1, [seed] * players\n")
    result = run("bench", RULESET, "--baseline", fake, "--rounds", "1", "--games", "2", "--load-runs", "0",
                 "-p", "2", "--json", code=1)
    (row,) = one_json_object(result.stdout)["results"]
    assert row["same_games"] is False and row["mismatch"].startswith("seed 0:")
    assert "DIFFERENT games" in result.stderr


# --- agents ---------------------------------------------------------------------------------------


def test_random_agent_picks_a_legal_move_of_its_seat(rules):
    game = rules.new_game(players=4, seed=7)
    seat = game.to_move[0]
    move = RandomAgent(3).choose(game, seat)
    assert move.player == seat and move in game.all_legal_moves()
    assert RandomAgent(3).choose(game, seat) == move


def test_random_games_are_reproducible(rules):
    first = play_random_game(rules, 4, 9, max_moves=300)
    second = play_random_game(rules, 4, 9, max_moves=300)
    assert first.to_json() == second.to_json()
    assert first.move_count <= 300
