"""The pinout: loads, every pin used once per build, errors name the key,
the packaged copy and the Pico firmware agree with hardware/pinout.toml."""

from __future__ import annotations

import ast
import contextlib
from collections import Counter
from pathlib import Path

import pytest

from boardctl.hw import pins
from boardctl.hw.errors import PinoutError
from boardctl.hw.pins import (
    PI_HEADER_GPIOS,
    SPI_BUSES,
    Pinout,
    default_pinout,
    generated_module,
    load_pinout,
    parse_pinout,
    repo_pinout_path,
)

ROOT = Path(__file__).resolve().parents[2]
PINOUT = ROOT / "hardware" / "pinout.toml"
TEXT = PINOUT.read_text(encoding="utf-8")


def test_the_repository_pinout_loads() -> None:
    pinout = load_pinout(PINOUT)
    assert repo_pinout_path() == PINOUT
    assert len(pinout.pi.matrix.rows) == 8
    assert len(pinout.pi.matrix.columns) == 10
    assert pinout.pi.leds.mosi == 10
    assert pinout.pi.leds.device == 0
    assert pinout.leds.count in (80, 99)
    assert 0 < pinout.leds.brightness_cap <= 1


def test_the_packaged_copy_is_in_sync() -> None:
    generated = (ROOT / "boardctl" / "hw" / "_pinout_default.py").read_text(encoding="utf-8")
    assert generated == generated_module(TEXT), "run: python -m boardctl.hw.pins sync"
    assert default_pinout() == Pinout(
        **{**vars(load_pinout(PINOUT)), "source": default_pinout().source}
    )


@pytest.mark.parametrize("sensor", ["matrix", "shiftreg"])
def test_every_pi_pin_is_used_once_per_build(pinout: Pinout, sensor: str) -> None:
    uses = pinout.pi.uses(sensor)
    # Only the SPI clock and MOSI lines may appear twice (LEDs and chain share the bus).
    counts = Counter(pin for _key, pin, _tag in uses)
    shared = {pin for pin, n in counts.items() if n > 1}
    if sensor == "matrix":
        assert shared == set()
    else:
        assert shared == {SPI_BUSES[0].clock, SPI_BUSES[0].mosi}
    assert all(pin in PI_HEADER_GPIOS for _key, pin, _tag in uses)


def test_every_pico_pin_is_used_once(pinout: Pinout) -> None:
    used = [pin for _key, pin, _tag in pinout.pico.uses()]
    assert len(used) == len(set(used)) == 19
    assert pinout.pico.rows == tuple(range(2, 10))
    assert pinout.pico.columns == tuple(range(10, 20))
    assert pinout.pico.led_data == 22


def test_the_spi_pins_are_not_reused(pinout: Pinout) -> None:
    claimed = {pinout.pi.leds.clock, pinout.pi.leds.mosi, pinout.pi.leds.select}
    matrix_and_buttons = {
        *pinout.pi.matrix.rows,
        *pinout.pi.matrix.columns,
        *pinout.pi.buttons.values(),
    }
    assert claimed.isdisjoint(matrix_and_buttons)
    chain = pinout.pi.shiftreg
    assert chain.spi.select != pinout.pi.leds.select
    assert {chain.load, chain.spi.select, chain.spi.miso}.isdisjoint(
        set(pinout.pi.buttons.values()) | {pinout.pi.leds.select}
    )


