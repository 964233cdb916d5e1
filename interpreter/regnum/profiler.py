"""Where random games of a ruleset spend their CPU time, told by the ruleset's own declarations
and lines (`regnum bench --profile`).

`regnum bench` says how fast a ruleset plays. An author who wants it faster needs to know
which of its declarations the time goes to — the listing of an action's moves, a rule, a def,
a scoring, the flow — named as the ruleset names them, with the line to read. A profiler of
Python (cProfile, py-spy) answers in the engine's terms: generated functions, the VM's
loop, helpers. This one answers in the ruleset's.

It samples: a timer of the process's CPU time (SIGPROF) interrupts the games `rate` times a
second, and each sample goes to the innermost code of the ruleset on the stack when it came:

- a procedure, rule or action compiled to a Python function (`<regnum native …>`): the line
  of the statement it was running (the compiler's map of each generated line to the
  statement it was written from, `Model.native_spans`, the one that locates its faults);
- the VM (`run_stack`): the statement of the frame it was running (`Code.spans`);
- an action's listing: the line of the require it was judging; else the line of the
  parameter whose domain it was computing or whose choices it was going through, that part
  named ("the domain of at", "the loop over at"), so that parameters sharing a line are told
  apart; else the action's line. The lister's lines are tagged so in the code it compiles
  (its `line_spans` and `part_spans`, `compiler.listers.tagged_lines`);
- a prefer, a def that was not written into its caller, a scoring: that declaration's line.

A sample also counts once towards every declaration on the stack — the frames the VM holds
and the generated functions — which gives each declaration's share with what it calls. A
sample under no code of the ruleset is the engine's own bookkeeping (the move's journal, the
flow's position, the random policy). Sampling costs the games little and does not distort
them call by call, as a profiler that times every call would do to the many small calls of
generated code; its shares are estimates, closer as the samples grow (1,000 samples: about
±2.7 points on a share of 25 %, two standard errors).
"""
from __future__ import annotations

import signal
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType

from pydantic import BaseModel

from .resources import ruleset_label
from .source import SourceRegistry, Span

__all__ = ["DeclarationShare", "LineShare", "Profile", "ProfileUnavailable", "profile_games"]


class ProfileUnavailable(RuntimeError):
    """This process cannot sample itself: no CPU-time timer (SIGPROF) on this platform, or a
    call from another thread than the main one (only it receives signals)."""


class DeclarationShare(BaseModel):
    """A declaration of the ruleset and its share of the samples: `self` where its own code
    was running, `total` with everything it called (each sample counted once)."""

    declaration: str        # as a reader names it: "listing the moves of take", "rule score"
    kind: str               # listing, action, rule, def, prefer, scoring, trigger, phase, flow, setup, …
    name: str
    location: str           # file:line of the declaration
    self_samples: int
    self_share: float       # of every sample taken during the games, 0–1
    total_samples: int
    total_share: float


class LineShare(BaseModel):
    """A line of the ruleset and the samples taken while it ran (its own code, not what it
    called); a listing's line once for each part of it that ran (`part`)."""

    location: str           # file:line
    file: str
    line: int
    declaration: str        # the declaration it belongs to, as DeclarationShare names it
    part: str | None = None   # of a listing, what of a parameter: "the domain of at", "the loop over at"
    text: str               # the line as the file holds it, without its indentation
    samples: int
    share: float


class Profile(BaseModel):
    """What `profile_games` measured: the games, the samples, and their shares."""

    ruleset: str            # a variant by its own name, a game by its game name (as `regnum bench` names them)
    players: int
    seed: int
    games: int
    moves: int
    coverage: bool
    rate: int               # samples a second of CPU time asked for
    cpu_seconds: float      # CPU time of the games, sampling included
    samples: int
    engine_samples: int     # under no code of the ruleset: the engine's own bookkeeping
    engine_share: float
    declarations: list[DeclarationShare]   # by self share, largest first
    lines: list[LineShare]                 # by share, largest first


# ── telling a sample's frames apart ─────────────────────────────────────────

_VM = "vm"   # the VM's loop: the statement it runs is its frame's


