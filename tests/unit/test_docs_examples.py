"""The documentation runs: every example in docs/ is checked against the interpreter.

Conventions (explained to readers in docs/language.md, "About the examples"):

- A ```regnum block is a complete ruleset. Its first line is ``# complete`` or
  ``# complete: NAME.rules`` (the file name it is saved under, so that a later variant
  example can name it as its base). Each one must load without errors.
- ``# expect: TEXT`` lines inside a complete block: the test plays one game (seed 1, the
  minimum player count unless ``# players: N`` says otherwise, always the first legal
  move) and every TEXT must appear among the announced events, in the order written.
- ``# error: CODE`` inside a complete block: loading must fail with that diagnostic code.
  Otherwise the example must load without warnings, except those it names with
  ``# warning: CODE``.
- Fragments (a statement, one declaration) go in ```regnum-fragment or ```text blocks and
  are not run.

Besides the examples, this file keeps other documents honest: the line links of the game
pages docs/games/kings-road.md, kingdom-builder.md and kings-kilt.md must point at the
declarations they name (`python tests/unit/test_docs_examples.py --relink` moves stale ones)
and the tests they name must exist, and docs/log-format.md must show the schema that
regnum.Log generates today and an example log that replays.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import regnum

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CHECKED_DOCS = ["language.md", "architecture.md", "games/kings-road.md", "games/kingdom-builder.md",
                "games/kings-kilt.md", "log-format.md"]

FENCE = re.compile(r"^```([\w-]*)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
COMPLETE = re.compile(r"^#\s*complete(?::\s*(\S+))?\s*$")
EXPECT = re.compile(r"#\s*expect:\s?(.*?)\s*$")
ERROR = re.compile(r"#\s*error:\s*(E\d+)")
WARNING = re.compile(r"#\s*warning:\s*(W\d+)")
PLAYERS = re.compile(r"#\s*players:\s*(\d+)")
MAX_MOVES = 2_000


def blocks(doc: str, lang: str) -> list[tuple[int, str]]:
    """(line number, body) of every fenced block of `lang` in docs/<doc>."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(2))
            for m in FENCE.finditer(text) if m.group(1) == lang]


def examples() -> list[tuple[str, int, str]]:
    return [(doc, line, body) for doc in CHECKED_DOCS if (DOCS / doc).exists()
            for line, body in blocks(doc, "regnum")]


EXAMPLES = examples()


def _id(example) -> str:
    return f"{example[0]}:{example[1]}"


def test_the_reference_has_examples():
    assert sum(1 for doc, _, _ in EXAMPLES if doc == "language.md") >= 40


@pytest.mark.parametrize("example", EXAMPLES, ids=[_id(e) for e in EXAMPLES])
def test_every_regnum_block_is_marked_complete(example):
    doc, line, body = example
    first = body.splitlines()[0] if body.strip() else ""
    assert COMPLETE.match(first), (
        f"docs/{doc}:{line}: a ```regnum block must start with '# complete' "
        "(or be a ```regnum-fragment block)")


def _play(rules: regnum.Ruleset, players: int) -> regnum.Game:
    game = rules.new_game(players=players, seed=1)
    for _ in range(MAX_MOVES):
        if game.is_over:
            break
        moves = game.all_legal_moves()
        if not moves:
            break
        game.play(moves[0])
    return game


DATA_FILE = re.compile(r"^#\s*file:\s*(\S+)\s*$")


@pytest.fixture(scope="module")
def example_dir(tmp_path_factory):
    """One folder for all examples, so a variant example finds its base by file name and a
    data file shown in a ```yaml block starting `# file: PATH` is there for the examples."""
    folder = tmp_path_factory.mktemp("doc_examples")
    for doc in CHECKED_DOCS:
        if not (DOCS / doc).exists():
            continue
        for _, body in blocks(doc, "yaml"):
            match = DATA_FILE.match(body.splitlines()[0]) if body.strip() else None
            if match:
                (folder / match.group(1)).parent.mkdir(parents=True, exist_ok=True)
                (folder / match.group(1)).write_text(body, encoding="utf-8")
    for doc, line, body in EXAMPLES:
        match = COMPLETE.match(body.splitlines()[0]) if body.strip() else None
        if match and match.group(1):
            (folder / match.group(1)).write_text(body, encoding="utf-8")
    return folder


