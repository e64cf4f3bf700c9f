"""The hex e-board's pinout (``hardware/hex/pinout.toml``) as typed, checked values.

The hex board (Falcon Hexagonal Chess, 121 cells) has its own pinout file,
read like the 8×10 board's (:mod:`.pins`, whose checks it shares): the LED
chain as the list of cells in wiring order, the sensor matrix as the ranks on
each row line and the files on each column line, and the pins of the two
builds.  The cells themselves (how many, their names and numbers) come from
the rules core's geometry (:data:`boardctl.rules.hexgeo.FALCON_HEX`), never
from the file, and :func:`parse_hex_pinout` refuses a pinout that leaves a
cell out or puts one twice (on two LEDs, on two lines of one kind, or two
cells on one crossing of the matrix)::

    >>> parse_hex_pinout(text.replace('"a8 a9 a10', '"a8 a8 a10'))
    PinoutError: pinout.toml: leds.chain[0]: a8 is on LED 0 and LED 1

``python -m boardctl.hw.hexpins sync`` rewrites the two copies made from
the file: the one an installed boardctl carries (``_hexpinout_default.py``)
and the firmware's constants (``firmware/hexboard.py``, MicroPython cannot
read TOML); ``check`` prints every pin of every build and the board's size.
"""

from __future__ import annotations

import math
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..rules.geometry import SQUARE_PINOUT
from ..rules.hexgeo import FALCON_HEX, HEX_PINOUT, HexGeometry
from ..userfiles import TOML_LIMIT, parse_toml, read_text
from .errors import PinoutError
from .pins import (
    _REQUIRED,
    SR_INPUTS,
    LedLayout,
    PicoPins,
    Pinout,
    ShiftRegPins,
    SpiPins,
    _pico,
    _Table,
    check_conflicts,
    generated_module,
    led_layout,
    leds_and_buttons_uses,
    parse_pinout,
    pi_buttons,
    pi_leds,
    pi_shiftreg,
    pinout_table,
    print_build,
    shiftreg_uses,
)

# The boards a hex pinout can describe, by the name the protocol's HELLO gives them.
HEX_BOARDS: dict[str, HexGeometry] = {"hex121": FALCON_HEX}
HEX_SENSORS = ("matrix", "shiftreg")
PI_HEX_SENSORS = ("shiftreg",)  # 24 matrix lines do not fit beside the LEDs and buttons
# What the generated copies say they come from (generated_module's origin).
HEX_ORIGIN = ("hardware/hex/pinout.toml", "boardctl.hw.hexpins", "tests/hw/test_hexpins.py")


@dataclass(frozen=True)
class HexMatrix:
    """The diode matrix: which ranks share each row line and which files each
    column line, and from them the cell at every crossing."""

    rows: tuple[tuple[int, ...], ...]  # rank numbers (1-13) on each row line
    columns: tuple[tuple[int, ...], ...]  # file indexes (a = 0) on each column line
    crossings: tuple[int, ...]  # row * len(columns) + column → cell, or -1

    def line_of(self, cell: int) -> tuple[int, int]:
        """The (row line, column line) a cell's switch sits between."""
        return divmod(self.crossings.index(cell), len(self.columns))


@dataclass(frozen=True)
class HexPiPins:
    sensor: str
    shiftreg: ShiftRegPins
    leds: SpiPins
    buttons: Mapping[str, int]

    def uses(self, sensor: str | None = None) -> list[tuple[str, int, str | None]]:
        """Every pin the build claims, as in :meth:`.pins.PiPins.uses`."""
        return shiftreg_uses(self.shiftreg) + leds_and_buttons_uses(self.leds, self.buttons)


@dataclass(frozen=True)
class HexPinout:
    board: str
    geometry: HexGeometry
    leds: LedLayout  # with ``chain``: the cell under each LED
    matrix: HexMatrix
    pi: HexPiPins
    pico: PicoPins
    source: str = "hardware/hex/pinout.toml"

    @property
    def cells(self) -> int:
        return self.geometry.size

    @property
    def chips(self) -> int:
        """74HC165 in the chain: enough inputs for every cell."""
        return math.ceil(self.cells / SR_INPUTS)


