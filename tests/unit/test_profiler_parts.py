"""`regnum bench --profile` tells a listing's time spent outside its requires by parameter: the
line of the parameter whose domain was being computed, or whose loop was being gone through,
with that part named — so that parameters sharing a line, or declared on lines of their own,
are told apart. The lister's lines carry the tags that say so; a value a require computes in a
nested def is given to that require's line."""
from __future__ import annotations

import re

import pytest

import regnum
from regnum.agents import play_random_game
from regnum.compiler import hoists
from regnum.profiler import profile_games

from toy_rules import load, load_switched

# Two costly domains, on two lines: `n`'s (40,000 numbers) and `k`'s (16,000, each read with
# the state), each computed once a listing; `m`'s is known at load and costs nothing.
COSTLY_DOMAINS = """\
game costly_domains "Costly domains"
players 2..4
var turns: int = 0
flow:
    repeat until turns >= 40:
        for p in players:
            ask p to tick
action tick(n in [x % 3 for x in range(40000) where x % 7 == 0], m in [1, 2],
            k in [y for y in range(16000) where y == turns % 5 or y == 7]):
    set turns = turns + 1
"""


@pytest.fixture(scope="module")
def costly_domains(tmp_path_factory):
    return load(tmp_path_factory.mktemp("parts"), COSTLY_DOMAINS, "costly_domains.rules")


def test_each_costly_domain_is_told_by_its_parameters_line(costly_domains):
    found = profile_games(costly_domains, 2, games=3, seed=0)
    first, second = found.lines[:2]
    assert {(first.line, first.part), (second.line, second.part)} \
        == {(9, "the domain of k"), (8, "the domain of n")}
    assert first.declaration == second.declaration == "listing the moves of tick"
    assert first.share + second.share > 0.85 and min(first.share, second.share) > 0.1
    assert {first.text, second.text} == {
        "action tick(n in [x % 3 for x in range(40000) where x % 7 == 0], m in [1, 2],",
        "k in [y for y in range(16000) where y == turns % 5 or y == 7]):"}
    assert first.location == f"{first.file}:{first.line}"
    # The shares still add up, parts and all, and no line is counted twice.
    assert sum(line.samples for line in found.lines) == found.samples - found.engine_samples
    assert len({(line.file, line.line, line.part) for line in found.lines}) == len(found.lines)


def test_the_tags_name_each_parameters_domain_and_loop(costly_domains):
    lister = costly_domains.model.actions["tick"].lister
    parts = {(span.line, what) for span, what in lister.part_spans.values()}
    assert parts == {(8, "the domain of n"), (8, "the loop over n"), (8, "the domain of m"), (8, "the loop over m"),
                     (9, "the domain of k"), (9, "the loop over k")}
    # `m`'s domain, known at load, is one line: the choices made then.
    (m_domain,) = [n for n, (_, what) in lister.part_spans.items() if what == "the domain of m"]
    assert re.fullmatch(r"it1 = _fixed\d+", lister.source.split("\n")[m_domain - 1].strip())
    assert lister.line_spans == {}   # no require
    source = lister.source.split("\n")
    domains = {number for number, (_, what) in lister.part_spans.items() if what.startswith("the domain of")}
    assert {source[number - 1].strip().partition(" = ")[0] for number in domains} >= {"d", "f0", "it0"}
    assert "#@" not in lister.source   # the tags are in the code compiled, not in what is shown


def _tagged_lines(lister) -> dict:
    return {**{n: ("require", span) for n, span in lister.line_spans.items()},
            **{n: (what, span) for n, (span, what) in lister.part_spans.items()}}


@pytest.mark.parametrize("name", ["kings_road", "kingdom_builder", "kings_kilt", "kings_gate"])
def test_every_line_inside_a_bundled_listing_is_tagged(name):
    """Every line below a lister's top level (its loops, the values its requires keep in
    nested defs, what it writes where a level's kept values start afresh) is a require's or
    a parameter's, but the coverage counts added at its end; and each tag names one of the
    action's own requires or parameters. After a game, so that the listers judging a prefer
    as they list (made at their first use: Kingdom Builder's three) are checked too."""
    rules = regnum.load(name)
    play_random_game(rules, 4, 0, coverage=False)
    listers = 0
    for action in rules.model.actions.values():
        for lister in (action.lister, getattr(action, "preferring", None)):
            if lister is None:
                continue
            listers += 1
            tagged = _tagged_lines(lister)
            assert not set(lister.line_spans) & set(lister.part_spans), action.name
            for number, line in enumerate(lister.source.split("\n"), 1):
                if line.startswith("     ") and not re.match(r"\s+if n\d+: hits\[", line):
                    assert number in tagged, (action.name, line.strip())
            params = [p.span for p in action.params]
            for what, span in tagged.values():
                if what == "require":   # the span of its condition
                    assert any(c.span.line <= span.line <= c.span.end_line for c in action.requires), action.name
                else:
                    assert what.rpartition(" ")[2] == action.params[params.index(span)].name, (action.name, what)
    assert listers == {"kings_road": 1, "kingdom_builder": 7, "kings_kilt": 5, "kings_gate": 5}[name]


def test_a_domain_narrowed_by_an_index_is_the_domain():
    """Kingdom Builder's `build` reads the cells of the card's terrain from the table's index
    (listing by query): those lines compute `h`'s domain; its loop goes through what they give."""
    lister = regnum.load("kingdom_builder").model.actions["build"].lister
    source = lister.source.split("\n")
    queries = [n for n, line in enumerate(source, 1) if "c.state.cells_with(" in line]
    assert len(queries) == 2
    assert {lister.part_spans[n][1] for n in queries} == {"the domain of h"}
    (loop,) = [n for n, line in enumerate(source, 1) if line.strip() == "for v0 in w0:"]
    assert lister.part_spans[loop][1] == "the loop over h" and lister.part_spans[loop][0].line == 234


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _def_lines(source: list, start: int) -> list:
    """The numbers of the lines of the nested def whose `def` line is `start` (1 for the first)."""
    out = [start]
    while out[-1] < len(source) and _indent(source[out[-1]]) > _indent(source[start - 1]):
        out.append(out[-1] + 1)
    return out


