"""hardware/hex/pinout.toml: the hex board's wiring as checked data, its
generated copies, and the checks that refuse a cell missing or doubled."""

from __future__ import annotations

import ast
import contextlib
import csv
import subprocess
import sys
import xml.etree.ElementTree as ET
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from boardctl.hw.errors import PinoutError
from boardctl.hw.hexpins import (
    HEX_ORIGIN,
    board_size,
    default_hex_pinout,
    firmware_module,
    load_hex_pinout,
    main,
    parse_hex_pinout,
    repo_hex_pinout_path,
)
from boardctl.hw.pins import PICO_GPIOS, generated_module
from boardctl.rules.hexgeo import FALCON_HEX, distance

from .helpers import PICO_EDGE, pin_table

ROOT = Path(__file__).resolve().parents[2]
TEXT = repo_hex_pinout_path().read_text(encoding="utf-8")
PINOUT = load_hex_pinout(repo_hex_pinout_path())


def refused(old: str, new: str) -> str:
    """The error for the pinout with ``old`` replaced by ``new`` (once, must be there)."""
    assert old in TEXT, old
    with pytest.raises(PinoutError) as info:
        parse_hex_pinout(TEXT.replace(old, new, 1))
    return str(info.value)


def test_the_pinout_covers_every_cell_of_the_rules_geometry_once() -> None:
    assert PINOUT.cells == FALCON_HEX.size == 121
    assert sorted(PINOUT.leds.chain) == list(range(121))
    crossings = [c for c in PINOUT.matrix.crossings if c >= 0]
    assert sorted(crossings) == list(range(121))
    assert (len(PINOUT.matrix.rows), len(PINOUT.matrix.columns)) == (12, 12)


def test_each_matrix_line_is_straight_rank_or_file() -> None:
    # Row lines hold whole ranks and column lines whole files, so every wire
    # runs straight: a cell's line is its rank's and its file's.
    geo = FALCON_HEX
    for cell in range(geo.size):
        row, column = PINOUT.matrix.line_of(cell)
        assert geo.rank_number(cell) in PINOUT.matrix.rows[row]
        assert geo.file_of(cell) in PINOUT.matrix.columns[column]


def test_the_led_chain_is_a_serpentine_a_builder_can_wire() -> None:
    geo = FALCON_HEX
    chain = PINOUT.leds.chain
    assert geo.name(chain[0]) == "a8" and PINOUT.leds.first == "a8"
    pairs = list(pairwise(chain))
    # Up or down a file from neighbour to neighbour, then over to the next file's end.
    assert all(
        distance(geo.axial(a), geo.axial(b)) == 1
        for a, b in pairs
        if geo.file_of(a) == geo.file_of(b)
    )
    assert all(
        distance(geo.axial(a), geo.axial(b)) <= 2 and geo.file_of(b) == geo.file_of(a) + 1
        for a, b in pairs
        if geo.file_of(a) != geo.file_of(b)
    )


def test_the_packaged_copy_and_the_firmware_module_are_in_sync() -> None:
    packaged = ROOT / "boardctl" / "hw" / "_hexpinout_default.py"
    assert packaged.read_text(encoding="utf-8") == generated_module(TEXT, HEX_ORIGIN), (
        "run: python -m boardctl.hw.hexpins sync"
    )
    assert (ROOT / "firmware" / "hexboard.py").read_text(encoding="utf-8") == (
        firmware_module(PINOUT)
    ), "run: python -m boardctl.hw.hexpins sync"
    assert default_hex_pinout().leds == PINOUT.leds


def _constants(path: Path) -> dict[str, object]:
    constants: dict[str, object] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            with contextlib.suppress(ValueError):
                constants[node.targets[0].id] = ast.literal_eval(node.value)
    return constants


def test_the_firmware_module_says_what_the_pinout_says() -> None:
    fw = _constants(ROOT / "firmware" / "hexboard.py")
    geo = FALCON_HEX
    assert fw["BOARD"] == "hex121" and fw["CELLS"] == 121
    assert fw["CELL_NAMES"] == tuple(geo.name(c) for c in range(121))
    assert fw["MATRIX_ROW_PINS"] == PINOUT.pico.rows
    assert fw["MATRIX_COLUMN_PINS"] == PINOUT.pico.columns
    cells = fw["MATRIX_CELLS"]
    assert isinstance(cells, tuple)
    for cell in range(121):
        row, column = PINOUT.matrix.line_of(cell)
        assert cells[row * 12 + column] == cell
    chain = fw["LED_CHAIN"]
    assert isinstance(chain, tuple)
    assert [PINOUT.leds.chain[chain[cell]] for cell in range(121)] == list(range(121))
    assert fw["SR_CHIPS"] == 16 and fw["LED_COUNT"] == 121


