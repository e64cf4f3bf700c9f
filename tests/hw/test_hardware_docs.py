"""hardware/: the README's pin tables, the BOM and the schematic agree with the pinout."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from boardctl.hw.hexpins import HexPinout, load_any_pinout
from boardctl.hw.pins import SENSORS, Pinout, load_pinout

from .helpers import PICO_EDGE, pin_table

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
README = (HARDWARE / "README.md").read_text(encoding="utf-8")
PINOUT = load_pinout(HARDWARE / "pinout.toml")


TABLE = pin_table(README)


def header_pins(factory: Any) -> dict[int, int]:
    """BCM GPIO → 40-pin header pin, from gpiozero's board data."""
    header = factory.board_info.headers["J8"]
    return {
        int(info.name[4:]): number
        for number, info in header.pins.items()
        if info.name.startswith("GPIO")
    }


@pytest.mark.parametrize("sensor", SENSORS)
def test_the_readme_lists_every_pi_pin(factory: Any, sensor: str) -> None:
    header = header_pins(factory)
    for key, gpio, _tag in PINOUT.pi.uses(sensor):
        if sensor == "shiftreg" and key.startswith(("pi.leds", "pi.buttons")):
            continue  # listed once, in the matrix table
        assert TABLE.get(("GPIO", key)) == (gpio, header[gpio]), key


@pytest.mark.parametrize("sensor", SENSORS)
def test_the_readme_lists_every_pico_pin(sensor: str) -> None:
    for key, gp, _tag in PINOUT.pico.uses(sensor):
        assert TABLE.get(("GP", key)) == (gp, PICO_EDGE[gp]), key


def test_the_readme_has_no_stale_pins() -> None:
    keys = {key for _k, key in TABLE}
    known = {key for sensor in SENSORS for key, _g, _t in PINOUT.pi.uses(sensor)}
    known |= {key for sensor in SENSORS for key, _g, _t in PINOUT.pico.uses(sensor)}
    assert keys <= known


BOM = list(csv.DictReader((HARDWARE / "bom.csv").open(encoding="utf-8")))
BUILDS = ("pi_matrix", "pi_shiftreg", "pico_matrix", "pico_shiftreg")


def quantity(part_number: str, build: str) -> int:
    return sum(int(row[build]) for row in BOM if row["part_number"] == part_number)


def test_the_bom_is_well_formed() -> None:
    assert BOM
    for row in BOM:
        assert row["variant"] in ("all", "reed", "hall"), row
        assert row["item"] and row["part_number"], row
        for build in BUILDS:
            assert int(row[build]) >= 0, row


@pytest.mark.parametrize("build", BUILDS)
def test_the_bom_covers_each_build(build: str, pinout: Pinout) -> None:
    matrix = build.endswith("matrix")
    assert quantity("1N4148", build) == (80 if matrix else 0)
    # A 10 kOhm pull-down on each file line: the settle time counts on it.
    assert quantity("CFR-25JB-52-10K", build) == (10 if matrix else 0)
    assert quantity("SN74HC165N", build) == (0 if matrix else 10)
    assert quantity("4609X-101-103LF", build) == (0 if matrix else 10)
    assert quantity("WS2812B", build) == pinout.leds.count
    assert quantity("SN74AHCT125N", build) == 1
    assert quantity("LRS-35-5", build) == 1
    assert quantity("B3F-4055", build) == len(pinout.pi.buttons)
    reed = [r for r in BOM if r["variant"] == "reed" and "reed switch" in r["item"]]
    assert sum(int(r[build]) for r in reed) == 80
    assert quantity("Pico", build) == (1 if build.startswith("pico") else 0)


def test_the_hex_matrix_has_a_pull_down_on_each_column_line() -> None:
    hex_pinout = load_any_pinout(HARDWARE / "hex" / "pinout.toml")
    assert isinstance(hex_pinout, HexPinout)
    columns = len(hex_pinout.pico.matrix.columns)
    assert quantity("CFR-25JB-52-10K", "hex_pico_matrix") == columns
    assert quantity("CFR-25JB-52-10K", "hex_pico_shiftreg") == 0


def test_the_schematic_is_svg_with_the_parts() -> None:
    root = ET.parse(HARDWARE / "schematic.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    words = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for part in (
        "74AHCT125",
        "330 Ω",
        "1000 µF",
        "5 A slow",
        "LRS-35-5",
        "74HC165",
        "A3144",
        "10 kΩ",
        "AO3400A",
        "1N4148",
        "CE1",
    ):
        assert part in words, part
    # The matrix lines it names are the pinout's (ranks 1, 2, 8; files a, b, j).
    pi, pico = PINOUT.pi.matrix, PINOUT.pico.matrix
    for i in (0, 1, 7):
        assert f"GPIO{pi.rows[i]} / GP{pico.rows[i]}" in words
    for i in (0, 1, 9):
        assert f"GPIO{pi.columns[i]} / GP{pico.columns[i]}" in words
    assert f"GPIO{PINOUT.pi.leds.mosi}" in words and f"GP{PINOUT.pico.led_data}" in words


def test_the_schematic_is_drawn_from_the_pinout(tmp_path: Path) -> None:
    for name in ("make_schematic.py", "pinout.toml"):
        shutil.copy(HARDWARE / name, tmp_path / name)
    subprocess.run([sys.executable, str(tmp_path / "make_schematic.py")], check=True)
    assert (tmp_path / "schematic.svg").read_text(encoding="utf-8") == (
        HARDWARE / "schematic.svg"
    ).read_text(encoding="utf-8"), "run: python hardware/make_schematic.py"
