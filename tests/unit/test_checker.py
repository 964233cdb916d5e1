"""The checker: golden diagnostics, inline expectations, and the guarantees around them.

Every `tests/golden/NAME.rules` is loaded with `regnum.load`; what it prints must equal
`NAME.expected` exactly (regenerate with `python tests/golden/update.py` and review the
diff), and every inline `# error: CODE` / `# warning: CODE` comment must match a
diagnostic on that line, and the other way round.
"""
from __future__ import annotations

import importlib.util
import random
import re
from pathlib import Path

import pytest

import regnum
from regnum import resources
from regnum.check import PASSES, check_program
from regnum.check import types as T
from regnum.program import load_program

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"


def _load_golden_module():
    spec = importlib.util.spec_from_file_location("golden_update", GOLDEN / "update.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


golden = _load_golden_module()
GOLDENS = golden.golden_files()

def _ids(paths):
    return [p.stem for p in paths]


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # the loader shows paths relative to the current directory


@pytest.mark.parametrize("path", GOLDENS, ids=_ids(GOLDENS))
def test_golden_output(path: Path):
    expected = path.with_suffix(".expected")
    assert expected.exists(), f"run: python tests/golden/update.py {path.stem}"
    assert golden.render(path) == expected.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", GOLDENS, ids=_ids(GOLDENS))
def test_golden_inline_expectations(path: Path):
    wanted = golden.expectations(path)
    assert wanted, "a golden file marks its expected diagnostics with '# error: CODE' or '# warning: CODE'"
    relative = path.relative_to(ROOT).as_posix()
    diagnostics = golden.diagnostics(path)
    got = {(d.span.line, d.severity, d.code) for d in diagnostics if d.span.file == relative}
    assert got == wanted
    assert all(d.span.file == relative for d in diagnostics), "a golden reports only on itself"


def test_goldens_cover_many_codes():
    codes = {code for path in GOLDENS for _, _, code in golden.expectations(path)}
    assert len(codes) >= 15
    checker_codes = _codes_in(ROOT / "interpreter" / "regnum" / "check") - {"E997"}
    assert checker_codes <= codes, f"codes without a golden: {sorted(checker_codes - codes)}"


def test_no_internal_failure_in_goldens():
    for path in GOLDENS:
        codes = {d.code for d in golden.diagnostics(path)}
        assert not codes & {"E997", "E998", "E999"}, path.name


# ── real rulesets ──

def test_kings_road_checks_clean():
    rules = regnum.load("rulesets/kings_road.rules")
    assert rules.warnings == []
    assert check_program(load_program("rulesets/kings_road.rules")) == []


@pytest.mark.parametrize("path", resources.bundled_rulesets(), ids=lambda p: p.stem)
def test_bundled_rulesets_check_clean(path: Path):
    assert regnum.load(path).warnings == []


def test_three_independent_errors_at_once():
    with pytest.raises(regnum.RulesetError) as caught:
        regnum.load("tests/golden/three_errors.rules")
    errors = caught.value.errors
    assert {e.code for e in errors} == {"E302", "E207", "E109"}
    assert [e.span.line for e in errors] == [3, 4, 7]


def test_every_pass_is_a_function_of_a_program():
    program = load_program("rulesets/kings_road.rules")
    assert len(PASSES) >= 5
    for check in PASSES:
        assert check(program) == [], check.__name__


# ── the catalogue ──

def _codes_in(folder: Path) -> set[str]:
    codes: set[str] = set()
    for source in folder.rglob("*.py"):
        codes.update(re.findall(r'"([EW]\d{3})"', source.read_text(encoding="utf-8")))
    return codes


def test_every_code_is_documented():
    catalogue = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^### ([EW]\d{3})\b", catalogue, re.MULTILINE))
    used = _codes_in(ROOT / "interpreter" / "regnum")
    assert used <= documented, f"undocumented codes: {sorted(used - documented)}"
    golden_codes = {code for path in GOLDENS for _, _, code in golden.expectations(path)}
    assert golden_codes <= documented


# ── robustness: a broken King's Road is refused cleanly, never by the compiler ──

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_REPLACEMENTS = ["{}x", "", "1", '"s"', "players", "player", "none", "true", "region", "hand", "pick", "banner",
                 "kingdom", "card"]


def _mutants(count: int, seed: int):
    text = (ROOT / "rulesets" / "kings_road.rules").read_text(encoding="utf-8")
    spots = [m for m in _WORD.finditer(text) if "#" not in text[text.rfind("\n", 0, m.start()) + 1:m.start()]]
    rng = random.Random(seed)
    for m in rng.sample(spots, count):
        replacement = rng.choice(_REPLACEMENTS).format(m.group())
        yield f"{m.group()}@{text.count(chr(10), 0, m.start()) + 1}->{replacement}", \
            text[:m.start()] + replacement + text[m.end():]


@pytest.mark.parametrize("label,text", list(_mutants(60, seed=20240601)), ids=lambda x: x if "\n" not in x else "")
def test_mutated_kings_road_never_reaches_the_compiler_broken(tmp_path, label, text):
    path = tmp_path / "mutant.rules"
    path.write_text(text, encoding="utf-8")
    try:
        regnum.load(path)
    except regnum.RulesetError as err:
        assert err.errors, label
        assert not {d.code for d in err.diagnostics} & {"E997", "E998", "E999"}, err


# ── the static types ──

def test_types_are_lenient_about_unknown():
    assert T.accepts(T.INT, T.UNKNOWN) and T.accepts(T.UNKNOWN, T.STR)
    assert T.join(T.INT, T.UNKNOWN) == T.UNKNOWN
    assert not T.not_bool(T.UNKNOWN) and not T.not_number(T.UNKNOWN) and not T.not_list(T.UNKNOWN)


def test_types_players_are_numbers_and_none_needs_optional():
    assert T.accepts(T.INT, T.PLAYER) and T.accepts(T.PLAYER, T.INT)
    assert not T.accepts(T.INT, T.NONE) and T.accepts(T.INT, T.NONE, optional=True)
    assert T.join(T.NONE, T.STR) == T.STR


def test_types_comparisons():
    assert not T.comparable(T.INT, T.STR)
    assert not T.comparable(T.member_of("suit"), T.node_of("map"))
    assert T.comparable(T.node_of("map"), T.node_of("map")) and T.comparable(T.NONE, T.INT)


def test_types_lists_and_zones():
    cards = T.zone_of("hand", frozenset({"card"}))
    assert T.item_of(cards) == T.piece_of({"card"})
    assert T.accepts(T.list_of(T.piece_of({"card"})), cards)
    assert T.join(T.list_of(T.INT), T.list_of(T.PLAYER)) == T.list_of(T.INT)
    assert T.describe(T.list_of(T.node_of("kingdom"))) == "a list of nodes of board 'kingdom'"


# ── the examples of docs/errors.md ──

def _catalogue_examples():
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    out = []
    for section in re.split(r"^### ", text, flags=re.MULTILINE)[1:]:
        code = section.split()[0]
        for body in re.findall(r"^```regnum\n(.*?)^```", section, re.MULTILINE | re.DOTALL):
            out.append(pytest.param(code, body, id=code))
    return out


@pytest.mark.parametrize("code,body", _catalogue_examples())
def test_catalogue_example_shows_its_code(tmp_path, code, body):
    assert body.startswith("# complete\n")
    path = tmp_path / "example.rules"
    path.write_text(body, encoding="utf-8")
    wanted = golden.expectations(path)
    assert {c for _, _, c in wanted} == {code}, "an example marks the code of its section"
    try:
        found = regnum.load(path).warnings
    except regnum.RulesetError as err:
        found = err.diagnostics
    got = {(d.span.line, d.severity, d.code) for d in found}
    assert wanted <= got, [d.render() for d in found]


# ── scoping and inference, one rule each ──

def _codes(tmp_path, text: str) -> list[tuple[int, str]]:
    path = tmp_path / "case.rules"
    path.write_text('game case "Case"\nplayers 2..4\n' + text, encoding="utf-8")
    try:
        found = regnum.load(path).warnings
    except regnum.RulesetError as err:
        found = err.diagnostics
    return [(d.span.line - 2, d.code) for d in found]


def test_a_let_is_visible_after_it_and_in_nested_blocks_only(tmp_path):
    assert _codes(tmp_path, """var total: int = 0
flow:
    add early to total
    let early = 1
    if true:
        add early to total
        let inner = 2
    add inner to total
""") == [(3, "E101"), (8, "E101")]


def test_loop_variables_live_in_their_loop(tmp_path):
    assert _codes(tmp_path, """var total: int = 0
flow:
    for p in players:
        add p to total
    add p to total
    repeat until done:
        let done = true
""") == [(5, "E101"), (6, "E101")]


def test_a_zone_holds_the_piece_types_moved_into_it(tmp_path):
    # 'kind' exists (on card) but the pile only ever holds markers
    assert _codes(tmp_path, """piece card:
    kind: int = 0
piece marker:
    noble: bool = false
zone pile: public
zone deck: public
setup:
    create 1 card() in deck
    create 2 marker() in pile
flow:
    move deck to deck
    for m in pile where m.noble:
        announce "{m.kind}"
""") == [(13, "E107")]


def test_player_names_the_seat_in_a_per_player_start_value(tmp_path):
    assert _codes(tmp_path, """var seat_bonus per player: int = player + 1
flow:
    add seat_bonus(0) to score(0)
""") == []


def test_stdlib_names_are_not_reported_one_by_one(tmp_path):
    assert _codes(tmp_path, """import majority, seats
var points per player: int = 0
scoring most():
    majority points(p) for p in players
    pays [1]
    ties lowest_of_tied
flow:
    score most()
    add 1 to points(left_of(0))
""") == []


def test_what_a_body_needs_of_a_parameter_is_checked_at_every_call(tmp_path):
    # through a def: `hand(p)` needs a player, so `seats_hand(p)` does, so `run deal("x")` fails
    assert _codes(tmp_path, """zone hand per player: public
def seats_hand(p) = hand(p)
rule deal(p):
    shuffle hand(p)
    announce "{count(seats_hand(p))}"
flow:
    run deal(0)
    run deal("x")
""") == [(8, "E206")]


def test_a_variant_declaration_added_under_a_misspelt_name_is_pointed_at_the_base_one(tmp_path):
    """The hint names the base's declaration only for what the variant added and nothing uses."""
    (tmp_path / "base.rules").write_text('game base "Base"\nplayers 2..4\nconst rounds = 2\nvar turns: int = 0\n'
                                         "flow:\n    repeat rounds times:\n        add 1 to turns\n")
    (tmp_path / "v.rules").write_text('variant v of "base.rules"\nconst rouns = 3\nconst zebra = 1\n'
                                      "const rounds = 4\n")
    hints = {d.message: d.hint for d in regnum.load(str(tmp_path / "v.rules")).warnings}
    assert hints == {
        "const 'rouns' is never used": "the base has no 'rouns', so the variant adds it; a declaration replaces "
                                       "the base's only under the same name — did you mean 'rounds'?",
        "const 'zebra' is never used": "remove it, or use it",
    }
    (tmp_path / "plain.rules").write_text((tmp_path / "base.rules").read_text() + "const rouns = 3\n")
    assert [d.hint for d in regnum.load(str(tmp_path / "plain.rules")).warnings] == ["remove it, or use it"]
