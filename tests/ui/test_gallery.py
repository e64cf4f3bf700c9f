"""The gallery in docs/ is what the code draws today, and every text in it fits whole."""

from __future__ import annotations

import math
from pathlib import Path

import pygame
import pytest

from boardctl.ui import gallery, layout
from boardctl.ui.display import Renderer
from boardctl.ui.layout import legible_px
from boardctl.ui.size import MIN_SIZE

DOCS = Path(__file__).resolve().parents[2] / "docs"


SCENES = {**gallery.SCENES, **gallery.HEX_SCENES}


@pytest.mark.parametrize("scene", list(SCENES))
@pytest.mark.parametrize("size", [*gallery.SIZES, MIN_SIZE], ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_text_of_every_scene_fits_whole(scene, size, renderers):
    renderer = renderers.get(size) or renderers.setdefault(size, Renderer(size))
    state = SCENES[scene][1]()
    renderer.render(state, pygame.Surface(size))
    assert renderer.cut == []


def test_the_gallery_in_docs_is_what_the_code_draws(tmp_path):
    written = gallery.save_all(tmp_path)
    assert (tmp_path / "screens.md").read_text() == (DOCS / "screens.md").read_text(), (
        "docs/screens.md is out of date: run python -m boardctl.ui.gallery docs"
    )
    for path in written:
        if path.suffix != ".png":
            continue
        committed = DOCS / "screens" / path.name
        assert committed.exists(), f"{committed} is missing: run python -m boardctl.ui.gallery docs"
        new, old = pygame.image.load(str(path)), pygame.image.load(str(committed))
        assert new.get_size() == old.get_size()
        if pygame.image.tobytes(new, "RGBA") == pygame.image.tobytes(old, "RGBA"):
            continue  # the usual case: a look at every pixel costs seconds
        differ = sum(
            1
            for x in range(0, new.get_width(), 2)
            for y in range(0, new.get_height(), 2)
            if new.get_at((x, y)) != old.get_at((x, y))
        )
        # Font rasterisers may differ by a pixel at a glyph's edge; a changed
        # layout or text changes thousands.
        assert differ < 200, f"{path.name} differs from docs/screens: run the gallery again"


@pytest.mark.parametrize("scene", list(SCENES))
@pytest.mark.parametrize("size", gallery.SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_text_is_smaller_than_the_legible_minimum(scene, size, renderers, monkeypatch):
    """Every text the screen draws (the board's coordinates aside) is at least
    :func:`~boardctl.ui.layout.legible_px` high: capitals of 16 minutes of arc
    at the player's seat.  The level, the evaluation and the move list were
    10 to 14 px at 480 × 320."""
    renderer = renderers.get(size) or renderers.setdefault(size, Renderer(size))
    state = SCENES[scene][1]()
    lay = renderer.board_layout(renderer_geometry(state))
    heights: list[int] = []
    get = renderer.fonts.get

    def recording(height: int) -> pygame.font.Font:
        heights.append(height)
        return get(height)

    monkeypatch.setattr(renderer.fonts, "get", recording)
    renderer.render(state, pygame.Surface(size))
    text = [h for h in heights if h != lay.label_text]
    assert text and min(text) >= lay.small == legible_px(size), (min(text), lay.small)


def renderer_geometry(state):
    from boardctl.rules import get_variant

    return get_variant(state.variant).geometry


def test_the_legible_minimum_is_16_minutes_of_arc_at_the_players_seat():
    for size in gallery.SIZES:
        pitch = layout.pixel_pitch_mm(size)
        cap_mm = legible_px(size) * layout.CAP_SHARE * pitch
        arc = math.degrees(math.atan(cap_mm / layout.VIEWING_DISTANCE_MM)) * 60
        assert 16 <= arc < 17.5, (size, arc)
    # A 3.5-inch 480 × 320 screen: 0.154 mm a pixel; its capitals 2.6 mm.
    assert layout.pixel_pitch_mm((480, 320)) == pytest.approx(0.154, abs=0.001)
    assert legible_px((480, 320)) == 24


def test_pygames_default_font_has_the_capitals_the_minimum_assumes():
    from boardctl.ui.text import Fonts

    fonts = Fonts()
    for height in (20, 24, 27, 32):
        cap = fonts.get(height).metrics("H")[0][3]
        assert cap >= layout.CAP_SHARE * height - 1, (height, cap)


def test_a_screen_too_small_to_show_its_text_whole_is_refused_in_one_line():
    from boardctl.ui.screenshot import ScreenshotError, screenshot_command

    with pytest.raises(ScreenshotError, match=r"'320x240' is outside 400x240 .*legible"):
        screenshot_command(None, "/nonexistent/x.png", "320x240")
