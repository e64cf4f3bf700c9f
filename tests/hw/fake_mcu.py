"""A fake board microcontroller on a pseudo-terminal, for the serial tests.

It runs the firmware itself — ``firmware/app.py``'s ``Firmware.step`` with
the real scanner and debouncer (``scanner.py``), LED strip (``ws2812.py``)
and link (``link.py`` over ``protocol.py``), all imported by path, as they
run on the Pico — in a thread on the master side of an ``os.openpty()``
pair.  Only ``hal.py`` is replaced: the sensors read a simulated occupancy,
the LED words go nowhere, and the USB port is the pty.  The host opens the
slave side by name through pyserial, exactly as it opens ``/dev/ttyACM0``:
termios, non-blocking reads and EIO included.

The test changes the simulated occupancy (:attr:`FakeMcu.occupancy`) and
reads back the LED frame and palette the firmware holds
(:meth:`FakeMcu.colours`, :attr:`FakeMcu.led_frames`) and what it put on the
wire (:attr:`FakeMcu.snaps_sent`: the occupancy of every SNAP line written
intact).

Unplugging, honestly: :attr:`FakeMcu.port` is a symlink to the slave of the
current pty, as udev's ``/dev/serial/by-id/usb-…`` is to ``/dev/ttyACM0``.
:meth:`FakeMcu.unplug` closes the pty (master and the fake's slave fd) and
removes the symlink: the host's open port fails with EIO (pyserial raises
``SerialException``), as a ttyACM does when the cable is pulled, and opening
the name fails while it is gone.  :meth:`FakeMcu.plug` makes a new pty,
points the symlink at it and boots the firmware afresh (the Pico is powered
by the USB cable, so a replug is a power-on, PROTOCOL.md section 10).  The
host finds the port under the same name by itself.  :meth:`FakeMcu.reset`
reboots the firmware on the same pty (a watchdog reset or a crash that keeps
the USB connection).

Fault injection: :meth:`drop_next` and :meth:`corrupt_next` (lines to the
host), :attr:`corrupt_ratio` (random corruption of lines to the host),
:meth:`drop_incoming` and :meth:`corrupt_incoming` (lines from the host),
:meth:`send_garbage`, :meth:`mute` (stop answering), :meth:`unplug`,
:meth:`reset`.

Time: the firmware counts milliseconds from ``clock()`` (seconds), real
time by default; a test that passes a clock it controls gets a device whose
timers (heartbeat, HELLO, retries) run only when the test says.  The scan
loop itself runs every couple of milliseconds of real time either way.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import time
import tty
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType, SimpleNamespace, TracebackType
from typing import Any

from ..pathimport import import_file

# The firmware's checks and its host loader, beside it but never flashed.
CHECKS = Path(__file__).resolve().parents[1] / "firmware"
IDLE = 0.002  # seconds the fake's loop waits for input each turn


# The firmware's hardware-free modules, each after those it imports, and the
# check whose stand-in for the USB port the fake uses (take_waiting).
FIRMWARE_MODULES = (
    "protocol_constants",
    "wire",
    "protocol",
    "link",
    "scanner",
    "ws2812",
    "app",
    "hexboard",
    "check_logic",
)


@cache
def firmware() -> SimpleNamespace:
    """The firmware's hardware-free modules, loaded by path by the firmware's
    own host loader (``tests/firmware/hostload.py``: their plain-name imports
    never shadow the host's ``boardctl.hw.protocol``)."""
    hostload = import_file(CHECKS / "hostload.py", "firmware_hostload")
    modules: SimpleNamespace = hostload.load(FIRMWARE_MODULES)
    return modules


def command_of(line: bytes) -> str:
    """The command of a line ("$SS COMMAND …"), or "" if it has none."""
    tokens = line[1:].split(b"*", 1)[0].split(b" ")
    return tokens[1].decode("ascii", "replace") if line[:1] == b"$" and len(tokens) > 1 else ""


# A fault named for a command also takes the command's other spelling: "LED"
# the LED frame however the host writes it (LEDS, the lit LEDs only, to a
# firmware that takes it).
_SPELLINGS = {"LEDS": "LED"}


class _Faults:
    """Pending "do this to the next N lines of this command" faults."""

    def __init__(self) -> None:
        self.pending: list[list[Any]] = []  # [kind, command or None, count left]

    def add(self, kind: str, command: str | None, count: int) -> None:
        self.pending.append([kind, command, count])

    def take(self, command: str) -> str | None:
        for fault in self.pending:
            if fault[1] in (None, command, _SPELLINGS.get(command)):
                fault[2] -= 1
                if fault[2] <= 0:
                    self.pending.remove(fault)
                return str(fault[0])
        return None


class _Sensors:
    """The matrix as ``scanner.MatrixReader`` sees it: one rank's files as
    bits; on the hex board, one row line's column lines, through the
    crossings of its pinout (``hexboard.MATRIX_CELLS``)."""

    def __init__(self, mcu: FakeMcu, crossings: tuple[int, ...] = (), width: int = 0) -> None:
        self.mcu = mcu
        self.crossings = crossings
        self.width = width

    def read_row(self, rank: int) -> int:
        if self.crossings:
            row = self.crossings[rank * self.width : (rank + 1) * self.width]
            occupancy = self.mcu.occupancy
            return sum(1 << f for f, cell in enumerate(row) if cell >= 0 and occupancy >> cell & 1)
        files: int = self.mcu.shape.files
        return self.mcu.occupancy >> (rank * files) & ((1 << files) - 1)


class _Output:
    """Where the LED words go (the PIO state machine on the Pico)."""

    def __init__(self) -> None:
        self.words: list[int] = []

    def write(self, words: Any) -> None:
        self.words = [word >> 8 for word in words]  # the 24 bits on top

    def ready(self) -> bool:
        return True


def _recording_strip(ws2812: ModuleType) -> type:
    """The firmware's ``LedStrip``, remembering the frames and palette it is given."""

    class RecordingStrip(ws2812.LedStrip):  # type: ignore[misc, name-defined]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.frames: list[bytes] = []  # LED frames from the host, in order
            self.palette: list[tuple[int, int, int]] = []
            self._resetting = False
            super().__init__(*args, **kwargs)

        def reset(self) -> None:
            self._resetting = True
            try:
                super().reset()
            finally:
                self._resetting = False

        def set_frame(self, frame: bytes) -> None:
            super().set_frame(frame)
            if not self._resetting:
                self.frames.append(bytes(frame))

        def set_palette(self, colours: Any) -> None:
            super().set_palette(colours)
            given = [(c >> 16, (c >> 8) & 0xFF, c & 0xFF) for c in colours]
            self.palette = given + [(0, 0, 0)] * (15 - len(given))

    return RecordingStrip


def take_waiting(inbox: bytearray, buf: bytearray, count: int, limit: int, stop: int) -> int:
    """What hal.UsbSerial.readinto reads from bytes waiting in `inbox`
    (taken out of it) into buf after its first `count` (the firmware's own
    stand-in, check_logic.take_waiting); the count buf holds then."""
    filled: int = firmware().check_logic.take_waiting(inbox, 0, len(inbox), buf, count, limit, stop)
    del inbox[: filled - count]
    return filled


class _PtyPort:
    """The USB port as ``app.Firmware`` sees it (``hal.UsbSerial``), on a pty
    master, with the fault injection on whole lines."""

    def __init__(self, mcu: FakeMcu, fd: int) -> None:
        self.mcu = mcu
        self.fd = fd
        self.inbox = bytearray()  # from the host, after the faults
        self._partial = b""

    def receive(self, data: bytes) -> None:
        """Bytes from the host: whole lines go through the faults into the inbox."""
        *lines, self._partial = (self._partial + data).split(b"\n")
        for line in lines:
            line += b"\n"
            fault = self.mcu.rx_faults.take(command_of(line))
            if fault == "drop":
                self.mcu.dropped_rx += 1
                continue
            if fault == "corrupt":
                self.mcu.corrupted_rx += 1
                line = _damage(line, self.mcu.rng, first=4, printable=True)
            elif command_of(line) == "HELLO":
                self.mcu.host_hellos += 1
            self.inbox += line

    def readinto(
        self, buf: bytearray, count: int, limit: int, stop: int, tick: object = None
    ) -> int:
        return take_waiting(self.inbox, buf, count, limit, stop)

    def wait(self, ms: int) -> bool:
        return bool(self.inbox)

    def write(self, line: bytes) -> bool:
        """False, writing nothing, while the pty has no room (no host reading)."""
        try:
            _, writable, _ = select.select([], [self.fd], [], 0)
        except (OSError, ValueError):
            return False
        if not writable:
            return False
        self.mcu.transmit(line)
        return True


class FakeMcu:
    """The board's microcontroller, faked on a pty; use it as a context manager.

    ``directory`` holds the port symlink (a test's ``tmp_path``).  ``board``
    "hex121" makes it the hex board's Pico (``files``, ``ranks`` and ``leds``
    are then the board's), with the matrix and LED chain of ``hexboard.py``.
    """

    def __init__(
        self,
        directory: Path,
        occupancy: int = 0,
        *,
        files: int = 10,
        ranks: int = 8,
        leds: int = 80,
        board: str | None = None,
        seed: int = 0,
        clock: Callable[[], float] = time.monotonic,
        idle: float = IDLE,
    ) -> None:
        self.fw = firmware()
        self.shape = (
            self.fw.protocol.Shape(files, ranks, leds)
            if board is None
            else self.fw.protocol.Shape(leds=self.fw.hexboard.LED_COUNT, board=board)
        )
        self.port = str(directory / "ttyFAKE0")
        self.clock = clock
        self.idle = idle  # seconds the loop waits for input each turn
        self.rng = random.Random(seed)
        self.corrupt_ratio = 0.0  # chance that a line to the host is damaged
        self.info = [("FW", "0.1.0-fake")]
        self.lock = threading.RLock()  # hold it to make several changes at once
        self.rx_faults = _Faults()
        self.tx_faults = _Faults()
        self._occupancy = occupancy
        self._strip_class = _recording_strip(self.fw.ws2812)
        self._stop = threading.Event()
        self._master: int | None = None
        self._slave: int | None = None
        self._port: _PtyPort | None = None
        self._generation = 0
        self._muted = False
        self.device: Any = None  # app.Firmware
        self.in_repl = False  # the host sent 0x03
        # What happened, for the assertions.
        self.boots = 0
        self.snaps_sent: list[int] = []  # occupancy of each SNAP written intact
        self.lines_written = 0  # lines written intact
        self.dropped_tx = 0
        self.corrupted_tx = 0
        self.dropped_rx = 0
        self.corrupted_rx = 0
        self.overflow_tx = 0  # bytes the pty would not take
        self.host_hellos = 0  # HELLO lines from the host that arrived
        self.plug()
        self._thread = threading.Thread(target=self._run, name="fake-mcu", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------ the test's view

    @property
    def occupancy(self) -> int:
        return self._occupancy

    @occupancy.setter
    def occupancy(self, bits: int) -> None:
        with self.lock:
            self._occupancy = bits

    @property
    def plugged(self) -> bool:
        return self._master is not None

    @property
    def link(self) -> Any:
        """The firmware's ``DeviceLink``."""
        return self.device.link

    @property
    def led_frames(self) -> list[bytes]:
        """The LED frames the host sent since the last boot, in order."""
        return list(self.device.strip.frames)

    def colours(self) -> list[tuple[int, int, int]]:
        """The colour of each LED in the firmware's frame (protocol LED order)."""
        with self.lock:
            strip = self.device.strip
            return [(0, 0, 0) if i == 0 else strip.palette[i - 1] for i in strip.frame]

    def counters(self) -> dict[str, int]:
        """The firmware link's counters."""
        with self.lock:
            return dict(self.link.counters)

    # ------------------------------------------------------------ faults

    def drop_next(self, command: str | None = None, count: int = 1) -> None:
        """The next ``count`` lines to the host (of ``command``) are lost on the wire."""
        with self.lock:
            self.tx_faults.add("drop", command, count)

    def corrupt_next(self, command: str | None = None, count: int = 1) -> None:
        """One byte of each of the next ``count`` lines to the host is damaged."""
        with self.lock:
            self.tx_faults.add("corrupt", command, count)

    def drop_incoming(self, command: str | None = None, count: int = 1) -> None:
        """The next ``count`` lines from the host (of ``command``) never arrive."""
        with self.lock:
            self.rx_faults.add("drop", command, count)

    def corrupt_incoming(self, command: str | None = None, count: int = 1) -> None:
        """The next ``count`` lines from the host arrive with one byte damaged
        after the sequence number, so the firmware answers NAK CRC."""
        with self.lock:
            self.rx_faults.add("corrupt", command, count)

    def send_garbage(self, data: bytes) -> None:
        """Write raw bytes to the host now (line noise, a REPL banner …)."""
        with self.lock:
            self._write(data)

    def mute(self) -> None:
        """Stop answering: the firmware hangs (neither reads nor writes)."""
        with self.lock:
            self._muted = True

    def unmute(self) -> None:
        with self.lock:
            self._muted = False

    def reset(self) -> None:
        """Reboot the firmware on the same pty: a new HELLO, LEDs dark."""
        with self.lock:
            self._boot()

    def unplug(self) -> None:
        """Pull the cable: close the pty and remove the port's name."""
        with self.lock:
            self._generation += 1
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None
            self._port = None
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.port)

    def plug(self) -> None:
        """Plug the cable back: a new pty under the same name, the firmware boots."""
        with self.lock:
            if self._master is not None:
                raise RuntimeError("already plugged in")
            master, slave = os.openpty()
            tty.setraw(master)
            tty.setraw(slave)
            os.set_blocking(master, False)
            link_name = self.port + ".new"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(link_name)
            os.symlink(os.ttyname(slave), link_name)
            os.replace(link_name, self.port)
            self._master, self._slave = master, slave
            self._port = _PtyPort(self, master)
            self._generation += 1
            self._boot()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        if self.plugged:
            self.unplug()

    def __enter__(self) -> FakeMcu:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------ the firmware

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    def _boot(self) -> None:
        """Power on: build the firmware as main.build() does, on the fakes."""
        fw, shape = self.fw, self.shape
        assert self._port is not None
        self.boots += 1
        self.in_repl = False
        self._port.inbox.clear()
        if shape.board is not None:  # as main.build_named() on the hex board
            hexboard = fw.hexboard
            rows, width = len(hexboard.MATRIX_ROW_PINS), len(hexboard.MATRIX_COLUMN_PINS)
            reader = fw.scanner.MatrixReader(_Sensors(self, hexboard.MATRIX_CELLS, width), rows)
            scan = fw.scanner.Scanner(
                reader, width, rows, fw.app.DEBOUNCE_READS, False, hexboard.MATRIX_CELLS
            )
            strip = self._strip_class(
                _Output(), shape.leds, shape.leds, positions=hexboard.LED_CHAIN
            )
        else:
            width = shape.files if shape.leds == shape.squares else shape.files + 1
            reader = fw.scanner.MatrixReader(_Sensors(self), shape.ranks)
            scan = fw.scanner.Scanner(reader, shape.files, shape.ranks, fw.app.DEBOUNCE_READS)
            strip = self._strip_class(_Output(), shape.leds, width)
        # Each boot its own number, as the firmware counts them in its flash.
        link = fw.link.DeviceLink(shape, list(self.info), self._now_ms(), self.boots)
        self.device = fw.app.Firmware(scan, strip, self._port, link)

    def _run(self) -> None:
        while not self._stop.is_set():
            with self.lock:
                fd = None if self._muted or self.in_repl else self._master
                generation = self._generation
            if fd is None:
                time.sleep(self.idle)
                continue
            try:
                ready, _, _ = select.select([fd], [], [], self.idle)
            except (OSError, ValueError):  # unplugged while waiting
                continue
            with self.lock:
                if generation != self._generation or self._muted or self._port is None:
                    continue
                if ready:
                    with contextlib.suppress(OSError):  # EAGAIN, or EIO with no host
                        self._port.receive(os.read(fd, 4096))
                if not self.device.step(self._now_ms()):
                    self.in_repl = True  # byte 0x03: back to the REPL

    def transmit(self, line: bytes) -> None:
        """A line the firmware writes: through the faults onto the wire."""
        command = command_of(line)
        fault = self.tx_faults.take(command)
        if fault is None and self.corrupt_ratio and self.rng.random() < self.corrupt_ratio:
            fault = "corrupt"
        if fault == "drop":
            self.dropped_tx += 1
            return
        if fault == "corrupt":
            self.corrupted_tx += 1
            self._write(_damage(line, self.rng))
            return
        if command == "SNAP":
            _, _, (occupancy, _, _) = self.fw.protocol.decode(line.rstrip(b"\r\n"), self.shape)
            self.snaps_sent.append(occupancy)
        self.lines_written += 1
        self._write(line)

    def _write(self, data: bytes) -> None:
        if self._master is None:
            return
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._master, view)
            except OSError:  # the pty's buffer is full: the bytes are lost
                self.overflow_tx += len(view)
                return
            view = view[written:]


def _damage(line: bytes, rng: random.Random, first: int = 0, printable: bool = False) -> bytes:
    """``line`` with one byte replaced by a different one, at or after ``first``
    and before the terminator.  ``printable``: only in the body (before "*"),
    with a printable byte that is not a delimiter, so the line stays one frame
    whose checksum fails."""
    end = line.rfind(b"*") if printable else len(line.rstrip(b"\r\n"))
    position = rng.randrange(first, end)
    old = line[position]
    while True:
        new = rng.randrange(0x20, 0x7F) if printable else rng.randrange(256)
        if new != old and not (printable and new in b"$*"):
            break
    return line[:position] + bytes([new]) + line[position + 1 :]
