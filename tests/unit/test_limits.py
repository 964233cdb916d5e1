"""A ruleset that grows without bound is stopped by a limit with a clear error (DESIGN §5),
whatever grows: a list, a number, the work inside one expression, or the moves on offer."""
from __future__ import annotations

import textwrap
import time

import pytest

import regnum
from regnum import LimitExceeded

HEAD = """
game growth "Growth"
players 2..2
var l: list of int = [1]
var n: int = 2
"""

GROWTH = {
    "a list doubling": ("flow:\n    repeat until false:\n        set l = l + l\n", "list grew"),
    "a local list doubling": ("flow:\n    run grow()\nrule grow():\n    let xs = [1]\n"
                              "    repeat until false:\n        set xs = xs + xs\n", "list grew"),
    "a number squaring": ("flow:\n    repeat until false:\n        set n = n * n\n", "number grew"),
    "work inside one expression": (
        'flow:\n    announce "{sum(sum(1 for y in range(0, 1000000)) for x in range(0, 1000000))}"\n',
        "steps"),
    "moves on offer": ("flow:\n    ask 0 to go\naction go(a in range(0, 400), b in range(0, 400)):\n"
                       "    pass\n", "moves at once"),
}


@pytest.mark.parametrize("case", sorted(GROWTH))
def test_growth_is_stopped(tmp_path, case):
    body, words = GROWTH[case]
    path = tmp_path / "growth.rules"
    path.write_text(textwrap.dedent(HEAD).lstrip() + body, encoding="utf-8")
    rules = regnum.load(path)
    start = time.perf_counter()
    with pytest.raises(LimitExceeded) as err:
        game = rules.new_game(2)
        game.all_legal_moves()
    assert time.perf_counter() - start < 30
    diagnostic = err.value.diagnostics[0]
    assert diagnostic.code == "E901"
    assert words in diagnostic.message
    assert diagnostic.span.file.endswith("growth.rules") and diagnostic.span.line > 0


# ── the cases of issue 7, each with its exact error ──────────────────────────────────────────

def _load(tmp_path, body: str, limits: regnum.Limits | None = None):
    path = tmp_path / "growth.rules"
    path.write_text(textwrap.dedent(HEAD).lstrip() + textwrap.dedent(body).lstrip(), encoding="utf-8")
    return regnum.load(path, limits=limits)


def _only(err) -> "regnum.Diagnostic":
    (diagnostic,) = err.value.diagnostics
    return diagnostic


def test_a_text_doubling_in_a_loop_stops_at_the_value_size_limit(tmp_path):
    rules = _load(tmp_path, """
    var s: str = "ab"
    flow:
        repeat until false:
            set s = s + s
    """)
    with pytest.raises(LimitExceeded) as err:
        rules.new_game(2)
    d = _only(err)
    assert (d.code, d.span.line, d.span.column) == ("E901", 8, 9)
    assert d.message == "a text grew to 1048576 characters, past the limit of 1000000 (runaway growth?)"
    assert d.hint == ("limit 'value_size' is 1_000_000; raise it with --limit value_size=N or "
                      "regnum.Limits(value_size=N)")


def test_work_inside_builtins_and_comprehensions_counts_as_steps(tmp_path):
    rules = _load(tmp_path, """
    flow:
        announce "{sum(count(range(0, 1000000)) for x in range(0, 1000000))}"
    """)
    start = time.perf_counter()
    with pytest.raises(LimitExceeded) as err:
        rules.new_game(2)
    assert time.perf_counter() - start < 10
    d = _only(err)
    assert (d.code, d.span.line) == ("E901", 6)
    assert d.message == "more than 2000000 steps without a decision: a loop that never ends or asks a player?"


def test_what_a_statement_goes_through_counts_in_its_moves_steps(tmp_path):
    """A statement of the flow run by the VM is a step, and each item its expression goes
    through is one more: one budget for both, and all of it in peak_steps (until the
    eleventh step of performance.md, the items were checked against the limit apart from
    the statements and dropped from the count when the stack stopped: 6 steps here; and the
    flow's run up to the first decision was no part of peak_steps)."""
    body = """
    flow:
        repeat 3 times:
            for p in players:
                set n = n + count(range(200))
                set n = n + count(range(200))
                set n = n + count(range(200))
                ask p to go
    action go():
        set n = n + 1
    """
    rules = _load(tmp_path, body)
    game = rules.new_game(2, 0, limits=regnum.Limits(steps=608))
    assert game.peak_steps == 608   # the flow up to the first decision
    game.peak_steps = 0
    game.play(game.legal_moves(0)[0])
    assert game.peak_steps == 606   # the move, 4 statements, the next turn's 3 with 600 items, its ask
    with pytest.raises(LimitExceeded) as err:
        rules.new_game(2, 0, limits=regnum.Limits(steps=606))
    d = _only(err)
    assert (d.code, d.span.line, d.message) == (
        "E901", 10, "more than 606 steps without a decision: a loop that never ends or asks a player?")
    with pytest.raises(LimitExceeded) as err:
        rules.new_game(2, 0, limits=regnum.Limits(steps=607))
    assert _only(err).span.line == 11   # the ask: the 608th step


