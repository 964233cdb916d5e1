"""benchmarks/field_reads.py: the reads of pieces' fields a game's rules make, counted
exactly, whatever replaces or adds a piece's record; never a timed threshold."""
from __future__ import annotations

import json
import textwrap

import regnum
from benchmark_scripts import script   # tests/unit is on the path of its tests

# One decision: P0 takes a card of rank 2 or more. The lister reads each card's rank once
# (the require); a card taken gets a new record (`set`), whose reads count too.
TAKE = """
game take "Take"
players 2..4
piece card:
    rank: int
    seen: bool = false
zone deck: public
zone hand: public
setup:
    for r in range(4):
        create 1 card(rank: r) in deck named "card " + text(r)
flow:
    ask 0 to take
action take(c in deck):
    require high: c.rank >= 2 else "a card of rank 2 or more"
    set c.seen = true
    if c.seen:
        move c to hand
"""


def test_each_read_of_a_field_is_counted_records_replaced_and_made_included(tmp_path):
    path = tmp_path / "take.rules"
    path.write_text(textwrap.dedent(TAKE))
    figures = script("field_reads").count_reads(regnum.load(path), games=3)
    assert figures["games"] == 3 and figures["moves"] == 3
    by_field = figures["by_field"]
    assert by_field["rank"] == 3 * 4   # the require, once a card a listing
    assert by_field["seen"] == 3   # read from the record `set` made, once a game
    assert figures["reads"] == sum(by_field.values()) and figures["reads_a_move"] == figures["reads"] / 3


def test_the_report_names_the_fields_and_what_arrays_would_save(capsys):
    module = script("field_reads")
    assert module.main(["kings_kilt", "--games", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["ruleset"] == "kings_kilt" and figures["games"] == 1 and figures["moves"] > 0
    assert set(figures) == {"ruleset", "games", "moves", "reads", "reads_a_move", "by_field", "record_ns", "array_ns"}
    assert "clan" in figures["by_field"] and figures["record_ns"] > 0 and figures["array_ns"] > 0
