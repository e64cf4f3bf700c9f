"""The simulator's keys and mouse, in one place: the window's help overlay
and ``boardctl sim --help`` both list them from here (no pygame needed),
in groups, so that the overlay reads as a few short lists."""

from __future__ import annotations

# (what to press, the board button it stands for or None, what it does)
Key = tuple[str, str | None, str]

MOVING: tuple[Key, ...] = (
    (
        "click a piece",
        None,
        "pick it up; click a second one to hold two (to castle, or to capture)",
    ),
    (
        "click an empty square or cell",
        None,
        "put the piece at the pointer down there (or drag a piece there)",
    ),
    (
        "right-click a piece",
        None,
        "take it off the board into the tray, to capture it (a piece is never put down on another)",
    ),
    ("drag to the tray", None, "take a piece off too (or click the tray with the piece in hand)"),
    ("click a piece in the tray", None, "pick it up, to put it back on an empty square or cell"),
    ("Tab or mouse wheel", None, "with two pieces in hand: the other one goes down next"),
)
BUTTONS: tuple[Key, ...] = (
    (
        "q f r b n",
        None,
        "pick the promotion piece: queen, falcon, rook, bishop, knight (the hexagon has no queen)",
    ),
    (
        "Enter",
        "ok",
        "take the promotion piece highlighted on the screen; a remote game: say yes; "
        "stepping through a stored game, pressed twice: play on from here in a new game",
    ),
    ("h", "hint", "ask the engine for the side to move's best move"),
    (
        "+  -",
        "next / prev",
        "raise or lower the engine's level (or pick the promotion piece); a remote game: say no",
    ),
    (
        "Right  Left",
        "next / prev",
        "stepping through a stored game (--replay): show the next move, or the last one "
        "taken back, to carry out on the board (+ and - do the same)",
    ),
)
SPEECH: tuple[Key, ...] = (
    (
        "l c t",
        None,
        "with speech on: say the last move, the clocks, whose turn it is",
    ),
    ("p  s", None, "say where the pieces stand, side by side; or rank by rank (again: skip on)"),
    ("d  a", None, "say where the piece in hand may go; say the screen's line again"),
    ("m", "mute", "speech off or on"),
)
WINDOW: tuple[Key, ...] = (
    ("? or F1", None, "show or hide this help"),
    ("Esc", None, "quit (the game is saved and resumed next time)"),
)
GROUPS: tuple[tuple[str, tuple[Key, ...]], ...] = (
    ("Moving pieces", MOVING),
    ("The board's buttons", BUTTONS),
    ("Speech", SPEECH),
    ("The window", WINDOW),
)
KEYS: tuple[Key, ...] = tuple(key for _, keys in GROUPS for key in keys)


def help_text() -> str:
    """The keys as plain text, by group, for ``boardctl sim --help``."""
    width = max(len(key) for key, _, _ in KEYS)
    lines = []
    for title, keys in GROUPS:
        lines.append(f"{title}:")
        lines += [f"  {key.ljust(width)}  {words}" for key, _, words in keys]
    return "\n".join(lines)
