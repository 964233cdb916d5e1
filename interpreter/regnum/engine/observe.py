"""What a seat may see: observations (JSON); render.py draws the same view for people.

Zones declared `owner` show their pieces only to the seat that owns them,
`hidden` zones to nobody, and `top` zones only their top (last) piece; others
see how many pieces they hold. Pieces named by a `reveal` are shown everywhere,
in the order they were revealed. Pending simultaneous choices stay secret.
"""
from __future__ import annotations

from ..documents import all_plain


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
    return (_visible(fam, fam.index_of.get(key), viewer) or piece in state.revealed
            or (fam.visibility == "top" and state.zones[key][-1] == piece))


def shown(state, key: str, ids: list) -> list[int]:
    """The pieces of a zone its viewer cannot see that are shown all the same: those revealed,
    in the order they were revealed (never the zone's order, which may tell how they came)."""
    if not state.revealed:
        return []
    return [i for i in state.revealed if state.where[i] == key]


def _piece(state, piece: int) -> dict:
    record = state.pieces[piece].copy()
    record["id"] = piece
    return record


def _pieces(pieces: list, ids) -> list[dict]:
    """`_piece` of each of `ids`, in one call a zone: a board has hundreds of zones."""
    records = []
    for i in ids:
        record = pieces[i].copy()
        record["id"] = i
        records.append(record)
    return records


def observation(game, viewer: int | None) -> dict:
    state = game.state
    held, pieces = state.zones, state.pieces
    zones = {}
    for fam in game.model.zones.values():
        public = fam.visibility == "public"   # every zone seen: not judged one by one (a board's hundreds)
        for index, key in fam.items(state):
            ids = held.get(key)
            if ids is None:
                continue
            if public or _visible(fam, index, viewer):
                zones[key] = _pieces(pieces, ids) if ids else []   # most of a board's zones are empty
            else:
                zones[key] = {"count": len(ids), "revealed": _pieces(pieces, shown(state, key, ids))}
                if fam.visibility == "top":
                    zones[key]["top"] = _piece(state, ids[-1]) if ids else None
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
    """`value` as plain JSON values: zone references as texts, maps and lists copied. A map or
    list of plain items (a table's value per cell) is copied whole, its types looked at in C."""
    if isinstance(value, dict):
        if all_plain(value.values()):
            return dict(value)
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        if all_plain(value):
            return list(value)
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value
