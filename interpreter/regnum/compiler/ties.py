"""Names of tie-break policies for coverage: which policy broke a tie, and where it is written.

A policy is named after its owner — the scoring whose `ties` chain states it, or
the named `tiebreak` that holds it — and its own text: `most.by highest bonus(p)`,
`shared_places.share_rank`. A scoring that names a `tiebreak` uses that
tiebreak's policies, so they are counted under the tiebreak's name, once for
every scoring that uses it.
"""
from __future__ import annotations

from .. import ast, scoring
from ..source import SourceRegistry


def label(policy) -> str:
    """The policy as written: a block policy or tiebreak by name, a key policy as `by ORDER EXPR`."""
    if isinstance(policy, ast.PolicyName):
        return policy.name
    if policy.seats is not None:
        return f"by nearest {policy.seats} after {_text(policy.key.span) or 'seat'}"
    return f"by {policy.order} {_text(policy.key.span) or 'key'}"


def _text(span) -> str:
    """The source text of a span, its whitespace (and line breaks) collapsed to single spaces."""
    lines = SourceRegistry.lines(span.file)
    if lines is None or not 1 <= span.line <= span.end_line <= len(lines):
        return ""
    if span.line == span.end_line:
        part = lines[span.line - 1][span.column - 1:span.end_column - 1]
    else:
        part = "\n".join([lines[span.line - 1][span.column - 1:]] + lines[span.line:span.end_line - 1]
                         + [lines[span.end_line - 1][:span.end_column - 1]])
    return " ".join(part.split())


def is_named(policy, program) -> bool:
    """Whether a policy of a chain refers to a named `tiebreak` (rather than being a policy itself)."""
    return (isinstance(policy, ast.PolicyName) and policy.name not in scoring.BLOCK_POLICIES
            and program.get(policy.name, "tiebreak") is not None)


def rules(program) -> list[tuple]:
    """("tiebreak", OWNER.POLICY, span) of every policy a scoring uses, directly or through
    named tiebreaks (each once, in the order the scorings reach them); a tiebreak no scoring
    uses is not listed (the stdlib offers several, and a ruleset uses one or two)."""
    out: dict = {}
    seen: set = set()

    def chain(owner: str, policies) -> None:
        for policy in policies:
            if is_named(policy, program):
                if policy.name not in seen:
                    seen.add(policy.name)
                    chain(policy.name, program.get(policy.name, "tiebreak").chain)
            else:
                out.setdefault(f"{owner}.{label(policy)}", policy.span)

    for decl in program.of_kind("scoring"):
        chain(decl.name, decl.ties)
    return [("tiebreak", name, span) for name, span in out.items()]
