"""The status screen: a :class:`DisplayState` drawn onto a pygame surface.

The board fills the left of the screen (last move tinted, king in check red,
squares named by the prompt outlined); the panel on its right shows, top to
bottom, the player at the top of the board (their clock, or their name), the
engine's state, level and evaluation, the latest moves in SAN with their
numbers, the player at the bottom, and a status line; the row of the side to
move is lit.  The banner along the bottom says the one thing that matters
now, in whole words (:meth:`Renderer.banner`).

Wiring: make one renderer per screen and call :meth:`Renderer.render` with
each new state, then flip the display::

    screen = pygame.display.set_mode((480, 320), pygame.FULLSCREEN)  # KMSDRM on a Pi
    renderer = Renderer(screen.get_size())
    renderer.render(DisplayState.from_game(game, engine_status="thinking"), screen)
    pygame.display.flip()

Rendering needs only ``pygame.font``; headless, set ``SDL_VIDEODRIVER=dummy``
and draw onto a plain ``pygame.Surface`` (see :mod:`boardctl.ui.screenshot`).
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from ..colour import Colour
from ..rules import DEFAULT_VARIANT, WHITE, PieceType, Position, get_variant
from ..rules.boardgeometry import BoardGeometry
from ..rules.geometry import Geometry
from ..scores import score_words
from .boardview import BoardView, piece_box
from .layout import Layout, compute_layout
from .pieces import sprite
from .state import DisplayState, banner_line, engine_lines, iter_move_rows
from .text import Fonts, clock_text, ellipsize, wrap

BACKGROUND: Colour = (28, 30, 36)
# Cells in three shades (squares use light and dark; the hexagon all three),
# each with its tint for the last move and for a king in check.
LIGHT: Colour = (240, 217, 181)
MEDIUM: Colour = (212, 174, 132)
DARK: Colour = (181, 136, 99)
LAST_MOVE_LIGHT: Colour = (205, 210, 106)
LAST_MOVE_MEDIUM: Colour = (188, 186, 82)
LAST_MOVE_DARK: Colour = (170, 162, 58)
CHECK_LIGHT: Colour = (236, 80, 64)
CHECK_MEDIUM: Colour = (221, 65, 52)
CHECK_DARK: Colour = (206, 50, 40)
# The engine's move to carry out, in the engine banner's orange, as the LEDs
# light its squares in their own colour.
ENGINE_MOVE_LIGHT: Colour = (246, 178, 84)
ENGINE_MOVE_MEDIUM: Colour = (232, 152, 58)
ENGINE_MOVE_DARK: Colour = (214, 128, 36)
SHADES = (LIGHT, MEDIUM, DARK)
LAST_MOVE = (LAST_MOVE_LIGHT, LAST_MOVE_MEDIUM, LAST_MOVE_DARK)
ENGINE_MOVE = (ENGINE_MOVE_LIGHT, ENGINE_MOVE_MEDIUM, ENGINE_MOVE_DARK)
CHECK = (CHECK_LIGHT, CHECK_MEDIUM, CHECK_DARK)
MARK: Colour = (30, 120, 235)
LABEL: Colour = (175, 180, 190)

PANEL: Colour = (44, 48, 58)
TEXT: Colour = (236, 236, 236)
DIM_TEXT: Colour = (160, 166, 178)
ROW_IDLE: Colour = (60, 65, 77)
ROW_ACTIVE: Colour = (236, 236, 228)
ROW_ACTIVE_TEXT: Colour = (16, 16, 16)
LOW_TIME: Colour = (222, 36, 36)
LOW_TIME_IDLE: Colour = (255, 120, 108)
LOW_TIME_SECONDS = 10.0
LAST_PLY_BG: Colour = (84, 92, 110)
ALERT: Colour = (255, 96, 84)
# The banner's colour says what kind of thing it asks: the same hues as the
# LEDs for the engine's move and for a fix (see hw/palette.py).
BANNER_BG: dict[str, Colour] = {
    "idle": (60, 65, 77),
    "info": (34, 90, 164),
    "choice": (22, 118, 106),
    "error": (200, 24, 24),
    "engine": (232, 150, 20),
    "over": (236, 236, 228),
    "coach": (112, 64, 168),  # a teaching board's word on a move: apart from all the others
}
BANNER_INK: dict[str, Colour] = {"engine": (16, 16, 16), "over": (16, 16, 16)}
ENGINE_DOT: dict[str, Colour] = {
    "thinking": (244, 184, 40),
    "ready": (80, 200, 120),
    "off": (120, 124, 132),
    "restarting": (244, 184, 40),
    "online": (80, 200, 120),  # a remote game's other side is there
}
CHOICE_BG: Colour = (214, 210, 200)
CHOICE_CHOSEN_BG: Colour = (250, 226, 110)
VEIL_ALPHA = 150


def to_move(state: DisplayState, colour: int) -> bool:
    """Whether ``colour``'s row is lit as the one to move (or the one the board
    waits for, :attr:`~.state.DisplayState.awaited`): nobody is while a
    position is set up, nor once the game is over."""
    side = state.turn if state.awaited is None else state.awaited
    return colour == side and state.prompt_kind != "over" and not state.setting_up


def player_label(state: DisplayState, colour: int, active: bool) -> str:
    """A player's row: who they are against the engine ("Engine", "Your move"),
    else their colour ("White to move")."""
    if state.engine_side is None:
        name = "White" if colour == WHITE else "Black"
        return f"{name} to move" if active else name
    if colour == state.engine_side:
        return f"{state.opponent}'s move" if active else state.opponent
    return "Your move" if active else "You"


# One line of the move list: each text (a move number, a move) with its x
# from the list's left and its ply counted from the game's first (0: a number).
MoveLine = list[tuple[str, int, int]]


def move_lines(
    rows: list[tuple[int, str | None, str | None]], font: pygame.font.Font, width: int, gap: int
) -> list[MoveLine]:
    """The move list's lines: a number, White's move and Black's in columns,
    Black's column placed where the most pairs fit on one line; a pair too
    wide for it takes two lines, Black's move under its column."""
    if not rows:
        return []
    number_w = font.size(f"{rows[-1][0]}. ")[0]
    whites = [font.size(white or "…")[0] for _, white, _ in rows]
    blacks = [font.size(black)[0] if black else 0 for _, _, black in rows]
    # Both moves in columns as wide as the widest move, where that fits;
    # else Black's column after the White move that puts the most pairs on
    # one line while the widest Black move still ends inside the list.
    column = number_w + max(whites + blacks) + gap
    if column + max(blacks) > width:
        candidates = sorted({number_w + w + gap for w in whites})
        column = max(
            (x for x in candidates if x + max(blacks) <= width),
            default=candidates[0],
            key=lambda x: (sum(number_w + w + gap <= x for w in whites), -x),
        )
    lines: list[MoveLine] = []
    ply = 0
    for (number, white, black), white_w, black_w in zip(rows, whites, blacks, strict=True):
        line: MoveLine = [(f"{number}.", 0, 0), (white or "…", number_w, ply + 1 if white else 0)]
        ply += 1 if white else 0
        if black is not None:
            ply += 1
            if number_w + white_w + gap <= column and column + black_w <= width:
                line.append((black, column, ply))
            else:
                lines.append(line)
                line = [(black, column if column + black_w <= width else number_w, ply)]
        lines.append(line)
    return lines