def test_the_pin_budget_fits_both_builds() -> None:
    pico = {pin for _key, pin, _tag in PINOUT.pico.uses("matrix")}
    assert len(pico) == 25 and pico <= PICO_GPIOS  # 12 + 12 lines and the LEDs, of 26
    # The 12 column lines are consecutive: one register read takes a row.
    first = PINOUT.pico.columns[0]
    assert PINOUT.pico.columns == tuple(range(first, first + 12))
    pi = {pin for _key, pin, _tag in PINOUT.pi.uses()}
    assert len(pi) == 10  # SPI0 SCLK, MOSI, MISO, CE0, CE1, the load line, 4 buttons
    assert PINOUT.pi.shiftreg.chips * 8 >= 121 > (PINOUT.pi.shiftreg.chips - 1) * 8


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"a8 a9 a10 a11 a12"', '"a8 a8 a10 a11 a12"', "leds.chain[0]: a8 is on LED 0 and LED 1"),
        ('"a8 a9 a10 a11 a12"', '"a8 a9 a10 a11"', "leds.chain: no LED for a12"),
        (
            '"m2 m3 m4 m5 m6"',
            '"m2 m3 m4 m5 m6 m7"',
            "leds.chain[12]: 'm7' is not one of the board's cells",
        ),
        ('"m2 m3 m4 m5 m6"', '"m2 m3 m4 m5 m6 a8"', "a8 is on LED 0 and LED 121"),
        ('rows = ["1 13", "2",', 'rows = ["1", "2",', "matrix.rows: ranks 13 on no line"),
        (
            'rows = ["1 13", "2",',
            'rows = ["1 13", "2 3",',
            "matrix.rows[2]: 3 is on line 1 and line 2",
        ),
        (
            'columns = ["a m", "b",',
            'columns = ["a", "b m",',
            "b6 and m6 share row line 5 and column line 1",
        ),
        ('"j", "k", "l"]', '"j", "k", "l", "x"]', "'x' is not one of the board's files"),
        ("rows = [0, 1, 2,", "rows = [0, 1,", "pico.matrix.rows: expected 12 pins, got 11"),
        ("rows = [0, 1, 2,", "rows = [0, 10, 2,", "GP10 is already used"),
        ('sensor = "shiftreg"', 'sensor = "matrix"', "pi.sensor: 'matrix' is not one of shiftreg"),
        ("chips = 16", "chips = 10", "pi.shiftreg.chips: 10 is outside 16–16"),
        ('board = "hex121"', 'board = "hex91"', "board: 'hex91' is not one of hex121"),
    ],
)
def test_a_pinout_that_misses_or_doubles_a_cell_is_refused(
    old: str, new: str, message: str
) -> None:
    assert message in refused(old, new)


def test_the_board_size_for_a_cell_size() -> None:
    size = board_size(FALCON_HEX, 40.0)
    # 13 files, 3/4 of a cell's 46.19 mm width apart, plus a half cell each side;
    # 12 cells up the longest files' line (f2–f13 and h1–h12 are offset by half).
    assert size.width == pytest.approx(40 / 3**0.5 * 20)
    assert size.height == pytest.approx(480.0)


