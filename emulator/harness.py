"""The firmware on an emulated Pico, driven from Python (tests and bench/pico.py).

:class:`EmulatedPico` packs the firmware's files into a littlefs image,
starts ``pico.mjs`` (MicroPython on rp2040js under Node.js) and speaks its
control protocol: the USB port is a TCP port that ``SerialBoard`` opens as
``socket://127.0.0.1:PORT``; sensor contacts are set in simulated time; each
frame the WS2812 line carried is decoded and kept; :meth:`now` is the chip's
simulated clock, which the host must use as its own, since the emulator runs
several times slower than a real Pico.

The MicroPython build and the RP2040 bootrom are not ours: they are looked
for in ``BOARDCTL_PICO_EMU`` (default ``../shared/emu`` beside the checkout)
and never kept in the repository.  :func:`missing` says in one line what is
not there.
"""

from __future__ import annotations

import json
import os
import queue
import re
import runpy
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import serial

HERE = Path(__file__).resolve().parent
if "serialurl" not in serial.protocol_handler_packages:
    serial.protocol_handler_packages.append("serialurl")  # pico:// (serialurl/)
ROOT = HERE.parent
FIRMWARE_DIR = ROOT / "firmware"
EMU_DIR = Path(os.environ.get("BOARDCTL_PICO_EMU", ROOT.parent / "shared" / "emu"))
MICROPYTHON = "micropython-v1.28.0-rpi-pico.bin"
BOOTROM = "rp2040-bootrom-b1.bin"
RUNNER = HERE / "pico.mjs"

# MicroPython's rp2 port on the Pico's 2 MB flash: a littlefs v2 filesystem of
# 352 blocks of 4 KiB at flash offset 0xA0000 (ports/rp2/mpconfigport.h, and
# NOTES-emulation: these sizes mounted).
FS_BLOCK_SIZE = 4096
FS_BLOCK_COUNT = 352
FS_PROG_SIZE = 256


# What `make firmware` puts on a Pico (scripts/firmware_files.py): one source for both.
deploy = SimpleNamespace(**runpy.run_path(str(ROOT / "scripts" / "firmware_files.py")))


def missing() -> str | None:
    """Why the emulated Pico cannot run here (one line), or None."""
    for name in (MICROPYTHON, BOOTROM):
        if not (EMU_DIR / name).is_file():
            return f"no {name} in {EMU_DIR} (set BOARDCTL_PICO_EMU): the emulated Pico is not run"
    if shutil.which("node") is None:
        return "no Node.js (node) on this machine: the emulated Pico is not run"
    if not (HERE / "node_modules" / "rp2040js" / "package.json").is_file():
        return "rp2040js is not installed (make test runs npm ci in emulator/)"
    return None


def pins_source(**settings: object) -> str:
    """firmware/pins.py with some of its settings changed, as a user edits it."""
    text = (FIRMWARE_DIR / "pins.py").read_text()
    for name, value in settings.items():
        text, count = re.subn(rf"^{name} = .*$", f"{name} = {value!r}", text, flags=re.M)
        if count != 1:
            raise ValueError(f"pins.py has no single setting {name}")
    return text


def filesystem_image(files: dict[str, bytes]) -> bytes:
    """A littlefs image as MicroPython's rp2 port mounts it, holding `files`."""
    from littlefs import LittleFS

    fs = LittleFS(
        block_size=FS_BLOCK_SIZE,
        block_count=FS_BLOCK_COUNT,
        prog_size=FS_PROG_SIZE,
        read_size=FS_PROG_SIZE,
    )
    for name, data in files.items():
        with fs.open(name, "wb") as handle:
            handle.write(data)
    return bytes(fs.context.buffer)


def firmware_files(pins: str | None = None) -> dict[str, bytes]:
    """The firmware as deployed (`make firmware`, one build for every board): main.py
    and pins.py as source, the other modules compiled; pins.py replaced by `pins` if
    given."""
    return deploy.compiled(deploy.sources(pins, deploy.HEX_BOARD))


@dataclass(frozen=True)
class Frame:
    """One frame of the WS2812 line: the 24-bit words in chain order, when it
    started and ended (simulated ns) and the high times and bit periods seen."""

    words: tuple[int, ...]
    bits: int
    start: int
    end: int
    zero_high: tuple[int, int] | None
    one_high: tuple[int, int] | None
    period: tuple[int, int] | None
    ns: int


class EmulatorError(RuntimeError):
    pass


