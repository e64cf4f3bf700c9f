"""Screenshots to files, headless, and the errors a user can cause."""

from __future__ import annotations

import subprocess
import sys

import pygame
import pytest

from boardctl.errors import BoardctlError
from boardctl.rules import FenError, UnknownVariantError
from boardctl.ui.screenshot import ScreenshotError, parse_size, screenshot, screenshot_command


@pytest.mark.parametrize("size", [(480, 320), (800, 480)])
def test_a_screenshot_is_a_png_of_the_screen_size(tmp_path, size):
    out = tmp_path / "start.png"
    screenshot(None, out, size)
    assert pygame.image.load(str(out)).get_size() == size
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_state_fields_can_be_given(tmp_path):
    out = tmp_path / "prompt.png"
    screenshot(
        None,
        out,
        prompt="Put the knight back on h3",
        prompt_kind="error",
        white_clock=60.0,
        black_clock=58.5,
        engine_status="thinking",
    )
    plain = tmp_path / "plain.png"
    screenshot(None, plain)
    assert out.read_bytes() != plain.read_bytes()
    with pytest.raises(TypeError):
        screenshot(None, out, colour_scheme="green")


def test_screenshot_command_parses_the_size_and_returns_the_path(tmp_path):
    path = screenshot_command(
        "5k4/10/10/10/10/10/10/5K3r w - - 0 31",
        str(tmp_path / "check.png"),
        "800x480",
    )
    assert path == tmp_path / "check.png"
    assert pygame.image.load(str(path)).get_size() == (800, 480)


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("480x320", (480, 320)),
        ("800X480", (800, 480)),
        (" 1024 x 600 ", (1024, 600)),
        ("400×240", (400, 240)),
    ],
)
def test_sizes_are_parsed(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize(
    "text", ["480", "480x", "x320", "480x320x2", "-480x320", "0x320", "big", "99999x320"]
)
def test_bad_sizes_are_one_clear_line(text):
    with pytest.raises(ScreenshotError) as caught:
        parse_size(text)
    assert "\n" not in str(caught.value) and "size" in str(caught.value)


@pytest.mark.parametrize(
    ("args", "error", "needle"),
    [
        (("not a fen", "x.png"), FenError, "FEN"),
        (("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "x.png"), FenError, "FEN"),
        ((None, "x.png", "100x80"), ScreenshotError, "size"),
        ((None, "x.gif"), ScreenshotError, ".png"),
        ((None, "x.png", "480x320", "falcon-12x12"), UnknownVariantError, "falcon-12x12"),
    ],
)
def test_command_errors_are_boardctl_errors_of_one_line(tmp_path, args, error, needle):
    fen, name, *rest = args
    with pytest.raises(error) as caught:
        screenshot_command(fen, str(tmp_path / name), *rest)
    assert isinstance(caught.value, BoardctlError)
    assert needle in str(caught.value) and "\n" not in str(caught.value)


def test_an_unwritable_file_is_a_clear_error(tmp_path):
    with pytest.raises(ScreenshotError, match="cannot save"):
        screenshot(None, tmp_path / "missing-folder" / "x.png")


def test_importing_the_screenshot_module_loads_no_pygame():
    code = "import sys, boardctl.ui.screenshot; print('pygame' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
