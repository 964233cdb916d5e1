"""The interpreter knows no game: no word of the four games appears under interpreter/.

A mechanic a game needs is a construct of the language or a rule of its ruleset; this test
keeps the promise checked, with the same word list the project's stop hook uses.
"""
from __future__ import annotations

import re
from pathlib import Path

INTERPRETER = Path(__file__).resolve().parents[2] / "interpreter"
GAME_WORDS = re.compile(
    r"\b(nobles?|dragons?|witch(es)?|knights?|clans?|kilt|terrains?|settlements?|taverns?|castles?|"
    r"oracle|harbou?r|paddock|barn|garrison|cemetery|tournament|bishop|sorceress|wizard|zin_kai)\b",
    re.IGNORECASE)


def test_no_game_word_in_the_interpreter():
    hits = []
    for path in sorted(INTERPRETER.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if GAME_WORDS.search(line):
                hits.append(f"{path.relative_to(INTERPRETER)}:{number}: {line.strip()}")
    assert not hits, "game words in interpreter/:\n" + "\n".join(hits)
