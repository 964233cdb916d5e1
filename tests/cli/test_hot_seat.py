"""Several humans at one screen: each hand is shown only after the screen is handed over."""
from __future__ import annotations

import subprocess
import sys


def test_each_human_presses_enter_before_seeing_their_hand(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "regnum.cli", "play", "kings_road", "--players", "2", "--bots", "none",
         "--seed", "1", "--quiet-board"],
        input="\n1\n\n1\nq\n", capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    first, second = out.index("pass the keyboard to seat 0"), out.index("pass the keyboard to seat 1")
    assert first < out.index("── seat 0 to move") < second < out.index("── seat 1 to move")
    # Seat 1's view, shown after the hand-over, hides seat 0's hand and pick.
    seat1_view = out[out.index("── seat 1 to move"):]
    # (The view names zones as the rulebook does: each family, then one line per seat.)
    assert "hand\n  P0: 10 hidden\n" in seat1_view and "chosen\n  P0: 1 hidden\n" in seat1_view
