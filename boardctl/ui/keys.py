"""The simulator's keys and mouse, in one place: the window's help overlay
and ``boardctl sim --help`` both list them from here (no pygame needed)."""

from __future__ import annotations

# (what to press, the board button it stands for or None, what it does)
KEYS: tuple[tuple[str, str | None, str], ...] = (
    ("click a piece", None, "lift it; click a square or cell to put it down (or drag it there)"),
    ("click an occupied square or cell", None, "with a piece in hand: take that piece, then land"),
    ("q f r b n", None, "pick the promotion piece: queen, falcon, rook, bishop, knight"
     " (the hexagon has no queen)"),
    ("Enter", "ok", "take the promotion piece highlighted on the screen"),
    ("h", "hint", "ask the engine for the side to move's best move"),
    ("+  -", "next / prev", "raise or lower the engine's level (or pick the promotion piece)"),
    ("? or F1", None, "show or hide this help"),
    ("Esc", None, "quit (the game is saved and resumed next time)"),
)


def help_text() -> str:
    """The keys as plain text, for ``boardctl sim --help``."""
    width = max(len(key) for key, _, _ in KEYS)
    return "\n".join(f"  {key.ljust(width)}  {words}" for key, _, words in KEYS)
