"""Word wrapping, ellipses, clock faces and fonts by pixel height."""

from __future__ import annotations

import pytest

from boardctl.ui.text import ELLIPSIS, Fonts, clock_text, ellipsize, wrap

FONTS = Fonts()


@pytest.mark.parametrize("height", [14, 18, 24, 32])
def test_a_font_is_never_taller_than_asked_and_close_to_it(height):
    font = FONTS.get(height)
    assert height - 2 <= font.get_height() <= height


@pytest.mark.parametrize("width", [40, 80, 150, 400])
def test_wrapped_lines_fit_and_keep_every_word(width):
    font = FONTS.get(18)
    text = "That move leaves your king in check: move the falcon back to d1"
    lines = wrap(text, font, width)
    assert all(font.size(line)[0] <= width for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    if width >= 80:  # every word fits on a line: none is split
        assert " ".join(lines).split() == text.split()


def test_a_word_wider_than_the_line_is_split_and_newlines_are_kept():
    font = FONTS.get(18)
    lines = wrap("Supercalifragilistic\nok", font, 40)
    assert "".join(lines[:-1]) == "Supercalifragilistic" and lines[-1] == "ok"
    assert all(font.size(line)[0] <= 40 for line in lines)


def test_ellipsize_cuts_only_what_does_not_fit():
    font = FONTS.get(18)
    assert ellipsize("ok", font, 100) == "ok"
    cut = ellipsize("sensor link lost on /dev/ttyACM0", font, 80)
    assert cut.endswith(ELLIPSIS) and font.size(cut)[0] <= 80
    assert ellipsize("ok", font, 100, always=True) == "ok" + ELLIPSIS


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (3725.0, "1:02:05"),
        (300.0, "5:00"),
        (59.9, "0:59"),
        (10.0, "0:10"),
        (9.96, "9.9"),
        (0.04, "0.0"),
        (-3.0, "0.0"),
    ],
)
def test_clock_faces(seconds, text):
    assert clock_text(seconds) == text
