"""The board layouts the page draws: the hexagon from its geometry, the
rectangles as the page drew them before it knew of hexagons, with names along
the edges large enough to read on a phone."""

from __future__ import annotations

import math

import pytest

from boardctl.rules import get_variant
from boardctl.rules.hexgeo import ORTHOGONAL
from boardctl.web.layout import (
    BASELINE_SHARE,
    CELL,
    CHAR_WIDTH,
    MIN_LABEL_PX,
    PHONE_BOARD_PX,
    board_layout,
)

VARIANTS = ["falcon", "falcon-8x8", "falcon-9x10", "falcon-10x10", "falcon-hex", "glinski"]


@pytest.mark.parametrize("variant", ["falcon-hex", "glinski"])
@pytest.mark.parametrize("flip", [False, True])
def test_the_hexagon_has_every_cell_named_and_shaded_as_the_rules_core_has_it(variant, flip):
    geo = get_variant(variant).geometry
    board = board_layout(variant, flip)
    assert board["shape"] == "hex" and board["cell"] == CELL
    assert [name for name, *_ in board["cells"]] == [geo.name(c) for c in range(geo.size)]
    assert board["rows"] == [list(row) for row in geo.fen_rows()]
    shades = [shade for *_, shade in board["cells"]]
    assert set(shades) == {"light", "medium", "dark"}
    centre = geo.cell_at(0, 0)
    assert shades[centre] == "medium"  # as the screen and Glinski's board have it
    for cell in range(geo.size):
        for direction in ORTHOGONAL:
            other = geo.step(cell, direction)
            if other is None:
                continue
            assert shades[other] != shades[cell]
            # Neighbours sit a cell's height apart: the cells tile without gaps.
            (_, x1, y1, _), (_, x2, y2, _) = board["cells"][cell], board["cells"][other]
            assert math.hypot(x2 - x1, y2 - y1) == pytest.approx(CELL, abs=0.2)


@pytest.mark.parametrize("flip", [False, True])
def test_the_hexagon_and_its_names_fit_in_the_drawing(flip):
    geo = get_variant("falcon-hex").geometry
    board = board_layout("falcon-hex", flip)
    assert len(board["cells"]) == 121 and len(board["corners"]) == 6
    for _, cx, cy, _ in board["cells"]:
        for dx, dy in board["corners"]:
            assert 0 <= cx + dx <= board["width"] and 0 <= cy + dy <= board["height"]
    for _, x, y in board["labels"]:
        assert 0 < x < board["width"] and 0 < y <= board["height"]
    texts = [text for text, *_ in board["labels"]]
    assert sorted(t for t in texts if t.isalpha()) == list("abcdefghijklm")
    numbers = {geo.name(c)[1:] for c in range(geo.size)}
    assert set(texts) - set("abcdefghijklm") == numbers
    # No name on a cell: the middle of every label is further from every cell
    # centre than the cell's inner radius and half the name's height.
    half = BASELINE_SHARE * board["font"]
    for _, x, y in board["labels"]:
        assert all(
            math.hypot(x - cx, y - half - cy) > CELL / 2 + half for _, cx, cy, _ in board["cells"]
        )
    # White's side is at the bottom, or at the top when Black is.
    low, high = geo.parse_square("g2"), geo.parse_square("g12")
    below = board["cells"][low][2] > board["cells"][high][2]
    assert below != flip


@pytest.mark.parametrize("variant", ["falcon", "falcon-8x8", "falcon-9x10", "falcon-10x10"])
@pytest.mark.parametrize("flip", [False, True])
def test_a_rectangle_is_laid_out_as_the_page_always_drew_it(variant, flip):
    geo = get_variant(variant).geometry
    files, ranks = geo.files, geo.ranks
    board = board_layout(variant, flip)
    assert board["shape"] == "square"
    # A strip for the names left of the squares and below them, wide enough for "10".
    margin, font = board["width"] - files * 100, board["font"]
    assert board["height"] == ranks * 100 + margin and margin >= 2 * CHAR_WIDTH * font
    assert board["corners"] == [[-50, -50], [50, -50], [50, 50], [-50, 50]]
    for sq, (name, cx, cy, shade) in enumerate(board["cells"]):
        file, rank = sq % files, sq // files
        col = files - 1 - file if flip else file
        row = rank if flip else ranks - 1 - rank
        assert (name, cx, cy) == (geo.name(sq), margin + col * 100 + 50, row * 100 + 50)
        assert shade == ("light" if (file + rank) % 2 == 0 else "dark")
    # Each name in the middle of its strip, across from its file or rank.
    baseline = round(BASELINE_SHARE * font)
    letters = [
        [letter, board["cells"][f][1], ranks * 100 + margin // 2 + baseline]
        for f, letter in enumerate("abcdefghijklmnop"[:files])
    ]
    numbers = [
        [str(r + 1), margin // 2, board["cells"][r * files][2] + baseline] for r in range(ranks)
    ]
    assert board["labels"] == letters + numbers
    assert board["rows"] == [
        list(range(r * files, (r + 1) * files)) for r in reversed(range(ranks))
    ]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_names_are_readable_where_the_board_is_a_phones_width(variant):
    """At the old 18 units, the names were 6 px high on a 360 px phone."""
    board = board_layout(variant)
    assert board["font"] * PHONE_BOARD_PX / board["width"] >= MIN_LABEL_PX
