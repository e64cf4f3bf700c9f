"""A hand at a simulated board, for tests that step a daemon in virtual time:
a move carried out as a person makes it, and a table that moves from square
to square."""

from __future__ import annotations

import re
from collections.abc import Callable

from boardctl.daemon.loop import Daemon
from boardctl.hw.sim import SimBoard
from boardctl.rules.geometry import Geometry


def carry_out(
    board: SimBoard, geo: Geometry, uci: str, run: Callable[[float], None], settle: float
) -> None:
    """Carry out ``uci`` on ``board``: lift the piece, lift the one it takes,
    put it down, with ``run`` a tenth of a second after each lift and
    ``settle`` seconds at the end."""
    names = re.fullmatch(r"([a-z]+\d+)([a-z]+\d+)[a-z]?", uci)
    assert names is not None, uci
    src, dst = (geo.parse_square(name) for name in names.groups())
    board.lift(src)
    run(0.1)
    if dst in board.occupied:
        board.lift(dst)
        run(0.1)
    board.place(dst)
    run(settle)


class Table:
    """A daemon on a simulated board, stepped a hundredth of a second at a
    time; a subclass makes ``daemon``, ``board`` and ``geo``."""

    daemon: Daemon
    board: SimBoard
    geo: Geometry
    now = 0.0

    def run(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.daemon.step(self.now)
            self.now += 0.01

    def move(self, frm: str, to: str) -> None:
        """Lift from ``frm``, put down on ``to`` a fifth of a second later, and
        let the board settle for a second."""
        self.board.lift(self.geo.parse_square(frm))
        self.run(0.2)
        self.board.place(self.geo.parse_square(to))
        self.run(1.0)
