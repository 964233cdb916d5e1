"""The characters build_module counts against its budget of kept trees are those of the trees
it keeps: a cache put in place afresh, empty (a test as a new process, or anything that
empties it), counts from nothing, whatever was counted before. Otherwise, after a process
had built a million characters, every tree kept in the new cache was dropped at once — the
earlier tree of a file with it, so that an edit was parsed whole (tests/unit/test_reparse.py
met it once the suite's workers built that much)."""
from __future__ import annotations

from regnum import build

GAME = '''game tiny "Tiny"
players 2..2
var n: int = 0
flow:
    set n = n + 1

const c = 3
'''


def test_a_cache_put_in_place_afresh_counts_from_nothing(monkeypatch):
    monkeypatch.setenv("REGNUM_CACHE_DIR", "off")
    monkeypatch.setattr(build, "_built_size", 10 * build._BUILT_CHARACTERS)   # counted before
    monkeypatch.setattr(build, "_BUILT", type(build._BUILT)())
    first = build.build_module(GAME, "tiny.rules")
    assert build._built_size == len(GAME) and list(build._BUILT.values()) == [first]
    parsed: list[str] = []
    real = build._build_module
    monkeypatch.setattr(build, "_build_module", lambda text, file, limits: parsed.append(text) or real(text, file, limits))
    edited = GAME.replace("const c = 3", "const c = 4")
    build.build_module(edited, "tiny.rules")
    # the earlier tree was kept, so only the edited run (with the declaration before it) was parsed
    assert parsed == ["\n" * 3 + "flow:\n    set n = n + 1\n\nconst c = 4\n"]
    assert build._built_size == len(GAME) + len(edited) and len(build._BUILT) == 2
