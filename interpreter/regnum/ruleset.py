"""Loading a ruleset: read, check, compile — then it can start games.

A Ruleset is immutable and shared by all its games (save `starts`, the first game of
each kind of start that draws nothing random, which later starts copy, `setups_begun`, what
the setup made before its first draw in the others, and `moves_read`, the
moves and state's parts of the last saved game read, which the next read takes); loading it runs
every stage of the pipeline once (parse → build → merge → check → compile).
"""
from __future__ import annotations

from pathlib import Path

from . import confine, loading, resources
from .build import room_to_recurse
from .check import check_program
from .compiler import codecache, compile_program
from .diagnostics import Diagnostic, RulesetError, render_all
from .engine.game import Game, game_from_dict
from .limits import DEFAULT as DEFAULT_LIMITS, Limits
from .program import load_program


class Ruleset:
    rules_path: tuple = ()   # the folders load() searched besides the file's own (confine.py)

    def __init__(self, program, model, warnings: list[Diagnostic], limits: Limits = DEFAULT_LIMITS):
        self.program = program
        self.model = model
        self.warnings = warnings
        self.limits = limits
        # The first game of each kind of start that draws nothing random (Game.start): what
        # the next games of that kind copy. Derived from the ruleset alone, as its code is.
        self.starts: dict = {}
        # For each kind of start that draws: what its setup's statements before the first
        # that may draw made (Game.start), which the next games of that kind copy and go on from.
        self.setups_begun: dict = {}
        # The moves and the state's parts of the last saved game read (engine/saved.MovesRead,
        # PartsRead), which the next text that has them again need not read again.
        self.moves_read = None

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def title(self) -> str:
        return self.model.title

    @property
    def path(self) -> str:
        return self.model.path

    @property
    def hash(self) -> str:
        return self.model.hash

    @property
    def variant(self) -> str | None:
        return self.model.variant

    @property
    def min_players(self) -> int:
        return self.model.min_players

    @property
    def max_players(self) -> int:
        return self.model.max_players

    @property
    def rules(self) -> list[tuple[str, str, str]]:
        """(kind, name, location) of every rule the coverage report counts."""
        return [(kind, name, str(span)) for kind, name, span in self.model.rules]

    @property
    def move_bound(self) -> int | None:
        """The rulebook's promise `ends within N moves` (None when the ruleset makes none):
        every game ends within N moves, which `regnum fuzz` checks; play never reads it."""
        return self.model.move_bound

    @property
    def options(self) -> dict:
        """The options a game can be created with: name -> (type, location)."""
        return {name: (spec.type, str(spec.span)) for name, spec in self.model.options.items()}

    def new_game(self, players: int, seed: int = 0, narrate: bool = True, options: dict | None = None,
                 limits: Limits | None = None, coverage: bool = True) -> Game:
        """A new game. `limits` replaces the ruleset's limits (regnum.Limits) for this game.
        `coverage=False`: the game counts no coverage (`game.hits` is None), for simulations
        that never read it; it plays exactly the same game."""
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} is for {self.min_players}–{self.max_players} players, "
                             f"not {players!r}")
        if type(seed) is not int:
            raise ValueError(f"a seed is an integer, not {seed!r}")
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"options are a dict of option names to values, not {options!r}")
        if limits is not None and not isinstance(limits, Limits):
            raise ValueError(f"limits are a regnum.Limits, not {limits!r}")
        if type(coverage) is not bool:
            raise ValueError(f"coverage is true or false, not {coverage!r}")
        return Game.start(self, players, seed, narrate, options, limits, coverage)

    def game_from_json(self, text: str | bytes | dict, check_moves: bool = True,
                       check_invariants: bool = True, *, coverage: bool = True) -> Game:
        """A game saved with `Game.to_json()` (its text, bytes or dict), checked before it is
        trusted (docs/log-format.md); raises regnum.StateError naming the field path.

        The last check replays the saved moves and requires the state they give. A position
        built by hand (regnum.testing.Scenario) is reached by no moves: load one you trust
        with check_moves=False — every other check still runs, the invariants included.
        check_invariants=False skips the invariants too, for the JSON of a game whose
        invariants were just checked (the fuzzer's round trip): the same state, checked once.
        coverage=False: the game counts no coverage (`game.hits` is None), as a game started
        with `new_game(coverage=False)`."""
        return game_from_dict(self, text, check_moves, check_invariants, coverage=coverage)

    @staticmethod
    def render_diagnostics(diagnostics: list[Diagnostic]) -> str:
        return render_all(diagnostics)

    def __repr__(self) -> str:
        return f"<Ruleset {self.name} from {self.path}>"


def load(path_or_name: str | Path, limits: Limits | None = None,
         rules_path: "list[str | Path] | None" = None) -> Ruleset:
    """Load, check and compile a ruleset; raises RulesetError with every diagnostic.

    `limits` (regnum.Limits) bounds the work of reading it and of every game it starts.
    `rules_path` lists folders where a variant's base and a data file may also be found (the
    folders of REGNUM_RULES_PATH are added); nothing outside them, the file's own folder and
    the bundled rulesets is ever read (confine.py)."""
    limits = limits or DEFAULT_LIMITS
    search = confine.rules_path(rules_path)
    try:
        path = resources.find_ruleset(path_or_name, search)
    except OSError as err:   # not found, not a .rules file, a name too long…
        from .source import Span
        message = str(err) if isinstance(err, FileNotFoundError) else f"cannot read ruleset: {err.strerror or err}"
        raise RulesetError([Diagnostic("E000", "error", message, Span(str(path_or_name), 0, 0, 0, 0))]) from None
    try:
        with loading.load(codecache.opener(limits)):
            with room_to_recurse(limits):
                program = load_program(path, search=search, limits=limits)
            with room_to_recurse(limits, len(program.decls)):
                diagnostics = list(program.diagnostics) + check_program(program)
                errors = [d for d in diagnostics if d.is_error]
                if errors:
                    raise RulesetError(sorted(diagnostics, key=_order))
                model = compile_program(program, limits)
    except RecursionError:
        from .source import Span
        raise RulesetError([Diagnostic("E005", "error", "the ruleset nests expressions or blocks too "
                                       "deeply to be read", Span(str(path), 0, 0, 0, 0),
                                       "split long expressions with let or def")]) from None
    warnings = sorted((d for d in diagnostics if not d.is_error), key=_order)
    model.warnings = warnings
    ruleset = Ruleset(program, model, warnings, limits)
    ruleset.rules_path = search
    return ruleset


def _order(d: Diagnostic):
    return (d.span.file, d.span.line, d.span.column, d.code)
