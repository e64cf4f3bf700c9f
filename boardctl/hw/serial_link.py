"""The serial board: a microcontroller scans the squares and drives the LEDs.

In this build a Raspberry Pi Pico does the electrical work and talks to the
Pi over USB serial with the line protocol of ``firmware/PROTOCOL.md``.
:class:`SerialBoard` is the host end: a
:class:`~boardctl.hw.base.SensorSource` and a
:class:`~boardctl.hw.base.LedSink` in one object, around the protocol's
:class:`~boardctl.hw.protocol.link.HostLink` state machine.  This module only
moves bytes and keeps the port open; the link decides what the bytes mean.

Wiring: the Pico's USB port to any USB port of the Pi.  It enumerates as
USB 2E8A:0005, ``/dev/ttyACM0``; better, name it by its serial number
(``/dev/serial/by-id/usb-MicroPython_…-if00``), which survives other USB
serial devices coming and going.  The user needs to be in the ``dialout``
group.  pyserial asserts DTR on open, which MicroPython needs before it
sends anything.

Usage::

    board = SerialBoard("/dev/ttyACM0")
    while running:
        reading = board.read(time.monotonic())     # never blocks for long
        board.show({sq: (0, 255, 0) for sq in targets})

Behaviour:

* ``read(now)`` opens the port when it is due, reads what has arrived
  without waiting (the port is opened with ``timeout=0``), feeds it to the
  link, writes what the link asks for and runs its timers.  Call it at least
  every 0.1 s (the link's retry timer needs a tick every 0.125 s).  A
  write waits at most ``write_timeout`` for a device that does not read.
* Occupancy comes only from complete SNAP lines whose checksum holds.  A
  damaged, truncated or unexpected line is dropped and counted under its
  :class:`~boardctl.hw.protocol.constants.DropReason`; snapshots are full-board, so
  the next good one puts everything right.  A :class:`Reading` only ever
  comes from a SNAP whose CRC-32 and grammar held, whose sequence number
  advanced, after the device's HELLO, and that is either within a hand's
  reach of the last reading or confirmed by the snapshot after it
  (``firmware/PROTOCOL.md``, "Accepting a snapshot"); several snapshots read
  in one call yield the newest.
* Healthy means: the port is open and the device's lines flow.  No valid
  line for ``LINK_TIMEOUT`` (3 s, three missed heartbeats) makes the link
  fall back to connecting, and the board unhealthy.
* A read or write that fails (``OSError``; pyserial's ``SerialException``
  is one), as when the USB cable is pulled, closes the port.  It is opened
  again after ``reconnect_interval``, doubling after each failure up to
  ``reconnect_max``: never a tight loop.  A device that answered resets the
  backoff.
* A device that resets sends a new HELLO: the link sends the palette and the
  last LED frame again.  :meth:`show` while disconnected only remembers the
  frame; it goes out as soon as the device is back.
* :attr:`behind` is true while the last reading may be out of date (a line
  lost or damaged since, a snapshot held); :attr:`problem` says in one line
  what is wrong while the device does not answer.
* :attr:`counters` holds the link's counters (lines received, sent, dropped
  by reason, retries, give-ups …) and this end's (opens, lost ports,
  reconnects, resyncs) for ``boardctl diag`` and the display.

Nothing here reads a clock and there is no thread: time comes in as
``now`` (seconds, monotonic), and :meth:`show` uses the last ``now`` given
to :meth:`read`.  Each public method holds a lock, so :meth:`show` may be
called from another thread than :meth:`read`.
"""

from __future__ import annotations

import select
import threading
import time
from collections import Counter
from collections.abc import Mapping
from enum import Enum
from typing import Protocol

from ..colour import Colour
from .base import OFF, Reading
from .ledframe import dimmed, led_colours
from .protocol import events
from .protocol.constants import DEFAULT_PALETTE, LINK_TIMEOUT, PALETTE_SIZE, DropReason
from .protocol.link import HostLink
from .protocol.messages import DEFAULT_SHAPE, BoardShape, Hello

READ_CHUNK = 4096  # bytes asked of the port at a time
READ_LIMIT = 65536  # at most this much per read(now): a flood cannot stall the loop
WRITE_TIMEOUT = 0.1  # seconds a write may wait for the device to take it

