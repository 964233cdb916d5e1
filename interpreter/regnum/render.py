"""What a player sees at the terminal: the board by its topology, the zones, scores and moves.

Generic over rulesets: a board is drawn by the shape of its topology (a graph as a list of
its nodes with their pieces, a hex grid as a map, a pyramid as rows), and the ruleset says
how things read to players with `view` (the text and colour of a cell, the name of a piece)
and `label` (how a move reads). Nothing here knows a game; nothing shows what the seat may
not see (the same visibility rules as observations).
"""
from __future__ import annotations

from rich.console import Console
from rich.style import Style
from rich.text import Text

from .boards import cell_name, coordinates
from .compiler.text import format_value
from .engine.observe import _visible, _visible_vars, shown as _shown
from .engine.runtime import guarded
from .terminal import safe

PLAYER_COLOURS = ("red1", "dodger_blue1", "green1", "yellow1", "magenta1", "cyan1", "orange1", "white")
_NONE = "—"
_OPEN_AREA = 2500   # an open grid's drawn box at most 50 × 50 cells; larger, its cells are listed


def player_style(seat) -> str:
    return f"bold {PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]}" if isinstance(seat, int) else "bold"


def words(name: str) -> str:
    """A declared name as players read it: `draw_pile` → `draw pile`."""
    return name.replace("_", " ")


