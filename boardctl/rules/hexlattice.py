"""Where a hexagon's cells lie, in lattice units, for every drawing of it.

The screen (:class:`~boardctl.ui.boardview.HexView`) and the spectator page
(:mod:`boardctl.web.layout`) place flat-topped cells on one lattice: ``x``
counts half a cell's radius across, ``y`` half a cell's height down.  On
it every corner two cells share is the same lattice point, so a drawing
that scales the lattice draws neighbours without seams.  It lives with the
rules, beside the hexagon's geometry, so that the screen and the page share it
without the page importing the screen.
"""

from __future__ import annotations

LIGHT, MEDIUM, DARK = 0, 1, 2
# The hexagon's colours (RULES-HEX.md: (q - r) mod 3, the centre 0) as
# shades: the centre's colour is the middle one, as on Glinski's board.
HEX_SHADES = (MEDIUM, DARK, LIGHT)

# A flat-topped hexagon's corners around its centre, clockwise from the right one.
CORNERS = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))

# Lattice offsets between the centres of two cells that share an edge.
NEIGHBOUR_OFFSETS = ((3, 1), (0, 2))


def lattice(q: int, r: int) -> tuple[int, int]:
    """The lattice point of the centre of the cell at axial ``(q, r)``:
    ``q`` goes right, ``r`` goes up its file (so down the lattice's ``y``)."""
    return 3 * q, -(2 * r + q)


def rank_ends(points: list[tuple[int, int]]) -> list[tuple[int, tuple[int, int]]]:
    """The ends of one rank, given its cells' lattice points: each end's
    index in ``points`` and the lattice step that leads on beyond it, away
    from the rank's other cells (for a rank of one cell, away from the
    board's middle row).  A rank's name stands beyond one of its ends."""
    out = []
    for index, (x, y) in enumerate(points):
        inner = [(ox, oy) for ox, oy in points if (abs(ox - x), abs(oy - y)) in NEIGHBOUR_OFFSETS]
        if len(inner) != 1 and len(points) > 1:
            continue
        step = (x - inner[0][0], y - inner[0][1]) if inner else (0, 2 if y > 0 else -2)
        out.append((index, step))
    return out
