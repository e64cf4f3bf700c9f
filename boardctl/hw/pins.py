"""The pinout (``hardware/pinout.toml``) as typed, checked values.

The pinout is the single source of truth for every pin of both builds: the
Pi GPIO build (diode matrix or 74HC165 chain, LED SPI bus, buttons) and the
Pico build (matrix and LED pins on the microcontroller), plus the LED layout.
:func:`load_pinout` reads a file; :func:`default_pinout` reads the copy that
ships inside the package (``_pinout_default.py``, generated from the file by
``python -m boardctl.hw.pins sync`` and tested to be in sync).

Every error names the offending key::

    >>> parse_pinout(text.replace("rows = [4,", "rows = [40,"))
    PinoutError: pinout.toml: pi.matrix.rows[0]: GPIO40 is not a header GPIO (2–27)

Checks: types and ranges, 8 rows and 10 columns, SPI pins that belong to
their bus, and no pin used twice within a build (SPI clock and MOSI may be
shared between the LEDs and the 74HC165 chain on the same bus: that is the
wiring, not a conflict).
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..userfiles import TOML_LIMIT, parse_toml, read_text
from .errors import PinoutError

RANKS = 8
FILES = 10
SQUARES = RANKS * FILES
SR_INPUTS = 8  # inputs per 74HC165
SR_CHIPS = -(-SQUARES // SR_INPUTS)  # the 8×10 board's chain

PI_HEADER_GPIOS = range(2, 28)  # GPIO0/1 are the HAT EEPROM bus
PICO_GPIOS = frozenset(range(29)) - {23, 24, 25}  # GP23–25: power, VBUS sense, LED / wireless
CORNERS = ("a1", "j1", "a8", "j8")
ORDERS = ("rows", "serpentine")
ALONG = ("ranks", "files")
COLOUR_ORDERS = ("GRB", "RGB")
SENSORS = ("matrix", "shiftreg")


@dataclass(frozen=True)
class SpiBus:
    """The fixed pins of one hardware SPI bus on the 40-pin header."""

    clock: int
    mosi: int
    miso: int
    selects: tuple[int, ...]


SPI_BUSES: dict[int, SpiBus] = {
    0: SpiBus(clock=11, mosi=10, miso=9, selects=(8, 7)),
    1: SpiBus(clock=21, mosi=20, miso=19, selects=(18, 17, 16)),
}


@dataclass(frozen=True)
class LedLayout:
    """How the LED chain lies under the board and how hard it may be driven."""

    count: int = 80  # 80 per-square LEDs or 99 corner LEDs (9 × 11)
    order: str = "serpentine"  # "rows" or "serpentine"
    along: str = "ranks"  # lines run along ranks or along files
    first: str = "a1"  # corner of the first LED
    colour_order: str = "GRB"
    brightness_cap: float = 0.5
    max_current_ma: int = 2500
    ma_per_channel: float = 20.0
    # The cell under each LED in chain order, for a board whose chain is
    # listed cell by cell (the hex board, hexpins.py); () for the grid above.
    chain: tuple[int, ...] = ()

    @property
    def corner_grid(self) -> bool:
        """True for the 9 × 11 grid of LEDs at the square corners."""
        return not self.chain and self.count == (RANKS + 1) * (FILES + 1)

    @property
    def width(self) -> int:
        """LEDs along a rank (10 per-square, 11 corners; a listed chain is one line)."""
        if self.chain:
            return len(self.chain)
        return FILES + 1 if self.corner_grid else FILES

    @property
    def height(self) -> int:
        """LEDs along a file (8 per-square, 9 corners; 1 for a listed chain)."""
        if self.chain:
            return 1
        return RANKS + 1 if self.corner_grid else RANKS

    @property
    def cells(self) -> int:
        """The squares (cells) the LEDs light."""
        return len(self.chain) if self.chain else SQUARES


@dataclass(frozen=True)
class MatrixPins:
    """Rows are driven one at a time; a column reads closed when it is away from its pull."""

    rows: tuple[int, ...]  # ranks 1–8
    columns: tuple[int, ...]  # files a–j
    row_active_low: bool = False  # reed + diodes: rows driven high …
    column_pull_up: bool = False  # … columns pulled down (the Pico firmware's wiring)
    settle_us: int = 50


@dataclass(frozen=True)
class SpiPins:
    bus: int
    clock: int
    mosi: int
    miso: int | None
    select: int
    speed_hz: int

    @property
    def device(self) -> int:
        """The spidev device number (``/dev/spidev<bus>.<device>``)."""
        return SPI_BUSES[self.bus].selects.index(self.select)


@dataclass(frozen=True)
class ShiftRegPins:
    spi: SpiPins
    load: int
    chips: int = 10
    active_low: bool = True

    @property
    def miso(self) -> int:
        """The chain's data line (always set for the chain; only the LEDs have none)."""
        if self.spi.miso is None:
            raise ValueError("the 74HC165 chain needs a MISO pin")
        return self.spi.miso