class Renderer:
    """Renders one game for one seat (None: a spectator, who sees what is public)."""

    def __init__(self, game, viewer: int | None):
        self.game = game
        self.model = game.model
        self.state = game.state
        self.viewer = viewer
        self._ctx = None

    # ── evaluating the ruleset's views and labels ──
    @property
    def ctx(self):
        if self._ctx is None:
            self._ctx = self.game._ctx(self.state)
        return self._ctx

    def _view(self, name: str, value):
        view = self.model.views.get(name)
        if view is None:
            return None, None
        env = {view.var: value}
        with guarded(view.span, f"while drawing {name}"):
            text = view.text(self.ctx, env)
            colour = view.colour(self.ctx, env) if view.colour is not None else None
        return (None if text is None else format_value(text, None, self.ctx)), colour

    def piece_text(self, piece: int) -> str:
        record = self.state.pieces[piece]
        text, _ = self._view(record["type"], piece)
        if text is not None:
            return text
        label = record["label"]
        if label != record["type"]:
            return words(label)
        extras = [k if v is True else f"{k}={v}" for k, v in record.items()
                  if k not in ("type", "label", "owner") and v not in (None, False)]
        return words(label) + (f"({', '.join(extras)})" if extras else "")

    def pieces(self, ids: list, show_owner: bool = True) -> Text:
        """Pieces grouped: `P0 stone ×2, P1 crown`; owners in their colour."""
        groups: dict = {}
        for piece in ids:
            owner = self.state.pieces[piece].get("owner") if show_owner else None
            key = (owner, self.piece_text(piece))
            groups[key] = groups.get(key, 0) + 1
        out = Text()
        for i, ((owner, text), n) in enumerate(groups.items()):
            if i:
                out.append(", ")
            if isinstance(owner, int):
                out.append(f"P{owner} ", style=player_style(owner))
            out.append(text + (f" ×{n}" if n > 1 else ""))
        return out

    def cell_name(self, board: str, cell) -> str:
        text, _ = self._view(board, cell)
        return text if text is not None and self.model.boards[board].topology == "graph" else words(str(cell))

    # ── sections ──
    def header(self) -> Text:
        game = self.game
        out = Text(f"{self.model.title}", style="bold")
        out.append(f" — {game.players} players, move {game.move_count}")
        if game.is_over:
            out.append(" — the game is over")
        else:
            out.append(" — to move: ")
            for i, seat in enumerate(game.to_move):
                out.append(", " if i else "")
                out.append(f"P{seat}", style=player_style(seat))
        if self.viewer is not None:
            out.append("  (you are ")
            out.append(f"P{self.viewer}", style=player_style(self.viewer))
            out.append(")")
        return out

    def scores(self) -> Text:
        out = Text("scores  ")
        for seat, score in enumerate(self.game.scores):
            out.append("  " if seat else "")
            out.append(f"P{seat}", style=player_style(seat))
            out.append(f" {score}")
        return out

    def value(self, name: str, value) -> str:
        """A variable's value as players read it: a node of a graph by its view's name, a piece
        by its name, an enum's member as its view names it."""
        decl = self.game.ruleset.program.get(name, "var")
        ref = decl.type if decl is not None else None
        if ref is not None and ref.item is not None:
            ref = ref.item
        if ref is not None and ref.name in self.model.views \
                and self.game.ruleset.program.get(ref.name, "enum") is not None:
            if isinstance(value, list):
                return _short([self._view(ref.name, v)[0] if isinstance(v, str) else v for v in value])
            if isinstance(value, str):
                return self._view(ref.name, value)[0]
        if ref is not None and self.game.ruleset.program.get(ref.name, "piece") is not None:
            if isinstance(value, list):
                return _short([self.piece_text(v) for v in value if isinstance(v, int) and 0 <= v < len(self.state.pieces)])
            if isinstance(value, int) and 0 <= value < len(self.state.pieces):
                return self.piece_text(value)
        board = self.model.boards.get(ref.name) if ref is not None else None
        if board is not None and board.topology == "graph" and board.name in self.model.views:
            if isinstance(value, list):
                return _short([self.cell_name(board.name, v) for v in value])
            if isinstance(value, str):
                return self.cell_name(board.name, value)
        return _short(value)

    def variables(self) -> list[Text]:
        rows = [_visible_vars(self.game, values, seat, self.viewer)
                for seat, values in enumerate(self.state.pvars)]
        return variable_lines(_visible_vars(self.game, self.state.vars, None, self.viewer), rows,
                              self.model.options, self.value)

    def boards(self) -> list:
        out = []
        for board in self.model.boards.values():
            families = [f for f in self.model.zones.values() if f.index == board.name]
            if board.topology == "hex_grid":
                out.append(self.hex_map(board, families))
            elif board.topology == "pyramid":
                out.append(self.pyramid(board, families))
            elif board.is_open:
                out.append(self.open_map(board, families))
            elif families:
                out.append(self.node_list(board, families))
        return out

    def _on(self, families, cell) -> list:
        ids = []
        for fam in families:
            key = fam.keys[cell] if fam.open else fam.keys.get(cell)
            if key is not None and _visible(fam, cell, self.viewer):
                ids.extend(self.state.zones.get(key, ()))
        return ids

    def node_list(self, board, families, cells=None) -> Text:
        out = Text(words(board.name), style="bold")
        cells = board.cells if cells is None else cells
        names = {cell: self.cell_name(board.name, cell) for cell in cells}
        width = max((len(n) for n in names.values()), default=0)
        for cell in cells:
            ids = self._on(families, cell)
            out.append("\n  " + names[cell].ljust(width) + "  ")
            out.append_text(self.pieces(ids) if ids else Text(_NONE, style="dim"))
        return out

    def _glyph(self, board, families, cell, width: int) -> Text:
        """One cell of a drawn board: its pieces (by owner) over the view's text and colour."""
        text, colour = self._view(board.name, cell)
        colour = _colour(colour)
        style = f"on {colour}" if colour else ""
        ids = self._on(families, cell)
        owners = [self.state.pieces[i].get("owner") for i in ids]
        owner = next((o for o in owners if isinstance(o, int)), None)
        if owner is not None:
            if text is not None and self.model.views[board.name].over_pieces:
                return Text(text[:width].center(width), style=f"bold {player_style(owner)} {style}")
            return Text(str(owner).center(width), style=f"{player_style(owner)} reverse" if not colour
                        else f"{player_style(owner)} {style}")
        if ids and text is None:
            text = self.piece_text(ids[-1])
        return Text((text if text is not None else "·")[:width].center(width), style=style)

    def _legend(self, board) -> str:
        view = self.model.views.get(board.name)
        return ("pieces in their owner's colour" if view is not None and view.over_pieces
                else "digits are players' seats")

    def hex_map(self, board, families) -> Text:
        """Rows of 3-character cells; the shifted rows of the layout are indented by one."""
        rows = max(r for r, _ in board.coords.values()) + 1
        cols = max(c for _, c in board.coords.values()) + 1
        layout = board.settings.get("layout", "odd_r")
        shifted = 1 if layout == "odd_r" else 0
        out = Text(words(board.name), style="bold")
        out.append(f"  ({rows} rows × {cols} columns; a cell is (row,col); {self._legend(board)})\n",
                   style="dim")
        by_place = {pos: cell for cell, pos in board.coords.items()}
        if cols > 10:
            out.append("     " + "".join(f"{c // 10:^3}" if c >= 10 else "   " for c in range(cols)) + "\n",
                       style="dim")
        out.append("     " + "".join(f"{c % 10:^3}" for c in range(cols)) + "\n", style="dim")
        for r in range(rows):
            out.append(f"{r:>3}  ", style="dim")
            indent = layout.endswith("_r") and r % 2 == shifted
            if indent:
                out.append(" ")
            for c in range(cols):
                cell = by_place.get((r, c))
                out.append_text(self._glyph(board, families, cell, 3) if cell is not None else Text("   "))
            out.append(("" if indent else " ") + f"  {r}\n", style="dim")
        return out

    def open_map(self, board, families) -> Text:
        """The bounding box of the cells in use and one cell around, rows and columns labelled;
        a box too large to draw is listed cell by cell instead."""
        cells = self.state.grids[board.name]["cells"]
        out = Text(words(board.name), style="bold")
        if not cells:
            out.append("  (an open grid: no cell in use yet)", style="dim")
            return out
        places = [coordinates(cell) for cell in cells]
        top, bottom = min(r for r, _ in places) - 1, max(r for r, _ in places) + 1
        left, right = min(c for _, c in places) - 1, max(c for _, c in places) + 1
        if (bottom - top + 1) * (right - left + 1) > _OPEN_AREA:
            return self.node_list(board, families, cells)
        width = max(3, len(str(left)), len(str(right)))
        label = max(len(str(top)), len(str(bottom)))
        out.append(f"  (rows {top}…{bottom}, columns {left}…{right}: the cells in use and one around; "
                   f"a cell is (row,col); {self._legend(board)})\n", style="dim")
        out.append(" " * (label + 2) + "".join(f"{c:^{width}}" for c in range(left, right + 1)) + "\n",
                   style="dim")
        for r in range(top, bottom + 1):
            out.append(f"{r:>{label}}  ", style="dim")
            for c in range(left, right + 1):
                out.append_text(self._glyph(board, families, cell_name(r, c), width))
            out.append(f"  {r}\n", style="dim")
        return out

    def pyramid(self, board, families) -> Text:
        rows = max(r for r, _ in board.coords.values())
        by_place = {pos: cell for cell, pos in board.coords.items()}
        out = Text(words(board.name), style="bold")
        for r in range(rows, 0, -1):
            out.append(f"\n{r:>3}  " + "    " * (r - 1))
            for i in range(rows - r + 1):
                out.append_text(self._glyph(board, families, by_place[(r, i)], 7))
                out.append(" ")
        return out

    def zones(self) -> list[Text]:
        lines = []
        for fam in self.model.zones.values():
            if fam.index in self.model.boards:
                continue
            entries = []
            for index, key in fam.keys.items():
                ids = self.state.zones.get(key)
                if ids is None or (not ids and fam.index is not None):
                    continue
                entries.append((index, self._zone_text(fam, index, ids)))
            if not entries:
                continue
            if fam.index is None:
                line = Text(f"{words(fam.name)}: ")
                line.append_text(entries[0][1])
                lines.append(line)
                continue
            lines.append(Text(words(fam.name), style="bold"))
            for index, text in entries:
                line = Text("  ")
                if fam.index == "player":
                    line.append(f"P{index}", style=player_style(index))
                    if index == self.viewer:
                        line.append(" (you)")
                else:
                    line.append(words(str(index)))
                line.append(": ")
                line.append_text(text)
                lines.append(line)
        return lines

    def _zone_text(self, fam, index, ids) -> Text:
        if not ids:
            return Text(_NONE, style="dim")
        if _visible(fam, index, self.viewer):
            return self.pieces(ids, show_owner=fam.index != "player")
        shown = _shown(self.state, self.state.where[ids[0]], ids)
        out = Text(f"{len(ids)} hidden")
        if fam.visibility == "top":
            out = Text(f"{len(ids)}, on top: ")
            out.append_text(self.pieces(ids[-1:]))
        if shown:
            out.append("; shown: ")
            out.append_text(self.pieces(shown))
        return out

    def whole(self) -> Text:
        parts = [self.header(), self.scores()] + self.variables()
        boards = self.boards()
        zones = self.zones()
        out = Text("\n").join(parts)
        for block in boards:
            out.append("\n")
            out.append_text(block)
        if zones:
            out.append("\n")
            out.append_text(Text("\n").join(zones))
        return out


