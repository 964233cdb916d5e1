"""Pass: the declarations every ruleset needs, and the shape of boards and zones.

`players` and `flow` must exist, the player range must make sense, a zone is
indexed by `player`, a board or an enum, and a board's edges join its nodes.
"""
from __future__ import annotations

from .. import ast, boards
from ..diagnostics import Diagnostic, did_you_mean
from ..program import Program
from ..source import SourceRegistry, Span
from .symbols import KIND_WORDS, token_span



def _file_start(program: Program) -> Span:
    """Where a missing declaration is reported: the first line of the ruleset's first declaration."""
    spans = [d.span for d in list(program.decls.values()) + list(program.singletons.values())
             if d.span.file == program.path]
    if not spans:
        return Span(program.path, 1, 1, 1, 2)
    first = min(spans, key=lambda s: (s.line, s.column))
    line = SourceRegistry.line(first.file, first.line) or ""
    end = len(line.split("#", 1)[0].rstrip()) + 1
    return Span(first.file, first.line, first.column, first.line, max(end, first.column + 1))


def check_declarations(program: Program) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    out += _singletons(program)
    for board in program.of_kind("board"):
        out += _board(program, board)
    for zone in program.of_kind("zone"):
        out += _zone(program, zone)
    for var in program.of_kind("var"):
        if var.per_index:
            out += _index(program, var, "a variable")
        if var.visibility == "owner" and not var.per_player:
            out.append(Diagnostic("E119", "error", f"variable '{var.name}' has no owner: only a "
                                  "'per player' variable can be shown to its owner", token_span(var.span, var.name),
                                  "write 'var NAME per player: …, owner', or 'hidden'"))
        if var.each_turn and var.index is not None and not var.per_player:
            out.append(Diagnostic("E125", "error", f"variable '{var.name}' has a value per {var.index}: only "
                                  "a variable of the game or of each player goes back to its first value "
                                  "each turn", token_span(var.span, "each", before=None),
                                  "keep what a turn did in a variable of the game or 'per player'"))
        if var.visibility == "top":
            out.append(Diagnostic("E124", "error", f"variable '{var.name}' has no top: only a zone, a pile of "
                                  "pieces, can show its top piece alone", token_span(var.span, "top", before=None),
                                  "a variable is public, owner or hidden"))
    for view in program.of_kind("view"):
        decl = program.get(view.board)
        if decl is None or decl.kind not in ("board", "piece", "enum"):
            what = "unknown" if decl is None else KIND_WORDS.get(decl.kind, decl.kind)
            message = f"a view draws a board or names a piece type, but '{view.board}' is {what}" \
                if decl is not None else f"unknown board or piece type '{view.board}'"
            out.append(Diagnostic("E121", "error", message, view.board_span,
                                  did_you_mean(view.board, [d.name for d in program.decls.values()
                                                            if d.kind in ("board", "piece", "enum")])))
        elif decl.kind == "enum" and view.colour is not None:
            out.append(Diagnostic("E121", "error", f"a view of the enum '{view.board}' names its members: it has "
                                  "no colour", view.colour.span, "drop the 'on …' part"))
    return out


def _index(program: Program, decl, what: str) -> list[Diagnostic]:
    """A zone family or variable is indexed by player, a board or an enum."""
    index = decl.index
    found = program.get(index)
    if found is not None and found.kind in ("board", "enum"):
        return []
    kind = "unknown" if found is None else f"{KIND_WORDS.get(found.kind, found.kind)}"
    noun = "zone index" if what == "a zone" else "index"
    message = f"unknown {noun} '{index}'" if found is None else \
        f"{what} is indexed by player, a board or an enum, but '{index}' is {kind}"
    candidates = ["player"] + [n for n, d in program.decls.items() if d.kind in ("board", "enum")]
    family = "a zone family" if what == "a zone" else "a variable"
    return [Diagnostic("E115", "error", message, decl.index_span or decl.span,
                       did_you_mean(index, candidates) or f"index {family} by: " + ", ".join(candidates))]