@dataclass(frozen=True)
class PiPins:
    sensor: str
    matrix: MatrixPins
    shiftreg: ShiftRegPins
    leds: SpiPins
    buttons: Mapping[str, int]

    def uses(self, sensor: str | None = None) -> list[tuple[str, int, str | None]]:
        """Every pin the build with ``sensor`` (default: the configured one)
        claims, as (key, GPIO, share tag).  Two uses of one GPIO are fine only
        when both carry the same share tag (a bus line shared on purpose)."""
        sensor = sensor or self.sensor
        uses: list[tuple[str, int, str | None]] = []
        if sensor == "matrix":
            uses += [(f"pi.matrix.rows[{i}]", g, None) for i, g in enumerate(self.matrix.rows)]
            uses += [
                (f"pi.matrix.columns[{i}]", g, None) for i, g in enumerate(self.matrix.columns)
            ]
        else:
            uses += shiftreg_uses(self.shiftreg)
        return uses + leds_and_buttons_uses(self.leds, self.buttons)


@dataclass(frozen=True)
class PicoShiftRegPins:
    spi_bus: int
    clock: int
    mosi: int  # not connected, but the Pico's SPI needs one
    miso: int
    load: int
    active_low: bool = True


@dataclass(frozen=True)
class PicoPins:
    sensor: str
    matrix: MatrixPins
    shiftreg: PicoShiftRegPins
    led_data: int

    @property
    def rows(self) -> tuple[int, ...]:
        return self.matrix.rows

    @property
    def columns(self) -> tuple[int, ...]:
        return self.matrix.columns

    def uses(self, sensor: str | None = None) -> list[tuple[str, int, str | None]]:
        """Every Pico pin the build with ``sensor`` (default: the configured one) claims."""
        sensor = sensor or self.sensor
        uses: list[tuple[str, int, str | None]] = []
        if sensor == "matrix":
            uses += [(f"pico.matrix.rows[{i}]", g, None) for i, g in enumerate(self.rows)]
            uses += [(f"pico.matrix.columns[{i}]", g, None) for i, g in enumerate(self.columns)]
        else:
            sr = self.shiftreg
            uses += [
                ("pico.shiftreg.clock", sr.clock, None),
                ("pico.shiftreg.mosi", sr.mosi, None),
                ("pico.shiftreg.miso", sr.miso, None),
                ("pico.shiftreg.load", sr.load, None),
            ]
        uses.append(("pico.led_data", self.led_data, None))
        return uses


@dataclass(frozen=True)
class Pinout:
    leds: LedLayout
    pi: PiPins
    pico: PicoPins
    source: str = "pinout.toml"


def shiftreg_uses(shiftreg: ShiftRegPins) -> list[tuple[str, int, str | None]]:
    """The pins a Pi's 74HC165 chain claims, as :meth:`PiPins.uses` lists them."""
    return [*_spi_uses("pi.shiftreg", shiftreg.spi), ("pi.shiftreg.load", shiftreg.load, None)]