def test_a_value_kept_in_a_nested_def_goes_to_the_require_that_calls_it():
    """King's Gate's `play` keeps `free(at)` by the cells it is met for, in a nested def
    (hf<n>) the require `room` calls: its lines are that require's, not the action's."""
    rules = regnum.load("kings_gate")
    lister = rules.model.actions["play"].lister
    source = lister.source.split("\n")
    defs = [number for number, line in enumerate(source, 1) if re.match(r"\s*def hf\d+\(\):", line)]
    assert defs
    for start in defs:
        body = _def_lines(source, start)
        assert len(body) >= 4   # def, nonlocal, the value, return (and the value kept)
        assert {lister.line_spans[n].line for n in body} == {168}
    parts = {(span.line, what) for span, what in lister.part_spans.values()}
    assert parts == {(163, f"the {kind} {name}") for kind in ("domain of", "loop over") for name in ("v", "at", "chip")}


def test_a_parameter_on_a_line_of_its_own_is_told_there():
    """King's Kilt's `betray` declares `c` on a line of its own (132): its domain's samples go
    to that line, and those of `with` and `b` to the action's (131)."""
    rules = regnum.load("kings_kilt")
    lister = rules.model.actions["betray"].lister
    parts = {(span.line, what) for span, what in lister.part_spans.values()}
    assert {(131, "the domain of with"), (131, "the domain of b"), (132, "the domain of c"),
            (132, "the loop over c")} <= parts
    found = profile_games(rules, 4, games=500, seed=0)   # some 1.5 s of CPU, 5 % of it there
    rows = {(line.line, line.part): line for line in found.lines if line.declaration == "listing the moves of betray"}
    assert (132, "the domain of c") in rows
    assert rows[132, "the domain of c"].text == "c in [n for n in neighbours(pyramid, b) where filled(n)]):"


def test_a_listing_written_with_nested_defs_only_is_tagged_alike(tmp_path):
    """With every kept value computed by a nested def (the form of before the thirty-third
    step, `hoists.INLINE` off), each def's lines carry the tag of the line that first calls it."""
    rules = load_switched(tmp_path, None, "kings_road", [(hoists, "INLINE", False)])
    lister = rules.model.actions["pick"].lister
    source = lister.source.split("\n")
    defs = [number for number, line in enumerate(source, 1) if re.match(r"\s*def hf\d+\(\):", line)]
    assert defs   # `cards_to_play(player)`, kept for the listing by `knight_last`
    for start in defs:
        name = re.match(r"\s*def (hf\d+)", source[start - 1]).group(1)
        caller = next(n for n, line in enumerate(source, 1) if f"{name}()" in line and "def " not in line)
        assert lister.line_spans[start] == lister.line_spans[caller]
        assert lister.line_spans[start].line == 131   # require knight_last


def test_a_def_that_several_requires_call_is_the_first_ones(tmp_path):
    """King's Gate's `put_object` computes `tile(at, way)` once a choice and its ring once,
    for three requires: written as nested defs, each def's lines go to the first require that
    calls it — `touching` (line 294) computes the tile, `empty` (295) its ring."""
    rules = load_switched(tmp_path, None, "kings_gate", [(hoists, "INLINE", False)])
    lister = rules.model.actions["put_object"].lister
    source = lister.source.split("\n")
    lines = {re.match(r"\s*def (hf\d+)", line).group(1): lister.line_spans[number].line
             for number, line in enumerate(source, 1) if re.match(r"\s*def hf\d+\(\):", line)}
    assert lines == {"hf0": 294, "hf1": 295}
    callers = {lister.line_spans[number].line for number, line in enumerate(source, 1)
               if "hf0()" in line and "def " not in line and "hq1 = " not in line}
    assert callers == {294, 295}   # called by both, given to the first


# Texts that look like the tags, in a domain and a require: they are the ruleset's values.
TAG_LIKE = """\
game tag_like "Tag-like"
players 2..2
var turns: int = 0
flow:
    repeat until turns >= 4:
        for p in players:
            ask p to tick
action tick(s in (if turns >= 0 then ["  #@require-7", "  #@part-9"] else ["b"]), n in [1, 2]):
    require real: s != "  #@part-0" or n > 0 else "never"
    set turns = turns + 1
"""


def test_texts_that_look_like_tags_are_values(tmp_path):
    rules = load(tmp_path, TAG_LIKE, "tag_like.rules")
    lister = rules.model.actions["tick"].lister
    assert {what for _, what in lister.part_spans.values()} \
        == {"the domain of s", "the loop over s", "the domain of n", "the loop over n"}
    assert {span.line for span in lister.line_spans.values()} == {9}
    assert "['  #@require-7', '  #@part-9']" in lister.source   # the values, as written
    assert lister.source.count("'  #@part-0'") == 2   # in the require, once for each n
    game = play_random_game(rules, 2, 0)
    assert game.move_count == 4
    assert [m.args for m in rules.new_game(players=2, seed=0).legal_moves(0)] == [
        {"s": "  #@require-7", "n": 1}, {"s": "  #@require-7", "n": 2},
        {"s": "  #@part-9", "n": 1}, {"s": "  #@part-9", "n": 2}]