@dataclass(frozen=True)
class _Known:
    """What a code object of the ruleset is: the declaration it belongs to and, for a native
    procedure or a lister, the statements (the requires) its lines were written from."""

    key: tuple                          # (kind, name)
    span: Span                          # the declaration's
    lines: dict | None = None           # generated line -> the statement's span
    parts: dict | None = None           # a lister's other lines -> (the parameter's span, the part)


@dataclass
class _Attribution:
    """Gives each sample (a Python frame and those it was called from) to the ruleset's code."""

    model: object
    program: object
    spans: dict = field(default_factory=dict)     # (kind, name) -> the declaration's span
    codes: dict = field(default_factory=dict)     # code object -> _Known, _VM or None

    def __post_init__(self):
        from .engine.runtime import run_stack
        self.codes[run_stack.__code__] = _VM

    # The declarations by their kind and name, and where each is written.
    def declaration(self, kind: str, name: str) -> tuple[tuple, Span]:
        key = (kind, name)
        span = self.spans.get(key)
        if span is None:
            span = self.spans[key] = self._span(kind, name)
        return key, span

    def _span(self, kind: str, name: str) -> Span:
        model = self.model
        if kind in ("listing", "action"):
            action = model.actions.get(name)
            if action is not None:
                return action.span
        if kind == "prefer":
            action_name, _, clause = name.partition(".")
            action = model.actions.get(action_name)
            for prefer in (action.prefers if action is not None else ()):
                if prefer.name == clause:
                    return prefer.span
        if kind in ("flow", "setup"):
            code = model.codes.get(kind)
            if code is not None:
                return code.span
        decl = self.program.decls.get(name) if self.program is not None else None
        if decl is not None:
            return decl.span
        code = model.codes.get(f"{kind}:{name}")
        return code.span if code is not None else Span(model.path, 0, 0, 0, 0)

    def of_code(self, code: CodeType):
        """What `code` is (cached): _VM, a _Known, or None — code of no ruleset, or generated
        code that belongs to the statement running it (an expression, an instruction)."""
        known = self.codes.get(code, False)
        if known is False:
            known = self.codes[code] = self._classify(code)
        return known

    def _classify(self, code: CodeType):
        filename = code.co_filename
        if not filename.startswith("<regnum "):
            return None
        what = filename[len("<regnum "):-1]
        lines = self.model.native_spans.get(filename)
        if lines is not None:   # <regnum native _n3_score>: a procedure, rule or action
            name = what.removeprefix("native ").partition("_")[2].partition("_")[2] or what
            kind = self._kind_of(name)
            key, span = self.declaration(kind, name)
            return _Known(key, span, lines)
        head, _, rest = what.partition(" ")
        if head == "moves":   # <regnum moves X>, <regnum moves preferred X>: at the line of a require
            name = rest.removeprefix("preferred ")
            key, span = self.declaration("listing", name)
            lister = self._lister(name, code)
            if lister is None:
                return _Known(key, span)
            return _Known(key, span, getattr(lister, "line_spans", None), getattr(lister, "part_spans", None))
        elif head == "prefer":   # <regnum prefer X.Y>, <regnum prefer X.Y by group>
            key, span = self.declaration("prefer", rest.removesuffix(" by group"))
        elif head == "def" or what.startswith("kept def "):
            key, span = self.declaration("def", what.rpartition(" ")[2])
        elif head == "scoring":   # one file for every scoring: _score2_majority
            outer = code.co_qualname.partition(".")[0]
            name = outer.partition("_")[2].partition("_")[2]
            if not name:
                return None
            key, span = self.declaration("scoring", name)
        else:
            return None
        return _Known(key, span)

    def _lister(self, name: str, code: CodeType):
        """Action `name`'s lister (or its lister that judges a prefer too) that `code` belongs
        to, whose lines are tagged (its `line_spans` and `part_spans`, listers.tagged_lines); or None."""
        action = self.model.actions.get(name)
        for lister in (getattr(action, "lister", None), getattr(action, "preferring", None)):
            if getattr(lister, "line_spans", None) is not None and code in _nested(lister.__code__):
                return lister
        return None

    def _kind_of(self, name: str) -> str:
        """The kind a native procedure's declaration is of (rule, action, phase, …)."""
        for kind in ("action", "rule", "phase", "trigger"):
            if f"{kind}:{name}" in self.model.codes:
                return kind
        decl = self.program.decls.get(name) if self.program is not None else None
        return getattr(decl, "kind", "rule")

    def vm_declaration(self, code_name: str) -> tuple[tuple, Span] | None:
        """The declaration a VM frame's code belongs to: `action:take` -> action take; a
        specialised copy counts as its rule, as coverage counts it (Code.cover)."""
        code = self.model.codes.get(code_name)
        if code is None:
            return None
        cover = (code.cover or code_name).partition("/")[0]   # a block of a step: its declaration's
        kind, _, name = cover.partition(":")
        if not name:
            kind, name = code.kind, cover
        return self.declaration(kind, name)

    def sample(self, frame) -> tuple:
        """(the declaration, (file, line, part), every declaration on the stack) of one
        sample: None, None, () when no code of the ruleset is on the stack. The part is None
        but for a listing's line that computes a parameter's domain or goes through its loop."""
        own = line = part = None
        within: list = []
        codes = self.model.codes
        while frame is not None:
            known = self.of_code(frame.f_code)
            if known is _VM:
                local = frame.f_locals
                stack = local.get("stack") or ()
                top, pc = local.get("frame"), local.get("pc")
                if own is None and type(top) is list and top:
                    found = self.vm_declaration(top[0])
                    code = codes.get(top[0])
                    if found is not None:
                        own = found[0]
                        within.append(own)   # also when it has just left the stack (a return)
                        spans = code.spans
                        line = spans[pc] if type(pc) is int and 0 <= pc < len(spans) else found[1]
                # A thread of a simultaneous step runs within the main stack's step.
                ctx = local.get("ctx")
                flow = getattr(getattr(ctx, "state", None), "flow", None)
                main = flow.get("main") if type(flow) is dict else None
                for frames in (stack, main if type(main) is list and main is not stack else ()):
                    for vm_frame in frames:
                        if type(vm_frame) is list and vm_frame:
                            found = self.vm_declaration(vm_frame[0])
                            if found is not None:
                                within.append(found[0])
            elif known is not None:
                if own is None:
                    own = known.key
                    line = known.lines.get(frame.f_lineno) if known.lines is not None else None
                    if line is None and known.parts is not None:
                        line, part = known.parts.get(frame.f_lineno, (None, None))
                    if line is None:
                        line = known.span
                within.append(known.key)
            frame = frame.f_back
        if own is None:
            return None, None, ()
        return own, (line.file, line.line, part), tuple(dict.fromkeys(within))