class EmulatedPico:
    """One emulated Pico running the firmware in `files`; a context manager.

    Every wait is bounded both in simulated time and in wall time, so a
    firmware that stops answering fails a test instead of hanging it."""

    def __init__(
        self, files: dict[str, bytes], *, led_pin: int = 22, wall_limit: float = 120.0
    ) -> None:
        reason = missing()
        if reason is not None:
            raise EmulatorError(reason)
        self._dir = tempfile.TemporaryDirectory(prefix="boardctl-pico-")
        image = Path(self._dir.name) / "littlefs.img"
        image.write_bytes(filesystem_image(files))
        self.wall_limit = wall_limit
        self._id = 0
        self._open_stream()
        self._process = subprocess.Popen(
            [
                "node",
                str(RUNNER),
                "--bootrom",
                str(EMU_DIR / BOOTROM),
                "--firmware",
                str(EMU_DIR / MICROPYTHON),
                "--fs",
                str(image),
                "--led-pin",
                str(led_pin),
            ],
            cwd=HERE,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        ready = self._wait_event(lambda e: e["ev"] == "ready", wall=30.0)
        self.port = int(ready["port"])  # type: ignore[call-overload]
        self.url = f"pico://127.0.0.1:{self.port}"

    # -- the event stream ----------------------------------------------------

    def _open_stream(self) -> None:
        """What the reader fills from the emulator's stdout (see _read)."""
        self._events: queue.Queue[dict[str, object]] = queue.Queue()
        self._lock = threading.Lock()
        self._ns = 0
        self.frames: list[Frame] = []
        self.log: list[dict[str, object]] = []
        self.chatter: list[str] = []  # lines on the emulator's stdout that are not events

    def _read(self) -> None:
        assert self._process.stdout is not None
        for text in self._process.stdout:
            try:
                event = json.loads(text)
            except json.JSONDecodeError:
                # Not one of pico.mjs's events: something in rp2040js printed
                # to stdout.  Kept for a failure's message; the stream goes on
                # (a reader that stopped here left every later wait to time out).
                self.chatter.append(text.rstrip("\n"))
                continue
            with self._lock:
                self._ns = max(self._ns, int(event["ns"]))
                if event["ev"] == "frame":
                    self.frames.append(
                        Frame(
                            tuple(event["words"]),
                            event["bits"],
                            event["start"],
                            event["end"],
                            _pair(event["zero_high"]),
                            _pair(event["one_high"]),
                            _pair(event["period"]),
                            event["ns"],
                        )
                    )
            if event["ev"] != "t":
                self.log.append(event)
                self._events.put(event)
        self._events.put({"ev": "exit", "ns": self._ns})

    def _wait_event(
        self, matches: Callable[[dict[str, object]], bool], wall: float | None = None
    ) -> dict[str, object]:
        deadline = time.monotonic() + (self.wall_limit if wall is None else wall)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EmulatorError("the emulated Pico did not answer in time")
            try:
                event = self._events.get(timeout=left)
            except queue.Empty:
                continue
            if event["ev"] == "exit":
                raise EmulatorError(f"the emulator stopped: {self.stderr()}")
            if matches(event):
                return event

    def stopped(self) -> bool:
        return self._process.poll() is not None

    def stderr(self) -> str:
        try:
            self._process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return ""
        if self._process.stderr is None:
            return ""
        return self._process.stderr.read()[-2000:]

    # -- time --------------------------------------------------------------------

    def now(self) -> float:
        """The chip's simulated time in seconds."""
        with self._lock:
            return self._ns / 1e9

    def wait_until(self, seconds: float, *, wall: float | None = None) -> None:
        """Block until the simulated clock reaches `seconds`."""
        deadline = time.monotonic() + (self.wall_limit if wall is None else wall)
        while self.now() < seconds:
            if self._process.poll() is not None:
                raise EmulatorError(f"the emulator stopped: {self.stderr()}")
            if time.monotonic() > deadline:
                raise EmulatorError(f"simulated time stuck at {self.now():.3f} s")
            time.sleep(0.002)

    def sleep(self, seconds: float) -> None:
        self.wait_until(self.now() + seconds)

    # -- commands ------------------------------------------------------------------

    def command(self, cmd: str, **fields: object) -> dict[str, object]:
        """Send a command and wait until the emulator has carried it out.

        Returns the emulator's `done` event, whose `ns` is the simulated time
        the command took effect: the clock read after the wait may be well
        past it, for the chip runs on while this process waits its turn."""
        self._id += 1
        ident = self._id
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps({"cmd": cmd, "id": ident, **fields}) + "\n")
        self._process.stdin.flush()
        return self._wait_event(lambda e: e["ev"] == "done" and e["id"] == ident, wall=30.0)

    def stats(self) -> dict[str, float]:
        """The emulator's counts so far: simulated ns (`ns`), of them asleep
        (`idle_ns`, the chip waiting for an interrupt), and `instructions`."""
        self.command("stats")
        event = [e for e in self.log if e["ev"] == "stats"][-1]
        return {key: float(event[key]) for key in ("ns", "idle_ns", "instructions")}  # type: ignore[arg-type]

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                assert self._process.stdin is not None
                self._process.stdin.close()
                self._process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()
        self._dir.cleanup()

    def __enter__(self) -> EmulatedPico:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _pair(value: object) -> tuple[int, int] | None:
    if value is None:
        return None
    first, second = value  # type: ignore[misc]
    return (int(first), int(second))


