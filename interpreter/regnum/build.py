"""Lark tree to AST: the only stage besides parse.py that sees Lark objects.

A builder whose method names are the grammar's rule names; each returns a node of
ast.py carrying the span of the text it came from. The tree is walked with a stack of
our own, not Python's (Lark's Transformer recurses once per level): a chain such as
`a + b + c + …` makes a tree as deep as the chain is long, and reading it must not
depend on how deep Python may recurse. How deep the result may be is bounded here, once,
so every later stage can recurse over it safely (see `_check_depth`).
"""
from __future__ import annotations

import math
import re
import sys
from collections import OrderedDict
from contextlib import contextmanager

from . import ast, loading, reparse
from .diagnostics import Diagnostic, RulesetError
from .limits import DEFAULT as DEFAULT_LIMITS, Limits
from .source import SourceRegistry
from .source import Span

# Lark's classes and parse.py, imported when a text is first parsed rather than with regnum:
# a process whose files' trees are kept on disk (treecode.py) parses nothing, and importing
# Lark is a fifth of importing regnum.
Token = Tree = parse_text = None


def _parsing() -> None:
    """Import what parsing a text needs, once."""
    global Token, Tree, parse_text
    if parse_text is None:
        from lark import Token, Tree
        from .parse import parse_text


def _span(file: str, meta) -> Span:
    if getattr(meta, "empty", True):
        return Span(file, 1, 1, 1, 2)
    return Span(file, meta.line, meta.column, meta.end_line, meta.end_column)


def _tok(file: str, token: Token) -> Span:
    return Span(file, token.line, token.column, token.end_line or token.line,
                token.end_column or token.column + len(token))