def _nested(code: CodeType) -> set:
    """`code` and the code of every function and comprehension written inside it."""
    out, todo = set(), [code]
    while todo:
        one = todo.pop()
        out.add(one)
        todo += [const for const in one.co_consts if isinstance(const, CodeType)]
    return out


# ── sampling ────────────────────────────────────────────────────────────────

class _Sampler:
    """Within: SIGPROF every 1/rate s of the process's CPU time, each sample given to the
    attribution and counted. The handler and the timer found are put back on leaving."""

    def __init__(self, attribution: _Attribution, rate: int):
        self.attribution = attribution
        self.interval = 1.0 / rate
        self.counts: Counter = Counter()
        self._previous = None

    def __enter__(self):
        if not hasattr(signal, "SIGPROF") or not hasattr(signal, "setitimer"):
            raise ProfileUnavailable("profiling needs a timer of the process's CPU time (SIGPROF), "
                                     "which this platform does not have")
        if threading.current_thread() is not threading.main_thread():
            raise ProfileUnavailable("profiling samples through a signal, which only the main thread receives")
        self._previous = signal.signal(signal.SIGPROF, self._handler)
        self._timer = signal.setitimer(signal.ITIMER_PROF, self.interval, self.interval)
        return self

    def __exit__(self, *exc) -> None:
        signal.setitimer(signal.ITIMER_PROF, *self._timer)
        signal.signal(signal.SIGPROF, self._previous)

    def _handler(self, _signum, frame) -> None:
        try:
            found = self.attribution.sample(frame)
        except Exception:   # never into the game it interrupted: the sample goes unattributed
            found = (None, None, ())
        self.counts[found] += 1