# This end's counters, next to the link's (protocol.constants.COUNTER_NAMES).
OPENS = "OPENS"  # the port was opened
OPENFAIL = "OPENFAIL"  # an attempt to open it failed
PORTLOST = "PORTLOST"  # an open port failed (cable pulled, device gone)
RECONNECTS = "RECONNECTS"  # the device answered again after the port was lost
RESYNCS = "RESYNCS"  # the device said HELLO while the link was up (it reset)
MERGED = "MERGED"  # LED colours shown as the nearest palette colour (over 15)
OWN_COUNTERS = (OPENS, OPENFAIL, PORTLOST, RECONNECTS, RESYNCS, MERGED)


class SerialPort(Protocol):
    """What :class:`SerialBoard` needs of a port: the part of pyserial's
    ``Serial`` it uses.  ``read`` must not wait (opened with ``timeout=0``);
    any failure is an ``OSError``."""

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


class OpenSerial(Protocol):
    """Opens a port by name or URL; raises ``OSError`` if it cannot."""

    def __call__(
        self, url: str, *, baudrate: int, timeout: float, write_timeout: float
    ) -> SerialPort: ...


def open_pyserial(url: str, *, baudrate: int, timeout: float, write_timeout: float) -> SerialPort:
    """The default :class:`OpenSerial`: pyserial's ``serial_for_url``, so a
    device path, ``loop://`` and ``socket://host:port`` all work.

    :raises OSError: ``SerialException`` if the port cannot be opened, or if
        pyserial is missing (install ``boardctl[pi]``).
    """
    try:
        import serial  # type: ignore[import-untyped, unused-ignore]
    except ImportError as exc:
        raise OSError("the pyserial package is missing: install boardctl[pi]") from exc
    port: SerialPort = serial.serial_for_url(
        url, baudrate=baudrate, timeout=timeout, write_timeout=write_timeout
    )
    return port


class SerialStatus(Enum):
    """Where the serial board stands, for the display and the log."""

    CLOSED = "closed"  # close() was called
    DISCONNECTED = "disconnected"  # no port: not opened yet, lost, or cannot be opened
    CONNECTING = "connecting"  # port open, waiting for the device's HELLO
    UP = "up"  # snapshots flow
    INCOMPATIBLE = "incompatible"  # the device speaks another version or has another board


def led_points(shape: BoardShape) -> tuple[tuple[int, ...], ...]:
    """For each square, the LEDs that light it, in the protocol's LED order
    (row by row from the a1 corner): its own LED when there is one LED per
    square (or cell, on a hexagon), its four corners on a (files + 1) ×
    (ranks + 1) grid.

    :raises ValueError: for another LED count.
    """
    files, ranks = shape.files, shape.ranks
    if shape.leds == shape.squares:
        return tuple((sq,) for sq in range(shape.squares))
    if files is None or ranks is None:
        raise ValueError(f"{shape.leds} LEDs on {shape.describe()}: one per cell only")
    if shape.leds == (files + 1) * (ranks + 1):
        width = files + 1
        points = []
        for sq in range(shape.squares):
            rank, file = divmod(sq, files)
            base = rank * width + file
            points.append((base, base + 1, base + width, base + width + 1))
        return tuple(points)
    raise ValueError(
        f"{shape.leds} LEDs fit neither {shape.squares} squares "
        f"nor a {files + 1} × {ranks + 1} corner grid"
    )


