"""The shipped piece sprites and icon are the screen's designs, as written now."""

from __future__ import annotations

from importlib import resources

import pytest


def shipped(name: str) -> str:
    return (resources.files("boardctl.web") / "static" / name).read_text("utf-8")


@pytest.mark.parametrize(
    ("name", "writer"),
    [
        ("pieces.svg", "sprite_sheet"),  # the shipped sprites are the screen's designs
        ("favicon.svg", "favicon"),  # the icon: the falcon on a dark square
    ],
)
def test_the_shipped_svg_is_what_the_screens_designs_write_now(name, writer):
    pytest.importorskip("pygame")
    from boardctl.ui import svgpieces

    assert shipped(name) == getattr(svgpieces, writer)(), (
        f"boardctl/web/static/{name} is stale: python -m boardctl.ui.svgpieces boardctl/web/static"
    )


def test_every_piece_of_both_colours_has_a_symbol():
    text = shipped("pieces.svg")
    for colour in "wb":
        for letter in "PNBRQKF":
            assert f'<symbol id="{colour}{letter}"' in text
