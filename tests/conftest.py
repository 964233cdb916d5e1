"""Shared fixtures: rulesets are loaded once per session (loading parses and compiles)."""
from __future__ import annotations

import pytest

import regnum


@pytest.fixture(scope="session")
def kings_road() -> regnum.Ruleset:
    """The King's Road ruleset under test (rulesets/kings_road.rules)."""
    return regnum.load("kings_road")
