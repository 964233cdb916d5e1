"""`regnum fuzz --corpus`: saved games that every fourth game replays, with every check, and
goes on from. The planted tests/fuzz/rulesets/combination_lock.rules hides a fault behind a
code random play almost never dials; its corpus log dials it."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import regnum
from regnum import Move
from regnum.fuzz import fuzz, own_corpus
from regnum.fuzz.playout import Settings, fuzz_game

from test_planted import PLANTED, in_planted, run  # noqa: F401 (in_planted: run from the rulesets folder)

LOCK = PLANTED / "combination_lock.rules"
CORPUS = Path(__file__).resolve().parent / "corpus" / "combination_lock"
LOG = CORPUS / "dials_the_code.json"


def test_without_the_corpus_the_lock_stays_shut_and_coverage_says_so():
    rules = regnum.load(str(LOCK))
    report = fuzz(rules.path, rules, games=40, seed=0, workers=1)
    assert report.failures == [] and report.policies == {"random": 14, "rare": 13, "endgame": 13}
    assert [(row.kind, row.rule) for row in report.unreached] == [("branch", "action:dial@31")]


def test_the_corpus_reaches_the_fault_which_is_shrunk_and_reproduced(tmp_path):
    out = run("fuzz", "combination_lock.rules", "--corpus", CORPUS, "--games", 8, "--seed", 0, "--workers", 1,
              "--failures-dir", tmp_path, "--json", code=1)
    report = json.loads(out.stdout)
    assert report["policies"] == {"random": 2, "rare": 2, "endgame": 2, "corpus": 2}
    assert [row for row in report["coverage"] if row["hits"] == 0] == []
    [failure] = report["failures"]
    assert (failure["kind"], failure["check"], failure["policy"], failure["seed"]) == (
        "invariant", "coins_kept", "corpus", 4)
    # The log dials 2, 7, 7, 3, 9, 1; the shortest game that loses the coin dials 7, 3, 9, 1.
    assert (failure["found_after"], failure["moves"], failure["players"], failure["others"]) == (6, 4, 1, 1)
    log = json.loads(Path(failure["log"]).read_text())
    assert [m["args"]["d"] for m in log["moves"]] == [7, 3, 9, 1] and log["seed"] == 4
    replayed = run("replay", failure["log"], "--ruleset", "combination_lock.rules", code=1)
    assert "invariant 'coins_kept' broken after move #3" in replayed.stdout + replayed.stderr


def test_a_log_move_the_rules_no_longer_allow_ends_the_replay_there():
    """A corpus saved before the rules changed: its moves are played while they are legal,
    then the policy takes over (here dial 12 does not exist)."""
    rules = regnum.load(str(LOCK))
    script = [Move(0, "dial", {"d": 7}), Move(0, "dial", {"d": 3}), Move(0, "dial", {"d": 12}),
              Move(0, "dial", {"d": 9}), Move(0, "dial", {"d": 1})]
    out = fuzz_game(rules, 1, 4, "corpus", Settings(bound=40), script=script, pick_seed=11)
    assert [m.args["d"] for m in out.moves[:2]] == [7, 3]
    assert out.moves[2].args["d"] in range(10) and len(out.moves) == 20 and out.over
    again = fuzz_game(rules, 1, 4, "corpus", Settings(bound=40), script=script, pick_seed=12)
    assert again.moves[:2] == out.moves[:2] and again.moves != out.moves   # another seed of choices


def test_a_ruleset_brings_its_own_corpus_folder_unless_told_not_to(tmp_path):
    shutil.copy(LOCK, tmp_path / "combination_lock.rules")
    shutil.copytree(CORPUS, tmp_path / "corpus" / "combination_lock")
    rules = regnum.load(str(tmp_path / "combination_lock.rules"))
    assert [log.seed for log in own_corpus(rules.path, rules)] == [4]
    ruleset = tmp_path / "combination_lock.rules"
    found = json.loads(run("fuzz", ruleset, "--games", 4, "--workers", 1, "--failures-dir", tmp_path / "f",
                           "--json", code=1).stdout)
    assert found["policies"]["corpus"] == 1 and found["failures"][0]["policy"] == "corpus"
    plain = json.loads(run("fuzz", ruleset, "--games", 4, "--workers", 1, "--no-corpus", "--json", code=0).stdout)
    assert "corpus" not in plain["policies"] and plain["failures"] == []


def test_a_corpus_that_cannot_serve_is_refused_with_one_line(tmp_path):
    other = tmp_path / "road.json"
    game = regnum.load("kings_road").new_game(players=2, seed=1)
    other.write_text(game.log.to_json())
    refused = run("fuzz", "combination_lock.rules", "--corpus", other, "--games", 2, code=2)
    assert refused.stderr.strip() == f"corpus: {other}: a game of 'kings_road', not of 'combination_lock'"
    saved = tmp_path / "saved.json"
    saved.write_text(regnum.load(str(LOCK)).new_game(players=1, seed=1).to_json())
    refused = run("fuzz", "combination_lock.rules", "--corpus", saved, "--games", 2, code=2)
    assert refused.stderr.strip() == f"{saved}: a saved game, not a log: a corpus holds logs (seed and moves)"
    broken = tmp_path / "broken.json"
    broken.write_text("{\"format\": \"regnum-log/1\", ")
    refused = run("fuzz", "combination_lock.rules", "--corpus", broken, "--games", 2, code=2)
    assert refused.stderr.startswith(f"{broken}:1:") and "invalid JSON" in refused.stderr
