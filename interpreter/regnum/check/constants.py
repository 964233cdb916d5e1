"""Pass: values computed before the game starts use only what exists by then.

Constants, piece field defaults and board settings are computed once, when
the ruleset is compiled: they may use other constants, enum members, board
nodes and definitions, never the players, variables or zones. Variables are
set when a game starts, in declaration order and before the zones exist.
Constants must not depend on themselves.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Diagnostic
from ..program import Program
from .walk import free_names


@dataclass(frozen=True)
class _Stage:
    what: str                 # "constant 'x'", for messages
    players: bool = False     # `players` exists
    player: bool = False      # `player` exists (a per-player variable's start value)
    variables: frozenset = frozenset()  # global variables already set


def check_constants(program: Program) -> list[Diagnostic]:
    return _Constants(program).run()


class _Constants:
    def __init__(self, program: Program):
        self.p = program
        self.out: list[Diagnostic] = []
        self._def_memo: dict = {}

    def run(self) -> list[Diagnostic]:
        p = self.p
        for decl in p.of_kind("const"):
            self.expr(decl.value, _Stage(f"constant '{decl.name}'"))
        for decl in p.of_kind("piece"):
            for f in decl.fields:
                if f.default is not None:
                    self.expr(f.default, _Stage(f"the default of field '{f.name}'"))
        for decl in p.of_kind("board"):
            for name, _, value in decl.settings:
                self.expr(value, _Stage(f"setting '{name}' of board '{decl.name}'"))
        for decl in p.of_kind("option"):
            self.expr(decl.default, _Stage(f"the default of option '{decl.name}'", players=True))
            options = frozenset(d.name for d in p.of_kind("option"))
            for clause in decl.requires:
                self.expr(clause.cond, _Stage(f"the rule '{clause.name}' of option '{decl.name}'", players=True,
                                              variables=options))
        ends = p.singletons.get("ends")
        if ends is not None:
            self.expr(ends.limit, _Stage("the move bound of 'ends within'"))
        set_before: set = set()
        for decl in p.of_kind("var"):
            if decl.index is None:
                self.expr(decl.init, _Stage(f"the start value of '{decl.name}'", players=True,
                                            variables=frozenset(set_before)))
                set_before.add(decl.name)
        globals_ = frozenset(d.name for d in p.of_kind("var") if d.index is None)
        for decl in p.of_kind("var"):
            if decl.per_index:
                self.expr(decl.init, _Stage(f"the start value of '{decl.name}'", players=True,
                                            variables=globals_))
        for decl in p.of_kind("var"):
            if decl.per_player:
                self.expr(decl.init, _Stage(f"the start value of '{decl.name}'", players=True, player=True,
                                            variables=globals_))
        self.cycles()
        return self.out

    # ── what a value may use ──
    def expr(self, node, stage: _Stage) -> None:
        for name, span, is_call in free_names(node):
            found = self.offence(name, is_call, stage, frozenset())
            if found is not None:
                reason, via = found
                through = f" (through '{via}')" if via and via != name else ""
                self.out.append(Diagnostic("E307", "error", f"{stage.what} is computed {self.moment(stage)}, "
                                           f"so it cannot use {reason}{through}", span, self.hint(stage)))

    @staticmethod
    def moment(stage: _Stage) -> str:
        if not stage.players:
            return "before the game starts"
        return "as the game starts, before any zone or per-player variable exists"

    @staticmethod
    def hint(stage: _Stage) -> str:
        if not stage.players:
            return "compute it in the setup, or make it a variable or a def"
        return "give it a plain start value and set it in the setup"

    def offence(self, name: str, is_call: bool, stage: _Stage, seen: frozenset):
        """(reason, def it comes through) when `name` cannot be used at this stage, else None."""
        p = self.p
        decl = p.get(name)
        if is_call:
            if decl is not None and decl.kind == "zone":
                return f"the zone '{name}'", None
            if decl is not None and decl.kind == "var" and decl.per_player:
                return f"the per-player variable '{name}'", None
            if decl is not None and decl.kind == "var" and decl.per_index:
                return f"the variable '{name}'", None
            if decl is None and name == "score":
                return "the scores", None
        else:
            if p.get(name, "const") is not None or name in p.enum_members or name in p.board_nodes:
                return None
            if name == "players":
                return None if stage.players else ("the players", None)
            if name == "player" or decl is None:
                return None
            if decl.kind == "option" and not stage.players:
                return f"the option '{name}' (it is chosen when a game is created)", None
            if decl.kind == "var" and decl.index is None and name not in stage.variables:
                later = " (it is set later)" if stage.players else ""
                return f"the variable '{name}'{later}", None
            if decl.kind == "zone":
                return f"the zone '{name}'", None
        if decl is not None and decl.kind == "def" and name not in seen:
            found = self.def_offence(decl, stage, seen | {name})
            if found is not None:
                return found[0], name
        return None

    def def_offence(self, decl, stage: _Stage, seen: frozenset):
        key = (decl.name, stage.players, stage.player, stage.variables)
        if key not in self._def_memo:
            self._def_memo[key] = None
            for name, _, is_call in free_names(decl.body, frozenset(decl.params)):
                found = self.offence(name, is_call, stage, seen)
                if found is not None:
                    self._def_memo[key] = found
                    break
        return self._def_memo[key]

    # ── constants that depend on themselves ──
    def cycles(self) -> None:
        p = self.p
        edges = {d.name: list(self.const_refs(d.value, frozenset(), set())) for d in p.of_kind("const")}
        done: set = set()
        for start in edges:
            path = self.find_cycle(start, edges, [start], done)
            done.add(start)
            if path is None:
                continue
            first_ref = next(span for name, span in edges[start] if name == path[1])
            chain = " → ".join(path)
            self.out.append(Diagnostic("E308", "error", f"constant '{start}' depends on itself: {chain}",
                                       first_ref, "a constant must be computable from the others in some order"))
            done.update(path)

    def find_cycle(self, name: str, edges: dict, path: list, done: set):
        for target, _ in edges.get(name, ()):
            if target == path[0]:
                return path + [target]
            if target in path or target in done:
                continue
            found = self.find_cycle(target, edges, path + [target], done)
            if found:
                return found
        return None

    def const_refs(self, node, bound: frozenset, defs_seen: set):
        """(constant, span) pairs a value depends on, directly or through definitions."""
        p = self.p
        for name, span, is_call in free_names(node, bound):
            if not is_call and p.get(name, "const") is not None:
                yield name, span
                continue
            decl = p.get(name, "def")
            if decl is not None and name not in defs_seen:
                defs_seen.add(name)
                for const, _ in self.const_refs(decl.body, frozenset(decl.params), defs_seen):
                    yield const, span