@pytest.mark.parametrize("const, message", [
    ("[count(range(0, 1000000)) for x in range(0, 1000000)]",
     "computing the constants took more than 2000000 steps"),
    ("count([x for x in range(0, 200000000)])",
     "range(0, 200000000) would be a list of 200000000 items, past the limit of 1000000 "
     "(while computing the constants at load)"),
    ("range(0, 600000) + range(0, 600000)",
     "a list grew to 1200000 items, past the limit of 1000000 (runaway growth?) "
     "(while computing the constants at load)"),
])
def test_constants_are_computed_within_the_limits(tmp_path, const, message):
    start = time.perf_counter()
    with pytest.raises(LimitExceeded) as err:
        _load(tmp_path, f"const big = {const}\nflow:\n    pass\n")
    assert time.perf_counter() - start < 10
    d = _only(err)
    assert (d.code, d.span.line, d.message) == ("E901", 5, message)
    assert d.hint.startswith("limit '")


def test_the_steps_of_constants_are_one_budget_for_the_whole_load(tmp_path):
    consts = "".join(f"const c{i} = count(range(0, 600000))\n" for i in range(4))
    with pytest.raises(LimitExceeded) as err:
        _load(tmp_path, consts + "flow:\n    pass\n")
    assert _only(err).span.line == 8          # the fourth passes 2 million
    assert _load(tmp_path, consts + "flow:\n    pass\n", regnum.Limits(steps=3_000_000))


def test_a_move_that_hits_a_limit_is_refused_and_changes_nothing(tmp_path):
    rules = _load(tmp_path, """
    flow:
        repeat until false:
            ask 0 to grow or stay
    action grow():
        set l = l + l + l + l + l + l + l + l
    action stay():
        add 1 to n
    """, regnum.Limits(value_size=1000))
    game = rules.new_game(2)
    grow, stay = regnum.Move(0, "grow", {}), regnum.Move(0, "stay", {})
    for _ in range(3):
        game.play(grow)                               # 8, 64, 512 items
    before, events, hits = game.to_json(), list(game.events), dict(game.hits)
    with pytest.raises(LimitExceeded) as err:
        game.play(grow)                               # 4096 items
    d = _only(err)
    assert (d.span.line, d.message) == (9, "a list grew to 1024 items, past the limit of 1000 (runaway growth?)")
    assert (game.to_json(), game.events, game.hits) == (before, events, hits)
    game.play(stay)
    assert game.evaluate("n") == 3 and game.move_count == 4


def test_the_whole_state_is_bounded_whatever_holds_it(tmp_path):
    rules = _load(tmp_path, """
    piece note:
        words: str
    zone pile: public
    flow:
        repeat until false:
            ask 0 to write
    action write():
        create 10 note(words: "{l}" + "abcdefghij" + "abcdefghij" + "abcdefghij" + "abcdefghij" + "abcdefghij" + "abcdefghij" + "abcdefghij") in pile
    """, regnum.Limits(state_size=5_000))
    game = rules.new_game(2)
    write = regnum.Move(0, "write", {})
    played = 0
    with pytest.raises(LimitExceeded) as err:
        while True:
            before = game.to_json()
            game.play(write)
            played += 1
    d = _only(err)
    assert d.message.startswith("the game's state grew to ") and d.message.endswith(
        "items and characters, past its limit of 5000 (runaway growth?)")
    assert d.span.line == 11 and played == 4      # the action whose move grew it
    assert game.to_json() == before


def test_limits_given_to_one_game_replace_the_rulesets(tmp_path):
    rules = _load(tmp_path, """
    flow:
        announce "{count(range(0, 5000))}"
    """)
    assert rules.new_game(2).events == ["5000"]
    with pytest.raises(LimitExceeded) as err:
        rules.new_game(2, limits=regnum.Limits(steps=4000))
    assert _only(err).hint == "limit 'steps' is 4_000; raise it with --limit steps=N or regnum.Limits(steps=N)"
    assert rules.limits == regnum.Limits()
    assert rules.new_game(2, limits=regnum.Limits(steps=6000)).copy().limits.steps == 6000


def test_a_limit_must_be_a_positive_integer_and_a_known_name():
    with pytest.raises(ValueError, match="limit 'steps' must be a positive integer, not 0"):
        regnum.Limits(steps=0)
    with pytest.raises(ValueError, match="there is no limit 'stpes'; did you mean 'steps'?"):
        regnum.Limits().with_overrides(["stpes=5"])
    assert regnum.Limits().with_overrides(["value-size=2_000"]).value_size == 2000


