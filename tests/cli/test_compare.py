"""`regnum compare BASE VARIANT`: both rulesets on the same seeds, the measures side by side, the
first seed and move where they differ and the changed declaration behind it, the chart."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import regnum
from regnum.compare import compare

from test_cli import one_json_object, run  # tests/cli is on the path of its tests

DASH = """\
game dash "Dash"
players 2..3
const goal = 6
var turns: int = 0
flow:
    let p = 0
    repeat until any(score(q) >= goal for q in players):
        ask p to run_ahead
        add 1 to turns
        set p = (p + 1) % count(players)
action run_ahead(n in [1, 2]):
    add n to score(player)
winner p: highest score(p)
statistic rounds: turns // count(players)
statistic lead: max([score(q) for q in players]) - min([score(q) for q in players])
"""


@pytest.fixture
def dash(tmp_path: Path) -> Path:
    (tmp_path / "dash.rules").write_text(DASH)
    (tmp_path / "long.rules").write_text('variant long_dash of "dash.rules"\nconst goal = 10\n')
    (tmp_path / "leap.rules").write_text('variant leap of "dash.rules"\n'
                                         "action run_ahead(n in [1, 2, 3]):\n    add n to score(player)\n")
    return tmp_path


def rows(result: dict) -> dict:
    return {r["measure"]: r for r in result["rows"]}


def test_a_constant_changed_shows_where_the_games_part_and_what_it_does(dash):
    out = one_json_object(run("compare", dash / "dash.rules", dash / "long.rules", "-p", "2", "-g", "50",
                              "-j", "1", "--json").stdout)
    assert (out["base"], out["variant"], out["players"], out["games"], out["seed"]) == ("dash", "long_dash", 2, 50, 0)
    measures = rows(out)
    assert list(measures) == ["P0 wins", "P1 wins", "shared victories", "winning score", "length in moves",
                              "length in rounds", "lead"]
    wins = measures["P0 wins"]
    assert (wins["share"], wins["base"]["mean"], wins["variant"]["mean"], wins["difference"]["mean"]) == \
        (True, 0.76, 0.66, pytest.approx(-0.10))
    assert (round(wins["base"]["low"], 3), round(wins["base"]["high"], 3)) == (0.626, 0.857)   # Wilson
    score = measures["winning score"]
    assert (score["base"]["mean"], score["variant"]["mean"], score["difference"]["mean"]) == \
        (6.18, 10.2, pytest.approx(4.02))
    assert (round(score["difference"]["low"], 2), round(score["difference"]["high"], 2)) == (3.87, 4.17)
    assert (measures["length in moves"]["base"]["mean"], measures["length in rounds"]["variant"]["mean"]) == \
        (7.0, 5.78)
    assert measures["shared victories"]["base"] == {"mean": 0.0, "low": 0.0, "high": pytest.approx(0.0713, abs=1e-4),
                                                    "n": 50}   # Wilson's interval never leaves [0, 1]
    assert out["diverged"] == 50 and out["failed"] == []
    first = out["first_divergence"]
    assert (first["seed"], first["move"], first["base_move"], first["variant_move"], first["differs"]) == \
        (0, 8, "P0: run ahead 2", "P0: run ahead 2", ["whether the game is over"])   # the 9th move
    # Nothing the variant changed runs in that step; the flow, which did, reads the constant.
    assert first["rules"] == [f"const goal replaced ({dash / 'long.rules'}:2:1)"]
    assert len(out["scores"][0]) == len(out["scores"][1]) == 100    # two seats, fifty games each


def test_a_replaced_action_differs_at_the_setup_by_the_moves_it_offers(dash):
    out = one_json_object(run("compare", dash / "dash.rules", dash / "leap.rules", "-p", "2", "-g", "10",
                              "-j", "1", "--json").stdout)
    first = out["first_divergence"]
    assert (first["seed"], first["move"], first["base_move"], first["variant_move"], first["differs"]) == \
        (0, 0, None, None, ["moves offered to P0"])
    assert first["rules"] == [f"action run_ahead replaced ({dash / 'leap.rules'}:2:1)"]
    text = run("compare", dash / "dash.rules", dash / "leap.rules", "-p", "2", "-g", "10", "-j", "1").stdout
    assert "first difference: seed 0, before the first move; what differs: moves offered to P0" in text


def test_what_only_the_variant_declares_is_no_difference_until_play_reads_it(dash):
    (dash / "quiet.rules").write_text('variant quiet of "dash.rules"\nvar spare: int = 0\n'
                                      'var extra per player: int = 0\n')
    out = one_json_object(run("compare", dash / "dash.rules", dash / "quiet.rules", "-p", "2", "-g", "10",
                              "-j", "1", "--json").stdout)
    assert out["diverged"] == 0 and out["first_divergence"] is None


def test_a_ruleset_against_itself_never_differs(dash):
    out = one_json_object(run("compare", dash / "dash.rules", dash / "dash.rules", "-p", "3", "-g", "12",
                              "-j", "1", "--json").stdout)
    assert out["diverged"] == 0 and out["first_divergence"] is None
    for row in out["rows"]:
        assert row["base"] == row["variant"]
        assert (row["difference"]["mean"], row["difference"]["low"], row["difference"]["high"]) == (0, 0, 0)
    assert [r["measure"] for r in out["rows"]][:3] == ["P0 wins", "P1 wins", "P2 wins"]


def test_the_table_names_the_rulesets_the_measures_and_the_first_difference(dash):
    text = run("compare", dash / "dash.rules", dash / "long.rules", "-p", "2", "-g", "50", "-j", "1").stdout
    assert "long_dash against dash: 50 games each, 2 players, seeds 0–49" in text
    assert "(in brackets: 95% confidence intervals; difference: variant minus base, seed by seed)" in text
    assert re.search(r"│ P0 wins\s+│ 76\.0% \(62\.6–85\.7\) │ 66\.0% \(52\.2–77\.6\) │ -10\.0 pts \(-22\.8 to \+2\.8\) │",
                     text)
    assert re.search(r"│ winning score\s+│ +6\.18 \(6\.07–6\.29\) │ +10\.2 \(10\.1–10\.3\) │ +\+4\.02 \(\+3\.87 to \+4\.17\) │",
                     text)
    assert "seeds whose games differ: 50 of 50" in text
    assert ("first difference: seed 0, at move 9 (P0: run ahead 2, in both games); what differs: whether the "
            "game is over") in text
    assert f"because of: const goal replaced ({dash / 'long.rules'}:2:1)" in text


def test_workers_change_nothing(dash):
    args = ("compare", dash / "dash.rules", dash / "long.rules", "-p", "2", "-g", "8", "--json")
    assert one_json_object(run(*args, "-j", "1").stdout) == one_json_object(run(*args, "-j", "2").stdout)


def test_permanent_nobles_against_kings_road():
    result = compare("kings_road", "permanent_nobles", players=4, games=6, jobs=1)
    measures = {r.measure: r for r in result.rows}
    assert list(measures)[-2:] == ["length in rounds", "nobles_on_board"]
    assert [round(measures["nobles_on_board"].base.mean, 3), round(measures["nobles_on_board"].variant.mean, 3)] \
        == [6.833, 8.333]
    first = result.first_divergence
    assert (first.seed, first.move, first.base_move) == (0, 125, "P3: pick Dragon's Lair")   # the action's label
    assert first.differs == ["scores", "region(temple_ruins)", "supply(1)", "pieces"]
    assert first.rules == ["rule crown_noble replaced (rulesets/variants/permanent_nobles.rules:6:1)"]


def test_plot_writes_an_svg_of_both_score_distributions(dash, tmp_path):
    chart = tmp_path / "scores.svg"
    run("compare", dash / "dash.rules", dash / "long.rules", "-p", "2", "-g", "20", "-j", "1", "--plot", chart)
    svg = chart.read_text()
    assert svg.startswith("<svg xmlns=\"http://www.w3.org/2000/svg\"") and svg.endswith("</svg>")
    assert "dash (40 scores)" in svg and "long_dash (40 scores)" in svg
    # dash's final scores are 3 to 7, long_dash's 6 to 11: a bin per score from 3 to 11, two bars each
    assert svg.count('class="bar0"') == svg.count('class="bar1"') == 9
    assert "<title>dash: 0.0% of scores are 11</title>" in svg
    assert "Final scores: long_dash against dash, 2 players" in svg


def test_plot_refuses_what_is_not_svg_and_a_bad_ruleset_is_a_clean_error(dash, tmp_path):
    bad = run("compare", dash / "dash.rules", dash / "long.rules", "--plot", tmp_path / "x.png", code=2)
    assert "does not end in .svg" in bad.stderr
    missing = run("compare", dash / "dash.rules", dash / "nowhere.rules", code=1)
    assert "nowhere.rules" in missing.stderr
    (tmp_path / "broken.rules").write_text('variant broken of "dash.rules"\nremove rule no_such_rule\n')
    broken = run("compare", dash / "dash.rules", tmp_path / "broken.rules", code=1)
    assert "E502" in broken.stderr


def test_a_statistic_is_a_number_read_from_the_final_state(dash):
    rules = regnum.load(str(dash / "dash.rules"))
    from regnum.agents import play_random_game
    game = play_random_game(rules, 2, 0)
    assert game.scores == [7, 5] and game.statistics() == {"rounds": 4, "lead": 2}
    (dash / "bad.rules").write_text(DASH + 'statistic name: "dash"\n')
    with pytest.raises(regnum.RulesetError) as err:
        regnum.load(str(dash / "bad.rules"))
    assert "statistic 'name' must be a number, but this is a text" in str(err.value)
    (dash / "less.rules").write_text('variant less of "dash.rules"\nremove statistic lead\n'
                                     "statistic rounds: turns\n")
    game = play_random_game(regnum.load(str(dash / "less.rules")), 2, 0)
    assert game.statistics() == {"rounds": 9}   # the replaced statistic: nine moves
    json.dumps(game.statistics())


def test_a_game_that_fails_is_listed_left_out_of_the_measures_and_exits_1(dash):
    (dash / "boom.rules").write_text('variant boom of "dash.rules"\naction run_ahead(n in [1, 2]):\n'
                                     "    add 6 // (2 - n) to score(player)\n")
    result = run("compare", dash / "dash.rules", dash / "boom.rules", "-p", "2", "-g", "6", "-j", "1", "--json",
                 code=1)
    out = one_json_object(result.stdout)
    # A first step of 2 divides by zero; a first step of 1 scores 6 and ends the game.
    assert [(f["seed"], f["ruleset"]) for f in out["failed"]] == [(2, "boom"), (4, "boom")]
    assert all("division by zero" in f["error"] for f in out["failed"])
    wins = rows(out)["P0 wins"]
    assert (wins["base"]["n"], wins["variant"]["n"], wins["difference"]["n"]) == (6, 4, 4)
    first = out["first_divergence"]
    assert (first["seed"], first["move"], first["differs"]) == (0, 0, ["whether the game is over", "scores"])
    assert first["rules"] == [f"action run_ahead replaced ({dash / 'boom.rules'}:2:1)"]
    from regnum.compare import changed_names, play_pair
    base, boom = regnum.load(str(dash / "dash.rules")), regnum.load(str(dash / "boom.rules"))
    pair = play_pair(base, boom, 2, 2, 1000, {}, changed_names(base, boom))
    assert (pair.divergence.move, pair.divergence.differs) == (0, ["one game stopped on an error"])
    assert (pair.sides[0]["error"], pair.sides[0]["over"]) == (None, True)
    assert "division by zero" in pair.sides[1]["error"]


def test_simulate_reports_the_mean_of_each_statistic_and_a_failing_one_fails_its_game(dash):
    text = run("simulate", dash / "dash.rules", "-p", "2", "-g", "10", "-j", "1").stdout
    out = one_json_object(run("simulate", dash / "dash.rules", "-p", "2", "-g", "10", "-j", "1", "--json").stdout)
    assert out["games"][0]["statistics"] == {"rounds": 4, "lead": 2}
    means = {name: sum(g["statistics"][name] for g in out["games"]) / 10 for name in ("rounds", "lead")}
    assert f"mean rounds: {means['rounds']:.2f}" in text and f"mean lead: {means['lead']:.2f}" in text
    (dash / "odd.rules").write_text('variant odd of "dash.rules"\nstatistic lead: 6 // (turns - turns)\n')
    failed = one_json_object(run("simulate", dash / "odd.rules", "-p", "2", "-g", "2", "-j", "1", "--json",
                                 "--failures-dir", dash / "failed", code=1).stdout)
    assert [g["winners"] for g in failed["games"]] == [[], []]
    assert all("while reading statistic 'lead'" in g["error"] for g in failed["games"])


def test_games_cut_by_the_move_bound_are_counted_and_left_out(dash):
    out = one_json_object(run("compare", dash / "dash.rules", dash / "long.rules", "-p", "2", "-g", "10", "-j", "1",
                              "--max-moves", "8", "--json").stdout)
    # dash ends within 8 moves in 8 of these seeds, long_dash never does
    assert out["truncated"] == [2, 10] and out["failed"] == []
    assert rows(out)["P0 wins"]["base"]["n"] == 8 and rows(out)["P0 wins"]["variant"] is None
    text = run("compare", dash / "dash.rules", dash / "long.rules", "-p", "2", "-g", "10", "-j", "1",
               "--max-moves", "8").stdout
    assert "cut by --max-moves and left out: 2 games of dash, 10 of long_dash" in text


def test_the_games_compared_are_the_games_simulate_plays_when_several_actions_are_offered():
    """King's Kilt offers advance, betray and pass_turn at once: choosing among them in step,
    compare must play exactly what play_random_game plays, seed for seed."""
    from regnum.agents import play_random_game
    rules = regnum.load("kings_kilt")
    result = compare("kings_kilt", "kings_kilt", players=3, games=4, jobs=1, base=rules, variant=rules)
    lengths = [play_random_game(rules, 3, seed, coverage=False).move_count for seed in range(4)]
    length = {r.measure: r for r in result.rows}["length in moves"]
    assert length.base.mean == length.variant.mean == sum(lengths) / 4
    assert result.diverged == 0
