"""Pass: tie-break chains name known policies, without loops, deciding ties once.

A chain is a list of key policies (`by highest EXPR`), which split tied
players apart, and at most one block policy, which says what the players
still tied receive: one of scoring.BLOCK_POLICIES or a named `tiebreak`.
"""
from __future__ import annotations

from .. import ast, scoring
from ..diagnostics import Diagnostic, did_you_mean
from ..program import Program
from .symbols import KIND_WORDS


def check_ties(program: Program) -> list[Diagnostic]:
    return _Ties(program).run()


class _Ties:
    def __init__(self, program: Program):
        self.p = program
        self.out: list[Diagnostic] = []
        self.looping: set = set()

    def run(self) -> list[Diagnostic]:
        for decl in self.p.of_kind("tiebreak"):
            self.chain(decl.chain, where=decl.name)
        for decl in self.p.of_kind("scoring"):
            self.chain(decl.ties, where=None)
        return self.out

    def chain(self, chain, where: str | None) -> None:
        contributors = []
        for policy in chain:
            if not isinstance(policy, ast.PolicyName):
                continue
            if policy.name in scoring.BLOCK_POLICIES:
                contributors.append((policy, [policy.name]))
                continue
            named = self.p.get(policy.name, "tiebreak")
            if named is None:
                self.unknown(policy)
                continue
            blocks = self.blocks(policy.name, [where] if where else [], policy)
            if blocks:
                contributors.append((policy, blocks))
        if len(contributors) > 1:
            names = [b for _, blocks in contributors for b in blocks]
            policy = contributors[1][0]
            self.out.append(Diagnostic("W405", "warning", f"this chain has more than one block policy "
                                       f"({', '.join(names)}): only the last, '{names[-1]}', decides",
                                       policy.span, "keep one block policy; break ties before it with "
                                       "'by highest EXPR' or 'by lowest EXPR'"))

    def unknown(self, policy) -> None:
        candidates = list(scoring.BLOCK_POLICIES) + [d.name for d in self.p.of_kind("tiebreak")]
        decl = self.p.get(policy.name)
        message = f"unknown tie-break policy '{policy.name}'" if decl is None else \
            f"'{policy.name}' is {KIND_WORDS.get(decl.kind, decl.kind)}, not a tie-break policy"
        self.out.append(Diagnostic("E112", "error", message, policy.span,
                                   did_you_mean(policy.name, candidates)
                                   or f"policies: {', '.join(candidates)}"))

    def blocks(self, name: str, path: list, at) -> list[str]:
        """The block policies a named tie-break comes to (reporting a loop once)."""
        if name in path:
            loop = path[path.index(name):] + [name]
            if frozenset(loop) not in self.looping:
                self.looping.add(frozenset(loop))
                self.out.append(Diagnostic("E309", "error", f"tie-break '{name}' refers to itself: "
                                           f"{' → '.join(loop)}", at.span,
                                           "a tie-break chain must end in block or key policies"))
            return []
        out: list[str] = []
        for policy in self.p.get(name, "tiebreak").chain:
            if not isinstance(policy, ast.PolicyName):
                continue
            if policy.name in scoring.BLOCK_POLICIES:
                out.append(policy.name)
            elif self.p.get(policy.name, "tiebreak") is not None:
                out.extend(self.blocks(policy.name, path + [name], policy))
        return out
