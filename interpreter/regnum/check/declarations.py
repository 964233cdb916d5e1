"""Pass: the declarations every ruleset needs, and the shape of boards and zones.

`players` and `flow` must exist, the player range must make sense, a zone is
indexed by `player`, a board or an enum, and a board's edges join its nodes.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic, did_you_mean
from ..program import Program
from ..source import SourceRegistry, Span
from .symbols import KIND_WORDS, token_span

RUNNABLE_TOPOLOGIES = ("graph",)


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
        if var.visibility == "owner" and not var.per_player:
            out.append(Diagnostic("E119", "error", f"variable '{var.name}' has no owner: only a "
                                  "'per player' variable can be shown to its owner", token_span(var.span, var.name),
                                  "write 'var NAME per player: …, owner', or 'hidden'"))
    return out


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
    if board.topology not in RUNNABLE_TOPOLOGIES:
        out.append(Diagnostic("E306", "error", f"topology {board.topology} is designed but its runtime is not "
                              "available yet", token_span(board.span, board.topology),
                              f"available: {', '.join(RUNNABLE_TOPOLOGIES)}"))
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


def _zone(program: Program, zone) -> list[Diagnostic]:
    out = []
    if zone.index is not None and zone.index != "player":
        decl = program.get(zone.index)
        if decl is None or decl.kind not in ("board", "enum"):
            what = "unknown" if decl is None else f"{KIND_WORDS.get(decl.kind, decl.kind)}"
            message = f"unknown zone index '{zone.index}'" if decl is None else \
                f"a zone is indexed by player, a board or an enum, but '{zone.index}' is {what}"
            candidates = ["player"] + [n for n, d in program.decls.items() if d.kind in ("board", "enum")]
            out.append(Diagnostic("E115", "error", message, zone.index_span or zone.span,
                                  did_you_mean(zone.index, candidates)
                                  or "index a zone family by: " + ", ".join(candidates)))
    if zone.visibility == "owner" and zone.index != "player":
        out.append(Diagnostic("W407", "warning", f"zone '{zone.name}' is visible to its owner, but only zones "
                              "indexed per player have an owner: nobody will see it",
                              token_span(zone.span, "owner", before=":"),
                              "write 'per player' or make it public or hidden"))
    return out
