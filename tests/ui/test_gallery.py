"""The gallery in docs/ is what the code draws today, and every text in it fits whole."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from boardctl.ui import gallery
from boardctl.ui.display import Renderer

DOCS = Path(__file__).resolve().parents[2] / "docs"


SCENES = {**gallery.SCENES, **gallery.HEX_SCENES}


@pytest.mark.parametrize("scene", list(SCENES))
@pytest.mark.parametrize("size", gallery.SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
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
        differ = sum(
            1
            for x in range(0, new.get_width(), 2)
            for y in range(0, new.get_height(), 2)
            if new.get_at((x, y)) != old.get_at((x, y))
        )
        # Font rasterisers may differ by a pixel at a glyph's edge; a changed
        # layout or text changes thousands.
        assert differ < 200, f"{path.name} differs from docs/screens: run the gallery again"
