"""The simulator's hand and tray: the mouse does what a hand does at a real
table (two pieces at once, pieces taken off into the tray and put back from
it) and nothing a hand cannot (no piece ever lands on another)."""

from __future__ import annotations

import pygame
import pytest

from boardctl.rules import get_variant
from boardctl.ui.keys import KEYS
from boardctl.ui.sim import SimWindow
from boardctl.ui.state import DisplayState
from boardctl.ui.tray import FELT
from tests.ui.test_sim_window import Rig

from . import mouse

VARIANTS = ["falcon", "falcon-hex"]
CASTLING_LINE = ["i1h3", "a7a6", "g2g3", "a6a5", "h1g2", "a5a4", "i2i3", "b7b6", "g1j3", "b6b5"]


class Recorder:
    """A hand that writes down what it does to the sensors, by cell name."""

    def __init__(self, geo) -> None:
        self.geo = geo
        self.calls: list[tuple[str, str]] = []

    def lift(self, square: int) -> None:
        self.calls.append(("lift", self.geo.name(square)))

    def place(self, square: int) -> None:
        self.calls.append(("place", self.geo.name(square)))


class Table:
    """A window on a recording hand, driven by mouse events."""

    def __init__(self, variant: str = "falcon") -> None:
        pygame.display.init()
        pygame.font.init()
        self.geo = get_variant(variant).geometry
        self.hand = Recorder(self.geo)
        self.window = SimWindow(
            self.hand, lambda name: None, (480, 320), DisplayState.from_fen(None, variant)
        )

    def at(self, spot: str | int) -> tuple[int, int]:
        """A cell's centre, or the centre of the tray's ``spot``-th piece."""
        if isinstance(spot, int):
            return self.window.tray.slots()[spot].center
        return self.window.view.centre(self.geo.parse_square(spot))

    def click(self, spot: str | int | tuple[int, int], button: int = 1) -> None:
        mouse.click(self.window, spot if isinstance(spot, tuple) else self.at(spot), button)

    def drag(self, frm: str | int, to: str | int | tuple[int, int]) -> None:
        mouse.drag(self.window, self.at(frm), to if isinstance(to, tuple) else self.at(to))

    @property
    def tray(self) -> tuple[int, int]:
        return self.window.tray.rect.center

    def piece(self, name: str) -> int | None:
        return self.window.pieces.get(self.geo.parse_square(name))


# ---------------------------------------------------------- off and back on
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("how", ["right-click", "drag"])
def test_a_piece_is_taken_off_into_the_tray(variant, how):
    table = Table(variant)
    name = "d7" if variant == "falcon" else "d11"
    piece = table.piece(name)
    if how == "right-click":
        table.click(name, button=3)
    else:
        table.drag(name, table.tray)
    assert table.hand.calls == [("lift", name)]
    assert table.piece(name) is None and table.window.tray.pieces == [piece]
    assert table.window.held == []


def test_a_click_on_the_tray_with_a_piece_in_hand_puts_it_there():
    table = Table()
    table.click("e2")
    table.click(table.tray)
    assert table.hand.calls == [("lift", "e2")] and len(table.window.tray.pieces) == 1
    assert table.window.held == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_piece_in_the_tray_is_put_back_by_a_drag_or_by_two_clicks(variant):
    table = Table(variant)
    name, other = ("e7", "e5") if variant == "falcon" else ("e10", "e8")
    piece = table.piece(name)
    table.click(name, button=3)
    table.drag(0, name)
    assert table.hand.calls == [("lift", name), ("place", name)]
    assert table.piece(name) == piece and table.window.tray.pieces == []
    table.click(name, button=3)
    table.click(0)
    assert table.window.held == [piece] and table.window.tray.pieces == []
    table.click(other)
    assert table.hand.calls[2:] == [("lift", name), ("place", other)]
    assert table.piece(other) == piece


def test_right_click_takes_a_piece_off_while_the_hand_holds_two():
    table = Table()
    table.click("e1")
    table.click("f1")
    table.click("d7", button=3)
    assert table.hand.calls == [("lift", "e1"), ("lift", "f1"), ("lift", "d7")]
    assert len(table.window.held) == 2 and len(table.window.tray.pieces) == 1


