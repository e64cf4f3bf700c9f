"""A board's public game state: what the hall and every spectator may know
of the game on it, and nothing else (no LED rings, no prompts, no PIN).

It is made from the page's :class:`~boardctl.web.snapshot.Snapshot`
(:func:`from_snapshot`) and travels as a small JSON object (:meth:`BoardState.body`,
:func:`parse_body`): the moves as one line of coordinate notation and the
clocks after each move as one line of whole seconds, so that a long game stays
a few kilobytes and a handful of JSON values.  The hall trusts none of it
until the signature holds, and then only what the rules core can replay.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields, replace
from typing import Any

from ..errors import BoardctlError
from ..names import InvalidName, clean_name
from ..rules import VARIANTS, Position, get_variant
from ..web.snapshot import Snapshot
from .place import MAX_ROUND

RESULTS = ("*", "1-0", "0-1", "1/2-1/2")
SIDES = ("white", "black", "")
MAX_PLIES = 1200  # a Falcon Chess game that long is past any fifty-move count
MAX_FEN = 200
MAX_REASON = 60
MAX_CLOCK = 100 * 3600  # seconds: past any clock the configuration allows
MAX_GAME_ID = 2**63 - 1
NO_CLOCK = "-"  # a ply with no clock reading, in the clocks' line
_MOVE = re.compile(r"[a-z]{1,2}[0-9]{1,2}[a-z]{1,2}[0-9]{1,2}[a-z]?", re.ASCII)


class StateError(BoardctlError, ValueError):
    """A state that is not one a board sends; the message says which field."""


@dataclass(frozen=True)
class BoardState:
    """See the module docstring.  ``clocks[i]``: the seconds the mover of ply
    ``i`` had left after it (None: no clock ran); ``white_clock`` and
    ``black_clock``: the clocks when the state was made, ``running`` the one
    that runs ("": none); ``started``: when the game began (UTC seconds);
    ``game``: the board's own number for the game; ``round`` and ``number``:
    where the board's configuration says it plays (0: it does not say)."""

    variant: str = "falcon"
    start: str = ""  # the start position's FEN; "": the variant's own start
    moves: tuple[str, ...] = ()
    clocks: tuple[int | None, ...] = ()
    white_clock: int | None = None
    black_clock: int | None = None
    running: str = ""
    white: str = ""
    black: str = ""
    result: str = "*"
    reason: str = ""
    started: int | None = None
    game: int = 0
    round: int = 0
    number: int = 0

    def news(self) -> BoardState:
        """The state without the clocks' current readings: what makes a new
        message worth sending (a spectator's page runs the clock itself)."""
        return replace(self, white_clock=None, black_clock=None)

    def without_clock_history(self) -> BoardState:
        return replace(self, clocks=())

    def body(self) -> dict[str, Any]:
        """The JSON object a message carries."""
        return {
            "variant": self.variant,
            "start": self.start,
            "moves": " ".join(self.moves),
            "clocks": " ".join(NO_CLOCK if c is None else str(c) for c in self.clocks),
            "white_clock": self.white_clock,
            "black_clock": self.black_clock,
            "running": self.running,
            "white": self.white,
            "black": self.black,
            "result": self.result,
            "reason": self.reason,
            "started": self.started,
            "game": self.game,
            "round": self.round,
            "number": self.number,
        }


_KEYS = frozenset(f.name for f in fields(BoardState))


def _seconds(value: float | None) -> int | None:
    if value is None or not math.isfinite(value):
        return None
    return min(MAX_CLOCK, max(0, round(value)))


def from_snapshot(snap: Snapshot, round_number: int = 0, number: int = 0) -> BoardState | None:
    """The public state of the page's snapshot; None while the board is not
    playing a game (setting up, a puzzle, stepping through a stored game):
    what the hall last had of the game stays as it was."""
    if snap.mode != "game":
        return None
    start = snap.start_fen
    if start and start == Position(None, get_variant(snap.variant)).fen():
        start = ""
    return BoardState(
        variant=snap.variant,
        start=start,
        moves=snap.moves,
        clocks=tuple(_seconds(c) for c in snap.clocks_after),
        white_clock=_seconds(snap.white_clock),
        black_clock=_seconds(snap.black_clock),
        running=snap.clock_running or "",
        white=snap.white,
        black=snap.black,
        result=snap.result,
        reason=snap.reason[:MAX_REASON],
        started=None if snap.started_at is None else int(snap.started_at),
        game=snap.game_id,
        round=round_number,
        number=number,
    )


def parse_body(body: object) -> BoardState:
    """The state a message's body holds.  :raises StateError: naming the field."""
    if not isinstance(body, dict) or set(body) != _KEYS:
        raise StateError("expected exactly the fields of a board's state")
    variant = _choice(body, "variant", tuple(VARIANTS))
    moves = _text(body, "moves", MAX_PLIES * 8, ascii_only=True).split()
    if len(moves) > MAX_PLIES or not all(_MOVE.fullmatch(m) for m in moves):
        raise StateError(f"moves: expected at most {MAX_PLIES} moves in coordinate notation")
    words = _text(body, "clocks", MAX_PLIES * 8, ascii_only=True).split()
    clocks = tuple(_clock_word(word) for word in words)
    if len(clocks) > len(moves):
        raise StateError("clocks: more readings than moves")
    try:
        white = clean_name(body["white"], "white", allow_empty=True)
        black = clean_name(body["black"], "black", allow_empty=True)
    except InvalidName as exc:
        raise StateError(str(exc)) from None
    reason = _text(body, "reason", MAX_REASON)
    if not reason.isprintable():
        raise StateError("reason: expected printable text")
    return BoardState(
        variant=variant,
        start=_text(body, "start", MAX_FEN, ascii_only=True),
        moves=tuple(moves),
        clocks=clocks,
        white_clock=_whole(body, "white_clock", MAX_CLOCK, optional=True),
        black_clock=_whole(body, "black_clock", MAX_CLOCK, optional=True),
        running=_choice(body, "running", SIDES),
        white=white,
        black=black,
        result=_choice(body, "result", RESULTS),
        reason=reason,
        started=_whole(body, "started", 2**40, optional=True),
        game=_whole(body, "game", MAX_GAME_ID) or 0,
        round=_whole(body, "round", MAX_ROUND) or 0,
        number=_whole(body, "number", MAX_ROUND) or 0,
    )


def _text(body: dict[str, Any], key: str, longest: int, *, ascii_only: bool = False) -> str:
    value = body[key]
    if not isinstance(value, str) or len(value) > longest or (ascii_only and not value.isascii()):
        raise StateError(f"{key}: expected text of at most {longest} characters")
    return value


def _choice(body: dict[str, Any], key: str, choices: tuple[str, ...]) -> str:
    value = body[key]
    if value not in choices:
        raise StateError(f"{key}: expected one of {', '.join(c or '(none)' for c in choices)}")
    return str(value)


def _whole(body: dict[str, Any], key: str, largest: int, *, optional: bool = False) -> int | None:
    value = body[key]
    if value is None and optional:
        return None
    if type(value) is not int or not 0 <= value <= largest:
        raise StateError(f"{key}: expected a whole number from 0 to {largest}")
    return value


def _clock_word(word: str) -> int | None:
    if word == NO_CLOCK:
        return None
    if not (word.isascii() and word.isdigit()) or len(word) > 6 or int(word) > MAX_CLOCK:
        raise StateError("clocks: expected whole seconds or - for each move")
    return int(word)