def leds_and_buttons_uses(
    leds: SpiPins, buttons: Mapping[str, int]
) -> list[tuple[str, int, str | None]]:
    """The pins a Pi's LED chain and buttons claim, as :meth:`PiPins.uses` lists them."""
    return _spi_uses("pi.leds", leds) + [(f"pi.buttons.{n}", g, None) for n, g in buttons.items()]


def _spi_uses(key: str, spi: SpiPins) -> list[tuple[str, int, str | None]]:
    bus = f"spi{spi.bus}"
    uses: list[tuple[str, int, str | None]] = [
        (f"{key}.clock", spi.clock, f"{bus}.clock"),
        (f"{key}.mosi", spi.mosi, f"{bus}.mosi"),
        (f"{key}.select", spi.select, None),
    ]
    if spi.miso is not None:
        uses.append((f"{key}.miso", spi.miso, f"{bus}.miso"))
    return uses


T = TypeVar("T")


class _Table:
    """One TOML table with its dotted key, for errors that name the key."""

    def __init__(self, source: str, key: str, data: Mapping[str, Any]) -> None:
        self.source, self.key, self.data = source, key, data
        self.seen: set[str] = set()

    def error(self, name: str, message: str) -> PinoutError:
        return PinoutError(self.source, f"{self.key}.{name}" if self.key else name, message)

    def _get(self, name: str, kind: type[T] | tuple[type, ...], what: str, default: Any) -> Any:
        self.seen.add(name)
        if name not in self.data:
            if default is _REQUIRED:
                raise self.error(name, "missing")
            return default
        value = self.data[name]
        if isinstance(value, bool) and kind is not bool:
            raise self.error(name, f"expected {what}, got {value!r}")
        if not isinstance(value, kind):
            raise self.error(name, f"expected {what}, got {value!r}")
        return value

    def table(self, name: str) -> _Table:
        value = self._get(name, dict, "a table", _REQUIRED)
        return _Table(self.source, f"{self.key}.{name}" if self.key else name, value)

    def integer(self, name: str, lo: int, hi: int, default: Any = None) -> int:
        value: int = self._get(name, int, "an integer", _REQUIRED if default is None else default)
        if not lo <= value <= hi:
            raise self.error(name, f"{value} is outside {lo}–{hi}")
        return value

    def number(self, name: str, lo: float, hi: float, default: Any = None) -> float:
        value = self._get(name, (int, float), "a number", _REQUIRED if default is None else default)
        if not lo <= value <= hi:
            raise self.error(name, f"{value} is outside {lo}–{hi}")
        return float(value)

    def flag(self, name: str, default: Any = None) -> bool:
        value: bool = self._get(
            name, bool, "true or false", _REQUIRED if default is None else default
        )
        return value

    def choice(self, name: str, choices: tuple[str, ...], default: Any = None) -> str:
        value: str = self._get(name, str, "a string", _REQUIRED if default is None else default)
        if value not in choices:
            raise self.error(name, f"{value!r} is not one of {', '.join(choices)}")
        return value

    def pins(self, name: str, count: int, check: Callable[[str, int], None]) -> tuple[int, ...]:
        value = self._get(name, list, "a list of pin numbers", _REQUIRED)
        if len(value) != count:
            raise self.error(name, f"expected {count} pins, got {len(value)}")
        for i, pin in enumerate(value):
            if isinstance(pin, bool) or not isinstance(pin, int):
                raise self.error(f"{name}[{i}]", f"expected a pin number, got {pin!r}")
            check(f"{name}[{i}]", pin)
        return tuple(value)

    def pin(self, name: str, check: Callable[[str, int], None]) -> int:
        value: int = self._get(name, int, "a pin number", _REQUIRED)
        check(name, value)
        return value

    def no_unknown_keys(self) -> None:
        for name in self.data:
            if name not in self.seen:
                raise self.error(name, "unknown key")

    def pi_gpio(self, name: str, pin: int) -> None:
        if pin not in PI_HEADER_GPIOS:
            raise self.error(name, f"GPIO{pin} is not a header GPIO (2–27)")

    def pico_gpio(self, name: str, pin: int) -> None:
        if pin not in PICO_GPIOS:
            raise self.error(name, f"GP{pin} is not a free Pico GPIO (GP0–GP22, GP26–GP28)")