def test_the_tray_keeps_white_before_black_and_fits_every_piece():
    table = Table()
    names = [table.geo.name(sq) for sq in sorted(table.window.pieces)]
    for name in names:
        table.click(name, button=3)
    tray = table.window.tray
    assert len(tray.pieces) == 40 and not table.window.pieces
    colours = [piece >> 3 for piece in tray.pieces]
    assert colours == sorted(colours)
    slots = tray.slots()
    assert all(tray.rect.contains(slot) for slot in slots)
    assert all(not a.colliderect(b) for i, a in enumerate(slots) for b in slots[i + 1 :])
    # Any piece can be picked out of a full tray.
    table.click(len(slots) - 1)
    assert len(table.window.held) == 1 and len(tray.pieces) == 39


# ---------------------------------------------------- nothing lands on a piece
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_piece_dropped_on_an_occupied_square_stays_in_hand(variant):
    table = Table(variant)
    frm, onto, empty = ("d1", "d2", "d4") if variant == "falcon" else ("d4", "d6", "d7")
    mover, standing = table.piece(frm), table.piece(onto)
    table.drag(frm, onto)
    assert table.hand.calls == [("lift", frm)]
    assert table.window.held == [mover] and table.piece(onto) == standing
    table.click(empty)
    assert table.hand.calls[1:] == [("place", empty)] and table.piece(empty) == mover


def test_a_piece_from_the_tray_does_not_land_on_an_occupied_square():
    table = Table()
    table.click("d7", button=3)
    table.drag(0, "e7")
    assert table.hand.calls == [("lift", "d7")] and len(table.window.held) == 1
    assert table.piece("e7") is not None


def test_a_click_on_a_piece_with_one_in_hand_picks_it_up_and_puts_nothing_down():
    table = Table()
    table.click("e2")
    table.click("d7")
    assert table.hand.calls == [("lift", "e2"), ("lift", "d7")]
    assert len(table.window.held) == 2


def test_a_hand_holds_two_pieces_and_no_third():
    table = Table()
    for name in ("e1", "f1", "g1"):
        table.click(name)
    assert table.hand.calls == [("lift", "e1"), ("lift", "f1")]
    assert table.piece("g1") is not None and len(table.window.held) == 2


@pytest.mark.parametrize(
    "swap",
    [
        lambda w: w.handle(pygame.event.Event(pygame.KEYDOWN, unicode="\t", key=pygame.K_TAB)),
        lambda w: w.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1)),
    ],
    ids=["tab", "wheel"],
)
def test_tab_or_the_wheel_chooses_which_piece_in_hand_goes_down(swap):
    table = Table()
    queen, king = table.piece("e1"), table.piece("f1")
    table.click("e1")
    table.click("f1")
    table.click("f4")  # the piece picked up last goes down first
    assert table.piece("f4") == king
    table.click("f4")
    swap(table.window)
    table.click("f5")
    assert table.piece("f5") == queen and table.window.held == [king]


# ------------------------------------------------------ with the daemon reading
@pytest.mark.parametrize("how", ["right-click", "drag to the tray"])
def test_a_capture_with_the_captured_piece_taken_off_first(how):
    rig = Rig()
    rig.click_moves(("e2", "e4"), ("d7", "d5"))
    if how == "right-click":
        rig.click("d5", button=3)
    else:
        rig.drag_between(
            rig.window.view.centre(rig.geo.parse_square("d5")), rig.window.tray.rect.center
        )
    rig.run(1.0)
    rig.drag("e4", "d5")
    rig.run(1.0)
    assert rig.lines()[-1] == "move e4d5"
    assert rig.board.occupancy == (
        rig.daemon.game.position.colors[0] | rig.daemon.game.position.colors[1]
    )


@pytest.mark.parametrize("how", ["right-click", "both in hand"])
def test_a_capture_with_the_capturing_piece_lifted_first(how):
    rig = Rig()
    rig.click_moves(("e2", "e4"), ("d7", "d5"))
    rig.click("e4")
    if how == "right-click":
        rig.click("d5", button=3)
    else:
        rig.click("d5")  # the second piece in hand, then into the tray
        mouse.click(rig.window, rig.window.tray.rect.center)
    rig.click("d5")
    rig.run(1.0)
    assert rig.lines() == ["move e2e4", "move d7d5", "move e4d5"]
    assert len(rig.window.tray.pieces) == 1 and rig.window.held == []


