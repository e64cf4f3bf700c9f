"""The XBoard protocol's lines as the engine side reads and writes them: the
features it announces, the time controls it is sent, and its thinking output.

Pure functions, no state: :mod:`.cecp` holds the session.  Every number from
the GUI is ASCII digits within a range (:mod:`boardctl.rules.digits`); one
that is not raises :class:`CecpError`, which the session answers with
``Error (...): <command>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import __version__
from ..rules import BoardctlError, Position
from ..rules.digits import NumberError, parse_decimal, parse_whole, shown
from .frontend import MAX_SEED, VARIETY
from .levels import MAX_LEVEL
from .limits import Info, Limits
from .params import MAX_PLY

CENTI = 100.0  # XBoard's clocks are centiseconds, Limits' seconds
MATE_SHOWN = 100_000  # thinking output: a mate in n is 100000 + n (the protocol's convention)
MAX_SECONDS = 365 * 24 * 3600.0  # no clock is longer than a year
MAX_MPS = 10_000  # moves in one session of a conventional clock
MAX_NPS = 10**12
# level's base: minutes, or minutes:seconds; what follows is for later
# versions of the protocol to define, and is ignored (as it asks).
_BASE = re.compile(r"([0-9]+(?:\.[0-9]+)?)(?::([0-9]{1,2}))?", re.ASCII)

# XBoard's name of each variant the engine plays -> the rules core's preset.
# XBoard's "falcon" castles as Fairy-Max does (the king always three squares:
# f1i1, f1c1), which is the falcon-xboard preset (docs/fairymax-castling.md).
VARIANTS = {"falcon": "falcon-xboard"}
# Sent after "variant falcon", as Fairy-Max sends it: the falcon's moves in
# Betza notation (its three paths), so that XBoard tests them and writes its SAN.
PIECES = {"falcon": ("piece F& aflafrKafraflKafafsKafsafK",)}
OPTIONS = (
    f"Skill Level -spin {MAX_LEVEL} 0 {MAX_LEVEL}",
    f"Variety -check {int(VARIETY)}",
    f"Seed -spin 0 0 {MAX_SEED}",
)


class CecpError(BoardctlError, ValueError):
    """A command the engine cannot carry out; ``kind`` goes in its ``Error (kind)``."""

    def __init__(self, kind: str, message: str = "") -> None:
        super().__init__(f"{kind}: {message}" if message else kind)
        self.kind = kind


def features() -> list[str]:
    """The answer to ``protover 2``: one feature per line, ``done=1`` last."""
    names = ",".join(VARIANTS)
    lines = [
        f'feature myname="boardctl {__version__}" variants="{names}"',
        "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0",
        "feature reuse=1 analyze=1 colors=0 playother=1 memory=1 nps=1 san=0 name=0",
    ]
    lines += [f'feature option="{option}"' for option in OPTIONS]
    lines.append("feature done=1")
    return lines


@dataclass(frozen=True)
class Level:
    """``level MPS BASE INC``: MPS moves in BASE seconds (0: the whole game),
    INC seconds added after each move."""

    moves: int
    base: float
    increment: float


def parse_level(args: list[str]) -> Level:
    """``level 40 5 0``, ``level 0 0:30 2``, ``level 0 2 0.5`` (base in
    minutes or minutes:seconds; the protocol allows trailing text after it).

    :raises CecpError: for anything else.
    """
    if len(args) != 3:
        raise CecpError("expected level MPS BASE INC")
    moves = _whole("moves per session", args[0], 0, MAX_MPS)
    base_text = _BASE.match(args[1])
    if base_text is None:
        raise CecpError("bad number", f"base {shown(args[1])}: expected MIN or MIN:SEC")
    base = 60 * _decimal("base minutes", base_text[1], 0, MAX_SECONDS / 60)
    base += _whole("base seconds", base_text[2] or "0", 0, 59)
    increment = _decimal("increment", args[2], 0, MAX_SECONDS)
    return Level(moves, base, increment)


def parse_seconds(name: str, text: str) -> float:
    """``st``'s seconds."""
    return _decimal(name, text, 0, MAX_SECONDS)


def parse_centiseconds(name: str, text: str) -> float:
    """``time``/``otim``: centiseconds on the wire (negative when the flag
    has fallen: no time left), seconds returned."""
    return (
        max(0, _whole(name, text, -round(MAX_SECONDS * CENTI), round(MAX_SECONDS * CENTI))) / CENTI
    )


def parse_depth(text: str) -> int:
    return _whole("sd", text, 1, MAX_PLY)


def parse_nps(text: str) -> int:
    return _whole("nps", text, 0, MAX_NPS)


def parse_whole_option(name: str, text: str, low: int, high: int) -> int:
    return _whole(name, text, low, high)


@dataclass(frozen=True)
class TimeControl:
    """What the GUI said about time: ``st`` or ``level`` (the last one given
    counts), ``sd``, and the clocks from ``time``/``otim``."""

    per_move: float | None = None  # st
    level: Level | None = None
    depth: int | None = None  # sd
    mine: float | None = None  # time: the engine's clock
    theirs: float | None = None  # otim

    def limits(self, turn: int, plies: int) -> Limits:
        """The search's limits for the engine's move, ``turn`` to move,
        ``plies`` played since the game's set-up (which says how many moves
        of a conventional session are left: each side has made ``plies // 2``)."""
        if self.per_move is not None:
            return Limits(depth=self.depth, movetime=self.per_move)
        level = self.level or DEFAULT_LEVEL
        mine = self.mine if self.mine is not None else level.base
        theirs = self.theirs if self.theirs is not None else level.base
        white, black = (mine, theirs) if turn == 0 else (theirs, mine)
        to_go = level.moves - (plies // 2) % level.moves if level.moves else None
        return Limits(
            depth=self.depth,
            wtime=white,
            btime=black,
            winc=level.increment,
            binc=level.increment,
            movestogo=to_go,
        )


# XBoard's own default time control, 40 moves in 5 minutes: a GUI always
# sends level or st, but a person typing at the engine may not.
DEFAULT_LEVEL = Level(40, 300.0, 0.0)


def thinking(info: Info, pos: Position) -> str:
    """The thinking output for one finished iteration: ``ply score time nodes pv``
    (time in centiseconds, a mate in n as 100000 + n), the PV in coordinates."""
    if info.mate is not None:
        score = MATE_SHOWN + info.mate if info.mate > 0 else -MATE_SHOWN + info.mate
    else:
        score = info.score_cp or 0
    pv = " ".join(pos.uci(move) for move in info.pv)
    return f"{info.depth} {score} {round(info.time * CENTI)} {info.nodes} {pv}".rstrip()


def _whole(name: str, text: str, low: int, high: int) -> int:
    try:
        return parse_whole(text, low, high)
    except NumberError as exc:
        raise CecpError("bad number", f"{name}: {exc}") from None


def _decimal(name: str, text: str, low: float, high: float) -> float:
    try:
        return parse_decimal(text, low, high)
    except NumberError as exc:
        raise CecpError("bad number", f"{name} {shown(text)}: {exc}") from None