def engine_layout(
    layouts: list[list[str]], font: pygame.font.Font, width: int, indent: int
) -> tuple[list[str], int]:
    """The first of the engine's ``layouts`` that fits ``width`` px, the
    first line after the dot's ``indent``, and where the lines under it start.

    They stand under the first line's words; where one is too wide for that
    (a rating beside the hexagon, 152 px at 480x320) they start under the dot.
    """

    def fit(lines: list[str], hang: int) -> bool:
        first, rest = lines[0], lines[1:]
        return font.size(first)[0] <= width - indent and all(
            font.size(words)[0] <= width - hang for words in rest
        )

    for hang in (indent, 0):
        for lines in layouts:
            if fit(lines, hang):
                return lines, hang
    return layouts[-1], indent


# The banner's words keep this share of its height clear on either side: at
# the pad alone (6 px at 480x320) a long line ran to its edges.
BANNER_MARGIN_SHARE = 0.25


def banner_margin(box: pygame.Rect) -> int:
    """Pixels the banner's words keep from its left and right edges."""
    return round(box.height * BANNER_MARGIN_SHARE)


class Renderer:
    """Draws display states onto surfaces of one size (fonts and sprites built once).

    :raises ValueError: when ``size`` is too small for a readable layout.
    """

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = (int(size[0]), int(size[1]))
        self.fonts = Fonts()
        self._layouts: dict[BoardGeometry, Layout] = {}
        # Texts the last render had to cut short: none, for every state the
        # gallery shows (tests/ui/test_gallery.py).
        self.cut: list[str] = []
        # The move list's lines as the last render drew them, each its texts.
        self.move_list: list[tuple[str, ...]] = []
        # The layout as the last render drew it: a banner beside the board is
        # as tall as its words (:meth:`~.layout.Layout.fitted`).
        self.drawn: Layout | None = None
        self.layout(10, 8)  # fail now, not at the first render, on a bad size

    def layout(self, files: int, ranks: int) -> Layout:
        """The layout for a board of ``files`` × ``ranks`` on this screen."""
        return self.board_layout(Geometry(files, ranks))

    def board_layout(self, geometry: BoardGeometry) -> Layout:
        """The layout for a board of any shape on this screen."""
        found = self._layouts.get(geometry)
        if found is None:
            found = self._layouts[geometry] = compute_layout(self.size, geometry, self.fonts)
        return found

    def render(self, state: DisplayState, surface: pygame.Surface) -> None:
        """Draw the whole screen for ``state`` onto ``surface``.

        :raises FenError: when ``state.fen`` is malformed.
        :raises UnknownVariantError: when ``state.variant`` names no preset.
        :raises ValueError: when the surface is not this renderer's size.
        """
        if surface.get_size() != self.size:
            raise ValueError(f"surface is {surface.get_size()}, the renderer draws {self.size}")
        pos = Position(state.fen, get_variant(state.variant))
        lay = self.board_layout(pos.geometry)
        self.cut = []
        surface.fill(BACKGROUND)
        self._board(surface, lay, state, pos.piece_at)
        if state.choices:
            self._choices(surface, lay, state)
        lay = self.drawn = lay.fitted(self._banner_height(state, lay))
        self._panel(surface, lay, state)
        self._banner(surface, lay, state)

    # ------------------------------------------------------------------ board
    def view(self, state: DisplayState) -> BoardView:
        """The board of ``state`` (its variant and orientation) on this screen."""
        geometry = get_variant(state.variant).geometry
        return self.board_layout(geometry).view(state.orientation)

    def square_rect(self, state: DisplayState, square: int) -> pygame.Rect:
        """The box around ``square`` on the screen for ``state`` (its variant and orientation)."""
        return self.view(state).rect(square)

    def square_at(self, state: DisplayState, point: tuple[int, int]) -> int | None:
        """The square under a screen point (a tap, a click), or None off the board."""
        return self.view(state).cell_at(point)

    def _board(
        self,
        surface: pygame.Surface,
        lay: Layout,
        state: DisplayState,
        piece_at: Callable[[int], tuple[PieceType, int] | None],
    ) -> None:
        view = lay.view(state.orientation)
        # While the engine's move waits to be carried out, its squares are
        # the ones a glance must find, not the player's last move.
        if state.engine_move is not None:
            tinted, tint = set(state.engine_move[1:]), ENGINE_MOVE
        else:
            tinted, tint = set(state.last_move or ()), LAST_MOVE
        for sq in range(view.cells):
            shade = view.shade(sq)
            if sq == state.check_square:
                colour = CHECK[shade]
            elif sq in tinted:
                colour = tint[shade]
            else:
                colour = SHADES[shade]
            view.fill(surface, sq, colour)
        # Marks and pieces over all the cells: a hexagon's edge is shared
        # with the cell drawn after it.
        for sq in range(view.cells):
            if sq in state.marks:
                view.outline(surface, sq, MARK, max(2, lay.square // 11))
            found = piece_at(sq)
            if found is not None:
                box = piece_box(view, sq)
                surface.blit(sprite(found[0], found[1], box.width), box)
        font = self.fonts.get(lay.label_text)
        for words, centre in view.labels():
            text = font.render(words, True, LABEL)
            surface.blit(text, text.get_rect(center=centre))

    def _choices(self, surface: pygame.Surface, lay: Layout, state: DisplayState) -> None:
        """The options drawn large across the middle of the (dimmed) board."""
        board, view = lay.board, lay.view(state.orientation)
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        for sq in range(view.cells):
            view.fill(veil, sq, (0, 0, 0, VEIL_ALPHA))
        surface.blit(veil, (0, 0))
        count = len(state.choices)
        gap = max(3, lay.square // 8)
        cell = min(lay.choice, (board.width - gap * (count + 1)) // count)
        name_font = self.fonts.get(lay.body)
        total = count * cell + (count - 1) * gap
        left = board.centerx - total // 2
        top = board.centery - (cell + gap + name_font.get_height()) // 2
        border = max(3, cell // 14)
        for index, choice in enumerate(state.choices):
            rect = pygame.Rect(left + index * (cell + gap), top, cell, cell)
            chosen = index == state.chosen
            pygame.draw.rect(
                surface, CHOICE_CHOSEN_BG if chosen else CHOICE_BG, rect, border_radius=border
            )
            if chosen:
                pygame.draw.rect(
                    surface, MARK, rect.inflate(border, border), border, border_radius=border * 2
                )
            if isinstance(choice, PieceType):
                inner = cell - 2 * border
                surface.blit(
                    sprite(choice, state.turn, inner), (rect.left + border, rect.top + border)
                )
            else:
                font = self.fonts.fitting(choice, cell - 2 * border, lay.body, lay.small)
                text = font.render(choice, True, ROW_ACTIVE_TEXT)
                surface.blit(text, text.get_rect(center=rect.center))
        if state.chosen is not None:
            choice = state.choices[state.chosen]
            name = choice.title.capitalize() if isinstance(choice, PieceType) else choice
            text = name_font.render(ellipsize(name, name_font, board.width), True, TEXT)
            surface.blit(text, text.get_rect(centerx=board.centerx, top=top + cell + gap))

    # ------------------------------------------------------------------ banner
    def banner(self, state: DisplayState) -> tuple[str, str]:
        """What the banner says now, and in which colour (:func:`~.state.banner_line`)."""
        return banner_line(state)

    def _banner(self, surface: pygame.Surface, lay: Layout, state: DisplayState) -> None:
        kind, words = self.banner(state)
        box = lay.banner
        pygame.draw.rect(surface, BANNER_BG[kind], box, border_radius=lay.pad)
        ink = BANNER_INK.get(kind, TEXT)
        # Clear of the edges by the margin; words that would be cut short
        # there (a coach's two long lines) take the width to the pad instead.
        font, lines = self._banner_lines(words, lay, box.width - 2 * banner_margin(box))
        if len(lines) * font.get_height() > box.height - 2 * lay.pad:
            font, lines = self._banner_lines(words, lay, box.width - 2 * lay.pad)
        width = box.width - 2 * lay.pad
        fit = max(1, (box.height - 2 * lay.pad) // font.get_height())
        if len(lines) > fit:
            self.cut.append(words)
            lines = lines[:fit]
            lines[-1] = ellipsize(lines[-1], font, width, always=True)
        step = font.get_height()
        y = box.centery - len(lines) * step // 2
        for line in lines:
            image = font.render(line, True, ink)
            surface.blit(image, image.get_rect(centerx=box.centerx, top=y))
            y += step

    def _banner_height(self, state: DisplayState, lay: Layout) -> int:
        """The height the banner's words need in the layout's banner (a banner
        beside the board gives the panel what its words leave)."""
        font, lines = self._banner_lines(self.banner(state)[1], lay, lay.banner.width - 2 * lay.pad)
        return len(lines) * font.get_height() + 2 * lay.pad

    def _banner_lines(
        self, words: str, lay: Layout, width: int
    ) -> tuple[pygame.font.Font, list[str]]:
        """The banner's words in lines ``width`` wide: one line as large as
        fits (up to the big size), else two body lines, else as many as fit
        at the smallest readable size."""
        room = lay.banner.height - 2 * lay.pad
        font = self.fonts.fitting(words, width, min(lay.big, room), lay.body)
        if font.size(words)[0] <= width:
            return font, [words]
        for height in range(lay.body, lay.small - 1, -1):
            font = self.fonts.get(height)
            lines = wrap(words, font, width)
            if len(lines) * font.get_height() <= room:
                break
        return font, lines

    # ------------------------------------------------------------------ panel
    def _panel(self, surface: pygame.Surface, lay: Layout, state: DisplayState) -> None:
        panel, pad = lay.panel, lay.pad
        pygame.draw.rect(surface, PANEL, panel, border_radius=pad)
        status = state.status or ("" if state.variant == DEFAULT_VARIANT.name else state.variant)
        status_h = lay.small + pad if status else 0
        row_h = lay.big + pad
        top_row = pygame.Rect(panel.left, panel.top, panel.width, row_h)
        bottom_row = pygame.Rect(panel.left, panel.bottom - status_h - row_h, panel.width, row_h)
        self._side(surface, lay, state, state.orientation ^ 1, top_row)
        self._side(surface, lay, state, state.orientation, bottom_row)
        if status:
            font = self.fonts.get(lay.small)
            colour = ALERT if state.status_alert else DIM_TEXT
            self._line(
                surface,
                font,
                status,
                colour,
                panel.width - 2 * pad,
                midbottom=(panel.centerx, panel.bottom - pad // 2),
            )
        middle = pygame.Rect(
            panel.left + pad,
            top_row.bottom + pad // 2,
            panel.width - 2 * pad,
            bottom_row.top - top_row.bottom - pad,
        )
        y = middle.top + self._engine(surface, lay, state, middle)
        # The move list may run to half a pad from the panel's edge: a pair
        # such as "1. Qxi7+ Kxi7" then stays on one line at 480x320.
        width = middle.width + lay.pad // 2
        self._moves(surface, lay, state, pygame.Rect(middle.left, y, width, middle.bottom - y))

    def _line(
        self,
        surface: pygame.Surface,
        font: pygame.font.Font,
        words: str,
        ink: Colour,
        width: int,
        **where: tuple[int, int],
    ) -> None:
        """One line of text placed by a pygame.Rect keyword; cut (and noted) if too wide."""
        if font.size(words)[0] > width:
            self.cut.append(words)
            words = ellipsize(words, font, width)
        image = font.render(words, True, ink)
        surface.blit(image, image.get_rect(**where))

    def _side(
        self,
        surface: pygame.Surface,
        lay: Layout,
        state: DisplayState,
        colour: int,
        rect: pygame.Rect,
    ) -> None:
        """One player's row: a disc of their colour and their clock (or name); lit on move."""
        active = to_move(state, colour)
        pygame.draw.rect(surface, ROW_ACTIVE if active else ROW_IDLE, rect, border_radius=lay.pad)
        radius = max(4, round(rect.height * 0.26))
        centre = (rect.left + lay.pad + radius, rect.centery)
        fill, edge = (
            ((250, 248, 240), (20, 20, 20)) if colour == WHITE else ((24, 24, 24), (200, 200, 200))
        )
        pygame.draw.circle(surface, fill, centre, radius)
        pygame.draw.circle(surface, edge, centre, radius, max(1, radius // 5))
        seconds = state.white_clock if colour == WHITE else state.black_clock
        ink = ROW_ACTIVE_TEXT if active else TEXT
        left = centre[0] + radius + lay.pad
        room = rect.right - lay.pad - left
        if seconds is None:
            label = player_label(state, colour, active)
            font = self.fonts.fitting(label, room, lay.body, lay.small)
            if font.size(label)[0] > room:
                # The lit row says whose move it is: the name alone will do.
                label = player_label(state, colour, False)
                font = self.fonts.fitting(label, room, lay.body, lay.small)
            self._line(surface, font, label, ink, room, midleft=(left, rect.centery))
            return
        label = clock_text(seconds)
        if seconds <= LOW_TIME_SECONDS:
            ink = LOW_TIME if active else LOW_TIME_IDLE
        font = self.fonts.fitting(label, room, lay.big, lay.small)
        self._line(surface, font, label, ink, room, midright=(rect.right - lay.pad, rect.centery))

    def _engine(
        self, surface: pygame.Surface, lay: Layout, state: DisplayState, rect: pygame.Rect
    ) -> int:
        """The engine's lines: a dot and its state with the level, then the
        evaluation in words (whose side, by how much) and the depth.
        Returns the height used."""
        if state.engine_status == "off" and state.level is None and not state.engine_score:
            return 0
        font = self.fonts.get(lay.small)
        line_h = font.get_linesize()
        if rect.height < line_h:
            return 0
        radius = max(3, lay.small // 4)
        dot = ENGINE_DOT.get(state.engine_status, ALERT)
        pygame.draw.circle(surface, dot, (rect.left + radius, rect.top + line_h // 2), radius)
        indent = 3 * radius
        lines, hang = engine_layout(engine_lines(state), font, rect.width, indent)
        used = 0
        # A short panel (beside the board, over a long banner) shows the
        # lines that fit, the engine's state first.
        lines = lines[: max(0, rect.height // line_h)]
        for index, words in enumerate(lines):
            left = indent if index == 0 else hang
            self._line(
                surface,
                font,
                words,
                DIM_TEXT,
                rect.width - left,
                midleft=(rect.left + left, rect.top + used + line_h // 2),
            )
            used += line_h
        score = score_words(state.engine_score)
        if state.engine_depth is not None:
            # The depth is for the curious: it goes first when room is short.
            deeper = (
                f"{score}  depth {state.engine_depth}" if score else f"depth {state.engine_depth}"
            )
            if font.size(deeper)[0] <= rect.width:
                score = deeper
        if score and used + line_h <= rect.height:
            self._line(surface, font, score, TEXT, rect.width, topleft=(rect.left, rect.top + used))
            used += line_h
        return used + lay.pad // 2

    def _moves(
        self, surface: pygame.Surface, lay: Layout, state: DisplayState, rect: pygame.Rect
    ) -> None:
        """The latest moves as numbered pairs ("12. Nf3  Nc6"), from the
        largest size at which the widest pair fits down to the smallest
        legible one; where even that is too narrow for a long move's pair,
        that pair alone takes two lines, Black's move under its column
        (:func:`move_lines`).  The lines drawn are kept in :attr:`move_list`."""
        self.move_list = []
        if not state.moves or rect.height < self.fonts.get(lay.small).get_linesize():
            return
        rows = list(iter_move_rows(state))
        for height in range(lay.body, lay.small - 1, -1):
            font = self.fonts.get(height)
            room = max(1, rect.height // font.get_linesize())
            lines = move_lines(rows[-room:], font, rect.width, font.size(" ")[0] + 1)
            shown = lines[-room:]
            if all(line[0][1] == 0 for line in shown):  # every pair on a line of its own
                break
        y = rect.top
        final = len(state.moves)
        for line in shown:
            self.move_list.append(tuple(text for text, _, _ in line))
            for text, x, ply in line:
                if font.size(text)[0] > rect.width - x:
                    self.cut.append(text)
                    text = ellipsize(text, font, rect.width - x)
                self._ply(surface, font, text, (rect.left + x, y), ply == final)
            y += font.get_linesize()

    @staticmethod
    def _ply(
        surface: pygame.Surface, font: pygame.font.Font, text: str, at: tuple[int, int], last: bool
    ) -> None:
        """One move (or move number); the last ply played stands out."""
        image = font.render(text, True, TEXT if last else DIM_TEXT)
        if last:
            back = image.get_rect(topleft=at).inflate(6, 0)
            pygame.draw.rect(surface, LAST_PLY_BG, back, border_radius=3)
        surface.blit(image, at)
