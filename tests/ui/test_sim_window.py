"""The simulator window: a LED sink, a display and a hand on the simulated
sensors, wired to the daemon as a Pi's hardware is."""

from __future__ import annotations

import ast
import re
import warnings
from contextlib import ExitStack
from pathlib import Path

import pygame
import pytest

from boardctl.board.lights import LIGHTS
from boardctl.board.scene import Role
from boardctl.board.stepping import Stepping
from boardctl.config import parse_config
from boardctl.daemon import wiring as app
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware, Services, Start
from boardctl.daemon.puzzle import PuzzleSession
from boardctl.hw.sim import SimBoard, SimButtons
from boardctl.puzzles import Puzzle
from boardctl.rules import Game, PieceType, Position, get_variant
from boardctl.rules.pieces import piece_from_symbol
from boardctl.storage.store import GameStore, default_db_path
from boardctl.ui.keys import GROUPS, KEYS
from boardctl.ui.sim import SimWindow
from boardctl.ui.simpaint import DARK_WOOD, HELP_KEY, LIGHT_WOOD, WOODS, help_layout, led_glow
from boardctl.ui.state import DisplayState
from boardctl.ui.text import Fonts
from boardctl.ui.tray import off_the_board
from boardctl.voice.speaker import Recorder
from tests.daemon_fakes import MemoryStore, ScriptedOpponent

from . import mouse

UI = Path(__file__).resolve().parents[2] / "boardctl" / "ui"


