"""What a seat may see: observations (JSON) and a text rendering of the board.

Zones declared `owner` show their pieces only to the seat that owns them and
`hidden` zones to nobody; others see how many pieces they hold. Pieces named
by a `reveal` are shown everywhere. Pending simultaneous choices stay secret.
"""
from __future__ import annotations


def _visible(fam, index, viewer) -> bool:
    if fam.visibility == "public":
        return True
    if fam.visibility == "owner":
        return viewer is not None and fam.index == "player" and index == viewer
    return False


def can_see(game, piece: int, viewer) -> bool:
    """Whether `viewer` sees this piece where it lies now."""
    state = game.state
    key = state.where[piece]
    family = key.partition("#")[0]
    fam = game.model.zones[family]
    return _visible(fam, fam.index_of.get(key), viewer) or piece in state.revealed


def _piece(state, piece: int) -> dict:
    record = dict(state.pieces[piece])
    record["id"] = piece
    return record


def observation(game, viewer: int | None) -> dict:
    state = game.state
    zones = {}
    for fam in game.model.zones.values():
        for index, key in fam.keys.items():
            if key not in state.zones:
                continue
            ids = state.zones[key]
            if _visible(fam, index, viewer):
                zones[key] = [_piece(state, i) for i in ids]
            else:
                zones[key] = {"count": len(ids),
                              "revealed": [_piece(state, i) for i in ids if i in state.revealed]}
    return {
        "ruleset": game.model.name,
        "seat": viewer,
        "players": game.players,
        "to_move": game.to_move,
        "is_over": game.is_over,
        "scores": game.scores,
        "winners": game.winners,
        "vars": _plain(_visible_vars(game, state.vars, None, viewer)),
        "player_vars": [_plain(_visible_vars(game, row, seat, viewer)) for seat, row in enumerate(state.pvars)],
        "tables": {name: (_plain(values) if game.model.tables[name].visibility == "public" else "hidden")
                   for name, values in state.tables.items()},
        "options": _plain(game.options),
        "zones": zones,
        "moves": game.move_count,
    }


def _visible_vars(game, row: dict, seat, viewer) -> dict:
    """A row of variables as `viewer` may see it: secret ones show as "hidden"."""
    secret = game.model.secret_vars
    if not secret:
        return row
    shown = {}
    for name, value in row.items():
        vis = secret.get(name)
        visible = vis is None or (vis == "owner" and seat is not None and seat == viewer)
        shown[name] = value if visible else "hidden"
    return shown


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def _describe_group(state, ids: list) -> str:
    groups: dict = {}
    for piece in ids:
        record = state.pieces[piece]
        extras = [f"{k}" if v is True else f"{k}={v}" for k, v in record.items()
                  if k not in ("type", "label", "owner") and v not in (None, False)]
        owner = record.get("owner")
        name = record["label"] + (f"({','.join(extras)})" if extras and record["label"] == record["type"] else "")
        key = (f"P{owner} " if owner is not None else "") + name
        groups[key] = groups.get(key, 0) + 1
    return ", ".join(k if n == 1 else f"{k}×{n}" for k, n in groups.items())


def render(game, viewer: int | None = None) -> str:
    state = game.state
    lines = [f"{game.model.title} — {game.players} players, move {game.move_count}"
             + (" (over)" if game.is_over else f", to move: {', '.join(f'P{p}' for p in game.to_move)}")]
    if state.vars:
        row = _visible_vars(game, state.vars, None, viewer)
        lines.append("  " + "  ".join(f"{k}={_short(v)}" for k, v in row.items()))
    for p, row in enumerate(state.pvars):
        row = _visible_vars(game, row, p, viewer)
        lines.append(f"  P{p}: " + "  ".join(f"{k}={_short(v)}" for k, v in row.items()))
    for fam in game.model.zones.values():
        for index, key in fam.keys.items():
            ids = state.zones.get(key)
            if not ids:
                continue
            if _visible(fam, index, viewer):
                lines.append(f"  {key}: {_describe_group(state, ids)}")
            else:
                shown = [i for i in ids if i in state.revealed]
                text = f"  {key}: {len(ids)} hidden"
                if shown:
                    text += f"; revealed: {_describe_group(state, shown)}"
                lines.append(text)
    return "\n".join(lines)


def _short(v) -> str:
    if v is True or v is False:
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, list):
        return "[" + ", ".join(_short(x) for x in v) + "]"
    return str(v)