class SerialBoard:
    """The board's microcontroller over a serial port: a
    :class:`~boardctl.hw.base.SensorSource` and a :class:`~boardctl.hw.base.LedSink`.

    ``port`` is a device path or a pyserial URL.  ``open_serial`` opens it
    (tests pass their own).  ``shape`` is the board the configuration
    expects; a device announcing another one is :attr:`SerialStatus.INCOMPATIBLE`.
    ``heartbeat``: :meth:`read` also returns an unchanged snapshot when this
    many seconds passed since the last reading (None: changes only).
    ``brightness`` scales colours before they go into the palette.

    Nothing is opened before the first :meth:`read`.

    :raises ValueError: for a bad interval, brightness or LED count.
    """

    def __init__(
        self,
        port: str,
        *,
        baudrate: int = 115200,
        reconnect_interval: float = 1.0,
        reconnect_max: float = 10.0,
        open_serial: OpenSerial = open_pyserial,
        shape: BoardShape = DEFAULT_SHAPE,
        heartbeat: float | None = 1.0,
        brightness: float = 1.0,
        write_timeout: float = WRITE_TIMEOUT,
        software: str = "boardctl",
    ) -> None:
        if not 0 < reconnect_interval <= reconnect_max:
            raise ValueError("need 0 < reconnect_interval <= reconnect_max")
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"brightness {brightness} is outside 0–1")
        self.port = port
        self.baudrate = baudrate
        self.reconnect_interval = reconnect_interval
        self.reconnect_max = reconnect_max
        self.heartbeat = heartbeat
        self.shape = shape
        self.write_timeout = write_timeout
        self.last_error: str | None = None
        self._open_serial = open_serial
        self._level = round(brightness * 255)
        self._points = led_points(shape)
        self._link = HostLink(shape, software)
        self._own = dict.fromkeys(OWN_COUNTERS, 0)
        self._lock = threading.RLock()
        self._serial: SerialPort | None = None
        self._closed = False
        self._now: float | None = None
        self._next_open: float | None = None  # None: at the first read
        self._failures = 0  # since the device last answered
        self._opened_at: float | None = None  # when the port last opened
        self._lost_once = False  # the port was lost: the next UP is a reconnect
        self._device: Hello | None = None
        self._device_counters: dict[str, int] = {}
        # LEDs: what the device should show (index per LED, palette).
        self._indices: tuple[int, ...] = (0,) * shape.leds
        self._palette: tuple[Colour, ...] = DEFAULT_PALETTE
        # Readings: the latest snapshot not yet reported, and what was reported.
        self._latest: events.SnapshotReceived | None = None
        self._reported: int | None = None
        self._reported_at: float | None = None
        self._fresh = True  # report the next snapshot whatever it is

    # ----------------------------------------------------------------- state

    @property
    def status(self) -> SerialStatus:
        if self._closed:
            return SerialStatus.CLOSED
        if self._serial is None:
            return SerialStatus.DISCONNECTED
        return {
            events.LinkState.CONNECTING: SerialStatus.CONNECTING,
            events.LinkState.UP: SerialStatus.UP,
            events.LinkState.INCOMPATIBLE: SerialStatus.INCOMPATIBLE,
        }[self._link.state]

    @property
    def healthy(self) -> bool:
        """True while the port is open and the device's snapshots flow."""
        return self.status is SerialStatus.UP

    @property
    def behind(self) -> bool:
        """True while the last reading may no longer be the board (a
        snapshot held for confirmation, a line lost or damaged since, no
        link): what hangs on the board staying still must wait."""
        with self._lock:
            return self._serial is None or self._link.behind

    @property
    def problem(self) -> str | None:
        """What is wrong, in one line for the screen and the log; None while
        the device answers, and while it is too early to tell (before the
        first attempt to open the port, and for ``LINK_TIMEOUT`` after the
        port opened).  The text stays the same while the trouble lasts, so a
        caller that logs each new text logs it once."""
        with self._lock:
            status = self.status
            if status is SerialStatus.DISCONNECTED and self._failures:
                return f"sensor board not connected on {self.port}, retrying"
            if (
                status is SerialStatus.CONNECTING
                and self._now is not None
                and self._opened_at is not None
                and self._now - self._opened_at >= LINK_TIMEOUT
            ):
                return f"sensor board on {self.port} is not answering, retrying"
            if status is SerialStatus.INCOMPATIBLE:
                return f"sensor board on {self.port}: {self.last_error}"
            return None

    @property
    def device(self) -> Hello | None:
        """The device's last HELLO (firmware version and board shape in ``info``)."""
        return self._link.device

    @property
    def counters(self) -> dict[str, int]:
        """The link's counters (``RX``, ``TX``, one per drop reason, ``RETRY``,
        ``GIVEUP`` …) and this end's (:data:`OWN_COUNTERS`)."""
        with self._lock:
            return {**self._link.counters, **self._own}

    @property
    def dropped(self) -> dict[str, int]:
        """Received lines dropped, by reason (``CRC``, ``TRUNC``, ``NOISE`` …)."""
        counters = self._link.counters
        return {reason.value: counters[reason.value] for reason in DropReason}

    @property
    def device_counters(self) -> dict[str, int]:
        """The device's counters as last reported (see :meth:`request_device_counters`)."""
        return dict(self._device_counters)

    # ----------------------------------------------------------------- SensorSource

    def read(self, now: float) -> Reading | None:
        """Service the port and the link; the latest snapshot if it changed
        since the last reading, or is the first since the device (re)connected,
        or a heartbeat is due; else None.  Never blocks for long."""
        with self._lock:
            self._now = now
            if not self._closed:
                self._service(now)
            return self._take_reading(now)

    def wait(self, timeout: float) -> None:
        """Return when the port has bytes to read, or after ``timeout``
        seconds (:class:`~boardctl.hw.base.Wakes`); a port that cannot be
        waited on (none open, or no file descriptor, as ``loop://``) is
        slept on."""
        port = self._serial
        fileno = getattr(port, "fileno", None)
        if fileno is not None:
            try:
                select.select([fileno()], [], [], max(timeout, 0.0))
                return
            except (OSError, ValueError):  # closed under us: the next read finds out
                pass
        time.sleep(max(timeout, 0.0))

    def close(self) -> None:
        """Close the port for good (the firmware darkens its LEDs when the
        host falls silent)."""
        with self._lock:
            self._closed = True
            self._drop_port()

    # ----------------------------------------------------------------- LedSink

    def show(self, colours: Mapping[int, Colour]) -> None:
        """Light exactly these squares: sent as a palette (if new colours need
        slots) and an LED frame, acknowledged and retried by the link.  While
        disconnected the frame is kept and sent once the device is back.

        :raises LedFrameError: for a square off the board or a bad colour.
        """
        with self._lock:
            leds = self._led_colours(colours)
            self._indices, self._palette = self._allocate(leds)
            if self._serial is not None and self._now is not None and not self._closed:
                self._feed(events.SetPalette(self._palette), self._now)
                self._feed(events.ShowLeds(self._indices), self._now)

    def request_device_counters(self) -> None:
        """Ask the device for its counters; they land in :attr:`device_counters`."""
        with self._lock:
            if self._serial is not None and self._now is not None and not self._closed:
                self._feed(events.RequestCounters(), self._now)

    # ----------------------------------------------------------------- the port

    def _service(self, now: float) -> None:
        if self._serial is None:
            if self._next_open is not None and now < self._next_open:
                return
            self._open(now)
            if self._serial is None:
                return
        received = self._drain(now)
        if received is None:
            return
        for chunk in received:
            self._feed(events.Received(chunk), now)
        self._feed(events.Tick(), now)

    def _open(self, now: float) -> None:
        try:
            port = self._open_serial(
                self.port, baudrate=self.baudrate, timeout=0, write_timeout=self.write_timeout
            )
        except (OSError, ValueError) as exc:  # ValueError: pyserial's word for a bad URL
            self._own[OPENFAIL] += 1
            self._failed(now, f"cannot open {self.port}: {exc}")
            return
        self._serial = port
        self._opened_at = now
        self._own[OPENS] += 1
        try:
            port.reset_input_buffer()  # lines from before this session are stale
        except OSError as exc:
            self._lose(now, f"{self.port} failed at once: {exc}")
            return
        self._feed(events.Reopened(), now)
        self._feed(events.SetPalette(self._palette), now)  # only stored while connecting:
        self._feed(events.ShowLeds(self._indices), now)  # sent once the device says HELLO

    def _drain(self, now: float) -> list[bytes] | None:
        """What the port has, without waiting; None if the port failed."""
        chunks: list[bytes] = []
        total = 0
        while self._serial is not None and total < READ_LIMIT:
            try:
                data = self._serial.read(READ_CHUNK)
            except OSError as exc:
                self._lose(now, f"read from {self.port} failed: {exc}")
                return None
            if not data:
                break
            chunks.append(data)
            total += len(data)
        return chunks

    def _write(self, data: bytes, now: float) -> None:
        if self._serial is None:
            return
        try:
            self._serial.write(data)
        except OSError as exc:
            self._lose(now, f"write to {self.port} failed: {exc}")

    def _lose(self, now: float, error: str) -> None:
        self._own[PORTLOST] += 1
        self._lost_once = True
        self._drop_port()
        self._failed(now, error)

    def _failed(self, now: float, error: str) -> None:
        """Schedule the next open: the interval doubles with every failure
        since the device last answered, up to ``reconnect_max``."""
        self.last_error = error
        delay = min(self.reconnect_interval * 2 ** min(self._failures, 30), self.reconnect_max)
        self._failures += 1
        self._next_open = now + delay

    def _drop_port(self) -> None:
        port, self._serial = self._serial, None
        self._latest = None
        self._fresh = True
        if port is not None:
            try:
                port.close()
            except OSError as exc:  # closing a vanished device may fail; it is closed anyway
                self.last_error = f"closing {self.port}: {exc}"

    # ----------------------------------------------------------------- the link

    def _feed(self, event: events.Event, now: float) -> None:
        was_up = self._link.state is events.LinkState.UP
        before = self._link.device
        actions = self._link.feed(event, now)
        if (
            self._link.device is not None
            and self._link.device is not before
            and was_up
            and not self._link.answered
        ):
            self._own[RESYNCS] += 1  # a HELLO while up: the device restarted
        for action in actions:
            self._act(action, now)

    def _act(self, action: events.Action, now: float) -> None:
        match action:
            case events.Send(data):
                self._write(data, now)
            case events.SnapshotReceived():
                if self._serial is not None:
                    self._latest = action
            case events.StateChanged(state, detail):
                if state is events.LinkState.UP:
                    self._failures = 0
                    self.last_error = None
                    if self._lost_once:
                        self._lost_once = False
                        self._own[RECONNECTS] += 1
                else:
                    self.last_error = detail
                    self._fresh = True
            case events.DeviceCounters(values):
                self._device_counters.update(values)

    def _take_reading(self, now: float) -> Reading | None:
        snap, self._latest = self._latest, None
        if snap is None:
            return None
        due = (
            self.heartbeat is not None
            and self._reported_at is not None
            and now - self._reported_at >= self.heartbeat
        )
        if not (self._fresh or due or snap.occupancy != self._reported):
            return None
        self._fresh = False
        self._reported = snap.occupancy
        self._reported_at = now
        return Reading(snap.occupancy, snap.time)

    # ----------------------------------------------------------------- LED frames

    def set_brightness(self, brightness: float) -> None:
        """From the next frame on.  :raises ValueError: outside 0–1."""
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"brightness {brightness} is outside 0–1")
        with self._lock:
            self._level = round(brightness * 255)

    def _led_colours(self, colours: Mapping[int, Colour]) -> list[Colour]:
        """Each LED's colour after brightness (a corner shared by two lit
        squares takes the brighter of each channel)."""
        leds = led_colours(colours, self.shape.squares, self.shape.leds, self._points.__getitem__)
        return dimmed(leds, self._level)

    def _allocate(self, leds: list[Colour]) -> tuple[tuple[int, ...], tuple[Colour, ...]]:
        """Palette indices for the LEDs, and the palette.

        Colours already in the palette keep their slot, so an unchanged set
        of colours sends no new palette; a new colour takes a slot that
        neither this frame nor the one on show uses, if there is one.  Past
        15 colours, the rarest show as their nearest palette colour.
        """
        counts = Counter(c for c in leds if c != OFF)
        wanted = sorted(counts, key=lambda c: (-counts[c], c))
        exact, rest = wanted[:PALETTE_SIZE], wanted[PALETTE_SIZE:]
        palette = list(self._palette) + [OFF] * (PALETTE_SIZE - len(self._palette))
        slot: dict[Colour, int] = {}
        for colour in exact:
            if colour in palette:
                slot[colour] = palette.index(colour) + 1
        taken = set(slot.values())
        on_show = set(self._indices)
        free = sorted(
            (i for i in range(1, PALETTE_SIZE + 1) if i not in taken),
            key=lambda i: (i in on_show, i),
        )
        for colour, index in zip((c for c in exact if c not in slot), free, strict=False):
            palette[index - 1] = colour
            slot[colour] = index
        for colour in rest:
            nearest = min(
                exact, key=lambda e: sum((a - b) ** 2 for a, b in zip(e, colour, strict=True))
            )
            slot[colour] = slot[nearest]
            self._own[MERGED] += 1
        indices = tuple(0 if c == OFF else slot[c] for c in leds)
        return indices, tuple(palette)