@pytest.mark.parametrize("first", ["i1", "h1"])
@pytest.mark.parametrize("lifted", [("f1", "j1"), ("j1", "f1")], ids=["king first", "rook first"])
def test_castling_with_king_and_rook_in_hand_put_down_in_either_order(first, lifted):
    rig = Rig()
    for move in CASTLING_LINE:
        rig.click(move[:2])
        rig.click(move[2:])
        rig.run(1.0)
    king, rook = (rig.window.pieces[rig.geo.parse_square(name)] for name in ("f1", "j1"))
    for name in lifted:
        rig.click(name)
    assert len(rig.window.held) == 2
    # The piece at the pointer goes down; Tab brings the other one there.
    wanted = king if first == "i1" else rook
    if rig.window.held[-1] != wanted:
        rig.key("\t", pygame.K_TAB)
    rig.click(first)
    rig.click("h1" if first == "i1" else "i1")
    rig.run(1.0)
    assert rig.lines()[-1] == "move f1i1"
    pieces = rig.window.pieces
    assert pieces[rig.geo.parse_square("i1")] == king
    assert pieces[rig.geo.parse_square("h1")] == rook


@pytest.mark.parametrize("order", ["captured first", "capturing first"])
def test_a_capture_on_the_hexagon_in_either_order(order):
    rig = Rig(variant="falcon-hex")
    rig.click_moves(("e6", "e8"), ("f9", "f7"))
    if order == "captured first":
        rig.click("f7", button=3)
        rig.run(0.5)
        rig.click("g6")
    else:
        rig.click("g6")
        rig.click("f7", button=3)
    rig.click("f7")
    rig.run(1.0)
    assert rig.lines() == ["move e6e8", "move f9f7", "move g6f7"]


# ------------------------------------------------------------ the looks
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_tray_stands_beside_the_board_and_grows_with_the_window(variant):
    table = Table(variant)
    window = table.window

    def placed() -> pygame.Rect:
        window.draw()
        tray = window.tray.rect
        assert window.window.get_rect().contains(tray)
        assert tray.left > window.frame.right and tray.top > 320
        assert tray.height >= window.view.cell
        return tray

    before = placed()
    window.handle(pygame.event.Event(pygame.VIDEORESIZE, size=(1700, 1100), w=1700, h=1100))
    assert placed().height > before.height
    window.handle(pygame.event.Event(pygame.VIDEORESIZE, size=(300, 200), w=300, h=200))
    placed()


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_tray_and_the_hand_are_drawn(variant):
    table = Table(variant)
    window = table.window
    window.draw()
    empty = pygame.Surface.copy(window.window)
    off, lifted, over = ("d7", "e2", "e5") if variant == "falcon" else ("d11", "e6", "e8")
    table.click(off, button=3)
    table.click(lifted)
    point = table.at(over)
    window.handle(pygame.event.Event(pygame.MOUSEMOTION, buttons=(0, 0, 0), pos=point, rel=(0, 0)))
    window.draw()
    slot = window.tray.slots()[0]
    ink = [
        window.window.get_at((x, y))
        for x in range(slot.left, slot.right, 2)
        for y in range(slot.top, slot.bottom, 2)
    ]
    assert sum(1 for c in ink if tuple(c)[:3] != FELT) > len(ink) // 5  # the piece in the tray
    changed = sum(
        1
        for x in range(point[0] - 10, point[0] + 10)
        for y in range(point[1] - 10, point[1] + 10)
        if window.window.get_at((x, y)) != empty.get_at((x, y))
    )
    assert changed > 40  # the piece in hand, at the pointer


def test_the_help_says_how_to_take_off_put_back_and_hold_two():
    words = " ".join(f"{key} {text}" for key, _, text in KEYS)
    for phrase in ("right-click", "tray", "drag", "hold two", "Tab"):
        assert phrase in words
