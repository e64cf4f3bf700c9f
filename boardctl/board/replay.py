"""Sensor logs, and replaying them through the reconciler in virtual time.

A log is text, one event per line, ``#`` starting a comment::

    <seconds> lift <square>
    <seconds> place <square>
    <seconds> choose <q|f|r|b|n>     (the pieces the preset promotes to)

Lifting an empty square or placing on an occupied one (a missed event) is
taken as it comes: the reading simply stays as it was, as a sensor would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from ..rules import BoardctlError, Game, PieceType, SquareError, Variant
from ..rules.digits import NumberError, parse_decimal, shown
from .reconciler import Reconciler, ReconcilerConfig

RUN_ON = 30.0  # seconds of virtual time after the last event
# The latest time a log may give: some four months of readings, more than a
# daemon runs between restarts (its recorder counts from its start), and small
# enough that a microsecond still counts in a float of that size.
MAX_SECONDS = 10_000_000.0
MAX_LINE_BYTES = 4096  # a real line is under 40 bytes; a longer one is not a log


class LogError(BoardctlError, ValueError):
    """A line of a sensor log that cannot be read; says which line."""


@dataclass(frozen=True)
class LogEvent:
    time: float
    verb: str  # "lift", "place" or "choose"
    square: int = -1
    piece: PieceType | None = None


def read_log(stream: BinaryIO, progress: Callable[[int], None] | None = None) -> Iterator[str]:
    """The lines of a log file opened in binary, one at a time, so that a log
    of any length is read in bounded memory.  ``progress`` gets the bytes
    read so far after each line.

    :raises LogError: for a line that is not UTF-8 or is over
        :data:`MAX_LINE_BYTES` long.
    """
    done = 0
    number = 0
    while raw := stream.readline(MAX_LINE_BYTES + 1):
        number += 1
        done += len(raw)
        if len(raw.rstrip(b"\r\n")) > MAX_LINE_BYTES:
            raise LogError(f"line {number}: longer than {MAX_LINE_BYTES} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise LogError(f"line {number}: not UTF-8 text") from None
        if progress is not None:
            progress(done)
        yield text


def parse_log(lines: str | Iterable[str], variant: Variant) -> Iterator[LogEvent]:
    """The events of a log (its text, or its lines one by one), checked line
    by line.

    :raises LogError: naming the line number and what is wrong with it.
    """
    geo = variant.geometry
    # A piece the preset does not promote to (a queen on the hexagon) is no
    # choice at all: taken, it would quietly become the default piece.
    choices = {piece.symbol: piece for piece in variant.promotions}
    *most, final = choices
    choosable = f"{', '.join(most)} or {final}" if most else final
    last = 0.0
    if isinstance(lines, str):
        lines = lines.splitlines()
    for number, raw in enumerate(lines, start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if len(words) != 3:
            raise LogError(
                f"line {number}: expected '<seconds> <lift|place|choose> <what>', "
                f"got {shown(raw.strip())}"
            )
        stamp, verb, what = words
        try:
            time = parse_decimal(stamp, 0.0, MAX_SECONDS)
        except NumberError:
            raise LogError(
                f"line {number}: {shown(stamp)} is not a time from 0 to {MAX_SECONDS:.0f} seconds"
            ) from None
        if time < last:
            raise LogError(f"line {number}: time {stamp} is earlier than the line before")
        last = time
        if verb in ("lift", "place"):
            try:
                yield LogEvent(time, verb, square=geo.parse_square(what))
            except SquareError as exc:
                raise LogError(f"line {number}: {exc}") from None
        elif verb == "choose":
            if what not in choices:
                raise LogError(f"line {number}: choose takes {choosable}, got {shown(what)}")
            yield LogEvent(time, verb, piece=choices[what])
        else:
            raise LogError(f"line {number}: unknown event {shown(verb)} (lift, place or choose)")


def replay(text: str, game: Game, config: ReconcilerConfig | None = None) -> list[str]:
    """Feed a log to a two-player reconciler; the printed lines, in order.

    The last two lines are ``game <moves>`` and ``fen <FEN>``.

    :raises LogError: for a malformed line (before anything is fed).
    """
    return list(replay_events(list(parse_log(text, game.variant)), game, config))


def replay_events(
    events: Iterable[LogEvent],
    game: Game,
    config: ReconcilerConfig | None = None,
) -> Iterator[str]:
    """The lines of :func:`replay`, one by one as ``events`` are fed: a log read
    with :func:`read_log` and :func:`parse_log` is replayed in bounded memory.

    :raises LogError: when ``events`` does, after the lines of the events before.
    """
    rec = Reconciler(game, config)
    reading = rec.reading
    last = 0.0

    def run_until(limit: float) -> Iterator[str]:
        deadline = rec.next_deadline()
        while deadline is not None and deadline <= limit:
            yield from (e.line() for e in rec.tick(deadline))
            after = rec.next_deadline()
            if after is not None and after <= deadline:
                after = deadline + 1e-6  # nothing may loop on one instant
            deadline = after

    for event in events:
        yield from run_until(event.time)
        last = event.time
        if event.verb == "choose":
            assert event.piece is not None
            yield from (e.line() for e in rec.choose(event.piece, event.time))
            continue
        bit = 1 << event.square
        reading = reading & ~bit if event.verb == "lift" else reading | bit
        yield from (e.line() for e in rec.feed(reading, event.time))
    yield from run_until(last + RUN_ON)
    pos = rec.game.position
    moves = " ".join(pos.uci(m) for m in rec.game.moves)
    yield f"game {moves}" if moves else "game"
    yield f"fen {pos.fen()}"