# -- the boards: which contacts a piece closes, and where each LED sits ------------


@dataclass(frozen=True)
class Board:
    """One of the firmware's boards as the emulator wires it, from the
    project's pinouts (hardware/pinout.toml, hardware/hex/pinout.toml), not
    from the firmware: a square's matrix crossing or chain bit, its LED's
    place in the chain, and the firmware files and pins.py that build it."""

    name: str
    squares: int
    files: dict[str, bytes]
    sensor: str  # "matrix" or "shiftreg"
    crossings: tuple[tuple[int, int], ...]  # square -> (row GPIO, column GPIO)
    rows: tuple[int, ...]
    columns: tuple[int, ...]
    load: int = 0  # 74HC165: SH/LD GPIO, SPI bus, bytes
    spi: int = 0
    chain_bytes: int = 0
    led_position: tuple[int, ...] = ()  # square -> its LED's place in the chain
    max_level: int = 255
    hex: bool = False

    def wire(self, pico: EmulatedPico) -> None:
        if self.sensor == "matrix":
            pico.command("matrix", rows=list(self.rows), cols=list(self.columns))
        else:
            pico.command(
                "shiftreg",
                load=self.load,
                spi=self.spi,
                bytes=list(self.contacts(frozenset())),
                serial_in=0xFF,
            )

    def contacts(self, closed: frozenset[int] | set[int]) -> object:
        """The emulator's sensor state with the squares `closed` occupied."""
        if self.sensor == "matrix":
            return [list(self.crossings[sq]) for sq in sorted(closed)]
        # Active low, the first bit out the last square (firmware/pins.py).
        number = sum(1 << sq for sq in closed) ^ ((1 << (8 * self.chain_bytes)) - 1)
        return list(number.to_bytes(self.chain_bytes, "big"))

    def change(self, closed: frozenset[int] | set[int], *, after: float = 0.0) -> dict[str, object]:
        key = "closed" if self.sensor == "matrix" else "bytes"
        return {key: self.contacts(closed), "after": round(after * 1e9)}


def boards() -> dict[str, Board]:
    """The three boards of the firmware: the 8 x 10 matrix, the 8 x 10
    74HC165 chain and the hex board's 12 x 12 matrix."""
    from boardctl.hw.hexpins import default_hex_pinout
    from boardctl.hw.leds import LedMap
    from boardctl.hw.pins import default_pinout

    def chain(layout: object, squares: int) -> tuple[int, ...]:
        # The host's reading of [leds], not the firmware's: an oracle of its own.
        leds = LedMap(layout)  # type: ignore[arg-type]
        return tuple(leds.index(*leds.points(sq)[0]) for sq in range(squares))

    pinout = default_pinout()
    pico = pinout.pico
    leds = chain(pinout.leds, 80)
    level = round(pinout.leds.brightness_cap * 255)  # what pins.py says as LED_MAX_LEVEL
    crossings = tuple((pico.rows[sq // 10], pico.columns[sq % 10]) for sq in range(80))
    matrix = Board(
        "matrix",
        80,
        firmware_files(),
        "matrix",
        crossings,
        pico.rows,
        pico.columns,
        led_position=leds,
        max_level=level,
    )
    sr = pico.shiftreg
    shiftreg = Board(
        "shiftreg",
        80,
        firmware_files(pins_source(SENSOR="shiftreg", SENSOR_ACTIVE_LOW=True)),
        "shiftreg",
        (),
        (),
        (),
        load=sr.load,
        spi=sr.spi_bus,
        chain_bytes=10,
        led_position=leds,
        max_level=level,
    )
    hexp = default_hex_pinout()
    width = len(hexp.matrix.columns)
    hex_rows = hexp.pico.rows
    hex_cols = hexp.pico.columns
    hex_crossings = []
    for cell in range(hexp.cells):
        row, column = divmod(hexp.matrix.crossings.index(cell), width)
        hex_crossings.append((hex_rows[row], hex_cols[column]))
    hexboard = Board(
        "hex",
        hexp.cells,
        firmware_files(pins_source(BOARD="hex121")),
        "matrix",
        tuple(hex_crossings),
        hex_rows,
        hex_cols,
        led_position=chain(hexp.leds, hexp.cells),
        max_level=level,
        hex=True,
    )
    return {board.name: board for board in (matrix, shiftreg, hexboard)}


def b64(data: bytes) -> str:
    import base64

    return base64.b64encode(data).decode()
