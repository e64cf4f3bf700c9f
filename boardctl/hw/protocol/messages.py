"""The wire protocol's messages and the board shape they are read against, as values.

One frozen dataclass per command (PROTOCOL.md, section 5), and the
:class:`Frame` that carries one with its sequence number; :mod:`.codec` turns
a frame into a line and back.  No I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...colour import Colour
from .constants import (
    BOARD_KEY,
    BOARDS,
    COUNT_DIGITS,
    EPOCH_DIGITS,
    EPOCH_KEY,
    MAX_FILES,
    MAX_LEDS,
    MAX_RANKS,
    NONCE_KEY,
    PROTOCOL_VERSION,
    SPARSE_KEY,
    NakReason,
)


@dataclass(frozen=True)
class BoardShape:
    """What the device reports in its HELLO: files, ranks and LED count, or
    for a board that is not a rectangle its name (``board``, a key of
    :data:`BOARDS`) and LED count, with ``files`` and ``ranks`` None.

    The decoder needs it for the length of SNAP and LED arguments.

    :raises ValueError: for a shape the protocol cannot carry.
    """

    files: int | None = 10
    ranks: int | None = 8
    leds: int = 80
    board: str | None = None

    def __post_init__(self) -> None:
        if self.board is None:
            if not (
                self.files is not None
                and self.ranks is not None
                and 1 <= self.files <= MAX_FILES
                and 1 <= self.ranks <= MAX_RANKS
                and 1 <= self.leds <= MAX_LEDS
            ):
                raise ValueError(f"board shape out of range: {self}")
        elif (
            self.board not in BOARDS
            or self.files is not None
            or self.ranks is not None
            or self.leds != BOARDS[self.board]
        ):
            raise ValueError(f"not a board the protocol knows: {self}")

    @classmethod
    def named(cls, board: str) -> BoardShape:
        """A board of :data:`BOARDS` with one LED per cell.

        :raises ValueError: for a name not in :data:`BOARDS`.
        """
        if board not in BOARDS:
            raise ValueError(f"no board {board!r} (known: {', '.join(BOARDS)})")
        return cls(None, None, BOARDS[board], board)

    @property
    def squares(self) -> int:
        """The number of squares (cells): the bits of a SNAP."""
        if self.files is None or self.ranks is None:
            return BOARDS[self.board or ""]
        return self.files * self.ranks

    def describe(self) -> str:
        """In words, for the one line that says two shapes differ."""
        if self.files is None or self.ranks is None:
            return f"the {self.squares}-cell hexagon ({BOARD_KEY}={self.board}, {self.leds} LEDs)"
        return f"a {self.files}×{self.ranks} rectangle of squares ({self.leds} LEDs)"

    @property
    def snap_digits(self) -> int:
        """Hex digits in a SNAP: one per four squares, rounded up."""
        return (self.squares + 3) // 4


DEFAULT_SHAPE = BoardShape()


@dataclass(frozen=True)
class Hello:
    """``HELLO``: who is talking.  The device gives files, ranks and LED count;
    ``info`` holds every other ``KEY=value`` pair (``FW``, ``SW``, ``ID``, …) in order."""

    version: int = PROTOCOL_VERSION
    files: int | None = None
    ranks: int | None = None
    leds: int | None = None
    info: tuple[tuple[str, str], ...] = ()

    @property
    def board(self) -> str | None:
        """The ``B`` key: the name of a board that is not a rectangle, or None."""
        return dict(self.info).get(BOARD_KEY)

    @property
    def epoch(self) -> int | None:
        """The device's boot (the ``E`` key, hex), or None if it names none."""
        text = dict(self.info).get(EPOCH_KEY, "")
        if len(text) != EPOCH_DIGITS or any(c not in "0123456789ABCDEF" for c in text):
            return None
        return int(text, 16)

    @property
    def nonce(self) -> str | None:
        """The ``N`` key: the host's nonce, which a device's answer repeats."""
        return dict(self.info).get(NONCE_KEY)

    @property
    def sparse(self) -> bool:
        """True if the device takes ``LEDS``, the sparse LED frame (``S=1``)."""
        return dict(self.info).get(SPARSE_KEY) == "1"

    def shape(self) -> BoardShape | None:
        """The board shape announced, or None if the HELLO has none (or one
        that does not hold together: a named board with files and ranks, or
        with another LED count than its cells)."""
        if self.leds is None:
            return None
        try:
            if self.board is None:
                if self.files is None or self.ranks is None:
                    return None
                return BoardShape(self.files, self.ranks, self.leds)
            return BoardShape(self.files, self.ranks, self.leds, self.board)
        except ValueError:
            return None

    def describe_board(self) -> str:
        """The announced board in words, also when :meth:`shape` is None."""
        shape = self.shape()
        if shape is not None:
            return shape.describe()
        if self.board is not None and self.board not in BOARDS:
            return f"a board this boardctl does not know ({BOARD_KEY}={self.board})"
        given = " ".join(
            f"{k}={v}"
            for k, v in (
                ("F", self.files),
                ("R", self.ranks),
                ("L", self.leds),
                (BOARD_KEY, self.board),
            )
            if v is not None
        )
        return f"no board shape that holds together ({given or 'nothing announced'})"


