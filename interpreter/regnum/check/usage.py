"""Pass: declarations and imports nothing uses (warnings).

A name counts as used when anything other than its own declaration names
it. Names that came from a stdlib import are never reported one by one; an
import none of whose names is used is. Phases (see flow.py), triggers and
invariants act by themselves, and statistics are read by `regnum compare`: none is reported here.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic, did_you_mean
from ..program import Program
from .analysis import analyse
from .symbols import token_span

REPORTED_KINDS = ("const", "def", "rule", "scoring", "tiebreak", "enum", "zone", "var", "piece", "action",
                  "board")
_WHAT = {
    "rule": "rule '{}' is never run",
    "scoring": "scoring '{}' is never applied",
    "action": "action '{}' is never offered to a player",
    "tiebreak": "tie-break '{}' is never used",
}


def check_usage(program: Program) -> list[Diagnostic]:
    refs = analyse(program).facts.refs
    own = {name: f"{decl.kind}:{name}" for name, decl in program.decls.items()}
    used = {name for origin, name in refs if origin != own.get(name)}
    out = []
    for name, decl in program.decls.items():
        if decl.kind not in REPORTED_KINDS or name in program.imported or name in used:
            continue
        text = _WHAT.get(decl.kind, decl.kind + " '{}' is never used").format(name)
        out.append(Diagnostic("W401", "warning", text, token_span(decl.span, name, before=decl.kind),
                              _hint(program, name)))
    out += _imports(program, refs)
    return out


def _hint(program: Program, name: str) -> str:
    """A variant replaces a declaration of its base by its name alone: an added declaration
    nothing uses, named like one of the base, is most likely a replacement misspelt."""
    base_names = program.variant_added.get(name)
    if base_names:
        close = did_you_mean(name, base_names)
        if close:
            return (f"the base has no '{name}', so the variant adds it; a declaration replaces the "
                    f"base's only under the same name — {close}")
    return "remove it, or use it"


def _imports(program: Program, refs: set) -> list[Diagnostic]:
    from_user = {name for origin, name in refs if origin.partition(":")[2] not in program.imported}
    out = []
    for decl, _ in program.imports:
        for module, span in decl.modules:
            names = [n for n in program.imported
                     if n in program.decls and program.decls[n].span.file == f"stdlib/{module}.rules"]
            if not names:
                continue
            if any(program.decls[n].kind == "invariant" for n in names) or from_user & set(names):
                continue
            out.append(Diagnostic("W403", "warning", f"nothing from stdlib module '{module}' is used", span,
                                  f"it offers {', '.join(sorted(names))}; remove the import if none is needed"))
    return out
