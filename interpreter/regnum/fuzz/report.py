"""What a fuzz run reports: its failures and its rule coverage (the `--json` of `regnum fuzz`).

DESIGN §4 fixes the core of the JSON — {"ruleset", "games", "failures": [{"kind", "message",
"log"}], "coverage": [{"rule", "location", "hits"}]} — and the rest adds to it.
"""
from __future__ import annotations

from pydantic import BaseModel, Field


class FuzzFailure(BaseModel):
    kind: str = Field(description="what failed (docs/fuzzing.md lists the kinds)")
    check: str | None = Field(description="the invariant, error code or check that failed")
    message: str
    log: str | None = Field(description="the saved log of the shrunk game; `regnum replay` reproduces it")
    seed: int
    players: int = Field(description="seats of the shrunk game")
    policy: str
    moves: int = Field(description="moves of the shrunk game, the failing one included")
    found_after: int = Field(description="moves of the game as the fuzzer first met the failure")
    last_rule: str | None = Field(description="the action of the last move and where it is written, "
                                              "with the rules it set off")
    reproduced: bool = Field(description="`regnum replay` of the saved log meets the same failure")
    shrunk: bool = Field(description="false when the failing game could not be shrunk (kept as found)")
    others: int = Field(0, description="further games that failed the same way (not shrunk)")


class CoverageRow(BaseModel):
    kind: str
    rule: str
    location: str
    hits: int


class FuzzReport(BaseModel):
    ruleset: str
    games: int = Field(description="games played (fewer than asked when --time ran out)")
    steps: int = Field(description="checked steps over all games")
    seconds: float
    steps_per_second: float
    players: list[int]
    policies: dict[str, int] = Field(description="games played per policy")
    failures: list[FuzzFailure]
    coverage: list[CoverageRow]

    @property
    def unreached(self) -> list[CoverageRow]:
        return [row for row in self.coverage if row.hits == 0]


def hit_key(kind: str, name: str) -> str:
    """The name a rule is counted under in `game.hits`."""
    return name if name.startswith(kind + ":") else f"{kind}:{name}"


def coverage(rules, hits: dict[str, int]) -> list[CoverageRow]:
    """Every rule the ruleset declares, in the order written, with how often it fired. A rule
    of an imported stdlib module is listed only when the games reached it: a module offers
    more rules than a ruleset uses, and those it does not use are not the ruleset's."""
    rows = []
    for kind, name, location in rules.rules:
        count = hits.get(hit_key(kind, name), 0)
        if count or not location.startswith(STDLIB):
            rows.append(CoverageRow(kind=kind, rule=name.removeprefix(kind + ":"), location=location, hits=count))
    return rows


STDLIB = "stdlib/"   # how locations in the stdlib's modules are written (program.load_module)