EPOCH_MODULO = 1 << 4 * EPOCH_DIGITS
COUNT_MODULO = 1 << 4 * COUNT_DIGITS


def _after(a: int, b: int, modulo: int) -> bool:
    """True if ``a`` comes after ``b`` on a count that goes round at ``modulo``
    (less than half the way round ahead)."""
    return 0 < (a - b) % modulo < modulo // 2


@dataclass(frozen=True)
class Stamp:
    """When a device took a snapshot: its boot (``epoch``, which it counts in
    its flash) and the snapshot's number in that boot (``count``, from 1)."""

    epoch: int
    count: int

    def __post_init__(self) -> None:
        if not (0 <= self.epoch < EPOCH_MODULO and 0 <= self.count < COUNT_MODULO):
            raise ValueError(f"stamp out of range: {self}")

    def after(self, other: Stamp) -> bool:
        """True if this snapshot was taken after ``other`` in the same boot."""
        return self.epoch == other.epoch and _after(self.count, other.count, COUNT_MODULO)


def epoch_after(a: int, b: int) -> bool:
    """True if boot ``a`` came after boot ``b`` (counting round at 65,536)."""
    return _after(a, b, EPOCH_MODULO)


@dataclass(frozen=True)
class Snap:
    """``SNAP``: every square's occupancy, bit ``sq`` set = occupied (a1 = 0),
    and when the device took it.  A scripted device in the tests may leave
    the stamp to be filled in; :func:`~.codec.encode` needs one."""

    occupancy: int
    stamp: Stamp | None = None


@dataclass(frozen=True)
class Led:
    """``LED``: a palette index (0 = off, 1-15) for every LED, in LED order.
    ``sparse``: written as ``LEDS``, the lit LEDs only (the same frame, the
    same state: only its line differs)."""

    indices: tuple[int, ...]
    sparse: bool = False


@dataclass(frozen=True)
class Palette:
    """``PAL``: colours for palette indices 1, 2, …; the indices not given are off."""

    colours: tuple[Colour, ...]


@dataclass(frozen=True)
class Stat:
    """``STAT``: the host asks the device for its counters."""


@dataclass(frozen=True)
class Counters:
    """``COUNTERS``: some of the device's counters, as (name, value) pairs."""

    values: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Ack:
    """``ACK``: the line with sequence number ``ref`` was received and carried out."""

    ref: int


@dataclass(frozen=True)
class Nak:
    """``NAK``: the line with sequence number ``ref`` was refused."""

    ref: int
    reason: NakReason


Message = Hello | Snap | Led | Palette | Stat | Counters | Ack | Nak


@dataclass(frozen=True)
class Frame:
    """One line: the sender's sequence number (0-255) and the message."""

    seq: int
    message: Message