class Rig:
    """A window and a daemon wired as ``app.run_window`` wires them, in virtual time."""

    def __init__(
        self,
        mode: str = "two-players",
        opponent=None,
        variant: str = "falcon",
        setup: str | None = None,
        puzzle: Puzzle | None = None,
        speaker: Recorder | None = None,
        replay: Stepping | None = None,
        store=None,
    ) -> None:
        pygame.display.init()
        pygame.font.init()
        pos = Game(get_variant(variant)).position
        geo = pos.geometry
        self.board = SimBoard(
            geo.squares(pos.colors[0] | pos.colors[1]), files=geo.files, ranks=geo.ranks
        )
        self.buttons = SimButtons()
        self.now = 0.0
        self.window = SimWindow(
            self.board,
            lambda name: self.buttons.press(name, self.now),
            (480, 320),
            DisplayState.from_fen(None, variant),
        )
        config = parse_config({"game": {"mode": mode, "variant": variant}})
        self.store = MemoryStore() if store is None else store
        self.daemon = Daemon(
            config,
            Hardware(
                self.board, leds=self.window.leds, buttons=self.buttons, display=self.window.display
            ),
            self.store,
            Services(opponent=opponent, speaker=speaker),
            Start(
                setup=None if setup is None else Position(setup, get_variant(variant)),
                puzzle=None if puzzle is None else PuzzleSession(puzzle),
                replay=replay,
            ),
        )
        self.geo = pos.geometry

    def run(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.window.tick(self.now)
            self.daemon.step(self.now)
            self.now += 0.01

    def click(self, name: str, button: int = 1) -> None:
        """A click on a cell (``button`` 3: a right-click)."""
        mouse.click(
            self.window, self.window.square_rect(self.geo.parse_square(name)).center, button
        )
        self.run(0.2)

    def click_moves(self, *moves: tuple[str, str]) -> None:
        """Each move clicked, from its cell and to its cell, and a second to read it."""
        for frm, to in moves:
            self.click(frm)
            self.click(to)
            self.run(1.0)

    def drag(self, frm: str, to: str) -> None:
        """Press on one cell, move, let go on another: one movement of the hand."""
        view = self.window.view
        self.drag_between(
            view.centre(self.geo.parse_square(frm)), view.centre(self.geo.parse_square(to))
        )
        self.run(0.2)

    def drag_between(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        """Press at ``start``, move, let go at ``end`` (a cell's centre, the tray)."""
        mouse.drag(self.window, start, end)

    def key(self, text: str, key: int) -> None:
        self.window.handle(pygame.event.Event(pygame.KEYDOWN, unicode=text, key=key))

    def lines(self) -> list[str]:
        return [e.line() for e in self.daemon.events]


def test_click_lift_and_click_place_plays_a_move():
    rig = Rig()
    rig.click("e2")
    rig.click("e4")
    rig.run(1.0)
    assert rig.lines() == ["move e2e4"]


def test_the_window_shows_the_frames_the_daemon_sends_its_led_sink():
    rig = Rig()
    rig.click("b1")
    rig.window.draw()
    a3 = rig.window.square_rect(rig.geo.parse_square("a3")).center
    d4 = rig.window.square_rect(rig.geo.parse_square("d4")).center
    assert rig.window.colours[rig.geo.parse_square("a3")] == LIGHTS[Role.LEGAL].rgb
    lit, dark = rig.window.window.get_at(a3), rig.window.window.get_at(d4)
    assert lit != dark and lit.b > lit.r  # the knight's destination glows blue


def test_capture_by_right_clicking_the_piece_off_then_moving_onto_its_square():
    # Clicking an occupied square with a piece in hand captured it once; a
    # hand cannot do that, so the captured piece is taken off first.
    rig = Rig()
    rig.click_moves(("e2", "e4"), ("d7", "d5"))
    rig.click("d5", button=3)
    rig.click("e4")
    rig.click("d5")
    rig.run(1.0)
    assert rig.lines() == ["move e2e4", "move d7d5", "move e4d5"]


def test_the_engine_reply_is_shown_and_carried_out_with_the_mouse():
    rig = Rig("engine", ScriptedOpponent(["e7e5"]))
    rig.click_moves(("e2", "e4"))
    assert rig.window.state.engine_move is not None
    assert rig.window.renderer.banner(rig.window.state)[1].startswith("Engine: e5")
    rig.click_moves(("e7", "e5"))
    assert rig.lines() == ["move e2e4", "move e7e5"]


def test_h_asks_for_a_hint_through_the_hint_button():
    rig = Rig("engine", ScriptedOpponent(["d2d4"]))
    rig.run(0.3)
    rig.key("h", pygame.K_h)
    rig.run(0.3)
    assert rig.window.state.prompt == "Hint: d4 \N{EN DASH} d2 to d4"


def test_plus_and_minus_change_the_engine_level_shown_on_the_screen():
    opponent = ScriptedOpponent([])
    rig = Rig("engine", opponent)
    rig.run(0.1)
    for text, key in (("-", pygame.K_MINUS), ("-", pygame.K_MINUS), ("+", pygame.K_PLUS)):
        rig.key(text, key)
    rig.run(0.1)
    assert opponent.skills == [19, 18, 19]
    assert rig.window.state.level == 19


def test_the_window_can_be_resized_and_the_board_scales():
    rig = Rig()
    before = rig.window.square
    rig.window.handle(pygame.event.Event(pygame.VIDEORESIZE, size=(1600, 900), w=1600, h=900))
    assert rig.window.square > before
    rig.click("i1")
    rig.click("h3")
    rig.run(1.0)
    assert rig.lines() == ["move i1h3"]
    rig.window.handle(pygame.event.Event(pygame.VIDEORESIZE, size=(300, 200), w=300, h=200))
    assert rig.window.square >= 24 and rig.window.window.get_width() > 300


def test_question_mark_shows_the_help_with_every_key_and_the_lights():
    rig = Rig()
    rig.window.draw()
    plain = pygame.Surface.copy(rig.window.window)
    rig.key("?", pygame.K_SLASH)
    assert rig.window.help
    rig.window.draw()
    changed = sum(
        1
        for x in range(0, plain.get_width(), 4)
        for y in range(0, plain.get_height(), 4)
        if plain.get_at((x, y)) != rig.window.window.get_at((x, y))
    )
    assert changed > 1000
    rig.key("", pygame.K_F1)
    assert not rig.window.help
    assert len(KEYS) >= 6


# The simulator's window as the gallery draws it, and a laptop's; the text as
# large as the one list's was on each (14 and 20 px lines).
@pytest.mark.parametrize(
    ("size", "text"), [((1096, 464), 14), ((1280, 800), 20)], ids=["1096x464", "1280x800"]
)
def test_the_help_lists_the_keys_in_groups_in_two_columns_keys_apart_from_meanings(size, text):
    """It was one list of 26 lines, each "key: what it does" in one grey."""
    lines = help_layout(size, Fonts())
    assert min(line.height for line in lines) >= text
    window = pygame.Rect((0, 0), size)
    assert all(window.contains(line.rect) for line in lines)
    for index, line in enumerate(lines):
        for other in lines[index + 1 :]:
            assert not line.rect.colliderect(other.rect), (line.text, other.text)
    headings = [line for line in lines if line.heading]
    assert [h.text for h in headings] == [title for title, _ in GROUPS] + ["What the lights mean"]
    columns = sorted({h.rect.left for h in headings})
    assert len(columns) == 2
    keys = [line for line in lines if line.ink == HELP_KEY]
    meanings = [x for x in lines if not x.heading and x.ink != HELP_KEY and x.hue is None]
    assert all(line.ink != HELP_KEY for line in meanings)
    # Every key, whole, in the keys' colour; its meaning starts to its right.
    shown = " ".join(line.text for line in keys)
    for key, _, _ in KEYS:
        assert " ".join(key.split()) in " ".join(shown.split()), key
    for column, right in zip(columns, [*columns[1:], size[0]], strict=True):
        inside = [line for line in keys if column <= line.rect.left < right]
        said = [line for line in meanings if column <= line.rect.left < right]
        assert inside and said
        assert max(line.rect.right for line in inside) < min(line.rect.left for line in said)
        assert len({line.rect.left for line in said}) == 1  # one column of meanings


def test_the_board_names_its_files_and_ranks():
    rig = Rig()
    rig.window.draw()
    rect = rig.window.square_rect(rig.geo.parse_square("a1"))
    strip = pygame.Rect(rect.left, rect.bottom, rect.width, 24)
    ink = [
        rig.window.window.get_at((x, y))
        for x in range(strip.left, strip.right)
        for y in range(strip.top, strip.bottom)
    ]
    assert any(c.r > 200 and c.g > 180 for c in ink)  # the letter "a" under a1


@pytest.fixture
def run_window(tmp_path, monkeypatch):
    """``app.run_window`` for a two-player game of ``variant``, in a fresh state
    folder and on a virtual clock, stopped after ``frames``: the daemon it runs."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    with ExitStack() as stack:

        def run(variant: str = "falcon", frames: int = 5) -> Daemon:
            config = parse_config({"game": {"mode": "two-players", "variant": variant}})
            times = iter(x * 0.02 for x in range(10_000))
            pygame.display.init()  # as app.sim does before it; the test may run alone
            pygame.font.init()
            return app.run_window(config, stack, frames=frames, clock=lambda: next(times))

        yield run


def test_app_runs_the_window_with_the_store_and_a_resumed_game(run_window):
    daemon = run_window()
    assert daemon.hw.leds is not None and daemon.hw.display is not None
    assert daemon.hw.buttons is not None


def test_the_ui_package_imports_neither_the_daemon_nor_the_hardware():
    for path in UI.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level >= 1:
                target = ("." * node.level) + (node.module or "")
                assert not target.startswith(("..daemon", "..hw", "..app")), (path.name, target)


@pytest.mark.parametrize(
    ("variant", "human", "engine", "corner"),
    [
        # 9×10: Black's pawns step twice from the eighth rank; j9 is dark.
        ("falcon-9x10", "e2e4", "e8e6", "j9"),
        # Central 10×10: the queen's pawn steps twice from the third rank; j10 is light.
        ("falcon-10x10-central", "e3e5", "d8d6", "j10"),
    ],
)
def test_the_other_board_sizes_play_in_the_window(variant, human, engine, corner):
    rig = Rig("engine", ScriptedOpponent([engine]), variant)
    for move in (human, engine):
        rig.click(move[:2])
        rig.click(move[2:])
        rig.run(1.0)
    assert rig.lines() == [f"move {human}", f"move {engine}"]
    rig.window.draw()
    geo = rig.daemon.game.position.geometry
    far = rig.window.square_rect(geo.parse_square(corner))
    assert rig.window.window.get_rect().contains(far) and far.top >= 0
    # The wooden squares follow the board's colouring: a1 light, so j9 of
    # nine ranks dark.
    probe = far.move(2, 2).topleft
    wood = LIGHT_WOOD if geo.is_light(geo.parse_square(corner)) else DARK_WOOD
    assert tuple(rig.window.window.get_at(probe))[:3] == wood


def test_the_app_builds_the_wooden_board_for_the_configured_preset(run_window):
    # The window was first built for 8×10 and kept that size for every preset.
    window = run_window("falcon-9x10").hw.display.window
    assert window.geometry == get_variant("falcon-9x10").geometry
    assert window.view.cells == 90
    assert len(window.pieces) == 40


# ---------------------------------------------------------------- the hexagon
def test_every_cell_of_the_wooden_hexagon_is_clicked_where_it_is_drawn():
    rig = Rig(variant="falcon-hex")
    rig.window.draw()
    view = rig.window.view
    assert view.cells == 121
    for cell in range(view.cells):
        assert rig.window.square_at(*view.centre(cell)) == cell, rig.geo.name(cell)
        # Drawn in its wood, or covered by its piece: never another cell's wood.
        x, y = view.centre(cell)
        probe = (x + view.cell * 2 // 5, y)
        assert tuple(rig.window.window.get_at(probe))[:3] == WOODS[view.shade(cell)], rig.geo.name(
            cell
        )
    assert len({view.shade(c) for c in range(view.cells)}) == 3


def test_clicks_off_the_hexagon_lift_nothing():
    rig = Rig(variant="falcon-hex")
    view = rig.window.view
    g2, m2 = rig.geo.parse_square("g2"), rig.geo.parse_square("m2")
    # The trimmed corners under g2 and m2, the frame's corner, the labels' strip.
    spots = [
        (view.centre(g2)[0], view.centre(g2)[1] + view.cell),
        (view.centre(m2)[0], view.centre(m2)[1] + view.cell),
        (3, 3),
        (view.bounds.centerx, view.bounds.bottom - 3),
    ]
    before = rig.board.occupancy
    for spot in spots:
        assert rig.window.square_at(*spot) is None, spot
        mouse.click(rig.window, spot)
    rig.run(1.0)
    assert rig.window.held == [] and rig.board.occupancy == before
    assert rig.lines() == []


def test_a_drag_on_the_hexagon_lifts_and_places_through_the_sensors():
    rig = Rig(variant="falcon-hex")
    e6, e8 = rig.geo.parse_square("e6"), rig.geo.parse_square("e8")
    rig.drag("e6", "e8")
    assert rig.board.occupancy >> e6 & 1 == 0 and rig.board.occupancy >> e8 & 1 == 1
    rig.run(1.0)
    rig.click("i8")  # and click, click, as on the square board
    rig.click("i6")
    rig.run(1.0)
    assert rig.lines() == ["move e6e8", "move i8i6"]


def test_a_lifted_falcon_lights_its_cells_and_paths_on_the_hexagon():
    rig = Rig(variant="falcon-hex")
    rig.click("e3")
    rig.run(0.3)
    rig.window.draw()
    roles = {
        cell: role
        for role, light in LIGHTS.items()
        for cell, rgb in rig.window.colours.items()
        if rgb == light.rgb
    }
    names = {
        rig.geo.name(cell)
        for cell, role in roles.items()
        if role in (Role.LEGAL, Role.LEGAL_ONE_PATH, Role.LEGAL_TWO_PATHS, Role.LEGAL_THREE_PATHS)
    }
    assert names == {"b8", "c8", "d7", "i2"}  # RULES-HEX.md 4.3
    paths = {rig.geo.name(cell) for cell, role in roles.items() if role == Role.FALCON_PATH}
    assert {"e4", "e5", "d5", "c7", "f3", "h2"} <= paths
    d7 = rig.window.view.centre(rig.geo.parse_square("d7"))
    lit = rig.window.window.get_at(d7)
    assert lit.b > lit.r  # the destination glows blue through the wood


def test_the_engine_plays_the_hexagon_in_the_window():
    rig = Rig("engine", ScriptedOpponent(["i8i6"]), "falcon-hex")
    rig.drag("e6", "e8")
    rig.run(1.0)
    assert rig.window.state.engine_move is not None
    assert rig.window.renderer.banner(rig.window.state)[1].endswith("i8 to i6")
    rig.click_moves(("i8", "i6"))
    assert rig.lines() == ["move e6e8", "move i8i6"]


def test_the_app_builds_the_wooden_hexagon_for_falcon_hex(run_window):
    window = run_window("falcon-hex").hw.display.window
    assert window.view.cells == 121 and len(window.pieces) == 44
    assert window.window.get_rect().contains(window.frame)


def test_the_wooden_hexagon_scales_with_the_window_and_still_plays():
    rig = Rig(variant="falcon-hex")
    before = rig.window.view.cell
    rig.window.handle(pygame.event.Event(pygame.VIDEORESIZE, size=(1700, 1000), w=1700, h=1000))
    assert rig.window.view.cell > before
    assert rig.window.window.get_rect().contains(rig.window.frame)
    for cell in range(rig.window.view.cells):
        assert rig.window.square_at(*rig.window.view.centre(cell)) == cell
    rig.drag("j1", "k3")
    rig.run(1.0)
    assert rig.lines() == ["move j1k3"]
    rig.window.handle(pygame.event.Event(pygame.VIDEORESIZE, size=(300, 200), w=300, h=200))
    assert rig.window.square >= 24 and rig.window.window.get_rect().contains(rig.window.frame)


def test_en_passant_on_the_hexagon_with_the_mouse():
    # 1. f8 e8 2. fxe9 e.p.: the pawn taken is right-clicked off into the
    # tray, and the capturing pawn moved on to e9.
    rig = Rig(variant="falcon-hex")
    rig.click_moves(("f6", "f8"), ("e10", "e8"))
    rig.click("f8")
    rig.click("e8", button=3)
    rig.click("e9")
    rig.run(3.0)
    assert rig.lines() == ["move f6f8", "move e10e8", "move f8e9"]
    e8, e9 = rig.geo.parse_square("e8"), rig.geo.parse_square("e9")
    assert e8 not in rig.window.pieces and e9 in rig.window.pieces
    assert len(rig.window.tray.pieces) == 1
    assert rig.board.occupancy == (
        rig.daemon.game.position.colors[0] | rig.daemon.game.position.colors[1]
    )


def test_a_resumed_game_finds_its_taken_pieces_in_the_tray(run_window):
    # The window used to open a resumed game with an empty tray, so a piece
    # taken before the restart could not be put back or promoted to.
    store = GameStore(default_db_path())
    game = Game(get_variant("falcon"))
    game_id = store.new_game("falcon", game.start_fen, "White", "Black", "two-players", 0.0)
    moves = ["d2d4", "e7e5", "d4e5", "e8e5"]  # a pawn each side taken
    for ply, uci in enumerate(moves, 1):
        store.add_move(game_id, ply, uci, float(ply))
    store.close()
    daemon = run_window()
    assert len(daemon.game.moves) == len(moves)
    tray = daemon.hw.display.window.tray.pieces
    assert sorted(tray) == sorted([piece_from_symbol("P"), piece_from_symbol("p")])


def test_off_the_board_counts_captures_and_promoted_pawns():
    white_pawn, white_queen = piece_from_symbol("P"), piece_from_symbol("Q")
    black_rook = piece_from_symbol("r")
    start = [white_pawn, white_pawn, black_rook, 0]
    # One pawn became a queen by taking the rook: off the board, a pawn and the rook.
    now = [white_queen, white_pawn, 0, 0]
    assert sorted(off_the_board(start, now)) == sorted([white_pawn, black_rook])
    assert off_the_board(start, start) == []


def test_the_window_opens_whole_on_the_desktop_and_stays_there(tmp_path, monkeypatch):
    # boardctl sim opens a 1 px window to find a display; SDL grew it from
    # that corner, at the screen's centre, so half the window was off-screen.
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1, 1))
    config = parse_config({"game": {"mode": "two-players"}})
    times = iter(x * 0.02 for x in range(10_000))
    with ExitStack() as stack:
        daemon = app.run_window(config, stack, frames=2, clock=lambda: next(times))
        window = daemon.hw.display.window
        desk = pygame.Rect((0, 0), pygame.display.get_desktop_sizes()[0])

        def placed() -> pygame.Rect:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                return pygame.Rect(
                    pygame.Window.from_display_module().position, window.window.get_size()
                )

        assert desk.contains(placed())
        window.resize((desk.width - 100, desk.height - 100))
        assert desk.contains(placed())


def test_shrunk_the_wooden_cells_stay_as_large_as_the_screens(tmp_path, monkeypatch):
    rig = Rig()
    shown = rig.window.renderer.board_layout(rig.geo).square
    rig.window.resize((200, 150))
    assert rig.window.view.cell >= shown


def test_a_path_is_a_dot_and_every_destination_fills_its_cell():
    # From a falcon's square, destinations and paths came out in four or five
    # shades of one blue, a one-path destination darker than a path.
    def inked(role: Role) -> int:
        glow = led_glow(LIGHTS[role].rgb, 60)
        return sum(1 for x in range(60) for y in range(60) if glow.get_at((x, y)).a)

    path = inked(Role.FALCON_PATH)
    destinations = [
        inked(r) for r in (Role.LEGAL_ONE_PATH, Role.LEGAL_TWO_PATHS, Role.LEGAL_THREE_PATHS)
    ]
    assert min(destinations) > 5 * path > 0


# The first of the essay's problems (PUZZLES-seed.md, A: mate in two, 1 Qxi7).
PUZZLE_A = "7rk1/7ppp/10/7FPP/7N2/10/10/2Q4K2 w - - 0 1"
PUT = re.compile(r"Put a (white|black) (\w+) on (\w+)")


def follow_the_set_up(rig: Rig) -> list[str]:
    """Do what the set-up asks, one step at a time, as a player would (the
    lights and the banner agree at each step); what it asked, in order."""
    said = []
    for _ in range(200):  # a step for each piece off and each piece on, at most
        state = rig.window.state
        if not state.setting_up:
            break
        said.append(state.prompt)
        (square,) = state.marks
        put = PUT.fullmatch(state.prompt)
        role = Role.FIX_TO if put else Role.FIX_FROM
        assert rig.daemon.scene().squares == {square: role}
        assert rig.daemon.led_colours(0.0)[square] == LIGHTS[role].rgb
        if put is None:
            assert state.prompt == f"Take the piece off {rig.geo.name(square)}"
            rig.click(rig.geo.name(square), button=3)  # into the tray
            # The set-up reads the board once it has settled; a slow hand
            # meanwhile: the game set aside shows no fix.
            rig.run(2.0 if len(said) <= 2 else 0.4)
            continue
        colour, kind, name = put.groups()
        assert rig.geo.parse_square(name) == square
        letter = PieceType[kind.upper()].symbol
        piece = piece_from_symbol(letter.upper() if colour == "white" else letter)
        rig.window.from_tray(rig.window.tray.pieces.index(piece))
        rig.click(name)
        rig.run(0.4)
    return said


def test_a_piece_slid_across_the_board_during_a_set_up_changes_no_words():
    """A piece dragged over other squares on its way: the guidance reads the
    board once it is still, so the banner (and the voice) never flickers."""
    rig = Rig(setup=PUZZLE_A)
    rig.run(0.5)
    first = rig.window.state.prompt
    assert first.startswith("Take the piece off ")
    shown = []
    board = rig.daemon.hw.sensors
    # A rook slid from a1 over a3, a4, a5 and back, a square every 0.1 s.
    for name in ("a1", "a3", "a4", "a5", "a1"):
        square = rig.geo.parse_square(name)
        if name != "a1":
            board.place(square)
        rig.run(0.1)
        shown.append(rig.window.state.prompt)
        if name != "a1":
            board.lift(square)
    rig.run(1.0)
    assert set(shown) == {first}, shown


def test_a_puzzle_is_set_up_as_guided_from_the_start_position_then_played():
    rig = Rig(setup=PUZZLE_A)
    rig.run(0.2)
    # The wooden board stands as it is: the puzzle on the screen renames nothing.
    assert rig.window.pieces == {sq: p for sq, p in enumerate(Position().squares) if p}
    said = follow_the_set_up(rig)
    assert len(said) == 45 and said[-8:][0] == "Put a white king on h1"
    assert rig.daemon.game.start_fen == PUZZLE_A and not rig.daemon.game.moves
    assert rig.lines() == ["newgame"]  # the reconciler heard nothing of the set-up
    assert rig.store.games[2]["start_fen"] == PUZZLE_A
    assert rig.store.games[1]["result"] is not None  # the game it replaced: abandoned
    assert rig.window.pieces == {sq: p for sq, p in enumerate(Position(PUZZLE_A).squares) if p}
    rig.click("i7", button=3)  # the queen takes the pawn on i7
    rig.drag("c1", "i7")
    rig.run(1.0)
    assert rig.store.moves(2) == ["c1i7"]
    assert rig.window.state.moves == ("Qxi7+",)


# A Falcon Hexagonal position with one mate in one (tests/engine/test_hex_engine.py).
HEX_MATE = "5/8/9/10/k10/11R/11/12/11/10/2K6/Q7/5 w - - 0 1"


def test_a_hexagon_position_is_set_up_as_guided_then_mated():
    rig = Rig(variant="falcon-hex", setup=HEX_MATE)
    rig.run(0.2)
    start = Game(get_variant("falcon-hex")).position
    target = Position(HEX_MATE, get_variant("falcon-hex"))
    kept = sum(1 for sq, p in enumerate(target.squares) if p and start.squares[sq] == p)
    on_board = sum(1 for p in start.squares if p)
    said = follow_the_set_up(rig)
    # Every piece of the start that is not where the target has it comes off,
    # and the rest of the target's go on: no step more.
    pieces = sum(1 for p in target.squares if p)
    assert len(said) == (on_board - kept) + (pieces - kept)
    assert said[-1].startswith("Put a ") and not rig.window.state.setting_up
    assert rig.daemon.game.start_fen == HEX_MATE
    assert rig.window.pieces == {sq: p for sq, p in enumerate(target.squares) if p}
    mates = [m for m in target.legal_moves() if _mates(target, m)]
    (mate,) = mates
    frm, to = (rig.geo.name(sq) for sq in (mate.from_square, mate.to_square))
    if target.squares[mate.to_square]:
        rig.click(to, button=3)
    rig.drag(frm, to)
    rig.run(1.0)
    assert rig.store.moves(2) == [target.uci(mate)]
    assert rig.store.games[2]["result"] == ("1-0", "checkmate")


def _mates(pos: Position, move) -> bool:
    game = Game(pos.variant, pos.fen())
    game.push(move)
    outcome = game.outcome()
    return outcome is not None and outcome.winner == 0
