"""The board's buttons (and the simulator's keys for them), as actions."""

from __future__ import annotations

from ..rules import PieceType
from ..rules.pieces import SYMBOLS
from ..voice.speaker import QUESTIONS
from .actions import Action, ChangeLevel, Choose, Highlight, Mute, Question, RequestHint

PROMOTION_KEYS = ("q", "f", "r", "b", "n")


def pressed(
    name: str, choices: tuple[PieceType, ...], highlighted: PieceType, speaking: bool
) -> list[Action]:
    """What a press of ``name`` asks, while the promotion offers ``choices``
    with ``highlighted`` lit (none: no promotion waits); ``speaking``: the
    board has a voice, and OK with nothing to choose asks it what is what.
    *next* and *prev* step through the choices, else raise and lower the
    engine's level; *ok* takes the one lit."""
    if name == "hint":
        return [RequestHint()]
    if name in ("next", "prev"):
        step = 1 if name == "next" else -1
        if not choices:
            return [ChangeLevel(step)]
        at = choices.index(highlighted) if highlighted in choices else 0
        return [Highlight(choices[(at + step) % len(choices)])]
    if name == "ok" and choices:
        return [Choose(highlighted)]
    if name in QUESTIONS or (name == "ok" and speaking):
        return [Question(name)]
    if name == "mute":
        return [Mute()]
    if name in PROMOTION_KEYS:
        return [Choose(PieceType(SYMBOLS.index(name)))]
    return []
