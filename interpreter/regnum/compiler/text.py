"""How values read in texts: seats as P0, pieces by their label, lists in brackets.

Shared by `announce`, `text(…)`, action labels and the terminal view.
"""
from __future__ import annotations


def format_value(value, kind, ctx) -> str:
    if value is None:
        return "none"
    if value is True or value is False:
        return "true" if value else "false"
    if kind == "player" and isinstance(value, int):
        return f"P{value}"
    if kind == "piece" and isinstance(value, int):
        return str(ctx.state.pieces[value].get("label"))
    if isinstance(value, list):
        item = {"players": "player", "pieces": "piece", "zone": "piece"}.get(kind)
        return "[" + ", ".join(format_value(v, item, ctx) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {format_value(v, None, ctx)}" for k, v in value.items()) + "}"
    return str(value)


def said(ctx, text: str) -> str:
    """An announcement's text, counted against the step limit by its length (a loop cannot
    narrate gigabytes) and within the size limit of one value."""
    ctx.charge(len(text))
    return ctx.fit(text)


def text_of(ctx, value, kind) -> str:
    """`text(x)`: its length is work done, as for any value a builtin builds."""
    out = format_value(value, kind, ctx)
    if ctx is not None:
        ctx.charge(len(out))
        ctx.fit(out)
    return out