_REQUIRED = object()


def _leds(t: _Table) -> LedLayout:
    count = t.integer("count", 80, 99)
    if count not in (SQUARES, (RANKS + 1) * (FILES + 1)):
        raise t.error("count", f"{count}: must be 80 (per square) or 99 (corner grid)")
    return led_layout(
        t,
        count=count,
        order=t.choice("order", ORDERS),
        along=t.choice("along", ALONG),
        first=t.choice("first", CORNERS),
    )


def led_layout(
    t: _Table, *, count: int, order: str, along: str, first: str, chain: tuple[int, ...] = ()
) -> LedLayout:
    """An ``[leds]`` table's layout: where the LEDs are as given, and their
    colours and power (the same keys for every board) read from ``t``, which
    may hold nothing more."""
    layout = LedLayout(
        count=count,
        order=order,
        along=along,
        first=first,
        colour_order=t.choice("colour_order", COLOUR_ORDERS, "GRB"),
        brightness_cap=t.number("brightness_cap", 0.0, 1.0),
        max_current_ma=t.integer("max_current_ma", 100, 20_000),
        ma_per_channel=t.number("ma_per_channel", 1.0, 100.0, 20.0),
        chain=chain,
    )
    t.no_unknown_keys()
    return layout


def _spi(t: _Table, *, with_miso: bool, with_device: bool) -> SpiPins:
    bus_no = t.integer("spi_bus", 0, max(SPI_BUSES))
    if bus_no not in SPI_BUSES:
        raise t.error("spi_bus", f"{bus_no} is not a header SPI bus")
    bus = SPI_BUSES[bus_no]
    fixed = {"clock": bus.clock, "mosi": bus.mosi, "miso": bus.miso}
    pins: dict[str, int | None] = {}
    for name in ("clock", "mosi", "miso") if with_miso else ("clock", "mosi"):
        pin = t.pin(name, t.pi_gpio)
        if pin != fixed[name]:
            raise t.error(name, f"GPIO{pin}: SPI{bus_no} {name} is GPIO{fixed[name]}")
        pins[name] = pin
    select = t.pin("select", t.pi_gpio)
    if select not in bus.selects:
        allowed = ", ".join(f"GPIO{g}" for g in bus.selects)
        raise t.error("select", f"GPIO{select} is not an SPI{bus_no} chip select ({allowed})")
    if with_device:
        device = t.integer("spi_device", 0, len(bus.selects) - 1)
        if bus.selects[device] != select:
            raise t.error(
                "spi_device",
                f"device {device} of SPI{bus_no} selects with "
                f"GPIO{bus.selects[device]}, not GPIO{select}",
            )
    return SpiPins(
        bus=bus_no,
        clock=bus.clock,
        mosi=bus.mosi,
        miso=pins.get("miso"),
        select=select,
        speed_hz=t.integer("speed_hz", 10_000, 50_000_000),
    )


def _matrix(
    m: _Table, check: Callable[[str, int], None], rows: int = RANKS, columns: int = FILES
) -> MatrixPins:
    matrix = MatrixPins(
        rows=m.pins("rows", rows, check),
        columns=m.pins("columns", columns, check),
        row_active_low=m.choice("row_active", ("low", "high")) == "low",
        column_pull_up=m.choice("column_pull", ("up", "down")) == "up",
        settle_us=m.integer("settle_us", 0, 10_000),
    )
    if matrix.row_active_low and not matrix.column_pull_up:
        raise m.error("column_pull", "rows driven low need columns pulled up")
    m.no_unknown_keys()
    return matrix


