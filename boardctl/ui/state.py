"""What the status screen shows, as one plain value.

The daemon builds a :class:`DisplayState` from the game, the engine and the
reconciler, and hands it to the renderer; the renderer draws nothing that is
not in it.  This module imports no pygame, so any part of boardctl can build
one (and tests can compare them) without a display library installed.

Example::

    state = DisplayState.from_fen(fen, prompt="Put the knight back on h3", marks=(27,))
    Renderer((480, 320)).render(state, surface)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from ..rules import BLACK, DEFAULT_VARIANT, WHITE, Game, PieceType, Position, get_variant

PromptKind = Literal["info", "error", "choice", "over", "coach"]
PROMPT_KINDS: tuple[PromptKind, ...] = ("info", "error", "choice", "over", "coach")


@dataclass(frozen=True)
class DisplayState:
    """Everything the screen shows.  ``DisplayState()`` is the start position.

    Squares are the rules core's ints (a1 = 0, b1 = 1, … j8 = 79 on 10 files).

    :param fen: the position on the board.
    :param variant: rule preset name (see :func:`boardctl.rules.get_variant`); it
        fixes the board's size.
    :param orientation: the colour whose pieces stand at the bottom of the screen
        (``WHITE`` or ``BLACK``), as the physical board faces the screen.
    :param last_move: (from, to) squares of the move that led here, tinted.
    :param check_square: the king in check, shown red.  :meth:`from_fen` finds it.
    :param moves: the game's moves in SAN, ending at ``fen`` (numbering follows).
    :param engine_status: ``"thinking"``, ``"ready"``, ``"off"`` or any short word.
    :param engine_depth: search depth reached, or None.
    :param engine_score: score text from the engine's point of view of White,
        e.g. ``"+0.35"`` or ``"M3"``; ``""`` for none.  The screen says whose
        side it favours (:func:`~boardctl.scores.score_words`).
    :param engine_move: the engine's move that the player must carry out on the
        board, as (SAN, from-square, to-square), or None.
    :param level: the engine's level (0–20), or None when no engine plays.
    :param rating: the level's approximate rating (docs/levels.md), shown
        beside it, or None when it has none (another engine than boardctl's).
    :param engine_side: the colour the engine plays (its row says "Engine", the
        other "You"), or None for two players.
    :param opponent: what the screen calls that side: "Engine", or "Opponent" in
        a remote game.
    :param white_clock: White's remaining time in seconds, or None for no clock.
    :param black_clock: Black's, likewise.
    :param prompt: what the player must do or know ("Put the knight back on h3").
    :param prompt_kind: ``"info"``, ``"error"`` (drawn in a strong colour),
        ``"choice"`` (with ``choices`` drawn over the board), ``"over"``
        (the game has ended; the prompt says how) or ``"coach"`` (a teaching
        board's word on the last move, in a colour of its own).
    :param choices: options to pick from: piece types (drawn as pieces of the side to
        move, e.g. the promotion set) or short texts.
    :param chosen: index into ``choices`` of the highlighted option, or None.
    :param marks: squares the prompt talks about, outlined on the board.
    :param status: one short line about the machine ("simulator", "sensors lost").
    :param status_alert: draw the status line as a fault.
    :param setting_up: ``fen`` is a position the player is being guided to set
        up, not the pieces on the board (the simulator keeps its own until the
        set-up is complete).
    :param awaited: the side the board waits for when it is not the side to
        move (a puzzle's wrong move, to be taken back: the player's, not the
        engine's), or None; its row is the one lit.
    :raises ValueError: for an unknown prompt kind, orientation or choice index.
    """

    fen: str = DEFAULT_VARIANT.start_fen
    variant: str = DEFAULT_VARIANT.name
    orientation: int = WHITE
    last_move: tuple[int, int] | None = None
    check_square: int | None = None
    moves: tuple[str, ...] = ()
    engine_status: str = "off"
    engine_depth: int | None = None
    engine_score: str = ""
    engine_move: tuple[str, int, int] | None = None
    level: int | None = None
    rating: int | None = None
    engine_side: int | None = None
    opponent: str = "Engine"  # what the screen calls the side the board plays against
    white_clock: float | None = None
    black_clock: float | None = None
    prompt: str = ""
    prompt_kind: PromptKind = "info"
    choices: tuple[PieceType | str, ...] = ()
    chosen: int | None = None
    marks: tuple[int, ...] = ()
    status: str = ""
    status_alert: bool = False
    setting_up: bool = False
    awaited: int | None = None

    def __post_init__(self) -> None:
        # Lists are welcome on the way in; the value keeps tuples so it stays hashable.
        object.__setattr__(self, "moves", tuple(self.moves))
        object.__setattr__(self, "choices", tuple(self.choices))
        object.__setattr__(self, "marks", tuple(self.marks))
        if self.prompt_kind not in PROMPT_KINDS:
            raise ValueError(f"prompt_kind must be one of {PROMPT_KINDS}, got {self.prompt_kind!r}")
        if self.orientation not in (WHITE, BLACK):
            raise ValueError(f"orientation must be WHITE (0) or BLACK (1): {self.orientation!r}")
        if self.chosen is not None and not 0 <= self.chosen < len(self.choices):
            raise ValueError(f"chosen={self.chosen} is no index into {len(self.choices)} choices")

    # ------------------------------------------------------------ derived
    @property
    def turn(self) -> int:
        """The side to move, as the FEN says (``WHITE`` when it cannot tell)."""
        parts = self.fen.split()
        return BLACK if len(parts) > 1 and parts[1] == "b" else WHITE

    @property
    def first_ply(self) -> int:
        """Half-move index (0 = White's first move) of ``moves[0]``, from the FEN's counters."""
        parts = self.fen.split()
        try:
            fullmove = int(parts[5]) if len(parts) >= 6 else 1
        except ValueError:
            fullmove = 1
        return max(0, (fullmove - 1) * 2 + self.turn - len(self.moves))

    # ------------------------------------------------------------ builders
    @classmethod
    def from_fen(
        cls,
        fen: str | None = None,
        variant: str = DEFAULT_VARIANT.name,
        **fields: Any,
    ) -> DisplayState:
        """A state for ``fen`` (default: the variant's start) with the check found.

        :raises FenError: when the FEN is malformed.
        :raises UnknownVariantError: when there is no such variant.
        """
        return cls.from_position(Position(fen, get_variant(variant)), variant=variant, **fields)

    @classmethod
    def from_position(cls, pos: Position, **fields: Any) -> DisplayState:
        """A state for ``pos`` with the check found (what :meth:`from_fen`
        makes, without writing the position out and reading it back)."""
        fields.setdefault("check_square", pos.kings[pos.turn] if pos.is_check() else None)
        fields.setdefault("variant", pos.variant.name)
        return cls(fen=pos.fen(), **fields)

    @classmethod
    def from_game(cls, game: Game, **fields: Any) -> DisplayState:
        """A state for the game's current position, its last move, check and SAN list."""
        if game.moves:
            last = game.moves[-1]
            fields.setdefault("last_move", (last.from_square, last.to_square))
        fields.setdefault("moves", tuple(game.sans()))
        return cls.from_position(game.position, **fields)


def banner_line(state: DisplayState) -> tuple[str, str]:
    """What the screen's banner says, and its kind: the one thing that
    matters most (a fix, a choice, the engine's move to carry out, the
    result, a prompt), else whose turn it is.  The board's voice says the
    same line (boardctl.voice.words.banner_words)."""
    if state.prompt_kind == "error" and state.prompt:
        return "error", state.prompt
    if state.choices:
        return "choice", state.prompt or "Choose the new piece"
    if state.engine_move is not None:
        san, frm, to = state.engine_move
        geo = get_variant(state.variant).geometry
        words = f"{state.opponent}: {san} \N{EN DASH} {geo.name(frm)} to {geo.name(to)}"
        return "engine", words
    if state.prompt:
        return state.prompt_kind, state.prompt
    side = "White" if state.turn == WHITE else "Black"
    if state.check_square is not None:
        return "idle", f"Check! {side} to move"
    if state.engine_status == "thinking":
        return "idle", f"{side} to move: the engine is thinking"
    return "idle", f"{side} to move"


def welcome_words(url: str, pin: str) -> str:
    """The banner of the first start: where the settings page is and its PIN
    (``url``: the page's, such as ``http://192.168.1.20:8080/``).  Short
    enough for two lines of the smallest screen with the longest IPv4 address."""
    address = url.removeprefix("http://")
    return f"Settings: PIN {pin} at {address}settings"


def level_words(level: int, rating: int | None) -> str:
    """The engine's level as a player reads it: "level 12 · about 1275"."""
    if rating is None:
        return f"level {level}"
    return f"level {level} \N{MIDDLE DOT} about {rating}"


def engine_lines(state: DisplayState) -> list[list[str]]:
    """The engine's status and level, laid out from the widest to the
    narrowest: the screen draws the first whose lines all fit."""
    status = state.engine_status
    if state.opponent != "Engine":  # a person plays: the line says whether they are there
        return [[f"{state.opponent.lower()} {status}"], [status]]
    if state.level is None:
        return [[f"engine {status}"], [status]]
    level = f"level {state.level}"
    full = level_words(state.level, state.rating)
    layouts = [
        [f"engine {status}, {full}"],
        [f"{status}, {full}"],
        [status, full],
    ]
    if state.rating is not None:
        layouts.append([status, level, f"about {state.rating}"])
    return layouts


def iter_move_rows(state: DisplayState) -> Iterable[tuple[int, str | None, str | None]]:
    """``(move number, white SAN or None, black SAN or None)`` rows of the move list."""
    ply = state.first_ply
    row: list[str | None] = [None, None]
    number = ply // 2 + 1
    for text in state.moves:
        if ply // 2 + 1 != number:
            yield number, row[0], row[1]
            row, number = [None, None], ply // 2 + 1
        row[ply % 2] = text
        ply += 1
    if state.moves:
        yield number, row[0], row[1]
