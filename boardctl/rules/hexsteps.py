"""The hexagon's unit steps, the knight's leaps and the falcon's moves, in
axial coordinates ``(q, r)`` (RULES-HEX.md, section 2).

They sit below both the geometry (:mod:`.hexgeo`) and its lookup tables
(:mod:`.hextables`), so that neither imports the other back.
"""

from __future__ import annotations

Cell = int
Axial = tuple[int, int]

# The 12 directions clockwise from north, 30° apart; even indexes are the
# orthogonal steps (to a neighbour across an edge), odd ones the diagonal
# steps (through a vertex to the nearest cell of the same colour).
COMPASS: tuple[tuple[str, Axial], ...] = (
    ("N", (0, 1)),
    ("NNE", (1, 1)),
    ("NE", (1, 0)),
    ("E", (2, -1)),
    ("SE", (1, -1)),
    ("SSE", (1, -2)),
    ("S", (0, -1)),
    ("SSW", (-1, -1)),
    ("SW", (-1, 0)),
    ("W", (-2, 1)),
    ("NW", (-1, 1)),
    ("NNW", (-1, 2)),
)
DIRECTIONS: dict[str, Axial] = dict(COMPASS)
ORTHOGONAL: tuple[str, ...] = tuple(name for name, _ in COMPASS[0::2])
DIAGONAL: tuple[str, ...] = tuple(name for name, _ in COMPASS[1::2])


def falcon_steps() -> tuple[tuple[Axial, Axial], ...]:
    """The falcon's 24 moves as ``(a, b)`` pairs of unit steps.

    A falcon move repeats a step ``a`` and adds one step ``b`` 30° from it
    (2O+D or 2D+O, RULES-HEX.md 4.1): the destination is ``2a + b`` and the
    three paths are the orders ``a a b``, ``a b a`` and ``b a a``.
    """
    steps = [step for _, step in COMPASS]
    return tuple(
        (a, b) for i, a in enumerate(steps) for b in (steps[(i + 1) % 12], steps[(i - 1) % 12])
    )


def knight_leaps() -> tuple[Axial, ...]:
    """The knight's 12 leaps: an orthogonal step then a diagonal one 30° away."""
    steps = [step for _, step in COMPASS]
    return tuple(
        (steps[i][0] + steps[(i + k) % 12][0], steps[i][1] + steps[(i + k) % 12][1])
        for i in range(0, 12, 2)
        for k in (1, -1)
    )


def distance(a: Axial, b: Axial) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))