@pytest.mark.parametrize("example", EXAMPLES, ids=[_id(e) for e in EXAMPLES])
def test_complete_example_loads_and_does_what_it_says(example, example_dir):
    doc, line, body = example
    match = COMPLETE.match(body.splitlines()[0]) if body.strip() else None
    if match is None:
        pytest.skip("not marked complete (reported by the test above)")
    name = match.group(1) or f"example_{doc.replace('/', '_').replace('.', '_')}_{line}.rules"
    path = example_dir / name
    path.write_text(body, encoding="utf-8")
    where = f"docs/{doc}:{line}"
    error = ERROR.search(body)
    if error:
        with pytest.raises(regnum.RulesetError) as caught:
            regnum.load(path)
        codes = [d.code for d in caught.value.diagnostics]
        assert error.group(1) in codes, f"{where}: expected {error.group(1)}, got {codes}"
        return
    try:
        rules = regnum.load(path)
    except regnum.RulesetError as err:
        pytest.fail(f"{where}: the example does not load:\n{err}")
    allowed = set(WARNING.findall(body))
    warned = {d.code for d in rules.warnings}
    assert warned == allowed, f"{where}: warnings {sorted(warned)}, the example names {sorted(allowed)}:\n" \
        + regnum.Ruleset.render_diagnostics(rules.warnings)
    expected = [m.group(1) for m in map(EXPECT.search, body.splitlines()) if m]
    if not expected:
        return
    players = PLAYERS.search(body)
    game = _play(rules, int(players.group(1)) if players else rules.min_players)
    events = [e.strip() for e in game.events]
    position = 0
    for text in expected:
        try:
            position = events.index(text.strip(), position) + 1
        except ValueError:
            pytest.fail(f"{where}: expected the event {text!r} (in order); the game announced:\n"
                        + "\n".join(events))


# ── docs/games/*.md: links point at what they name, tests named there exist ──

LINK = re.compile(r"\[`([^`]+)`\]\(\.\./\.\./((?:rulesets|stdlib)/[\w/]+\.rules)#L(\d+)\)")
WORD = re.compile(r"[A-Za-z_]\w*")
GAME_PAGES = ["games/kings-road.md", "games/kingdom-builder.md", "games/kings-kilt.md", "games/kings-gate.md"]


@pytest.mark.parametrize("page", GAME_PAGES)
def test_game_page_links_point_at_what_they_name(page):
    """[`crown_noble`](../../rulesets/kings_road.rules#L196): every word of the link is on that line."""
    text = (DOCS / page).read_text(encoding="utf-8")
    links = LINK.findall(text)
    assert len(links) >= 30, f"docs/{page} has only {len(links)} line links"
    wrong = []
    for shown, file, number in links:
        lines = (ROOT / file).read_text(encoding="utf-8").splitlines()
        line = lines[int(number) - 1] if int(number) <= len(lines) else ""
        words = set(WORD.findall(line))
        missing = [w for w in WORD.findall(shown) if w not in words]
        if missing:
            wrong.append(f"{file}#L{number} should show `{shown}` but reads: {line.strip()!r}")
    assert not wrong, (f"docs/{page} has stale line links (after an edit of the ruleset, "
                       "`python tests/unit/test_docs_examples.py --relink` moves each link to the "
                       "nearest line that shows its words; review the diff):\n" + "\n".join(wrong))


def relink(text: str) -> str:
    """Move every stale line link to the nearest line that shows all the link's words."""
    def fix(match: re.Match) -> str:
        shown, file, number = match.group(1), match.group(2), int(match.group(3))
        lines = (ROOT / file).read_text(encoding="utf-8").splitlines()
        wanted = WORD.findall(shown)
        fits = [i + 1 for i, line in enumerate(lines) if set(wanted) <= set(WORD.findall(line))]
        if not fits or number in fits:
            return match.group(0)
        best = min(fits, key=lambda n: abs(n - number))
        return match.group(0).replace(f"#L{number})", f"#L{best})")
    return LINK.sub(fix, text)


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--relink"]:
        for name in GAME_PAGES:
            page = DOCS / name
            page.write_text(relink(page.read_text(encoding="utf-8")), encoding="utf-8")


