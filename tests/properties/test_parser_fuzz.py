"""The reader is fuzzed: whatever text it is given, it loads it or answers with regnum's own
located diagnostics — never a Python exception, a traceback or a hang (issue 8, DESIGN §5).

Two sources of text: sentences of the grammar (Hypothesis' `from_lark`, with the indentation
the post-lexer expects rebuilt around them), which reach the checker and the compiler, and
the bundled rulesets with a few lines or tokens deleted, duplicated, swapped, replaced or
re-indented, which are nearly right and so go deep into every stage. A mutant that still
loads is started and asked for its moves, since loading is a promise that a game can start.

CI runs a fixed, derandomized budget; REGNUM_FUZZ_EXAMPLES=5000 (and REGNUM_FUZZ_RANDOM=1 for
fresh seeds) explores further on demand.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import tempfile
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra.lark import from_lark

import regnum
from regnum import resources
from regnum.cli import cli
from regnum.parse import parser

EXAMPLES = int(os.environ.get("REGNUM_FUZZ_EXAMPLES", "0")) or None
FUZZ = settings(
    max_examples=EXAMPLES or 150,
    deadline=5000,   # ms per example, generous for a shared 2-core machine (a hang: see hang_alarm)
    derandomize=not os.environ.get("REGNUM_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

RULESETS = resources.data_dir("rulesets")
BUNDLED = {"kings_road": "kings_road.rules", "kingdom_builder": "kingdom_builder.rules",
           "permanent_nobles": "variants/permanent_nobles.rules"}
TEXTS = {name: (RULESETS / rel).read_text(encoding="utf-8") for name, rel in BUNDLED.items()}
_KEYWORDS = frozenset(word for terminal in parser().terminals
                      for word in re.findall(r"[a-z_]+", terminal.pattern.value) if terminal.name != "NAME")

# A mutant may loop without asking anyone (`add 1 to turn` with the loop's exit deleted): the
# step limit stops it with E901, but the default two million steps take longer than the
# deadline here. Bundled games start within a thousand steps.
GAME_LIMITS = regnum.Limits(steps=50_000)

# What a loaded ruleset may raise when a game starts or lists its moves: regnum's own errors.
REGNUM_ERRORS = (regnum.RulesetError, regnum.IllegalMove, regnum.OptionError, regnum.LogError)


_TEMPORARY = tempfile.TemporaryDirectory(prefix="regnum-fuzz-")   # removed when Python exits


def _workspace() -> Path:
    """A folder laid out as the bundled rulesets are (data files, the variant's base), so a
    mutant still finds what its original names."""
    folder = Path(_TEMPORARY.name)
    shutil.copytree(RULESETS / "data", folder / "data")
    (folder / "variants").mkdir()
    shutil.copy(RULESETS / "kings_road.rules", folder / "base.rules")
    return folder


WORKSPACE = _workspace()


class Hang(Exception):
    """An example still running after HANG_SECONDS: Hypothesis' deadline only judges an example
    once it ends, so a loop that never ends needs an alarm to be reported at all."""


HANG_SECONDS = 30


@contextlib.contextmanager
def hang_alarm():
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum, frame):
        raise Hang(f"still running after {HANG_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(HANG_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def load_or_diagnose(text: str, rel: str = "fuzzed.rules") -> None:
    """The property itself: `text` loads (and a game starts), or fails with located diagnostics."""
    with hang_alarm():
        _load_or_diagnose(text, rel)


def _load_or_diagnose(text: str, rel: str) -> None:
    path = WORKSPACE / rel
    path.write_text(text, encoding="utf-8")
    try:
        rules = regnum.load(path, rules_path=[WORKSPACE])
    except regnum.RulesetError as err:
        assert err.diagnostics, "a RulesetError without diagnostics"
        for diagnostic in err.diagnostics:
            assert re.fullmatch(r"[EW]\d{3}", diagnostic.code), diagnostic
            assert diagnostic.span.file and diagnostic.span.line >= 0, diagnostic
        assert any(d.is_error for d in err.diagnostics), err.diagnostics
        rendered = str(err)
        assert rendered and "Traceback" not in rendered
        return
    try:
        game = rules.new_game(rules.min_players, seed=0, limits=GAME_LIMITS)
        game.all_legal_moves()
    except REGNUM_ERRORS:
        pass


# ── Sentences of the grammar ────────────────────────────────────────────────────────────────

# from_lark joins terminals with nothing between them, and knows nothing of indentation. Every
# terminal is followed by a space (so `game g` is not `gameg`), and line breaks and block
# boundaries are drawn as markers, turned into real line breaks and indentation afterwards.
_NL, _INDENT, _DEDENT = "\x00", "\x01", "\x02"


_ALPHABET = st.characters(codec="utf-8", exclude_characters=_NL + _INDENT + _DEDENT)


def _grammar_strategies(start: str = "start") -> dict:
    lark = parser()
    terminals, _, _ = lark.grammar.compile([start], ())
    explicit = {}
    for terminal in terminals:
        if terminal.name == "_NL":
            continue
        pattern = terminal.pattern.to_regexp()
        explicit[terminal.name] = st.from_regex(pattern, fullmatch=True,
                                                alphabet=_ALPHABET).map(lambda s: s + " ")
    explicit["NAME"] = st.sampled_from(["a", "b", "x", "p", "players", "count", "len", "zone", "score",
                                        "current_player", "board", "f", "rule1", "Piece"]).map(lambda s: s + " ")
    if start == "start":
        explicit["_NL"] = st.sampled_from([_NL, " # remark" + _NL])
    explicit["_INDENT"] = st.just(_INDENT)
    explicit["_DEDENT"] = st.just(_DEDENT)
    return explicit


def indent(raw: str) -> str:
    """Markers to text: each line break takes the indentation of the block it opens or closes."""
    out, depth = [], 0
    at_line_start = True
    for char in raw:
        if char == _INDENT:
            depth += 1
        elif char == _DEDENT:
            depth = max(0, depth - 1)
        elif char == _NL:
            out.append("\n")
            at_line_start = True
        else:
            if at_line_start:
                out.append("    " * depth)
                at_line_start = False
            out.append(char)
    return "".join(out)


# Without `players` nearly every sentence stops at E301 before the checker looks further.
_PROLOGUE = st.sampled_from(["", 'game g "G"\nplayers 2..3\n', 'players 2..3\nflow:\n    pass\n'])


@FUZZ
@given(_PROLOGUE, from_lark(parser(), start="start", explicit=_grammar_strategies()).map(indent))
def test_a_sentence_of_the_grammar_loads_or_is_diagnosed(prologue, text):
    load_or_diagnose(prologue + text)


# `Game.evaluate` reads an expression from its caller: the same promise, with the names of a
# real game so that the checker lets many through to be run.
_GAME_NAMES = sorted({w for w in re.findall(r"\b[a-z_]\w*\b", TEXTS["kings_road"]) if w not in _KEYWORDS}
                     | {"count", "len", "sum", "max", "min", "any", "all", "first", "range", "players"})


@pytest.fixture(scope="module")
def game_in_progress():
    rules = regnum.load("kings_road")
    game = rules.new_game(3, seed=1)
    for _ in range(5):
        game.play(game.all_legal_moves()[0])
    return game


def _expressions():
    explicit = _grammar_strategies("expr")
    explicit["NAME"] = st.sampled_from(_GAME_NAMES).map(lambda s: s + " ")
    return from_lark(parser(), start="expr", explicit=explicit)


@settings(FUZZ, max_examples=EXAMPLES or 20)   # about half a second an expression: evaluate checks it against the whole ruleset
@given(expression=_expressions())
def test_an_evaluated_expression_has_a_value_or_is_diagnosed(game_in_progress, expression):
    with hang_alarm():
        try:
            game_in_progress.evaluate(expression)
        except regnum.RulesetError as err:
            assert err.diagnostics and all(d.is_error for d in err.diagnostics)
            assert "Traceback" not in str(err)


# ── Mutations of the bundled rulesets ───────────────────────────────────────────────────────

# Comments are matched so that their words are never picked: a mutation there changes nothing.
_TOKEN = re.compile(r'#[^\n]*|"(?:[^"\\\n]|\\.)*"|\w+|//|==|!=|<=|>=|\.\.|[^\w\s]')


_OPERATORS = frozenset({"+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">="})


_SWAPPABLE = frozenset({"name", "number", "string", "operator", "logic"})


def _class(token: str) -> str:
    """Tokens of one class stand in for each other in the grammar (a keyword or a bracket is
    its own class)."""
    if token[0] == '"':
        return "string"
    if token.isdigit():
        return "number"
    if token in ("and", "or"):
        return "logic"
    if token[0].isalnum() or token[0] == "_":
        return token if token in _KEYWORDS else "name"
    return "operator" if token in _OPERATORS else token


def _mutate_lines(text: str, data) -> str:
    lines = text.split("\n")
    kind = data.draw(st.sampled_from(["delete", "duplicate", "swap", "indent", "dedent", "move"]))
    i = data.draw(st.integers(0, len(lines) - 1))
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap":
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "indent":
        lines[i] = data.draw(st.sampled_from(["    ", "  ", "\t", " "])) + lines[i]
    elif kind == "dedent":
        lines[i] = lines[i][data.draw(st.integers(1, 4)):]
    else:
        j = data.draw(st.integers(0, len(lines) - 1))
        lines.insert(j, lines.pop(i))
    return "\n".join(lines)


def _mutate_tokens(text: str, data) -> str:
    spans = [m.span() for m in _TOKEN.finditer(text) if m.group()[0] != "#"]
    kind = data.draw(st.sampled_from(["delete", "duplicate", "swap", "replace", "split", "number", "alike"]))
    i = data.draw(st.integers(0, len(spans) - 1))
    start, end = spans[i]
    token = text[start:end]
    if kind == "delete":
        return text[:start] + text[end:]
    if kind == "duplicate":
        return text[:start] + token + " " + token + text[end:]
    if kind == "split":   # a space or a line break inside a token
        cut = data.draw(st.integers(start, end))
        return text[:cut] + data.draw(st.sampled_from([" ", "\n", "\n    "])) + text[cut:]
    if kind == "number":
        return text[:start] + data.draw(st.sampled_from(["0", "-1", "1" * 30, "none", '""', "[]", "{}"])) + text[end:]
    if kind == "alike":   # a name for a name, a number for a number: often still valid syntax
        i = data.draw(st.sampled_from([k for k, (a, b) in enumerate(spans) if _class(text[a:b]) in _SWAPPABLE]))
        start, end = spans[i]
        alike = [span for span in spans if _class(text[span[0]:span[1]]) == _class(text[start:end])]
        a, b = data.draw(st.sampled_from(alike))
        return text[:start] + text[a:b] + text[end:]
    j = data.draw(st.integers(0, len(spans) - 1))
    other = text[spans[j][0]:spans[j][1]]
    if kind == "replace":
        return text[:start] + other + text[end:]
    if i == j:
        return text
    (a, b), (c, d) = sorted([spans[i], spans[j]])
    return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]


@st.composite
def mutants(draw, name: str):
    text = TEXTS[name]
    for _ in range(draw(st.integers(1, 3))):
        mutate = draw(st.sampled_from([_mutate_lines, _mutate_tokens]))
        text = mutate(text, _Drawer(draw))
    return text


class _Drawer:
    """`data.draw` for the mutators, from inside a composite strategy."""

    def __init__(self, draw):
        self.draw = draw


def _rel(name: str) -> str:
    # The variant names its base as "../kings_road.rules"; in the workspace the base is base.rules.
    return "variants/fuzzed.rules" if name == "permanent_nobles" else "fuzzed.rules"


def _text_for(name: str, text: str) -> str:
    return text.replace('"../kings_road.rules"', '"../base.rules"') if name == "permanent_nobles" else text


@pytest.mark.parametrize("name", list(BUNDLED))
def test_the_unmutated_rulesets_load_from_the_workspace(name):
    load_or_diagnose(_text_for(name, TEXTS[name]), _rel(name))
    regnum.load(WORKSPACE / _rel(name), rules_path=[WORKSPACE])   # and they do load


@pytest.mark.parametrize("name", list(BUNDLED))
@FUZZ
@given(data=st.data())
def test_a_mutated_ruleset_loads_or_is_diagnosed(name, data):
    text = data.draw(mutants(name))
    load_or_diagnose(_text_for(name, text), _rel(name))


# ── Through the command line ────────────────────────────────────────────────────────────────

@pytest.mark.parametrize("old, new", [("flow:", "flow"), ("players", "players players"), ("==", "="),
                                      ('"', "")])
def test_regnum_check_of_a_broken_ruleset_exits_1_without_a_traceback(old, new, tmp_path):
    """One edit of King's Road at the first `old`: the syntax error is reported on its line."""
    text = TEXTS["kings_road"]
    line = text[:text.index(old)].count("\n") + 1
    expected = f"rules:{line}:"
    path = tmp_path / "broken.rules"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    try:
        runner = CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(cli, ["check", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    assert f"broken.{expected}" in output and ": error[E001]: " in output


# ── What the fuzzing found ──────────────────────────────────────────────────────────────────

def _load(tmp_path, text: str) -> regnum.Ruleset:
    path = tmp_path / "found.rules"
    path.write_text(text, encoding="utf-8")
    return regnum.load(path)


def test_an_empty_announce_in_a_rule_compiles(tmp_path):
    # A rule is compiled to Python; an announce of no parts once became `''.join((,))`, a
    # SyntaxError while loading (found by deleting a token of permanent_nobles).
    rules = _load(tmp_path, 'game g "G"\nplayers 2..2\nrule r:\n    announce ""\nflow:\n    run r\n    end game\n')
    assert rules.new_game(2).events == [""]
