"""``regnum diff``: what a variant changes in its base, declaration by declaration.

The comparison is variantdiff's; this module loads the two rulesets the usual way (a load or
check failure is the usual error, exit 1) and prints the changes for people or as JSON.
"""
from __future__ import annotations

import json

import click
from rich.text import Text

from ..source import SourceRegistry, Span
from ..terminal import safe
from ..variantdiff import Change, Diff, diff_programs
from .common import limit_flag, load_ruleset, make_console, rules_path_flag

STYLES = {"replaced": "yellow", "removed": "red", "added": "green"}
SOURCE_WIDTH = 72   # a quoted source line longer than this is cut with "…"


def location(span: Span | None) -> dict | None:
    """A source location in JSON: {"file", "line", "column"}."""
    if span is None:
        return None
    return {"file": span.file, "line": span.line, "column": span.column}


def _described(rules, path) -> dict:
    program = rules.program
    return {"path": program.path or str(path), "game": program.name, "variant": program.variant}


def diff_json(base: dict, variant: dict, diff: Diff) -> dict:
    changes = [{"kind": c.kind, "name": c.name, "change": c.change, "identical": c.identical,
                "base": location(c.base), "variant": location(c.variant)} for c in diff.changes]
    return {"base": base, "variant": variant, "changes": changes, "unchanged": diff.unchanged}


@click.command("diff")
@click.argument("base", metavar="BASE")
@click.argument("variant", metavar="VARIANT")
@limit_flag
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with every change.")
@rules_path_flag
def diff_command(base: str, variant: str, as_json: bool) -> None:
    """Show what VARIANT changes in BASE, declaration by declaration.

    BASE and VARIANT are rulesets (paths or bundled names), typically a game and a variant of
    it; a variant's chain of bases is resolved first. Lists every declaration (rule, action,
    const, invariant, phase, players, flow…) the variant replaced, removed or added, with the
    base's location and the variant's (for a removal, its `remove` line), then how many are
    unchanged. A replacement identical to the base (the same syntax, however laid out) is
    marked "(identical to the base's)". Exits 1 if either ruleset does not load.

    With --json prints {"base": {"path", "game", "variant"}, "variant": {…}, "changes":
    [{"kind", "name", "change": "replaced"|"removed"|"added", "identical", "base": {"file",
    "line", "column"} or null, "variant": {…} or null}], "unchanged": N}.

    \b
    Example:
      regnum diff kings_road permanent_nobles
      regnum diff kings_road rulesets/variants/permanent_nobles.rules --json
    """
    base_path, base_rules = load_ruleset(base)
    variant_path, variant_rules = load_ruleset(variant)
    diff = diff_programs(base_rules.program, variant_rules.program)
    base_info, variant_info = _described(base_rules, base_path), _described(variant_rules, variant_path)
    if as_json:
        click.echo(json.dumps(diff_json(base_info, variant_info, diff)))
        return
    _print(base_info, variant_info, diff)


def _title(info: dict) -> str:
    what = f"variant {info['variant']} of {info['game']}" if info["variant"] else info["game"]
    return safe(f"{info['path']} ({what})")


def _print(base: dict, variant: dict, diff: Diff) -> None:
    console = make_console()
    console.print(Text.assemble(("base:    ", "bold"), _title(base)), soft_wrap=True)
    console.print(Text.assemble(("variant: ", "bold"), _title(variant)), soft_wrap=True)
    width = max((len(str(span)) for c in diff.changes for span in (c.base, c.variant) if span), default=0)
    for change in diff.changes:
        console.print()
        console.print(_heading(change), soft_wrap=True)
        for label, span in (("base", change.base), ("variant", change.variant)):
            if span is not None:
                console.print(_where(label, span, width), soft_wrap=True)
    console.print()
    console.print(_summary(diff), soft_wrap=True)


def _heading(change: Change) -> Text:
    what = f"{change.kind} {change.name}" if change.name != change.kind else change.kind
    text = Text.assemble((safe(what), "bold"), " ", (change.change, STYLES[change.change]))
    if change.identical:
        text.append(" (identical to the base's)", "dim")
    return text


def _where(label: str, span: Span, width: int) -> Text:
    line = (SourceRegistry.line(span.file, span.line) or "").strip()
    if len(line) > SOURCE_WIDTH:
        line = line[:SOURCE_WIDTH - 1] + "…"
    return Text.assemble(f"  {label:<8} ", safe(str(span)).ljust(width), "  ", (safe(line), "dim"))


def _summary(diff: Diff) -> str:
    if not diff.changes:
        return f"no changes; {diff.unchanged} declarations unchanged"
    counts = [f"{sum(c.change == kind for c in diff.changes)} {kind}" for kind in STYLES
              if any(c.change == kind for c in diff.changes)]
    identical = sum(c.identical for c in diff.changes)
    if identical:
        counts[0] += f" ({identical} identical)"   # only a replacement is identical
    noun = "change" if len(diff.changes) == 1 else "changes"
    return f"{len(diff.changes)} {noun}: {', '.join(counts)}; {diff.unchanged} declarations unchanged"