def _names(t: _Table, key: str, text: object, parse: dict[str, int], what: str) -> list[int]:
    if not isinstance(text, str) or not text.split():
        raise t.error(key, f"expected {what} separated by spaces, got {text!r}")
    out = []
    for word in text.split():
        if word not in parse:
            raise t.error(key, f"{word!r} is not one of the board's {what}")
        out.append(parse[word])
    return out


def _lines(t: _Table, name: str, parse: dict[str, int], what: str) -> tuple[tuple[int, ...], ...]:
    """A list of strings, each naming the ranks (files) on one line; every one exactly once."""
    value = t._get(name, list, "a list of strings", _REQUIRED)
    seen: dict[int, int] = {}
    lines = []
    for i, text in enumerate(value):
        line = _names(t, f"{name}[{i}]", text, parse, what)
        for item in line:
            if item in seen:
                word = next(k for k, v in parse.items() if v == item)
                raise t.error(f"{name}[{i}]", f"{word} is on line {seen[item]} and line {i}")
            seen[item] = i
        lines.append(tuple(line))
    missing = [k for k, v in parse.items() if v not in seen]
    if missing:
        raise t.error(name, f"{what} {', '.join(missing)} on no line")
    return tuple(lines)


def _matrix(t: _Table, geo: HexGeometry) -> HexMatrix:
    ranks = {str(n): n for n in sorted({geo.rank_number(c) for c in range(geo.size)})}
    files = {geo.file_letters[f]: f for f in sorted({geo.file_of(c) for c in range(geo.size)})}
    rows = _lines(t, "rows", ranks, "ranks")
    columns = _lines(t, "columns", files, "files")
    row_of = {rank: i for i, line in enumerate(rows) for rank in line}
    column_of = {file: i for i, line in enumerate(columns) for file in line}
    crossings = [-1] * (len(rows) * len(columns))
    for cell in range(geo.size):
        at = row_of[geo.rank_number(cell)] * len(columns) + column_of[geo.file_of(cell)]
        if crossings[at] != -1:
            raise t.error(
                "rows",
                f"{geo.name(crossings[at])} and {geo.name(cell)} share row "
                f"line {at // len(columns)} and column line {at % len(columns)}",
            )
        crossings[at] = cell
    t.no_unknown_keys()
    return HexMatrix(rows, columns, tuple(crossings))


def _leds(t: _Table, geo: HexGeometry) -> LedLayout:
    names = {geo.name(c): c for c in range(geo.size)}
    value = t._get("chain", list, "a list of strings", _REQUIRED)
    chain: list[int] = []
    where: dict[int, int] = {}
    for i, text in enumerate(value):
        for cell in _names(t, f"chain[{i}]", text, names, "cells"):
            if cell in where:
                raise t.error(
                    f"chain[{i}]", f"{geo.name(cell)} is on LED {where[cell]} and LED {len(chain)}"
                )
            where[cell] = len(chain)
            chain.append(cell)
    missing = [geo.name(c) for c in range(geo.size) if c not in where]
    if missing:
        raise t.error("chain", f"no LED for {', '.join(missing)}")
    return led_layout(
        t,
        count=len(chain),
        order="chain",
        along="chain",
        first=geo.name(chain[0]),
        chain=tuple(chain),
    )


def _pi(t: _Table, chips: int) -> HexPiPins:
    sensor = t.choice("sensor", PI_HEX_SENSORS)
    shiftreg = pi_shiftreg(t, chips)
    leds = pi_leds(t)
    buttons = pi_buttons(t)
    t.no_unknown_keys()
    return HexPiPins(sensor=sensor, shiftreg=shiftreg, leds=leds, buttons=buttons)


def parse_hex_pinout(text: str, source: str = "hardware/hex/pinout.toml") -> HexPinout:
    """Parse and check a hex pinout.

    :raises PinoutError: for bad TOML, a missing, unknown or bad key, a cell
        missing or doubled, or a pin used twice in one build.
    """
    top = pinout_table(text, source)
    board = top.choice("board", tuple(HEX_BOARDS))
    geo = HEX_BOARDS[board]
    leds = _leds(top.table("leds"), geo)
    matrix = _matrix(top.table("matrix"), geo)
    chips = math.ceil(geo.size / SR_INPUTS)
    pi = _pi(top.table("pi"), chips)
    pico = _pico(top.table("pico"), len(matrix.rows), len(matrix.columns))
    top.no_unknown_keys()
    pinout = HexPinout(
        board=board, geometry=geo, leds=leds, matrix=matrix, pi=pi, pico=pico, source=source
    )
    check_conflicts(source, pi.uses(), "GPIO")
    for sensor in HEX_SENSORS:
        check_conflicts(source, pico.uses(sensor), "GP")
    return pinout


