"""Text to Lark tree, and Lark's syntax errors to our diagnostics.

One of the two modules that know Lark (the other is build.py). The parser is
LALR(1) with Lark's contextual lexer, so keywords such as `score` or `players`
stay usable as names wherever a keyword cannot stand.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import re
import threading
from pathlib import Path

import lark
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from . import diskcache, resources
from .diagnostics import Diagnostic, RulesetError, did_you_mean
from .limits import DEFAULT as DEFAULT_LIMITS, Limits
from .source import SourceRegistry, Span


# Multi-line expressions: a line break outside brackets does not end a statement when the
# next line is indented deeper than the statement's first line and either begins with one
# of these words or operators, or the line before ends with one (`=`, `,`, `and`, …).
_CONTINUES_LINE = frozenset({"and", "or", "not", "then", "else", "where", "in", "+", "-", "*", "//",
                             "%", "==", "!=", "<", "<=", ">", ">=", "to", "from", "of", "named", "on"})
_ENDS_UNFINISHED = _CONTINUES_LINE | {"=", ","}


class _Indentation(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4
    text = ""               # the text being parsed (set by parse_text), to see what follows a line break
    nesting = 200           # how deep blocks may nest (set by parse_text from the limits)

    def process(self, stream):
        # A fresh indenter per parse: the indenter keeps its state on itself, and a parse may
        # start inside another (an announce's {…} is parsed while its declaration is built).
        worker = Indenter.__new__(type(self))
        Indenter.__init__(worker)
        worker.nesting = self.nesting
        return Indenter.process(worker, _join_continued_lines(stream, self.text, self.tab_len))

    def handle_NL(self, token):
        # Blocks nested past the limit stop the parse at the line too deep: a check after
        # parsing (build.py) would find them too, but only once the whole file is parsed.
        yield from super().handle_NL(token)
        if len(self.indent_level) > self.nesting + 1:
            raise _TooDeep(token)


class _TooDeep(Exception):
    """Blocks nested past the limit, found while lexing: the rest of the file is not parsed.
    `token` is the line break before the line too deep."""

    def __init__(self, token: Token):
        super().__init__()
        self.token = token


_NEXT_WORD = re.compile(r"[ \t]*(//|==|!=|<=|>=|[-+*%<>]|[A-Za-z_]\w*)")


def _join_continued_lines(stream, text: str, tab_len: int):
    """Drop the line breaks that continue an expression (see _CONTINUES_LINE) before the
    indenter sees them, so a long condition can be written over several lines. The next
    line is read from the text, not from the token stream: the lexer depends on the parser's
    state, so a postlexer cannot look ahead."""
    depth = 0
    statement_indent = 0
    previous = None
    for token in stream:
        if token.type in ("LPAR", "LSQB", "LBRACE"):
            depth += 1
        elif token.type in ("RPAR", "RSQB", "RBRACE"):
            depth = max(0, depth - 1)
        elif token.type == "_NL" and depth == 0:
            indent = len(str(token).rsplit("\n", 1)[-1].expandtabs(tab_len))
            following = _NEXT_WORD.match(text, token.end_pos or 0) if text else None
            continued = indent > statement_indent and previous is not None and (
                (previous.type not in ("NAME", "STRING", "INT") and str(previous) in _ENDS_UNFINISHED)
                or (following is not None and following.group(1) in _CONTINUES_LINE))
            if continued:
                continue
            statement_indent = indent
        previous = token
        yield token


@functools.cache
def parser() -> Lark:
    grammar = (resources.data_dir("grammar") / "regnum.lark").read_text(encoding="utf-8")
    return _hooked(build_parser(grammar, diskcache.cache_file("lark", lark.__version__, grammar)))


def build_parser(grammar: str, cache: Path | None = None) -> Lark:
    """The LALR parser of `grammar`; its tables read from `cache` when that file holds them
    (Lark checks that they were built from this grammar with these options), else built and
    written there."""
    options = dict(parser="lalr", postlex=_Indentation(), propagate_positions=True,
                   maybe_placeholders=True, start=["start", "expr"])
    if cache is None:
        return Lark(grammar, **options)
    built = _CachedLark(grammar, cache=str(cache), **options)
    try:
        os.chmod(cache, 0o600)   # written with the umask: only its owner may change it
    except OSError:
        pass
    return built


class _CachedLark(Lark):
    """Lark's cache keeps the parser's tables, not the grammar they were built from: that is
    read again when asked for (only tools that write sentences of the grammar ask)."""

    def __getattr__(self, name: str):
        if name != "grammar":
            raise AttributeError(name)
        from lark.load_grammar import load_grammar
        self.grammar, _ = load_grammar(self.source_grammar, "<string>", self.options.import_paths,
                                       self.options.keep_all_tokens)
        return self.grammar


# What becomes of each declaration's tree as soon as the parser has it (the innermost parse's
# hook is last; None: the tree is kept). build.py turns each into its AST there and then, so
# the Lark tree of the whole file — a hundred and fifty times the size of its text — never
# exists at once: reading a file costs memory in proportion to its declarations' ASTs.
class _Hooks(threading.local):
    def __init__(self):
        self.stack: list = []


_HOOKS = _Hooks()   # per thread: two threads may read two rulesets at once


def _hooked(lark: Lark) -> Lark:
    try:
        callbacks = lark.parser.parser.parser.callbacks
    except AttributeError:   # another Lark inside: trees are built whole, as Lark does
        return lark
    for rule, callback in list(callbacks.items()):
        if rule.origin.name == "declaration":
            callbacks[rule] = _declaration_callback(callback)
    return lark


def _declaration_callback(callback):
    def reduce(children):
        tree = callback(children)
        stack = _HOOKS.stack
        hook = stack[-1] if stack else None
        return tree if hook is None else hook(tree)
    return reduce


_READABLE = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "_NL": "end of line",
    "_INDENT": "an indented block", "_DEDENT": "the end of the block", "$END": "end of file",
    "TOPOLOGY": "a topology (graph, hex_grid, pyramid, open_grid)",
    "VISIBILITY": "a visibility (public, owner, hidden)", "ORDER": "'highest' or 'lowest'",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'",
}


def _describe(terminal: str) -> str:
    if terminal in _READABLE:
        return _READABLE[terminal]
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal.lower()
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return terminal.lower()


def _literal(terminal: str) -> bool:
    """Whether a terminal Lark named itself (`..`, `==`: `__ANON_0`…) is a literal text, shown
    as it is written; the others (what is skipped between tokens) are nothing to expect."""
    try:
        return parser().get_terminal(terminal).pattern.type == "str"
    except KeyError:
        return False


def _describe_token(token: Token) -> str:
    if token.type == "_NL":
        return "end of line"
    if token.type == "_INDENT":
        return "an indented block"
    if token.type == "_DEDENT":
        return "end of a block"
    if token.type == "$END":
        return "end of file"
    return f"'{token.value}'"


def _expected_list(expected) -> str:
    names = sorted({_describe(t) for t in expected if not t.startswith("__") or _literal(t)})
    if len(names) > 12:
        names = names[:12] + ["…"]
    return ", ".join(names)


# Common mistakes, as data: a hint and example texts that fail the same way
# (Lark's match_examples finds the example whose parser state matches the error).
SYNTAX_HINTS: dict[str, list[str]] = {
    "compare with '=='; a single '=' only names a value in let, set and const": [
        "game g \"G\"\nflow:\n    if a = 1:\n        pass\n",
        "game g \"G\"\nflow:\n    while a = 1:\n        pass\n",
        "game g \"G\"\naction a(x in y):\n    require r: x = 1\n",
        "def f(x) = x = 1\n",
    ],
    "a line that opens a block ends with ':'": [
        "phase p\n    pass\n",
        "flow\n    pass\n",
        "setup\n    pass\n",
        "rule r(x)\n    pass\n",
        "game g \"G\"\nflow:\n    for x in y\n        pass\n",
        "game g \"G\"\nflow:\n    if x\n        pass\n",
    ],
    "write the words 'and', 'or' and 'not'": [
        "def f(x) = x && y\n",
        "def f(x) = x || y\n",
        "def f(x) = !x\n",
    ],
}

# An error at a file's first declaration and one after others happen in different parser states.
SYNTAX_HINTS = {hint: texts + ['game g "G"\n' + t for t in texts if not t.startswith("game")]
                for hint, texts in SYNTAX_HINTS.items()}

_KEYWORDS = ("game", "import", "players", "const", "enum", "board", "piece", "zone", "var", "def",
             "setup", "flow", "phase", "rule", "action", "scoring", "tiebreak", "trigger", "invariant",
             "statistic", "winner", "variant", "remove", "let", "set", "add", "subtract", "move", "create", "shuffle",
             "reveal", "ask", "run", "score", "announce", "end", "pass", "if", "elif", "else", "for",
             "repeat", "while", "simultaneously", "require", "prefer", "majority", "pays", "places",
             "needs", "ties", "into")


def _hint(err: UnexpectedInput) -> str | None:
    _HOOKS.stack.append(None)   # the examples' declarations are not the file's
    try:
        return err.match_examples(lambda text: parser().parse(text, start="start"), SYNTAX_HINTS,
                                  use_accepts=True)
    except Exception:  # a hint is a courtesy: never let it hide the error itself
        return None
    finally:
        _HOOKS.stack.pop()


def _expected(err: UnexpectedToken) -> set:
    try:
        return set(err.interactive_parser.accepts())
    except Exception:
        return set(err.expected)


def _opener(lines: list[str], line: int, column: int):
    """(bracket, line, column) of a bracket opened on an earlier line and still open at
    (line, column): newlines inside brackets do not end a statement, so such a mistake
    surfaces lines later."""
    stack: list[tuple[str, int, int]] = []
    pairs = {")": "(", "]": "[", "}": "{"}
    for number in range(1, min(line, len(lines)) + 1):
        text = lines[number - 1]
        if number == line:
            text = text[:column - 1]
        in_string = False
        for col, char in enumerate(text, 1):
            if char == '"' and (col == 1 or text[col - 2] != "\\"):
                in_string = not in_string
            elif in_string:
                continue
            elif char == "#":
                break
            elif char in "([{":
                stack.append((char, number, col))
            elif char in pairs and stack and stack[-1][0] == pairs[char]:
                stack.pop()
    if stack and stack[-1][1] < line:
        return stack[-1]
    return None


def syntax_diagnostic(err: UnexpectedInput, file: str) -> Diagnostic:
    line = max(getattr(err, "line", 1) or 1, 1)
    column = max(getattr(err, "column", 1) or 1, 1)
    if isinstance(err, UnexpectedCharacters):
        char = err.char
        span = Span(file, line, column, line, column + 1)
        if char == '"':
            return Diagnostic("E002", "error", "unterminated string", span,
                              'a string ends with " on the same line it starts')
        return Diagnostic("E002", "error", f"unexpected character {char!r}", span,
                          _hint(err) or "strings use double quotes; names use letters, digits and _")
    if isinstance(err, UnexpectedToken):
        token = err.token
        if token.type == "$END" or token.line is None:
            span = Span(file, line, column, line, column + 1)
        else:
            width = max(len(str(token.value)), 1) if token.type not in ("_NL", "_INDENT", "_DEDENT") else 1
            span = Span(file, token.line, token.column, token.line, token.column + width)
        if token.type == "_INDENT":
            line = _next_code_line(file, token.line)
            indent = len(token.value) if isinstance(token.value, str) else 0
            span = Span(file, line, 1, line, indent + 1 if indent else 2)
            return Diagnostic("E003", "error", "unexpected indentation", span,
                              "only a line ending in ':' opens an indented block")
        expected = _expected(err)
        message = f"unexpected {_describe_token(token)}; expected {_expected_list(expected)}"
        hint = _hint(err)
        if hint is None and str(token.value).isidentifier():
            words = [w for w in _KEYWORDS if w.upper() in expected]
            hint = did_you_mean(str(token.value), words)
        return Diagnostic("E001", "error", message, span, hint)
    if isinstance(err, UnexpectedEOF):
        span = Span(file, line, column, line, column + 1)
        return Diagnostic("E001", "error",
                          f"unexpected end of file; expected {_expected_list(err.expected)}", span)
    span = Span(file, line, column, line, column + 1)
    return Diagnostic("E001", "error", str(err).splitlines()[0], span)


MAX_SYNTAX_ERRORS = 20
RECOVERY_BYTES = 1_000_000
"""Characters parsed again, at most, to find more syntax errors after the first: each search
reparses the whole file, so twenty of them in a file of megabytes would take minutes. A small
file is searched for all its errors; a large one for as many as this allows (and at least
the first is always reported)."""


def parse_text(text: str, file: str, start: str = "start", limits: Limits = DEFAULT_LIMITS,
               on_declaration=None) -> Tree:
    """Parse a whole file (or, with start="expr", one expression).

    A file with syntax errors is reported whole: after each error the offending line (and
    the block it opens) is set aside and the file parsed again, so every independent
    mistake is found in one run (up to MAX_SYNTAX_ERRORS).
    """
    SourceRegistry.remember(file, text)
    if start == "expr":
        parser().options.postlex.text = ""
        try:
            return parser().parse(text.strip(), start=start)
        except UnexpectedInput as err:
            raise RulesetError([syntax_diagnostic(err, file)]) from None
    if not text.endswith("\n"):
        text += "\n"
    lines = text.split("\n")
    found: list[Diagnostic] = []
    tried: dict[int, int] = {}
    changed: set[int] = set()
    reparsed = -len(text)   # the first parse is free
    _HOOKS.stack.append(on_declaration)
    try:
        return _parse_file(text, file, start, limits, lines, found, tried, changed, reparsed)
    finally:
        _HOOKS.stack.pop()


def _parse_file(text, file, start, limits, lines, found, tried, changed, reparsed) -> Tree:
    while len(found) < MAX_SYNTAX_ERRORS:
        try:
            source = "\n".join(lines)
            reparsed += len(source)
            if reparsed > max(RECOVERY_BYTES, len(text)):
                break
            parser().options.postlex.text = source
            parser().options.postlex.nesting = limits.nesting
            tree = parser().parse(source, start=start)
        except UnexpectedInput as err:
            diagnostic = syntax_diagnostic(err, file)
        except _TooDeep as err:
            raise RulesetError(found + [_too_deep(err.token, file, limits)]) from None
        except RulesetError as err:   # from on_declaration: a declaration nested too deeply
            raise RulesetError(found + err.diagnostics) from None
        except DedentError:
            line = _dedent_line("\n".join(lines))
            diagnostic = Diagnostic("E003", "error", "inconsistent indentation: this line matches no "
                                    "enclosing block", Span(file, line, 1, line, 2),
                                    "indent with 4 spaces per level")
        else:
            if not found:
                return tree
            break
        line = diagnostic.span.line
        if found and _caused_by_recovery(diagnostic, lines, changed, found[-1].span.line):
            break  # what is left may be an echo of our own edits: report only what is certain
        opener = _opener(lines, line, diagnostic.span.column)
        if opener is not None:
            char, number, col = opener
            diagnostic = dataclasses.replace(
                diagnostic, hint=f"the '{char}' opened at line {number}, column {col} is still open")
        if not any(d.span.line == line for d in found):
            found.append(diagnostic)
        if opener is not None:  # the mistake is the open bracket: set its statement aside instead
            line = opener[1]
        edited = _set_aside(lines, line, tried)
        if not edited:
            break
        changed |= edited
    raise RulesetError(found)


def _too_deep(token: Token, file: str, limits: Limits) -> Diagnostic:
    line = _next_code_line(file, token.line)
    column = len(str(token).rsplit("\n", 1)[-1].expandtabs(4)) + 1
    return Diagnostic("E005", "error", f"blocks and expressions nest more than {limits.nesting} deep "
                      "here; move inner parts into a rule, a def or a let",
                      Span(file, line, column, line, column + 1), limits.hint("nesting"))


def _caused_by_recovery(diagnostic: Diagnostic, lines: list[str], changed: set[int], last: int) -> bool:
    """Whether an error found after setting lines aside may come from that edit, not the user."""
    line = diagnostic.span.line
    if line in changed or line <= last or "end of file" in diagnostic.message:
        return True
    previous = next((n for n in range(line - 1, 0, -1) if lines[n - 1].strip()), None)
    return "an indented block" in diagnostic.message and (previous is None or previous in changed
                                                          or previous + 1 in changed)


# Blocks whose lines are statements: a line set aside there becomes `pass`, which keeps the
# block valid. Elsewhere (piece fields, board lines, scoring clauses) it is blanked.
_STATEMENT_BLOCKS = ("flow", "setup", "phase", "rule", "trigger", "action", "if", "elif", "else",
                     "for", "repeat", "while", "simultaneously")


def _set_aside(lines: list[str], line: int, tried: dict[int, int]) -> set[int]:
    """Neutralise line `line` (1-based) and the block it opens; the lines changed (none: give up)."""
    index = line - 1
    if not 0 <= index < len(lines):
        return set()
    attempts = tried.get(line, 0)
    if attempts >= 2:
        return set()
    tried[line] = attempts + 1
    original = lines[index]
    indent = len(original.expandtabs(4)) - len(original.expandtabs(4).lstrip())
    edited = {line}
    for j in range(index + 1, len(lines)):  # the block this line opens goes with it
        text = lines[j].expandtabs(4)
        stripped = text.strip()
        if stripped and not stripped.startswith("#") and len(text) - len(text.lstrip()) <= indent:
            break
        if lines[j]:
            edited.add(j + 1)
        lines[j] = ""
    in_statements = indent and attempts == 0 and _enclosing_header(lines, index, indent) in _STATEMENT_BLOCKS
    lines[index] = " " * indent + "pass" if in_statements else ""
    return edited


def _enclosing_header(lines: list[str], index: int, indent: int) -> str:
    """The first word of the line that opens the block holding line `index`."""
    for j in range(index - 1, -1, -1):
        text = lines[j].expandtabs(4)
        stripped = text.strip()
        if stripped and not stripped.startswith("#") and len(text) - len(text.lstrip()) < indent:
            return stripped.split()[0].rstrip(":")
    return ""


def _next_code_line(file: str, after: int) -> int:
    """The first line after `after` that holds code (the line an _INDENT token stands for)."""
    line = after + 1
    while True:
        text = SourceRegistry.line(file, line)
        if text is None:
            return after
        stripped = text.strip()
        if stripped and not stripped.startswith("#"):
            return line
        line += 1


def _dedent_line(text: str) -> int:
    """The first line whose indentation matches no open block (for E003).

    Tabs count as 4 columns, as the parser counts them, and lines that continue an open
    bracket are not indentation.
    """
    stack = [0]
    depth = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.expandtabs(4)
        stripped = line.lstrip(" ")
        code = stripped.split("#", 1)[0] if '"' not in stripped else stripped
        starts_inside = depth > 0
        depth = max(0, depth + sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}"))
        if not stripped or stripped.startswith("#") or starts_inside:
            continue
        indent = len(line) - len(stripped)
        if indent > stack[-1]:
            stack.append(indent)
            continue
        while indent < stack[-1]:
            stack.pop()
        if indent != stack[-1]:
            return number
    return 1