def test_every_limit_is_documented():
    from regnum.resources import checkout_root
    text = (checkout_root() / "docs" / "limits.md").read_text(encoding="utf-8")
    for name in regnum.Limits.names():
        assert f"`{name}`" in text, name
        assert regnum.Limits.describe(name), name


@pytest.mark.parametrize("name, players", [("kings_road", 2), ("kings_road", 5), ("kingdom_builder", 2),
                                           ("kingdom_builder", 4), ("permanent_nobles", 4)])
def test_the_bundled_games_run_far_from_every_limit(name, players):
    """docs/limits.md reports these peaks; a tenth of each default is the margin kept."""
    from regnum.agents import play_random_game
    from regnum.engine.state import state_size
    rules = regnum.load(name)
    limits = regnum.Limits()
    for seed in range(3):
        game = play_random_game(rules, players, seed)
        assert game.is_over
        assert game.peak_steps < limits.steps // 10
        assert state_size(game.state) < limits.state_size // 100
        assert len(game.state.pieces) < limits.pieces // 100
        assert len(game.to_json()) < limits.json_bytes // 1000


@pytest.mark.parametrize("expression", [
    "count(x for x in range(0, 1000000) where big == copy)",        # lists compared item by item
    "count(x for x in range(0, 1000000) where big in [copy])",      # searched for, item by item
    "count(sorted([big, copy, big, copy]))",                        # sorted lists compare their items
    "count(unique([big, copy, big, copy, big]))",
])
def test_comparing_large_values_counts_their_items(tmp_path, expression):
    rules = _load(tmp_path, f"""
    const big = range(0, 900000)
    const copy = range(0, 900000)
    flow:
        announce "{{{expression}}}"
    """, regnum.Limits(steps=2_500_000))
    start = time.perf_counter()
    with pytest.raises(LimitExceeded) as err:
        rules.new_game(2)
    assert time.perf_counter() - start < 10
    assert _only(err).message.startswith("more than 2500000 steps")


# Each limit a move can hit, with the action that hits it (line 8 of the ruleset below) and a
# lowered limit that keeps the test quick.
HITS = {
    "steps": ("repeat until false:\n        add 1 to n", dict(steps=5_000)),
    "value_size": ("set l = l + l + l + l + l + l + l + l + l + l + l", dict(value_size=10)),
    "state_size": ("create 200 token() in pile", dict(state_size=2_000)),
    "pieces": ("create 200 token() in pile", dict(pieces=100)),
    "call_depth": ("run deeper()", dict(call_depth=50)),
    "number": ("set n = n * 1000000 * 1000000 * 1000000 * 1000000", dict()),
}
# Where each is reported: the statement that hits it, the rule that recurses, or (for the
# whole state, measured after the move) the action whose move it was.
LINE = {"steps": 12, "value_size": 12, "state_size": 11, "pieces": 12, "call_depth": 16, "number": 12}
HITS_HEAD = """
piece token:
    weight: int = 1
zone pile: public
flow:
    repeat until false:
        ask 0 to go or wait
action go():
    {body}
action wait():
    add 1 to n
rule deeper():
    run deeper()
"""


@pytest.mark.parametrize("limit", sorted(HITS))
def test_every_limit_a_move_hits_is_located_names_itself_and_changes_nothing(tmp_path, limit):
    body, lowered = HITS[limit]
    rules = _load(tmp_path, HITS_HEAD.format(body=body), regnum.Limits(**lowered))
    game = rules.new_game(2)
    game.play(regnum.Move(0, "wait", {}))
    before = game.to_json()
    with pytest.raises(LimitExceeded) as err:
        game.play(regnum.Move(0, "go", {}))
    d = _only(err)
    assert d.code == "E901" and d.span.file.endswith("growth.rules")
    assert d.span.line == LINE[limit]
    assert d.hint == rules.limits.hint(limit)
    assert game.to_json() == before
    game.play(regnum.Move(0, "wait", {}))     # the game goes on
    assert game.evaluate("n") == 4


def test_the_moves_limit_stops_listing_and_is_located(tmp_path):
    rules = _load(tmp_path, """
    flow:
        ask 0 to go
    action go(a in range(0, 50), b in range(0, 50)):
        pass
    """, regnum.Limits(moves=1000))
    game = rules.new_game(2)
    with pytest.raises(LimitExceeded) as err:
        game.legal_moves(0)
    d = _only(err)
    assert (d.span.line, d.hint) == (7, rules.limits.hint("moves"))
    assert d.message.startswith("'go' offers more than 1000 moves at once")