def _singletons(program: Program) -> list[Diagnostic]:
    out = []
    players = program.singletons.get("players")
    if players is None:
        out.append(Diagnostic("E301", "error", "the ruleset has no 'players' declaration",
                              _file_start(program), "say how many may play, for example: players 2..4"))
    elif players.minimum < 1 or players.minimum > players.maximum:
        why = "at least one player must play" if players.minimum < 1 else \
            f"the minimum {players.minimum} is more than the maximum {players.maximum}"
        out.append(Diagnostic("E302", "error", f"impossible player count {players.minimum}..{players.maximum}: "
                              f"{why}", token_span(players.span, f"{players.minimum}..{players.maximum}"),
                              "write players MIN..MAX with 1 <= MIN <= MAX"))
    if "flow" not in program.singletons:
        out.append(Diagnostic("E303", "error", "the ruleset has no 'flow' declaration", _file_start(program),
                              "the flow says what happens in a game, for example:\n"
                              "    flow:\n        repeat until …:\n            run a_round"))
    if "game" not in program.singletons:
        out.append(Diagnostic("W406", "warning", "the ruleset has no 'game' declaration", _file_start(program),
                              "name it for logs and tools: game NAME \"Title\""))
    return out


def _board(program: Program, board) -> list[Diagnostic]:
    out = []
    if board.topology != "graph":
        return out + _generated(board)
    nodes = {n for n, _ in board.nodes}
    seen: dict = {}
    for (a, a_span), (b, b_span) in board.edges:
        bad = False
        for name, span in ((a, a_span), (b, b_span)):
            if name not in nodes:
                bad = True
                other = program.board_nodes.get(name)
                where = f"; it is a node of board '{other}'" if other and other != board.name else ""
                out.append(Diagnostic("E116", "error", f"board '{board.name}' has no node '{name}'{where}", span,
                                      did_you_mean(name, nodes)))
        if bad:
            continue
        key = frozenset((a, b))
        if a == b:
            out.append(Diagnostic("W404", "warning", f"the edge {a} - {b} joins a node to itself", a_span))
        elif key in seen:
            out.append(Diagnostic("W404", "warning", f"the edge {a} - {b} is listed twice", a_span,
                                   f"the first is at {seen[key]}"))
        else:
            seen[key] = a_span
    return out


def _generated(board: ast.BoardDecl) -> list[Diagnostic]:
    """A board whose cells its topology generates: the settings it reads, and no nodes or edges."""
    out = []
    known = {s.name: s for s in boards.TOPOLOGIES[board.topology]}
    given = {name for name, _, _ in board.settings}
    if board.nodes or board.edges:
        span = (board.nodes[0][1] if board.nodes else board.edges[0][0][1])
        out.append(Diagnostic("E312", "error", f"a {board.topology} makes its cells from its settings: it has "
                              "no nodes or edges", span,
                              "settings: " + ", ".join(known) if known else "use a graph for named nodes"))
    for name, span, _ in board.settings:
        if name not in known:
            out.append(Diagnostic("E312", "error", f"a {board.topology} has no setting '{name}'", span,
                                  did_you_mean(name, known) or "settings: " + (", ".join(
                                      f"{s.name} ({s.meaning})" for s in known.values()) or "none")))
    for setting in known.values():
        if setting.required and setting.name not in given:
            out.append(Diagnostic("E312", "error", f"board '{board.name}' ({board.topology}) needs the setting "
                                  f"'{setting.name}': {setting.meaning}", token_span(board.span, board.name),
                                  f"write an indented line: {setting.name} = …"))
    return out


def _zone(program: Program, zone) -> list[Diagnostic]:
    out = []
    if zone.index is not None and zone.index != "player":
        out += _index(program, zone, "a zone")
    if zone.visibility == "owner" and zone.index != "player":
        out.append(Diagnostic("W407", "warning", f"zone '{zone.name}' is visible to its owner, but only zones "
                              "indexed per player have an owner: nobody will see it",
                              token_span(zone.span, "owner", before=":"),
                              "write 'per player' or make it public or hidden"))
    return out
