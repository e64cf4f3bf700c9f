"""The simulator window: mouse clicks become sensor readings and moves."""

from __future__ import annotations

import pygame
import pytest

from boardctl.config import parse_config
from boardctl.daemon import Daemon
from boardctl.hw.sim import SimBoard
from boardctl.rules import Game, get_variant
from boardctl.ui.sim import DARK_WOOD, LIGHT_WOOD, SimWindow
from tests.daemon_fakes import MemoryStore, ScriptedOpponent


def make_window(mode: str = "two-players", opponent=None, variant: str = "falcon") -> SimWindow:
    pygame.display.init()
    pygame.font.init()
    game = Game(get_variant(variant))
    pos = game.position
    geo = pos.geometry
    board = SimBoard(geo.squares(pos.colors[0] | pos.colors[1]), files=geo.files,
                     ranks=geo.ranks)
    config = parse_config({"game": {"mode": mode, "variant": variant}})
    daemon = Daemon(config, board, MemoryStore(), opponent=opponent)
    window = SimWindow(daemon, board, (480, 320))
    window.started = 0.0
    return window


def click(window: SimWindow, name: str, clock: list[float]) -> None:
    sq = window.daemon.game.position.geometry.parse_square(name)
    rect = window.square_rect(sq)
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        window.handle(pygame.event.Event(kind, button=1, pos=rect.center))
    run_frames(window, clock, 0.2)


def run_frames(window: SimWindow, clock: list[float], seconds: float) -> None:
    end = clock[0] + seconds
    while clock[0] < end:
        window.tick(clock[0])
        clock[0] += 0.01


def test_click_lift_and_click_place_plays_a_move():
    window = make_window()
    clock = [0.0]
    click(window, "e2", clock)
    click(window, "e4", clock)
    run_frames(window, clock, 1.0)
    assert [e.line() for e in window.daemon.events] == ["move e2e4"]


def test_a_lifted_piece_lights_its_squares_in_the_window():
    window = make_window()
    clock = [0.0]
    click(window, "b1", clock)
    window.now = lambda: clock[0]  # type: ignore[method-assign]
    window.draw()
    pos = window.daemon.game.position
    a3 = window.square_rect(pos.geometry.parse_square("a3")).center
    d4 = window.square_rect(pos.geometry.parse_square("d4")).center
    lit, dark = window.window.get_at(a3), window.window.get_at(d4)
    assert lit != dark and lit.g > lit.r  # the knight's destination glows green
    pygame.image.save(window.window, "/tmp/sim-window.png")


def test_capture_by_clicking_an_occupied_square_takes_the_piece_off():
    window = make_window()
    clock = [0.0]
    window.now = lambda: clock[0]  # type: ignore[method-assign]
    for frm, to in (("e2", "e4"), ("d7", "d5"), ("e4", "d5")):
        click(window, frm, clock)
        click(window, to, clock)
        run_frames(window, clock, 1.0)
    assert [e.line() for e in window.daemon.events] == ["move e2e4", "move d7d5", "move e4d5"]


def test_the_engine_reply_is_shown_and_carried_out_with_the_mouse():
    window = make_window("engine", ScriptedOpponent(["e7e5"]))
    clock = [0.0]
    click(window, "e2", clock)
    click(window, "e4", clock)
    run_frames(window, clock, 1.0)
    assert window.daemon.reconciler.engine_move is not None
    click(window, "e7", clock)
    click(window, "e5", clock)
    run_frames(window, clock, 0.5)
    assert [e.line() for e in window.daemon.events] == ["move e2e4", "move e7e5"]


def test_h_asks_for_a_hint():
    window = make_window("engine", ScriptedOpponent(["d2d4"]))
    clock = [0.0]
    run_frames(window, clock, 0.3)
    window.handle(pygame.event.Event(pygame.KEYDOWN, unicode="h", key=pygame.K_h))
    run_frames(window, clock, 0.3)
    assert window.daemon.status().prompt == "Hint: d4"


def test_plus_and_minus_change_the_engine_level():
    opponent = ScriptedOpponent([])
    window = make_window("engine", opponent)
    clock = [0.0]
    run_frames(window, clock, 0.1)
    for text, key in (("-", pygame.K_MINUS), ("-", pygame.K_MINUS), ("+", pygame.K_PLUS)):
        window.handle(pygame.event.Event(pygame.KEYDOWN, unicode=text, key=key))
    run_frames(window, clock, 0.1)
    assert opponent.skills == [19, 18, 19]
    assert window.daemon.status().prompt == "Engine level 19 of 20"


@pytest.mark.parametrize(("variant", "human", "engine", "corner"), [
    # 9×10: Black's pawns step twice from the eighth rank; j9 is dark.
    ("falcon-9x10", "e2e4", "e8e6", "j9"),
    # Central 10×10: the queen's pawn steps twice from the third rank; j10 is light.
    ("falcon-10x10-central", "e3e5", "d8d6", "j10"),
])
def test_the_other_board_sizes_play_in_the_window(variant, human, engine, corner):
    window = make_window("engine", ScriptedOpponent([engine]), variant)
    clock = [0.0]
    window.now = lambda: clock[0]  # type: ignore[method-assign]
    for move in (human, engine):
        click(window, move[:2], clock)
        click(window, move[2:], clock)
        run_frames(window, clock, 1.0)
    assert [e.line() for e in window.daemon.events] == [f"move {human}", f"move {engine}"]
    window.draw()
    geo = window.daemon.game.position.geometry
    far = window.square_rect(geo.parse_square(corner))
    assert window.window.get_rect().contains(far) and far.top >= 0
    # The wooden squares follow the board's colouring: a1 light, so j9 of
    # nine ranks dark.
    probe = far.move(2, 2).topleft
    wood = LIGHT_WOOD if geo.is_light(geo.parse_square(corner)) else DARK_WOOD
    assert tuple(window.window.get_at(probe))[:3] == wood