def load_hex_pinout(path: str | Path) -> HexPinout:
    """Read and check a hex pinout file; raises as :func:`.pins.load_pinout` does."""
    return parse_hex_pinout(read_text(Path(path), TOML_LIMIT), source=str(path))


def hex_board(geo: object) -> HexGeometry | None:
    """The hex e-board's geometry when ``geo`` is one of :data:`HEX_BOARDS`, else None."""
    return next((board for board in HEX_BOARDS.values() if board == geo), None)


def pinout_schema(text: str) -> str:
    """Which board's pinout ``text`` is, by the ``pinout_schema`` names the
    rules' geometries give: a file with a top-level ``board`` key is a hex
    pinout, one without the 8×10 board's."""
    try:
        named = "board" in parse_toml(text)
    except tomllib.TOMLDecodeError:
        named = False  # either parser says so, naming the file
    return HEX_PINOUT if named else SQUARE_PINOUT


def read_pinout_schema(path: str | Path) -> str:
    """:func:`pinout_schema` of a file.  :raises OSError: if it cannot be read."""
    return pinout_schema(read_text(Path(path), TOML_LIMIT))


def load_any_pinout(path: str | Path) -> Pinout | HexPinout:
    """Read and check a pinout of either board (:func:`pinout_schema`).

    :raises PinoutError: see :func:`parse_hex_pinout` and :func:`.pins.parse_pinout`.
    :raises OSError: if the file cannot be read.
    """
    path = Path(path)
    text = read_text(path, TOML_LIMIT)
    return PARSERS[pinout_schema(text)](text, str(path))


# The parser of each pinout schema, by the names the rules' geometries give.
PARSERS: dict[str, Callable[[str, str], Pinout | HexPinout]] = {
    SQUARE_PINOUT: parse_pinout,
    HEX_PINOUT: parse_hex_pinout,
}


def default_hex_pinout() -> HexPinout:
    """The hex pinout that ships with boardctl (a copy of ``hardware/hex/pinout.toml``)."""
    from ._hexpinout_default import PINOUT_TOML

    return parse_hex_pinout(PINOUT_TOML, source="boardctl/hw/_hexpinout_default.py")


def repo_hex_pinout_path() -> Path:
    """``hardware/hex/pinout.toml`` in a source checkout."""
    return Path(__file__).resolve().parents[2] / "hardware" / "hex" / "pinout.toml"


# ------------------------------------------------------------------ the board's size


@dataclass(frozen=True)
class BoardSize:
    """The playing area of flat-topped cells ``across_flats`` mm wide (flat to flat)."""

    across_flats: float
    width: float  # left vertex of file a to right vertex of file m
    height: float  # lowest flat to highest flat


def board_size(geo: HexGeometry, across_flats: float) -> BoardSize:
    """The hexagon's bounding box for cells of ``across_flats`` mm.

    A flat-topped cell is ``2a/√3`` wide for ``a`` across the flats; files
    are ``3/4`` of that apart, and a cell's centre stands ``a·(r + q/2)`` up.
    """
    side = across_flats / math.sqrt(3)
    xs = [1.5 * side * q for q, _ in geo.cells]
    ys = [across_flats * (r + q / 2) for q, r in geo.cells]
    return BoardSize(across_flats, max(xs) - min(xs) + 2 * side, max(ys) - min(ys) + across_flats)


# ------------------------------------------------------------------ the firmware's copy


