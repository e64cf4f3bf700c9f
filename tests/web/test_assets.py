"""The shipped piece sprites are the screen's designs, as written now."""

from __future__ import annotations

from importlib import resources

import pytest


def test_the_shipped_sprites_are_the_screens_designs():
    pytest.importorskip("pygame")
    from boardctl.ui.svgpieces import sprite_sheet

    shipped = (resources.files("boardctl.web") / "static" / "pieces.svg").read_text("utf-8")
    assert shipped == sprite_sheet(), (
        "boardctl/web/static/pieces.svg is stale: python -m boardctl.ui.svgpieces "
        "boardctl/web/static"
    )


def test_every_piece_of_both_colours_has_a_symbol():
    text = (resources.files("boardctl.web") / "static" / "pieces.svg").read_text("utf-8")
    for colour in "wb":
        for letter in "PNBRQKF":
            assert f'<symbol id="{colour}{letter}"' in text