def variable_lines(globals_: dict, per_player: list, options, show) -> list[Text]:
    """The variables a seat may see, one line for the game's and one per player (scores are
    shown apart, options are not variables); `show(name, value)` reads a value."""
    lines = []
    shown = [(k, v) for k, v in globals_.items() if k not in options]
    if shown:
        lines.append(Text("  ".join(f"{words(k)}={show(k, v)}" for k, v in shown)))
    for seat, row in enumerate(per_player):
        rest = [(k, v) for k, v in row.items() if k != "score"]
        if rest:
            line = Text()
            line.append(f"P{seat}", style=player_style(seat))
            line.append(": " + "  ".join(f"{words(k)}={show(k, v)}" for k, v in rest))
            lines.append(line)
    return lines


def view_text(model, view: dict) -> Text:
    """A seat's observation (the `view` of a log written for one seat) as text: what that seat
    saw at the end of the log. Without the game's state the ruleset's `view`s cannot be
    evaluated, so boards are listed cell by cell and pieces read by their labels."""
    seat = view.get("seat")
    out = Text(model.title, style="bold")
    out.append(f" — {view.get('players')} players, move {view.get('moves')}")
    if view.get("is_over"):
        out.append(" — the game is over")
    else:
        out.append(" — to move: ")
        for i, who in enumerate(view.get("to_move") or []):
            out.append(", " if i else "")
            out.append(f"P{who}", style=player_style(who))
    if isinstance(seat, int):
        out.append("  (seen by ")
        out.append(f"P{seat}", style=player_style(seat))
        out.append(")")
    lines = [out]
    scores = Text("scores  ")
    for who, score in enumerate(view.get("scores") or []):
        scores.append("  " if who else "")
        scores.append(f"P{who}", style=player_style(who))
        scores.append(f" {score}")
    lines.append(scores)
    lines += variable_lines(view.get("vars") or {}, view.get("player_vars") or [], model.options,
                            lambda name, value: _short(value))
    families: dict = {}
    for key, content in (view.get("zones") or {}).items():
        family, _, index = key.partition("#")
        families.setdefault(family, []).append((index, content))
    for family, entries in families.items():
        fam = model.zones.get(family)
        entries = [(i, c) for i, c in entries if c and (not isinstance(c, dict) or c.get("count"))]
        if not entries:
            continue
        if fam is None or fam.index is None:
            line = Text(f"{words(family)}: ")
            line.append_text(_seen_zone(entries[0][1], True))
            lines.append(line)
            continue
        lines.append(Text(words(family), style="bold"))
        for index, content in entries:
            line = Text("  ")
            if fam.index == "player" and index.isdigit():
                line.append(f"P{index}", style=player_style(int(index)))
                if int(index) == seat:
                    line.append(" (you)")
            else:
                line.append(words(index))
            line.append(": ")
            line.append_text(_seen_zone(content, fam.index != "player"))
            lines.append(line)
    text = Text("\n").join(lines)
    text.plain = safe(text.plain)
    return text