def profile_games(rules, players: int, games: int | None = None, seconds: float = 2.0, seed: int = 0,
                  coverage: bool = False, rate: int = 1000, max_moves: int = 10_000,
                  on_game=None) -> Profile:
    """Play random games of `rules` (as `regnum simulate` and `regnum bench` play them: one
    seeded random bot a seat) and sample where their CPU time goes. `games` games, seeds `seed`
    on; without it, games until `seconds` of CPU time are spent. One game is played first
    without sampling, so that the code generated at first use is compiled outside the figures.
    `coverage`: count coverage as `regnum fuzz` plays. `on_game(games, cpu_seconds)` is called
    after each game (a progress bar)."""
    from .agents import play_random_game
    attribution = _Attribution(rules.model, getattr(rules, "program", None))
    play_random_game(rules, players, seed, max_moves, coverage=coverage)   # the warm-up
    played = moves = 0
    start = time.process_time()
    with _Sampler(attribution, rate) as sampler:
        while games is None or played < games:
            game = play_random_game(rules, players, seed + played, max_moves, coverage=coverage)
            played += 1
            moves += game.move_count
            spent = time.process_time() - start
            if on_game is not None:
                on_game(played, spent)
            if games is None and spent >= seconds:
                break
    cpu = time.process_time() - start
    return _report(rules, attribution, sampler.counts, players, seed, played, moves, coverage, rate, cpu)


def _report(rules, attribution: _Attribution, counts: Counter, players: int, seed: int, games: int,
            moves: int, coverage: bool, rate: int, cpu: float) -> Profile:
    total = sum(counts.values())
    own: Counter = Counter()
    inclusive: Counter = Counter()
    lines: Counter = Counter()
    line_owner: dict = {}
    engine = 0
    for (key, line, within), n in counts.items():
        if key is None:
            engine += n
            continue
        own[key] += n
        lines[line] += n
        line_owner.setdefault(line, Counter())[key] += n
        for declared in within:
            inclusive[declared] += n
    share = (lambda n: n / total) if total else (lambda n: 0.0)
    declarations = []
    for key in sorted(set(own) | set(inclusive), key=lambda k: (-own[k], -inclusive[k], k)):
        kind, name = key
        span = attribution.declaration(kind, name)[1]
        declarations.append(DeclarationShare(
            declaration=_named(kind, name), kind=kind, name=name, location=f"{span.file}:{span.line}",
            self_samples=own[key], self_share=share(own[key]),
            total_samples=inclusive[key], total_share=share(inclusive[key])))
    rows = []
    for (file, number, part), n in sorted(lines.items(), key=lambda item: (-item[1], _order(item[0]))):
        kind, name = line_owner[file, number, part].most_common(1)[0][0]
        text = SourceRegistry.line(file, number)
        rows.append(LineShare(location=f"{file}:{number}", file=file, line=number, declaration=_named(kind, name),
                              part=part, text=(text or "").strip(), samples=n, share=share(n)))
    return Profile(ruleset=ruleset_label(rules, Path(rules.model.path)), players=players, seed=seed, games=games, moves=moves,
                   coverage=coverage, rate=rate, cpu_seconds=cpu, samples=total, engine_samples=engine,
                   engine_share=share(engine), declarations=declarations, lines=rows)


def _order(line: tuple) -> tuple:
    """A line's place among lines of as many samples: by file and number, the whole line (no
    part) before its parts."""
    file, number, part = line
    return file, number, part or ""


_NAMED = {
    "listing": "listing the moves of {}",
    "prefer": "prefer {}",
    "flow": "the flow",
    "setup": "the setup",
}


def _named(kind: str, name: str) -> str:
    """A declaration as a reader names it."""
    form = _NAMED.get(kind)
    if form is not None:
        return form.format(name)
    return f"{kind} {name}"
