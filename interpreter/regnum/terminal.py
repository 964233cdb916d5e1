"""Text bound for a terminal: characters that could drive it are made visible instead.

Rulesets, logs and saved games are untrusted, and their strings (a game's title, piece
labels, announcements, require messages, a move's arguments) reach the terminal. An ESC
starts a sequence that can clear the screen, move the cursor or retitle the window; a CR
overwrites the line; BEL rings; a bidirectional override makes text read backwards. `safe`
replaces each such code point by one visible character, so that text keeps its length (the
styles of a rich Text and the caret under a diagnostic stay in place):

- C0 controls U+0000–U+001F except newline and tab → the Control Pictures U+2400–U+241F
  (ESC → ␛, BEL → ␇, CR → ␍), and DEL U+007F → ␡;
- C1 controls U+0080–U+009F (8-bit CSI and friends), the bidirectional controls U+061C,
  U+200E, U+200F, U+202A–U+202E and U+2066–U+2069, and the line and paragraph separators
  U+2028, U+2029 → U+FFFD �.

Newline and tab stay: they move to the next line or column and drive nothing. JSON output
needs none of this: `json.dumps` escapes every control character (and, with its default
`ensure_ascii`, every non-ASCII one).
"""
from __future__ import annotations

REPLACEMENT = "\ufffd"

_TABLE: dict[int, str] = {code: chr(0x2400 + code) for code in range(0x20) if chr(code) not in "\n\t"}
_TABLE[0x7F] = "\u2421"
for _code in [*range(0x80, 0xA0), 0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A),
              0x2028, 0x2029]:
    _TABLE[_code] = REPLACEMENT
del _code


def safe(text: str) -> str:
    """`text` with every character that could drive a terminal replaced by a visible one."""
    return text.translate(_TABLE)
