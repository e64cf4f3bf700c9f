"""Sensor logs, and replaying them through the reconciler in virtual time.

A log is text, one event per line, ``#`` starting a comment::

    <seconds> lift <square>
    <seconds> place <square>
    <seconds> choose <q|f|r|b|n>

Lifting an empty square or placing on an occupied one (a missed event) is
taken as it comes: the reading simply stays as it was, as a sensor would.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..rules import BoardctlError, Game, PieceType, SquareError, Variant
from ..rules.pieces import SYMBOLS
from .reconciler import Reconciler, ReconcilerConfig

RUN_ON = 30.0  # seconds of virtual time after the last event


class LogError(BoardctlError, ValueError):
    """A line of a sensor log that cannot be read; says which line."""


@dataclass(frozen=True)
class LogEvent:
    time: float
    verb: str            # "lift", "place" or "choose"
    square: int = -1
    piece: PieceType | None = None


def parse_log(text: str, variant: Variant) -> Iterator[LogEvent]:
    """The events of a log, checked line by line.

    :raises LogError: naming the line number and what is wrong with it.
    """
    geo = variant.geometry
    last = 0.0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if len(words) != 3:
            raise LogError(f"line {number}: expected '<seconds> <lift|place|choose> <what>', "
                           f"got {raw.strip()!r}")
        stamp, verb, what = words
        try:
            time = float(stamp)
        except ValueError:
            raise LogError(f"line {number}: {stamp!r} is not a time in seconds") from None
        if not time >= 0 or time == float("inf"):
            raise LogError(f"line {number}: the time must be 0 or more, got {stamp}")
        if time < last:
            raise LogError(f"line {number}: time {stamp} is earlier than the line before")
        last = time
        if verb in ("lift", "place"):
            try:
                yield LogEvent(time, verb, square=geo.parse_square(what))
            except SquareError as exc:
                raise LogError(f"line {number}: {exc}") from None
        elif verb == "choose":
            if what not in SYMBOLS[1:] or what in ("p", "k"):
                raise LogError(f"line {number}: choose takes q, f, r, b or n, got {what!r}")
            yield LogEvent(time, verb, piece=PieceType(SYMBOLS.index(what)))
        else:
            raise LogError(f"line {number}: unknown event {verb!r} (lift, place or choose)")


def replay(text: str, game: Game, config: ReconcilerConfig | None = None) -> list[str]:
    """Feed a log to a two-player reconciler; the printed lines, in order.

    The last two lines are ``game <moves>`` and ``fen <FEN>``.

    :raises LogError: for a malformed line (before anything is fed).
    """
    events = list(parse_log(text, game.variant))
    rec = Reconciler(game, config)
    out: list[str] = []
    reading = rec.reading

    def run_until(limit: float) -> None:
        deadline = rec.next_deadline()
        while deadline is not None and deadline <= limit:
            out.extend(e.line() for e in rec.tick(deadline))
            after = rec.next_deadline()
            if after is not None and after <= deadline:
                after = deadline + 1e-6  # nothing may loop on one instant
            deadline = after

    for event in events:
        run_until(event.time)
        if event.verb == "choose":
            assert event.piece is not None
            out.extend(e.line() for e in rec.choose(event.piece, event.time))
            continue
        bit = 1 << event.square
        reading = reading & ~bit if event.verb == "lift" else reading | bit
        out.extend(e.line() for e in rec.feed(reading, event.time))
    run_until((events[-1].time if events else 0.0) + RUN_ON)
    pos = rec.game.position
    moves = " ".join(pos.uci(m) for m in rec.game.moves)
    out.append(f"game {moves}" if moves else "game")
    out.append(f"fen {pos.fen()}")
    return out