def test_the_command_checks_and_prints_the_pins(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert "hex121: 121 cells, 121 LEDs, 12 × 12 matrix, 16 74HC165" in out
    assert "GP27    pico.matrix.rows[11]" in out
    bad = tmp_path / "pinout.toml"
    bad.write_text(TEXT.replace('"a8 a9', '"a9 a9', 1), encoding="utf-8")
    assert main(["check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a9 is on LED 0 and LED 1" in err


# ------------------------------------------------------------------ the build document

README = (ROOT / "hardware" / "hex" / "README.md").read_text(encoding="utf-8")


def table(header: str) -> list[list[str]]:
    """The rows of the README table whose header line starts with ``header``."""
    lines = README[README.index(header) :].splitlines()
    return [
        [c.strip() for c in line.strip("|").split("|")]
        for line in lines[2:]
        if line.startswith("|")
    ][:200]


def test_the_readme_pin_tables_are_the_pinouts(factory: Any) -> None:
    rows = pin_table(README)
    header = factory.board_info.headers["J8"]
    pi_header = {
        int(info.name[4:]): n for n, info in header.pins.items() if info.name.startswith("GPIO")
    }
    expected = {
        ("GP", key): (gp, PICO_EDGE[gp])
        for sensor in ("matrix", "shiftreg")
        for key, gp, _t in PINOUT.pico.uses(sensor)
    }
    expected |= {("GPIO", key): (g, pi_header[g]) for key, g, _t in PINOUT.pi.uses()}
    assert rows == expected


def test_the_readme_crossing_table_is_the_matrix() -> None:
    geo = FALCON_HEX
    rows = table("| row line | GP |")[:12]
    for i, row in enumerate(rows):
        assert row[1] == f"GP{PINOUT.pico.rows[i]}"
        for j, name in enumerate(row[2:]):
            cell = PINOUT.matrix.crossings[i * 12 + j]
            assert name == (geo.name(cell) if cell >= 0 else "–"), (i, j)


def test_the_readme_chip_table_is_the_chain_order() -> None:
    rows = table("| chip | H |")[:16]
    assert len(rows) == PINOUT.chips
    for chip, row in enumerate(rows):
        for k, name in enumerate(row[1:]):  # inputs H … A
            bit = PINOUT.chips * 8 - 1 - (chip * 8 + k)
            assert name == (FALCON_HEX.name(bit) if bit < 121 else "(3.3 V)")


def test_the_readme_sizes_are_computed() -> None:
    for row in table("| across the flats |")[:3]:
        across = float(row[0].removesuffix(" mm"))
        size = board_size(FALCON_HEX, across)
        assert row[1] == f"{2 * across / 3**0.5:.1f} mm"
        assert row[2] == f"{size.width:.1f} × {size.height:.1f} mm"


BOM = list(csv.DictReader((ROOT / "hardware" / "bom.csv").open(encoding="utf-8")))
HEX_BUILDS = ("hex_pi_shiftreg", "hex_pico_matrix", "hex_pico_shiftreg")


def quantity(part_number: str, build: str) -> int:
    return sum(int(row[build]) for row in BOM if row["part_number"] == part_number)


@pytest.mark.parametrize("build", HEX_BUILDS)
def test_the_bom_covers_each_hex_build(build: str) -> None:
    matrix = build.endswith("matrix")
    cells, chips = PINOUT.cells, PINOUT.chips
    assert quantity("1N4148", build) == (cells if matrix else 0)
    assert quantity("SN74HC165N", build) == (0 if matrix else chips)
    assert quantity("4609X-101-103LF", build) == (0 if matrix else chips)
    assert quantity("WS2812B", build) == PINOUT.leds.count == cells
    assert quantity("SN74AHCT125N", build) == 1 and quantity("LRS-35-5", build) == 1
    assert quantity("B3F-4055", build) == len(PINOUT.pi.buttons)
    assert quantity("Pico", build) == (0 if build.startswith("hex_pi_") else 1)
    assert quantity("AO3400A", build) == 0  # the Pi never reads the hex matrix
    reed = [r for r in BOM if r["variant"] == "reed" and "reed switch" in r["item"]]
    assert sum(int(r[build]) for r in reed) == cells
    hall = [r for r in BOM if r["variant"] == "hall" and "Hall switch" in r["item"]]
    assert sum(int(r[build]) for r in hall) == (0 if matrix else cells)
    magnets = sum(int(r[build]) for r in BOM if "magnet" in r["item"])
    assert magnets >= 44  # 22 men a side (RULES-HEX.md 3.1)


def test_the_layout_drawing_is_drawn_from_the_pinout(tmp_path: Path) -> None:
    out = tmp_path / "layout.svg"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "hardware" / "hex" / "make_layout.py"),
            str(repo_hex_pinout_path()),
            str(out),
        ],
        check=True,
    )
    drawn = (ROOT / "hardware" / "hex" / "layout.svg").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == drawn, "run: python hardware/hex/make_layout.py"
    root = ET.fromstring(drawn)
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for cell in range(121):
        assert texts.count(FALCON_HEX.name(cell)) == 1
        row, column = PINOUT.matrix.line_of(cell)
        assert f"LED {PINOUT.leds.chain.index(cell)}" in texts and f"R{row} C{column}" in texts
    assert len(list(root.iter("{http://www.w3.org/2000/svg}polygon"))) == 121