def _seen_zone(content, show_owner: bool) -> Text:
    """A zone of an observation: its pieces by label and owner, or how many are hidden."""
    if isinstance(content, dict):
        out = Text(f"{content.get('count', 0)} hidden")
        if content.get("revealed"):
            out.append("; shown: ")
            out.append_text(_seen_pieces(content["revealed"], True))
        return out
    return _seen_pieces(content, show_owner)


def _seen_pieces(pieces: list, show_owner: bool) -> Text:
    groups: dict = {}
    for piece in pieces:
        owner = piece.get("owner") if show_owner and isinstance(piece, dict) else None
        key = (owner, words(str(piece.get("label", "?")) if isinstance(piece, dict) else "?"))
        groups[key] = groups.get(key, 0) + 1
    out = Text()
    for i, ((owner, text), n) in enumerate(groups.items()):
        if i:
            out.append(", ")
        if isinstance(owner, int) and not isinstance(owner, bool):
            out.append(f"P{owner} ", style=player_style(owner))
        out.append(text + (f" ×{n}" if n > 1 else ""))
    return out


def _colour(name) -> str | None:
    """A colour name the terminal knows ("green3", "#88aa44"), else none: a ruleset's view may
    name any colour, and an unknown one must not stop the game."""
    if not isinstance(name, str) or not name:
        return None
    try:
        Style.parse(f"on {name}")
    except Exception:
        return None
    return name