def pi_shiftreg(t: _Table, chips: int) -> ShiftRegPins:
    """The Pi's ``shiftreg`` table under ``t``: ``chips`` 74HC165 on SPI."""
    s = t.table("shiftreg")
    shiftreg = ShiftRegPins(
        spi=_spi(s, with_miso=True, with_device=False),
        load=s.pin("load", s.pi_gpio),
        chips=s.integer("chips", chips, chips),
        active_low=s.flag("active_low"),
    )
    s.no_unknown_keys()
    return shiftreg


def pi_leds(t: _Table) -> SpiPins:
    """The Pi's ``leds`` table under ``t``: the LED chain's SPI lines."""
    led = t.table("leds")
    leds = _spi(led, with_miso=False, with_device=True)
    led.no_unknown_keys()
    return leds


def pi_buttons(t: _Table) -> dict[str, int]:
    """The Pi's ``buttons`` table under ``t``: a GPIO by button name."""
    b = t.table("buttons")
    buttons: dict[str, int] = {}
    for name in b.data:
        if not name.isidentifier():
            raise b.error(name, "a button name must be a plain word")
        buttons[name] = b.pin(name, b.pi_gpio)
    return buttons


def _pi(t: _Table) -> PiPins:
    sensor = t.choice("sensor", SENSORS)
    m = t.table("matrix")
    matrix = _matrix(m, m.pi_gpio)
    shiftreg = pi_shiftreg(t, SR_CHIPS)
    leds = pi_leds(t)
    buttons = pi_buttons(t)
    pi = PiPins(sensor=sensor, matrix=matrix, shiftreg=shiftreg, leds=leds, buttons=buttons)
    t.no_unknown_keys()
    return pi


# RP2040 pins that can carry each SPI signal.
PICO_SPI: dict[int, dict[str, tuple[int, ...]]] = {
    0: {"clock": (2, 6, 18, 22), "mosi": (3, 7, 19, 23), "miso": (0, 4, 16, 20)},
    1: {"clock": (10, 14, 26), "mosi": (11, 15, 27), "miso": (8, 12, 28)},
}


def _pico(t: _Table, rows: int = RANKS, columns: int = FILES) -> PicoPins:
    sensor = t.choice("sensor", SENSORS)
    m = t.table("matrix")
    matrix = _matrix(m, m.pico_gpio, rows, columns)
    s = t.table("shiftreg")
    bus = s.integer("spi_bus", 0, 1)
    lines: dict[str, int] = {}
    for name in ("clock", "mosi", "miso"):
        pin = s.pin(name, s.pico_gpio)
        if pin not in PICO_SPI[bus][name]:
            allowed = ", ".join(f"GP{g}" for g in PICO_SPI[bus][name])
            raise s.error(name, f"GP{pin} cannot be SPI{bus} {name} ({allowed})")
        lines[name] = pin
    shiftreg = PicoShiftRegPins(
        spi_bus=bus, load=s.pin("load", s.pico_gpio), active_low=s.flag("active_low"), **lines
    )
    s.no_unknown_keys()
    pico = PicoPins(
        sensor=sensor, matrix=matrix, shiftreg=shiftreg, led_data=t.pin("led_data", t.pico_gpio)
    )
    t.no_unknown_keys()
    return pico


def check_conflicts(source: str, uses: list[tuple[str, int, str | None]], prefix: str) -> None:
    """Raise :class:`PinoutError` if one pin has two uses (other than a shared bus line).

    :raises PinoutError: naming the second use and the first.
    """
    first: dict[int, tuple[str, str | None]] = {}
    for key, pin, tag in uses:
        if pin in first:
            other, other_tag = first[pin]
            if tag is None or tag != other_tag:
                raise PinoutError(source, key, f"{prefix}{pin} is already used by {other}")
        else:
            first[pin] = (key, tag)