@pytest.mark.parametrize("page", GAME_PAGES)
def test_game_page_names_only_tests_that_exist(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_\w+)`", text))
    defined = {m for f in (ROOT / "tests").rglob("*.py")
               for m in re.findall(r"^def (test_\w+)", f.read_text(encoding="utf-8"), re.M)}
    assert named and not named - defined, f"docs/{page} names missing tests: {sorted(named - defined)}"


# ── docs/log-format.md: the schema is today's, the example replays ──

def test_log_schema_in_the_docs_is_the_generated_one():
    schemas = [json.loads(body) for _, body in blocks("log-format.md", "json") if '"$defs"' in body]
    assert schemas == [regnum.Log.model_json_schema()], (
        "docs/log-format.md is out of date: paste json.dumps(regnum.Log.model_json_schema(), indent=2)")


def test_log_example_validates_and_replays():
    logs = [json.loads(body) for _, body in blocks("log-format.md", "json") if '"$defs"' not in body]
    assert logs
    for data in logs:
        log = regnum.Log.from_json(data)
        game = regnum.replay(regnum.load(log.ruleset), data, check_hash=False)  # the example outlives edits
        assert game.move_count == len(log.moves)
        if log.result is not None:
            assert game.is_over
            assert (game.scores, game.winners) == (log.result.scores, log.result.winners)


# ── what the reference says about its examples in prose ──

def example(tmp_path, game: str) -> regnum.Ruleset:
    """The complete example of docs/language.md that declares `game GAME`."""
    found = [body for _, body in blocks("language.md", "regnum") if re.search(rf"^game {game} ", body, re.M)]
    assert len(found) == 1, f"docs/language.md has {len(found)} examples of game {game}"
    path = tmp_path / f"{game}.rules"
    path.write_text(found[0], encoding="utf-8")
    return regnum.load(path)


def test_first_ruleset_offers_both_steps(tmp_path):
    game = example(tmp_path, "race").new_game(players=2, seed=1)
    assert game.all_legal_moves() == [regnum.Move(0, "advance", {"steps": 1}),
                                  regnum.Move(0, "advance", {"steps": 2})]


def test_action_example_leaves_one_move(tmp_path):
    game = example(tmp_path, "actions").new_game(players=2)
    assert game.all_legal_moves() == [regnum.Move(0, "place", {"at": "a", "with": 1})]


def test_winner_example(tmp_path):
    game = example(tmp_path, "winners").new_game(players=3)
    assert (game.scores, game.winners) == ([10, 10, 10], [1, 2])


def test_reveal_example(tmp_path):
    game = example(tmp_path, "reveal_demo").new_game(players=2)
    hand = game.observation(1)["zones"]["hand#0"]
    assert hand["count"] == 2 and [c["label"] for c in hand["revealed"]] == ["seven"]


def test_simultaneous_example_asks_two_seats(tmp_path):
    game = example(tmp_path, "secret_bid").new_game(players=3)
    assert game.to_move == [0, 1]
    assert {m.player for m in game.all_legal_moves()} == {0, 1}


def test_moves_example_collapses_pieces_and_explains_refusals(tmp_path):
    game = example(tmp_path, "purse").new_game(players=2)
    assert game.all_legal_moves() == [regnum.Move(0, "give", {"c": "penny", "n": 1}), regnum.Move(0, "skip", {})]
    before = game.to_json()
    with pytest.raises(regnum.IllegalMove) as refused:
        game.play(regnum.Move(0, "give", {"c": "crown", "n": 1}))
    assert (refused.value.reason, refused.value.rule) == ("only small coins", "give.small")
    assert refused.value.location.endswith(":16:5")  # the line of require small
    assert game.to_json() == before


def test_observation_example_hides_the_pick(tmp_path):
    game = example(tmp_path, "hidden_pick").new_game(players=2)
    game.play(game.legal_moves(0)[0])
    zones = game.observation(1)["zones"]
    assert zones["hand#0"] == {"count": 2, "revealed": []}
    assert zones["chosen#0"] == {"count": 1, "revealed": []}


def test_runaway_example_is_stopped(tmp_path):
    rules = example(tmp_path, "runaway")
    with pytest.raises(regnum.RulesetError) as stopped:
        rules.new_game(players=2)
    assert stopped.value.diagnostics[0].code == "E901"
    assert stopped.value.diagnostics[0].span.line in (5, 6)  # inside the loop