def _short(v) -> str:
    if v is True or v is False:
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, list):
        text = "[" + ", ".join(_short(x) for x in v) + "]"
    else:
        text = str(v)
    return text if len(text) <= 60 else text[:57] + "…"


def render(game, viewer: int | None = None) -> Text:
    """The view for a terminal: the ruleset's strings in it cannot drive the terminal (`safe`
    keeps every character in place, so the styles still fit)."""
    text = Renderer(game, viewer).whole()
    text.plain = safe(text.plain)
    return text


def plain(text: Text) -> str:
    """The text without colours (for logs, tests and pipes)."""
    console = Console(width=200, no_color=True, record=True, file=_Null())
    console.print(text, soft_wrap=True)
    return console.export_text().rstrip("\n")


class _Null:
    def write(self, _):
        return 0

    def flush(self):
        pass


# ── moves ─────────────────────────────────────────────────────────────────────

def describe_move(game, move, env: dict | None = None, state=None) -> str:
    """How a move reads to players: its action's `label` text, else `action value …`; made
    safe for a terminal, as a label shows the ruleset's strings and the move's arguments.
    `state`: the position the label reads, when not the game's present one."""
    return safe(_move_text(game, move, env, state))


def _move_text(game, move, env: dict | None, state=None) -> str:
    action = game.model.actions.get(move.action)
    if action is not None and action.label is not None and env is not None:
        ctx = game._ctx(game.state if state is None else state)
        try:
            with guarded(action.span, f"while naming a move of '{move.action}'"):
                return "".join(p if p is not None else format_value(v(ctx, env), k, ctx)
                               for p, v, k in action.label)
        except Exception:  # a label is a courtesy; the move still reads in its plain form
            pass
    args = " ".join(words(str(v)) if isinstance(v, str) else str(v) for v in move.args.values())
    return words(str(move.action)) + (f" {args}" if args else "")
