"""Board views: the hexagon laid out in pixels, a point back to its cell, and
the cells' names along the edges, at both screen sizes and both ways round."""

from __future__ import annotations

import pygame
import pytest

from boardctl.rules.geometry import Geometry
from boardctl.rules.hexgeo import FALCON_HEX, GLINSKI, HexGeometry
from boardctl.ui.boardview import HEX_SHADES, HexView, SquareView
from boardctl.ui.display import Renderer
from boardctl.ui.text import Fonts

ORIENTATIONS = pytest.mark.parametrize("orientation", [0, 1], ids=["white-bottom", "black-bottom"])


def coded(view, size: tuple[int, int]) -> pygame.Surface:
    """Each cell filled in a colour that encodes its number (+1; 0 is no cell)."""
    surface = pygame.Surface(size)
    surface.fill((0, 0, 0))
    for cell in range(view.cells):
        view.fill(surface, cell, (0, (cell + 1) // 256, (cell + 1) % 256))
    return surface


def drawn_cell(surface: pygame.Surface, at: tuple[int, int]) -> int | None:
    colour = surface.get_at(at)
    code = colour.g * 256 + colour.b
    return code - 1 if code else None


def screen_view(size, geometry, orientation):
    return Renderer(size).board_layout(geometry).view(orientation)


@ORIENTATIONS
@pytest.mark.parametrize("geometry", [FALCON_HEX, GLINSKI], ids=["falcon-hex", "glinski"])
def test_every_cell_centre_and_the_inside_of_every_cell_map_back_to_that_cell(
    size, orientation, geometry
):
    view = screen_view(size, geometry, orientation)
    assert view.cells == geometry.size
    centres = set()
    for cell in range(view.cells):
        x, y = view.centre(cell)
        centres.add((x, y))
        assert view.cell_at((x, y)) == cell, geometry.name(cell)
        # Well inside the cell in every direction (the apothem is cell/2).
        reach = view.cell * 2 // 5
        for dx, dy in (
            (reach, 0),
            (-reach, 0),
            (0, reach),
            (0, -reach),
            (reach // 2, reach),
            (-reach // 2, -reach),
        ):
            assert view.cell_at((x + dx, y + dy)) == cell, geometry.name(cell)
        assert view.rect(cell).collidepoint(x, y)
    assert len(centres) == view.cells


@ORIENTATIONS
def test_a_click_finds_the_cell_drawn_under_it_and_nothing_off_the_hexagon(size, orientation):
    """Every pixel of the screen: where a cell is drawn, the click finds that
    cell; off the hexagon (the trimmed corners, the labels, the panel), none.
    Only a pixel on the line two cells share may go to either."""
    view = screen_view(size, FALCON_HEX, orientation)
    surface = coded(view, size)
    outside = 0
    for x in range(0, size[0], 2):
        for y in range(0, size[1], 2):
            drawn, found = drawn_cell(surface, (x, y)), view.cell_at((x, y))
            if drawn == found:
                outside += found is None
                continue
            near = {
                drawn_cell(surface, (x + dx, y + dy))
                for dx in (-1, 0, 1)
                for dy in (-1, 0, 1)
                if 0 <= x + dx < size[0] and 0 <= y + dy < size[1]
            }
            assert found in near, (x, y, drawn, found)
    assert outside > size[0] * size[1] // 8  # the panel, the banner, the corners


@ORIENTATIONS
def test_the_trimmed_corners_are_not_cells(size, orientation):
    view = screen_view(size, FALCON_HEX, orientation)
    radius = view.cell / 3**0.5
    middle = view.centre(FALCON_HEX.cell_at(0, 0))
    sign = -1 if orientation else 1
    for q, r in ((6, 0), (-6, 0), (0, 6), (0, -6), (6, -6), (-6, 6)):
        x = middle[0] + sign * 1.5 * radius * q
        y = middle[1] - sign * 3**0.5 * radius * (r + q / 2)
        assert view.cell_at((round(x), round(y))) is None, (q, r)


@ORIENTATIONS
def test_every_file_and_rank_is_named_outside_the_cells_and_no_names_overlap(size, orientation):
    view = screen_view(size, FALCON_HEX, orientation)
    surface = coded(view, size)
    font = Fonts().get(Renderer(size).board_layout(FALCON_HEX).label_text)
    texts = [text for text, _ in view.labels()]
    assert sorted(t for t in texts if t.isalpha()) == list("abcdefghijklm")
    numbers = [int(t) for t in texts if t.isdigit()]
    assert set(numbers) == set(range(1, 14))
    assert numbers.count(7) == 2 and len(numbers) == 14  # the rank through the centre: twice
    boxes = []
    for text, centre in view.labels():
        box = pygame.Rect((0, 0), font.size(text))
        box.center = centre
        assert view.bounds.contains(box), text
        assert all(
            drawn_cell(surface, (x, y)) is None
            for x in range(box.left, box.right)
            for y in range(box.top, box.bottom)
        ), text
        boxes.append(box)
    for index, box in enumerate(boxes):
        assert box.collidelist(boxes[index + 1 :]) == -1, texts[index]


def names_its_rank(view, text: str, at: tuple[int, int]) -> bool:
    """Whether a number stands beside its rank's end cell on the board's
    side (the nearest cell on its row is of that rank), or on the rank's
    line one place beyond its end (in a trimmed corner or outside)."""
    rank = [c for c in range(view.cells) if FALCON_HEX.name(c)[1:] == text]
    row = [c for c in range(view.cells) if abs(view.centre(c)[1] - at[1]) <= 1]
    if row and min(row, key=lambda c: abs(view.centre(c)[0] - at[0])) in rank:
        return True
    for end in rank:
        (ex, ey) = view.centre(end)
        for inner in rank:
            ix, iy = view.centre(inner)
            beyond = (2 * ex - ix, 2 * ey - iy)
            neighbours = 0 < (ex - ix) ** 2 + (ey - iy) ** 2 <= (view.cell * 1.1) ** 2
            if neighbours and abs(beyond[0] - at[0]) <= 2 and abs(beyond[1] - at[1]) <= 2:
                return view.cell_at(at) is None
    return False


@ORIENTATIONS
def test_the_names_stand_by_their_files_and_ranks(size, orientation):
    view = screen_view(size, FALCON_HEX, orientation)
    for text, (x, y) in view.labels():
        if text.isalpha():
            column = [
                view.centre(c)[0] for c in range(view.cells) if FALCON_HEX.name(c).startswith(text)
            ]
            assert set(column) == {x}, text
            assert y > max(view.centre(c)[1] for c in range(view.cells))
        else:
            assert names_its_rank(view, text, (x, y)), text


def test_the_board_and_its_names_fit_left_of_the_panel_and_clear_of_the_banner(size):
    lay = Renderer(size).board_layout(FALCON_HEX)
    for view in lay.views:
        assert view.bounds.right < lay.panel.left
        assert not view.bounds.colliderect(lay.banner)
        assert view.bounds.left >= 0 and view.bounds.top >= 0
    # The hexagon is as tall as the room allows: its 12 cells on file f
    # and the letters under it take the height above the banner, or the
    # screen's whole height where the banner stands beside it.
    room = size[1] - 2 * lay.panel.top if lay.beside else lay.panel.height
    assert lay.views[0].bounds.height >= room - 2


def test_the_two_orientations_put_the_cells_in_the_same_places(size):
    white, black = Renderer(size).board_layout(FALCON_HEX).views
    assert {white.centre(c) for c in range(white.cells)} == {
        black.centre(c) for c in range(black.cells)
    }
    middle = FALCON_HEX.cell_at(0, 0)
    assert white.centre(middle) == black.centre(middle)
    g2, g12 = FALCON_HEX.parse_cell("g2"), FALCON_HEX.parse_cell("g12")
    assert white.centre(g2)[1] > white.centre(g12)[1]  # White's side at the bottom
    assert black.centre(g2)[1] < black.centre(g12)[1]


def test_neighbouring_cells_have_different_shades_and_the_centre_is_medium():
    view = HexView(FALCON_HEX, 30, measure=lambda text: (8 * len(text), 12))
    assert sorted(HEX_SHADES) == [0, 1, 2]
    assert view.shade(FALCON_HEX.cell_at(0, 0)) == 1
    for cell in range(FALCON_HEX.size):
        for direction in ("N", "NE", "SE"):
            other = FALCON_HEX.step(cell, direction)
            if other is not None:
                assert view.shade(other) != view.shade(cell)
    counts = [sum(view.shade(c) == s for c in range(FALCON_HEX.size)) for s in range(3)]
    assert counts == [42, 37, 42]


def test_neighbours_meet_without_a_seam():
    """Two cells that share an edge share its two corners to the pixel."""
    view = HexView(FALCON_HEX, 33.3, measure=lambda text: (8 * len(text), 12), origin=(400.5, 300))
    for cell in range(FALCON_HEX.size):
        for direction in ("N", "NE", "SE", "S", "SW", "NW"):
            other = FALCON_HEX.step(cell, direction)
            if other is not None:
                assert len(set(view.polygon(cell)) & set(view.polygon(other))) == 2


def test_largest_fits_the_room_and_a_pixel_more_would_not():
    measure = Fonts().get(12).size
    room = (300, 260)
    cell = HexView.largest(FALCON_HEX, room, measure=measure)
    views = HexView.pair(FALCON_HEX, cell, measure=measure)
    both = views[0].bounds.union(views[1].bounds)
    assert both.width <= room[0] and both.height <= room[1]
    bigger = HexView.pair(FALCON_HEX, cell + 1, measure=measure)
    grown = bigger[0].bounds.union(bigger[1].bounds)
    assert grown.width > room[0] or grown.height > room[1]


@pytest.mark.parametrize("flip", [False, True])
def test_a_square_view_finds_each_square_where_it_draws_it(flip):
    geo = Geometry(10, 8)
    view = SquareView(geo, pygame.Rect(30, 10, 400, 320), labels=20, flip=flip)
    surface = coded(view, (480, 360))
    for x in range(0, 480, 3):
        for y in range(0, 360, 3):
            assert view.cell_at((x, y)) == drawn_cell(surface, (x, y))
    assert isinstance(FALCON_HEX, HexGeometry) and not isinstance(geo, HexGeometry)