def changed(old: str, new: str) -> str:
    assert old in TEXT, old
    return TEXT.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "key", "words"),
    [
        ("rows = [4, 17,", "rows = [40, 17,", "pi.matrix.rows[0]", "GPIO40"),
        ("rows = [4, 17,", "rows = [12, 17,", "pi.matrix.columns[0]", "pi.matrix.rows[0]"),
        ("rows = [4, 17,", "rows = [10, 17,", "pi.leds.mosi", "pi.matrix.rows[0]"),
        ("rows = [4, 17,", 'rows = ["4", 17,', "pi.matrix.rows[0]", "pin number"),
        ("rows = [4, 17,", "rows = [17,", "pi.matrix.rows", "expected 8"),
        ("ok = 3", "ok = 8", "pi.buttons.ok", "pi.leds.select"),
        ("ok = 3", "ok = 25", "pi.buttons.ok", "pi.matrix.columns[6]"),
        ("load = 25", "load = 9", "pi.shiftreg.load", "pi.shiftreg.miso"),
        ("select = 7 ", "select = 8 ", "pi.leds.select", "pi.shiftreg.select"),
        ("miso = 9 ", "miso = 19 ", "pi.shiftreg.miso", "GPIO9"),
        ("select = 7 ", "select = 5 ", "pi.shiftreg.select", "chip select"),
        ("spi_device = 0", "spi_device = 1", "pi.leds.spi_device", "GPIO7"),
        ("count = 80 ", "count = 81 ", "leds.count", "80"),
        ('order = "serpentine"', 'order = "zigzag"', "leds.order", "rows, serpentine"),
        ('first = "a1"', 'first = "e4"', "leds.first", "a1, j1"),
        ("brightness_cap = 0.25", "brightness_cap = 1.5", "leds.brightness_cap", "outside"),
        ('sensor = "matrix"', 'sensor = "hall"', "pi.sensor", "matrix, shiftreg"),
        ('row_active = "high"', 'row_active = "up"', "pi.matrix.row_active", "low, high"),
        ('row_active = "high"', 'row_active = "low"', "pi.matrix.column_pull", "pulled up"),
        ('column_pull = "down"', 'column_pull = "in"', "pi.matrix.column_pull", "up, down"),
        ("settle_us = 50 ", "settle_us = 50\nsettle = 1 ", "pi.matrix.settle", "unknown key"),
        ("led_data = 22 ", "led_data = 25 ", "pico.led_data", "GP25"),
        ("led_data = 22 ", "led_data = 19 ", "pico.led_data", "pico.matrix.columns[9]"),
        ("led_data = 22 ", "led_data = 21 ", "pico.led_data", "pico.shiftreg.load"),
        ("clock = 26", "clock = 27", "pico.shiftreg.clock", "GP10, GP14, GP26"),
        ("miso = 28", "miso = 25", "pico.shiftreg.miso", "GP25 is not a free Pico GPIO"),
        ("rows = [2, 3,", "rows = [2, 2,", "pico.matrix.rows[1]", "pico.matrix.rows[0]"),
        ("chips = 10", "chips = true", "pi.shiftreg.chips", "integer"),
        ("active_low = true", "active_low = 1", "pi.shiftreg.active_low", "true or false"),
        ("schema = 1", "schema = 2", "schema", "outside"),
    ],
)
def test_errors_name_the_bad_key(old: str, new: str, key: str, words: str) -> None:
    with pytest.raises(PinoutError) as info:
        parse_pinout(changed(old, new), source="pinout.toml")
    assert info.value.key == key
    assert words in str(info.value)
    assert str(info.value).startswith(f"pinout.toml: {key}: ")


def test_a_missing_table_and_bad_toml_are_named() -> None:
    with pytest.raises(PinoutError, match=r"pico: missing"):
        parse_pinout(TEXT[: TEXT.index("\n[pico]\n")])
    with pytest.raises(PinoutError, match=r"not valid TOML"):
        parse_pinout("rows = [")
    with pytest.raises(PinoutError, match=r"pi.leds.select: GPIO9 is not an SPI0 chip select"):
        parse_pinout(changed("select = 8 ", "select = 9 "))


def test_a_pinout_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_pinout(changed("ok = 3", "ok = 99"))


def test_a_corner_grid_layout(pinout: Pinout) -> None:
    corner = parse_pinout(changed("count = 80 ", "count = 99 ")).leds
    assert corner.corner_grid and (corner.width, corner.height) == (11, 9)
    assert not pinout.leds.corner_grid and (pinout.leds.width, pinout.leds.height) == (10, 8)


def test_the_check_command_lists_every_pin(capsys: pytest.CaptureFixture[str]) -> None:
    assert pins.main(["check", str(PINOUT)]) == 0
    out = capsys.readouterr().out
    assert "GPIO10  pi.leds.mosi" in out
    assert "GP22    pico.led_data" in out


def _firmware_constants(path: Path) -> dict[str, object]:
    """Top-level NAME = literal assignments of a MicroPython file (not imported)."""
    constants: dict[str, object] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                with contextlib.suppress(ValueError):
                    constants[target.id] = ast.literal_eval(node.value)
    return constants


def test_the_pico_firmware_agrees_with_the_pinout(pinout: Pinout) -> None:
    path = ROOT / "firmware" / "pins.py"
    if not path.exists():
        pytest.skip("firmware/pins.py is not written yet")
    fw = _firmware_constants(path)
    pico, leds = pinout.pico, pinout.leds
    expected = {
        "SENSOR": pico.sensor,
        "MATRIX_RANK_PINS": pico.matrix.rows,
        "MATRIX_FILE_PINS": pico.matrix.columns,
        "MATRIX_SETTLE_US": pico.matrix.settle_us,
        "SR_SPI": pico.shiftreg.spi_bus,
        "SR_SCK_PIN": pico.shiftreg.clock,
        "SR_MOSI_PIN": pico.shiftreg.mosi,
        "SR_MISO_PIN": pico.shiftreg.miso,
        "SR_LOAD_PIN": pico.shiftreg.load,
        "LED_PIN": pico.led_data,
        "LED_COUNT": leds.count,
        "LED_WIDTH": leds.width,
        "LED_SERPENTINE": leds.order == "serpentine",
        "LED_MAX_LEVEL": round(leds.brightness_cap * 255),
        "FILES": 10,
        "RANKS": 8,
    }
    # The firmware drives ranks high and reads files with pull-downs; one flag
    # says whether a sensor reads 0 when a piece is on it.
    assert not pico.matrix.row_active_low
    expected["SENSOR_ACTIVE_LOW"] = (
        pico.matrix.column_pull_up if pico.sensor == "matrix" else pico.shiftreg.active_low
    )
    found = {
        name: tuple(v) if isinstance(v, list) else v for name, v in fw.items() if name in expected
    }
    assert sorted(found) == sorted(expected), "firmware/pins.py lacks some constants"
    assert found == expected