def _unquote(token: Token) -> str:
    body = str(token)[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def _suite(items) -> tuple:
    return tuple(items)


_HOLE = re.compile(r"\{([^{}]*)\}")


class _Builder:
    def __init__(self, file: str, limits: Limits = DEFAULT_LIMITS):
        self.file = file
        self.limits = limits
        self.errors: list[Diagnostic] = []

    def transform(self, tree):
        """The AST of a Lark tree, children first, without recursion."""
        if not isinstance(tree, Tree):
            return tree
        stack = [(tree, iter(tree.children), [])]
        while True:
            node, children, done = stack[-1]
            for child in children:
                if isinstance(child, Tree):
                    stack.append((child, iter(child.children), []))
                    break
                done.append(child)
            else:
                stack.pop()
                method = getattr(self, node.data, None)
                value = method(node.meta, done) if method is not None else Tree(node.data, done, node.meta)
                if not stack:
                    return value
                stack[-1][2].append(value)

    def sp(self, meta) -> Span:
        return _span(self.file, meta)

    def tk(self, token) -> Span:
        return _tok(self.file, token)

    # ── module ──
    def start(self, meta, items):
        return tuple(i for i in items if not isinstance(i, Token))

    # ── declarations ──
    def game_decl(self, meta, c):
        return ast.GameDecl(self.sp(meta), str(c[0]), _unquote(c[1]))

    def import_decl(self, meta, c):
        return ast.ImportDecl(self.sp(meta), tuple((str(t), self.tk(t)) for t in c))

    def players_decl(self, meta, c):
        return ast.PlayersDecl(self.sp(meta), int(c[0]), int(c[1]))

    def const_decl(self, meta, c):
        return ast.ConstDecl(self.sp(meta), str(c[0]), c[1])

    def data_decl(self, meta, c):
        return ast.ConstDecl(self.sp(meta), str(c[0]), ast.DataFile(self.tk(c[1]), _unquote(c[1])))

    def option_decl(self, meta, c):
        name, type_, default, *requires = c
        clauses = tuple(x[1] for x in requires if x is not None)
        return ast.OptionDecl(self.sp(meta), str(name), type_, default, clauses)

    def view_decl(self, meta, c):
        board, var, text, colour, over = c
        return ast.ViewDecl(self.sp(meta), str(board), self.tk(board), str(var), text, colour, over is not None)

    def enum_decl(self, meta, c):
        return ast.EnumDecl(self.sp(meta), str(c[0]), tuple((str(t), self.tk(t)) for t in c[1:]))

    def board_decl(self, meta, c):
        name, topology, *items = c
        nodes, edges, settings = [], [], []
        for kind, payload in (i for i in items if i is not None):
            {"nodes": nodes, "edges": edges, "setting": settings}[kind].extend(payload)
        return ast.BoardDecl(self.sp(meta), str(name), str(topology), tuple(nodes),
                             tuple(edges), tuple(settings))

    def board_nodes(self, meta, c):
        return ("nodes", [(str(t), self.tk(t)) for t in c])

    def board_edges(self, meta, c):
        return ("edges", list(c))

    def edge(self, meta, c):
        return ((str(c[0]), self.tk(c[0])), (str(c[1]), self.tk(c[1])))

    def board_setting(self, meta, c):
        return ("setting", [(str(c[0]), self.tk(c[0]), c[1])])

    def piece_decl(self, meta, c):
        return ast.PieceDecl(self.sp(meta), str(c[0]), tuple(c[1:]))

    def field_decl(self, meta, c):
        return ast.FieldDecl(self.sp(meta), str(c[0]), c[1], c[2])

    def zone_decl(self, meta, c):
        name, index, visibility = c
        index_name, index_span = (None, None) if index is None else index
        return ast.ZoneDecl(self.sp(meta), str(name), index_name, index_span, str(visibility))

    def zone_index(self, meta, c):
        return (str(c[0]), self.tk(c[0]))

    def var_decl(self, meta, c):
        name, index, type_, init, visibility, each_turn = c
        index_name, index_span = (None, None) if index is None else index
        return ast.VarDecl(self.sp(meta), str(name), index_name, type_, init,
                           str(visibility) if visibility is not None else "public", index_span,
                           each_turn is not None)

    def var_index(self, meta, c):
        return (str(c[0]), self.tk(c[0]))

    def def_decl(self, meta, c):
        return ast.DefDecl(self.sp(meta), str(c[0]), c[1] or (), c[2])

    def params(self, meta, c):
        return tuple(str(t) for t in c)

    def setup_decl(self, meta, c):
        return ast.SetupDecl(self.sp(meta), c[0])

    def flow_decl(self, meta, c):
        return ast.FlowDecl(self.sp(meta), c[0])

    def phase_decl(self, meta, c):
        return ast.PhaseDecl(self.sp(meta), str(c[0]), c[1])

    def rule_decl(self, meta, c):
        return ast.RuleDecl(self.sp(meta), str(c[0]), c[1] or (), c[2])

    def action_decl(self, meta, c):
        name, params, *rest = c
        clauses = ("require", "prefer", "label", "offered")
        requires = tuple(x for x in rest if isinstance(x, tuple) and x and x[0] == "require")
        prefers = tuple(x for x in rest if isinstance(x, tuple) and x and x[0] == "prefer")
        labels = [x[1] for x in rest if isinstance(x, tuple) and x and x[0] == "label"]
        for extra in labels[1:]:
            self.errors.append(Diagnostic("E006", "error", f"action '{name}' has two labels", extra.span,
                                          "an action has one label"))
        offered = [x[1] for x in rest if isinstance(x, tuple) and x and x[0] == "offered"]
        for extra in offered[1:]:
            self.errors.append(Diagnostic("E006", "error", f"action '{name}' is offered with two actions",
                                          extra[1], "an action is offered with one other; the asks of that "
                                          "one offer it"))
        body = tuple(x for x in rest if not (isinstance(x, tuple) and x and x[0] in clauses))
        return ast.ActionDecl(self.sp(meta), str(name), params or (),
                              tuple(x[1] for x in requires), tuple(x[1] for x in prefers), body,
                              labels[0] if labels else None, offered[0] if offered else None)

    def offered_clause(self, meta, c):
        return ("offered", (str(c[0]), self.tk(c[0])))

    def label_clause(self, meta, c):
        return ("label", self._template(c[0]))

    def action_params(self, meta, c):
        return tuple(c)

    def action_param(self, meta, c):
        return ast.ActionParam(self.sp(meta), str(c[0]), c[1])

    def _clause(self, meta, c):
        message = _unquote(c[2]) if len(c) > 2 and c[2] is not None else None
        return ast.Clause(self.sp(meta), str(c[0]), c[1], message)

    def require_clause(self, meta, c):
        return ("require", self._clause(meta, c))

    def prefer_clause(self, meta, c):
        name, per, cond, *message = c
        clause = self._clause(meta, [name, cond] + message)
        return ("prefer", ast.Clause(clause.span, clause.name, clause.cond, clause.message, per or ()))

    def prefer_per(self, meta, c):
        return tuple((str(t), self.tk(t)) for t in c)

    def scoring_decl(self, meta, c):
        name, params, majority, *clauses = c
        measure, var, source = majority
        opts = {}
        for key, value in clauses:
            if key in opts:
                self.errors.append(Diagnostic("E006", "error", f"'{key}' is given twice in scoring '{name}'",
                                              self._clause_span(key, value, meta),
                                              "a scoring states each of pays, places, needs, ties, into once"))
            opts[key] = value
        return ast.ScoringDecl(self.sp(meta), str(name), params or (), measure, var, source,
                               opts.get("pays"), opts.get("places"), opts.get("needs"),
                               opts.get("ties", ()), opts.get("into"))

    def _clause_span(self, key, value, meta) -> Span:
        span = getattr(value, "span", None) or (value[0].span if isinstance(value, tuple) and value else None)
        return span or self.sp(meta)

    def majority_rule(self, meta, c):
        return (c[0], str(c[1]), c[2])

    def pays_clause(self, meta, c):
        return ("pays", c[0])

    def places_clause(self, meta, c):
        return ("places", c[0])

    def needs_clause(self, meta, c):
        return ("needs", c[0])

    def ties_clause(self, meta, c):
        return ("ties", c[0])

    def into_clause(self, meta, c):
        return ("into", str(c[0]))

    def tie_chain(self, meta, c):
        return tuple(c)

    def policy_name(self, meta, c):
        return ast.PolicyName(self.sp(meta), str(c[0]))

    def policy_key(self, meta, c):
        return ast.PolicyKey(self.sp(meta), str(c[0]), c[1])

    def policy_seats(self, meta, c):
        return ast.PolicyKey(self.sp(meta), "lowest", c[1], str(c[0]))

    def tiebreak_decl(self, meta, c):
        return ast.TiebreakDecl(self.sp(meta), str(c[0]), c[1])

    def trigger_decl(self, meta, c):
        name, once, piece_var, event, zone, index_var, cond, after_move, body = c
        return ast.TriggerDecl(self.sp(meta), str(name), str(piece_var), str(zone), self.tk(zone),
                               None if index_var is None else str(index_var), cond, body, str(event),
                               once is not None, after_move is not None)

    def invariant_decl(self, meta, c):
        message = _unquote(c[2]) if len(c) > 2 and c[2] is not None else None
        return ast.InvariantDecl(self.sp(meta), str(c[0]), c[1], message)

    def statistic_decl(self, meta, c):
        return ast.StatisticDecl(self.sp(meta), str(c[0]), c[1])

    def ends_decl(self, meta, c):
        return ast.EndsDecl(self.sp(meta), c[0])

    def winner_decl(self, meta, c):
        keys = tuple(c[1:])
        for key in keys[:-1]:
            if key.order == "shared":
                self.errors.append(Diagnostic("E007", "error", "'shared' ends the winner's chain: "
                                              "players still tied after every key share the victory",
                                              key.span, "move 'then shared' to the end, or leave it out"))
        return ast.WinnerDecl(self.sp(meta), str(c[0]), keys)

    def winner_order(self, meta, c):
        return ast.WinnerKey(self.sp(meta), str(c[0]), c[1])

    def winner_shared(self, meta, c):
        return ast.WinnerKey(self.sp(meta), "shared", None)

    def variant_decl(self, meta, c):
        quoted = c[1].type == "STRING"
        base = _unquote(c[1]) if quoted else str(c[1])
        return ast.VariantDecl(self.sp(meta), str(c[0]), base, self.tk(c[1]), quoted)

    def remove_decl(self, meta, c):
        kind, name = str(c[0]), str(c[1]) if c[1] is not None else str(c[0])
        return ast.RemoveDecl(self.sp(meta), kind, name)

    # ── types ──
    def named_type(self, meta, c):
        return ast.TypeRef(self.sp(meta), str(c[0]))

    def optional_type(self, meta, c):
        return ast.TypeRef(self.sp(meta), str(c[0]), optional=True)

    def list_type(self, meta, c):
        return ast.TypeRef(self.sp(meta), None, item=c[0])

    # ── statements ──
    def suite(self, meta, c):
        return _suite(c)

    def let_stmt(self, meta, c):
        return ast.LetStmt(self.sp(meta), str(c[0]), c[1])

    def set_stmt(self, meta, c):
        return ast.SetStmt(self.sp(meta), c[0], c[1])

    def add_stmt(self, meta, c):
        return ast.AddStmt(self.sp(meta), c[0], c[1])

    def subtract_stmt(self, meta, c):
        return ast.AddStmt(self.sp(meta), c[0], c[1], negate=True)

    def move_stmt(self, meta, c):
        return ast.MoveStmt(self.sp(meta), c[0], c[1])

    def move_count_stmt(self, meta, c):
        return ast.MoveCountStmt(self.sp(meta), c[0], c[1], c[2])

    def create_stmt(self, meta, c):
        count, type_token, kwargs, dest, label = c
        return ast.CreateStmt(self.sp(meta), count, str(type_token), self.tk(type_token),
                              kwargs or (), dest, label)

    def kwargs(self, meta, c):
        return tuple(c)

    def kwarg(self, meta, c):
        return (str(c[0]), self.tk(c[0]), c[1])

    def shuffle_stmt(self, meta, c):
        return ast.ShuffleStmt(self.sp(meta), c[0])

    def reveal_stmt(self, meta, c):
        return ast.RevealStmt(self.sp(meta), c[0])

    def ask_stmt(self, meta, c):
        return ast.AskStmt(self.sp(meta), c[0], tuple((str(t), self.tk(t)) for t in c[1:]))

    def run_stmt(self, meta, c):
        return ast.RunStmt(self.sp(meta), str(c[0]), self.tk(c[0]), c[1] or ())

    def score_stmt(self, meta, c):
        return ast.ScoreStmt(self.sp(meta), str(c[0]), self.tk(c[0]), c[1] or (),
                             None if c[2] is None else str(c[2]))

    def announce_stmt(self, meta, c):
        return ast.AnnounceStmt(self.sp(meta), self._template(c[0]))

    def end_stmt(self, meta, c):
        return ast.EndStmt(self.sp(meta))

    def pass_stmt(self, meta, c):
        return ast.PassStmt(self.sp(meta))

    def new_turn_stmt(self, meta, c):
        return ast.NewTurnStmt(self.sp(meta))

    def if_stmt(self, meta, c):
        cond, body, *elifs, otherwise = c
        branches = [(cond, body)] + [e[1] for e in elifs]
        return ast.IfStmt(self.sp(meta), tuple(branches), otherwise)

    def elif_clause(self, meta, c):
        return ("elif", (c[0], c[1]))

    def for_stmt(self, meta, c):
        return ast.ForStmt(self.sp(meta), str(c[0]), c[1], c[2], c[3])

    def repeat_stmt(self, meta, c):
        return ast.RepeatStmt(self.sp(meta), c[0], c[1])

    def until_stmt(self, meta, c):
        return ast.UntilStmt(self.sp(meta), c[0], c[1])

    def while_stmt(self, meta, c):
        return ast.WhileStmt(self.sp(meta), c[0], c[1])

    def simultaneous_stmt(self, meta, c):
        return ast.SimultaneousStmt(self.sp(meta), str(c[0]), c[1], c[2], c[3])

    # ── expressions ──
    def if_expr(self, meta, c):
        return ast.IfExpr(self.sp(meta), c[0], c[1], c[2])

    def or_op(self, meta, c):
        return ast.Binary(self.sp(meta), "or", c[0], c[1])

    def and_op(self, meta, c):
        return ast.Binary(self.sp(meta), "and", c[0], c[1])

    def not_op(self, meta, c):
        return ast.Unary(self.sp(meta), "not", c[0])

    def compare(self, meta, c):
        return ast.Binary(self.sp(meta), c[1], c[0], c[2])

    def comp_op(self, meta, c):
        return " ".join(str(t) for t in c)

    def binary(self, meta, c):
        return ast.Binary(self.sp(meta), str(c[1]), c[0], c[2])

    def negate(self, meta, c):
        return ast.Unary(self.sp(meta), "-", c[0])

    def attribute(self, meta, c):
        return ast.Attribute(self.sp(meta), c[0], str(c[1]), self.tk(c[1]))

    def index(self, meta, c):
        return ast.Index(self.sp(meta), c[0], c[1])

    def call(self, meta, c):
        return ast.Call(self.sp(meta), str(c[0]), self.tk(c[0]), c[1] or ())

    def aggregate(self, meta, c):
        first, *more = c[2:]
        return ast.Aggregate(self.sp(meta), str(c[0]), c[1], first.var, first.source, first.cond, tuple(more))

    def comp_for(self, meta, c):
        return ast.CompFor(self.sp(meta), str(c[0]), c[1], c[2])

    def random_one(self, meta, c):
        return ast.RandomExpr(self.sp(meta), None, c[0])

    def random_many(self, meta, c):
        return ast.RandomExpr(self.sp(meta), c[0], c[1])

    def int_lit(self, meta, c):
        if len(c[0]) > 18:
            self.errors.append(Diagnostic("E004", "error", f"a number of {len(c[0])} digits is too long: "
                                          "numbers have at most 18 digits", self.tk(c[0])))
            return ast.IntLit(self.sp(meta), 0)
        return ast.IntLit(self.sp(meta), int(c[0]))

    def str_lit(self, meta, c):
        return ast.StrLit(self.sp(meta), _unquote(c[0]))

    def true_lit(self, meta, c):
        return ast.BoolLit(self.sp(meta), True)

    def false_lit(self, meta, c):
        return ast.BoolLit(self.sp(meta), False)

    def none_lit(self, meta, c):
        return ast.NoneLit(self.sp(meta))

    def name(self, meta, c):
        return ast.Name(self.sp(meta), str(c[0]))

    def list_lit(self, meta, c):
        return ast.ListLit(self.sp(meta), c[0] or ())

    def list_comp(self, meta, c):
        first, *more = c[1:]
        return ast.ListComp(self.sp(meta), c[0], first.var, first.source, first.cond, tuple(more))

    def map_lit(self, meta, c):
        return ast.MapLit(self.sp(meta), c[0] or ())

    def args(self, meta, c):
        return tuple(x for x in c if x is not None)

    def entries(self, meta, c):
        return tuple(x for x in c if x is not None)

    def name_entry(self, meta, c):
        return (str(c[0]), self.tk(c[0]), c[1])

    def text_entry(self, meta, c):
        return (_unquote(c[0]), self.tk(c[0]), c[1])

    def number_entry(self, meta, c):
        return (int(c[0]), self.tk(c[0]), c[1])

    def negative_entry(self, meta, c):
        return (-int(c[0]), self.tk(c[0]), c[1])

    # ── announce templates ──
    def _template(self, token: Token) -> ast.Template:
        text = _unquote(token)
        parts: list = []
        pos = 0
        for match in _HOLE.finditer(text):
            if match.start() > pos:
                parts.append(text[pos:match.start()])
            column = token.column + 1 + match.start(1)
            parts.append(self._hole(match.group(1), token.line, column))
            pos = match.end()
        if pos < len(text):
            parts.append(text[pos:])
        return ast.Template(self.tk(token), tuple(parts))

    def _hole(self, source: str, line: int, column: int):
        try:
            tree = parse_text(source, self.file + "#template", start="expr")
            _check_depth(tree, self.file + "#template", self.limits)
        except RulesetError as err:
            d = err.diagnostics[0]
            self.errors.append(Diagnostic(d.code, "error", d.message + " (inside '{…}' of an announce text)",
                                          Span(self.file, line, column, line, column + len(source)),
                                          d.hint if d.code == "E005" else None))
            return ast.StrLit(Span(self.file, line, column, line, column + 1), "")
        offset = _Offset(self.file, line, column)
        return offset.transform(_Builder(self.file, self.limits).transform(tree))


class _Offset:
    """Moves the spans of a template hole from its own text into the file."""

    def __init__(self, file: str, line: int, column: int):
        self.file, self.line, self.column = file, line, column

    def transform(self, node):
        import dataclasses
        if isinstance(node, tuple):
            return tuple(self.transform(x) for x in node)
        if isinstance(node, Span):
            return Span(self.file, self.line, self.column + node.column - 1,
                        self.line, self.column + node.end_column - 1)
        if dataclasses.is_dataclass(node):
            changes = {f.name: self.transform(getattr(node, f.name)) for f in dataclasses.fields(node)}
            return dataclasses.replace(node, **changes)
        return node


def build_expression(text: str, file: str = "<expression>", limits: Limits = DEFAULT_LIMITS):
    """Parse and build one expression (for `Game.evaluate`); raises RulesetError."""
    _parsing()
    tree = parse_text(text, file, start="expr")
    _check_depth(tree, file, limits)
    builder = _Builder(file, limits)
    node = builder.transform(tree)
    if builder.errors:
        raise RulesetError(builder.errors)
    return node


# The syntax trees of files already built, by (file, text, limits): parsing is two thirds of
# loading a ruleset again in the same process (a simulation's workers, a test suite, a server),
# and a tree is frozen, so the same text gives the same tree. Kept within a budget of source
# characters, the oldest dropped first, since a stranger's ruleset may be megabytes.
_BUILT: OrderedDict = OrderedDict()
_BUILT_CHARACTERS = 1_000_000
_built_size = 0


def build_module(text: str, file: str, limits: Limits = DEFAULT_LIMITS) -> ast.Module:
    """Parse and build one file; raises RulesetError with every syntax diagnostic."""
    global _built_size
    key = (file, text, limits)
    loading.reading(file, text)   # the first file a load reads names the cache it keeps trees in
    module = _BUILT.get(key)
    if module is not None:
        _BUILT.move_to_end(key)
        SourceRegistry.remember(file, text)   # its lines, for the messages that quote them
        loading.hold_tree(file, text, module)   # the load's file holds every tree it read
        return module
    module = loading.kept_tree(file, text)   # built by an earlier process
    if module is None:
        module = _from_earlier(text, file, limits) or _build_module(text, file, limits)
        loading.keep_tree(file, text, module)
    else:
        SourceRegistry.remember(file, text)
    if len(text) <= _BUILT_CHARACTERS:
        if not _BUILT:   # emptied, or put in place afresh: what was counted is not in it
            _built_size = 0
        _BUILT[key] = module
        _built_size += len(text)
        while _built_size > _BUILT_CHARACTERS:
            (_, old, _), _ = _BUILT.popitem(last=False)
            _built_size -= len(old)
    return module


def _from_earlier(text: str, file: str, limits: Limits) -> ast.Module | None:
    """The tree of `text` made from the tree of an earlier text of the same file, built in this
    process or kept by the load's cache (reparse.py), when there is one and the edit allows."""
    earlier = next(((t, module) for (f, t, held), module in reversed(_BUILT.items())
                    if f == file and held == limits and t != text), None) or loading.earlier_tree(file, text)
    if earlier is None:
        return None
    module = reparse.rebuilt(text, earlier[0], earlier[1], file, limits,
                             lambda run: _build_module(run, file, limits))
    SourceRegistry.remember(file, text)   # parsing a run remembered the run
    return module


def _build_module(text: str, file: str, limits: Limits) -> ast.Module:
    _parsing()
    builder = _Builder(file, limits)
    count = last_line = 0

    def declaration(tree):   # each declaration is built as soon as it is parsed (see parse.py)
        nonlocal count, last_line
        line = getattr(tree.meta, "line", 0)
        if line <= last_line:   # parsed again, after a syntax error: count again from the start
            count = 0
        count, last_line = count + 1, line
        if count > limits.declarations:   # refused where it happens, not after parsing the rest
            raise RulesetError([Diagnostic("E011", "error", f"the ruleset has more than "
                                           f"{limits.declarations:_} declarations: too many to check",
                                           _span(file, tree.meta), limits.hint("declarations"))])
        _check_depth(tree, file, limits)
        return builder.transform(tree)

    tree = parse_text(text, file, limits=limits, on_declaration=declaration)
    _check_depth(tree, file, limits)
    decls = builder.transform(tree)
    if builder.errors:
        raise RulesetError(builder.errors)
    return ast.Module(file, decls)


# ── how deep a ruleset may nest ──

# Rules whose node opens a level of nesting: a block, and every node of an expression but
# the parts of one (arguments, entries, a comprehension's `for`, a comparison's operator).
_BLOCKS = frozenset({"suite"})
_EXPRESSIONS = frozenset({
    "if_expr", "or_op", "and_op", "not_op", "compare", "binary", "negate", "attribute", "index",
    "call", "aggregate", "random_one", "random_many", "int_lit", "str_lit", "true_lit",
    "false_lit", "none_lit", "name", "list_lit", "list_comp", "map_lit"})
# Chains written flat: in `a + b + c` or `x.f[0].g` the left operand continues the chain
# and is not nested in it, though the tree holds it one level down.
_CHAINS = {"binary": ("binary",), "or_op": ("or_op",), "and_op": ("and_op",),
           "attribute": ("attribute", "index"), "index": ("attribute", "index")}

COMPILABLE_DEPTH = 200
"""How deep one expression's tree may be, chains counted: each level becomes a bracket in
the Python the compiler writes, and Python reads at most 200 nested brackets. A deeper
expression could never be compiled, so it is refused here with the compiler's own E005,
before any stage has to walk it."""


def _check_depth(tree, file: str, limits: Limits) -> None:
    """Refuse a ruleset nested deeper than `limits.nesting` (E005, naming the limit), or
    holding an expression too deep to compile (E005, as the compiler says it); so no later
    stage meets a tree deeper than these bounds. The walk keeps its own stack and stops at
    the first place too deep."""
    if not isinstance(tree, Tree):
        return
    limit = limits.nesting
    # (node, nesting, depth of the expression it is in, that expression's outermost node)
    stack = [(tree, 0, 0, None)]
    pop, push = stack.pop, stack.append
    while stack:
        node, nesting, depth, outer = pop()
        data = node.data
        if data in _EXPRESSIONS:
            depth += 1
            if outer is None:
                outer = node
        if nesting > limit or depth > COMPILABLE_DEPTH:
            raise RulesetError([_too_deep(node, outer, nesting > limit, file, limits)])
        chain = _CHAINS.get(data, ())
        for position, child in enumerate(node.children):
            if not isinstance(child, Tree):
                continue
            kind = child.data
            if kind in _BLOCKS:
                push((child, nesting + 1, 0, None))
            elif kind in _EXPRESSIONS and not (position == 0 and kind in chain):
                push((child, nesting + 1, depth, outer))
            else:
                push((child, nesting, depth, outer))


def _too_deep(node, outer, nesting: bool, file: str, limits: Limits) -> Diagnostic:
    if nesting:
        while node.data in _BLOCKS:     # point at the statement, not at the line break before it
            node = next(c for c in node.children if isinstance(c, Tree))
        return Diagnostic("E005", "error", f"blocks and expressions nest more than {limits.nesting} "
                          "deep here; move inner parts into a rule, a def or a let",
                          _span(file, node.meta), limits.hint("nesting"))
    return Diagnostic("E005", "error", "this expression is nested too deeply to compile; split it "
                      "with let or def", _span(file, outer.meta))


@contextmanager
def room_to_recurse(limits: Limits, declarations: int = 0):
    """Python recursion enough for the stages after this one to walk any tree the depth check
    lets through, and any chain of `declarations` declarations referring to each other (a def
    calling a def calling a def…, each followed by the checker and the compiler). They recurse
    a few frames per level; blocks nest at most `limits.nesting` deep and, each level being
    indented one more column, at most sqrt(2 × bytes) deep in one file; an expression is at
    most COMPILABLE_DEPTH deep. Python's default (1000) is too little for a block 200 deep
    holding an expression 200 deep. The stages recurse through Python frames, not C ones, so
    the process stack is not what runs out (a chain of 50,000 defs was tried)."""
    blocks = min(limits.nesting, math.isqrt(2 * limits.ruleset_bytes) + 1)
    needed = 1000 + 5 * (blocks + COMPILABLE_DEPTH) + 10 * declarations
    before = sys.getrecursionlimit()
    if needed <= before:
        yield
        return
    sys.setrecursionlimit(needed)
    try:
        yield
    finally:
        if sys.getrecursionlimit() == needed:
            sys.setrecursionlimit(before)