def firmware_module(pinout: HexPinout, toml_name: str = "hardware/hex/pinout.toml") -> str:
    """The text of ``firmware/hexboard.py``: the hex pinout as MicroPython constants."""
    geo = pinout.geometry
    pico = pinout.pico
    sr = pico.shiftreg
    chain_position = [0] * pinout.cells
    for i, cell in enumerate(pinout.leds.chain):
        chain_position[cell] = i

    def ints(values: tuple[int, ...] | list[int], per_line: int = 16) -> str:
        rows = [
            ", ".join(str(v) for v in values[i : i + per_line])
            for i in range(0, len(values), per_line)
        ]
        return "(\n" + "".join(f"    {row},\n" for row in rows) + ")"

    names = [geo.name(c) for c in range(pinout.cells)]
    name_rows = [", ".join(f'"{n}"' for n in names[i : i + 12]) for i in range(0, len(names), 12)]
    level = round(pinout.leds.brightness_cap * 255)
    return "\n".join(
        [
            f"# The hex e-board for the firmware.  GENERATED from {toml_name} by",
            "# `python -m boardctl.hw.hexpins sync`: do not edit (tests/hw/test_hexpins.py",
            '# checks that it is in sync).  Set BOARD = "hex121" in pins.py to use it.',
            "",
            f'BOARD = "{pinout.board}"          # the HELLO\'s B key',
            f"CELLS = {pinout.cells}",
            "# Cell names, in cell order (for tests and messages; not used to scan).",
            "CELL_NAMES = (\n" + "".join(f"    {row},\n" for row in name_rows) + ")",
            "",
            f'SENSOR = "{pico.sensor}"',
            f"SENSOR_ACTIVE_LOW = {pico.sensor == 'shiftreg' and sr.active_low}",
            "",
            "# Diode matrix: row lines driven high one at a time, column lines read",
            "# with pull-downs.  MATRIX_CELLS[row * len(MATRIX_COLUMN_PINS) + column] is",
            "# the cell on that crossing, -1 for none.",
            f"MATRIX_ROW_PINS = {tuple(pico.rows)}",
            f"MATRIX_COLUMN_PINS = {tuple(pico.columns)}",
            f"MATRIX_SETTLE_US = {pico.matrix.settle_us}",
            f"MATRIX_CELLS = {ints(pinout.matrix.crossings, len(pinout.matrix.columns))}",
            "",
            "# 74HC165 chain on SPI: read as one big-endian number, bit c is cell c.",
            f"SR_SPI = {sr.spi_bus}",
            f"SR_SCK_PIN = {sr.clock}",
            f"SR_MOSI_PIN = {sr.mosi}",
            f"SR_MISO_PIN = {sr.miso}",
            f"SR_LOAD_PIN = {sr.load}",
            "SR_BAUDRATE = 1000000",
            f"SR_CHIPS = {pinout.chips}",
            "",
            "# LEDs: LED_CHAIN[cell] is the chain position of the cell's LED.",
            f"LED_PIN = {pico.led_data}",
            f"LED_COUNT = {pinout.leds.count}",
            f"LED_CHAIN = {ints(chain_position)}",
            f'LED_COLOUR_ORDER = "{pinout.leds.colour_order}"',
            f"LED_MAX_LEVEL = {level}         # brightness_cap {pinout.leds.brightness_cap}",
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m boardctl.hw.hexpins [check|sync] [PINOUT]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = args.pop(0) if args else "check"
    path = Path(args[0]) if args else repo_hex_pinout_path()
    if command not in ("check", "sync"):
        print(f"unknown command {command!r} (check or sync)", file=sys.stderr)
        return 2
    try:
        pinout = load_hex_pinout(path)
    except (PinoutError, OSError) as exc:
        print(f"boardctl: {exc}", file=sys.stderr)
        return 2
    if command == "sync":
        text = path.read_text(encoding="utf-8")
        target = Path(__file__).with_name("_hexpinout_default.py")
        target.write_text(generated_module(text, HEX_ORIGIN), encoding="utf-8")
        firmware = Path(__file__).resolve().parents[2] / "firmware" / "hexboard.py"
        firmware.write_text(firmware_module(pinout), encoding="utf-8")
        print(f"wrote {target} and {firmware}")
        return 0
    print(
        f"{pinout.board}: {pinout.cells} cells, {pinout.leds.count} LEDs, "
        f"{len(pinout.matrix.rows)} × {len(pinout.matrix.columns)} matrix, "
        f"{pinout.chips} 74HC165"
    )
    print_build(f"Pi GPIO build with {pinout.pi.sensor}", pinout.pi.uses(), "GPIO")
    for sensor in HEX_SENSORS:
        print_build(f"Pico build with {sensor} (buttons on the Pi)", pinout.pico.uses(sensor), "GP")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