def pinout_table(text: str, source: str) -> _Table:
    """The top of a pinout file of schema 1, either board's.

    :raises PinoutError: for bad TOML or another schema.
    """
    try:
        data = parse_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise PinoutError(source, "(file)", f"not valid TOML: {exc}") from None
    top = _Table(source, "", data)
    top.integer("schema", 1, 1)
    return top


def parse_pinout(text: str, source: str = "pinout.toml") -> Pinout:
    """Parse and check pinout TOML text.

    :raises PinoutError: for bad TOML, a missing, unknown or bad key, or a pin conflict.
    """
    top = pinout_table(text, source)
    pinout = Pinout(
        leds=_leds(top.table("leds")),
        pi=_pi(top.table("pi")),
        pico=_pico(top.table("pico")),
        source=source,
    )
    top.no_unknown_keys()
    for sensor in SENSORS:
        check_conflicts(source, pinout.pi.uses(sensor), "GPIO")
        check_conflicts(source, pinout.pico.uses(sensor), "GP")
    return pinout


def load_pinout(path: str | Path) -> Pinout:
    """Read and check a pinout file.

    :raises PinoutError: see :func:`parse_pinout`.
    :raises OSError: if the file cannot be read.
    """
    path = Path(path)
    return parse_pinout(read_text(path, TOML_LIMIT), source=str(path))


def default_pinout() -> Pinout:
    """The pinout that ships with boardctl (a copy of ``hardware/pinout.toml``)."""
    from ._pinout_default import PINOUT_TOML

    return parse_pinout(PINOUT_TOML, source="boardctl/hw/_pinout_default.py")


def repo_pinout_path() -> Path:
    """``hardware/pinout.toml`` in a source checkout."""
    return Path(__file__).resolve().parents[2] / "hardware" / "pinout.toml"


ORIGIN = ("hardware/pinout.toml", "boardctl.hw.pins", "tests/hw/test_pins.py")


def generated_module(text: str, origin: tuple[str, str, str] = ORIGIN) -> str:
    """The text of ``_pinout_default.py`` for pinout text ``text``; ``origin``
    is the file it copies, the module that writes it and the test that checks it."""
    if '"""' in text or "\\" in text:
        raise ValueError("pinout text must not contain triple quotes or backslashes")
    source, module, test = origin
    return (
        f'"""Generated from {source} by `python -m {module} sync`:\n'
        f'do not edit ({test} checks that it is in sync)."""\n\n'
        f'PINOUT_TOML = """\\\n{text}"""\n'
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m boardctl.hw.pins [check|sync] [PINOUT]``: check the pinout and
    print each build's pins, or rewrite the packaged copy from it."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = args.pop(0) if args else "check"
    path = Path(args[0]) if args else repo_pinout_path()
    pinout = load_pinout(path)
    if command == "sync":
        target = Path(__file__).with_name("_pinout_default.py")
        target.write_text(generated_module(path.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"wrote {target}")
        return 0
    if command != "check":
        print(f"unknown command {command!r} (check or sync)", file=sys.stderr)
        return 2
    for sensor in SENSORS:
        print_build(f"Pi GPIO build with {sensor}", pinout.pi.uses(sensor), "GPIO")
    for sensor in SENSORS:
        print_build(f"Pico build with {sensor} (buttons on the Pi)", pinout.pico.uses(sensor), "GP")
    return 0


def print_build(title: str, uses: list[tuple[str, int, str | None]], prefix: str) -> None:
    """What ``check`` prints of one build: its title, then each pin (``GPIO``
    or ``GP`` and its number, in one column) and its key."""
    print(f"{title}:")
    for key, pin, _tag in uses:
        print(f"  {prefix}{pin:<{7 - len(prefix)}} {key}")


if __name__ == "__main__":
    raise SystemExit(main())
