"""A game: the moves played from a start position, and how it ended.

A board has nobody to claim a draw to, so the claimable draws (threefold
repetition, fifty moves) end the game as soon as they arise, like checkmate.
Where the preset scores stalemate on points (the hexagonal games: ¾ to the
side that gives it, ¼ to the side stalemated), stalemate is an outcome of its
own, :attr:`Termination.SCORED_STALEMATE`, with the stalemating side as
``winner`` and the points in ``Outcome.points``.

A game also ends off the board: a flag falls, a player resigns, the players
agree a draw, or a game is abandoned.  The position cannot show these, so the
game is told (:meth:`Game.declare`); :meth:`Game.ending` is then the one
answer to "is it over, and how" for the daemon, the screen, the store, PGN and
the web page.  :meth:`Game.outcome` stays what the position says, which is
what the board's play follows: after an ending off the board the pieces may
still be moved until a new game is set up.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .moves import Move
from .notation import parse_move, san
from .pieces import BISHOP, KING, KNIGHT, WHITE, Color
from .position import Position
from .variants import DEFAULT_VARIANT, Variant

FIFTY_MOVES = 100  # plies without a capture or a pawn move that draw the game

# PGN's result tokens, the only ones the store keeps.  "*" is a game without a
# result: still going on, or abandoned.
WHITE_WINS, BLACK_WINS, DRAWN, NO_RESULT = "1-0", "0-1", "1/2-1/2", "*"
RESULTS = (WHITE_WINS, BLACK_WINS, DRAWN, NO_RESULT)


class Termination(Enum):
    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    SCORED_STALEMATE = "stalemate, scored on points"
    THREEFOLD_REPETITION = "threefold repetition"
    FIFTY_MOVES = "fifty-move rule"
    INSUFFICIENT_MATERIAL = "insufficient material"
    # Off the board (Game.declare).  The values are what the store keeps as a
    # game's termination: games stored before these existed read the same.
    TIME_FORFEIT = "time forfeit"
    RESIGNATION = "resignation"
    AGREEMENT = "draw agreed"
    ABANDONED = "abandoned"
    # The other side left a remote game while no clock of theirs ran, and
    # the side still there claimed it (docs/remote.md).
    FORFEIT = "forfeit"

    @property
    def off_board(self) -> bool:
        """An ending the position cannot show (:meth:`Game.declare` records it)."""
        return self in _OFF_BOARD


_OFF_BOARD = frozenset(
    {
        Termination.TIME_FORFEIT,
        Termination.RESIGNATION,
        Termination.AGREEMENT,
        Termination.ABANDONED,
        Termination.FORFEIT,
    }
)


@dataclass(frozen=True)
class Outcome:
    """How a game ended.  ``winner`` is the side that scores more (None for a
    draw, and for an abandoned game, which scores nothing); ``stalemate_points``
    is what the winner of a scored stalemate gets."""

    termination: Termination
    winner: Color | None
    stalemate_points: float = 1.0

    @property
    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2``: PGN's only tokens for a finished
        game, so a scored stalemate is the stalemating side's ``1-0`` or
        ``0-1`` and :attr:`score` says how much it is worth.  An abandoned
        game has no result, ``*``."""
        if self.termination is Termination.ABANDONED:
            return NO_RESULT
        if self.winner is None:
            return DRAWN
        return WHITE_WINS if self.winner == WHITE else BLACK_WINS

    @property
    def points(self) -> tuple[float, float]:
        """What White and Black score (nothing for an abandoned game)."""
        if self.termination is Termination.ABANDONED:
            return 0.0, 0.0
        if self.winner is None:
            return 0.5, 0.5
        won = self.stalemate_points if self.termination is Termination.SCORED_STALEMATE else 1.0
        return (won, 1 - won) if self.winner == WHITE else (1 - won, won)

    @property
    def score(self) -> str:
        """The points as text, ``1-0``, ``1/2-1/2`` or ``3/4-1/4``."""
        return "-".join(_points_text(p) for p in self.points)

    def __str__(self) -> str:
        if self.termination is Termination.ABANDONED:
            return "game abandoned"
        if self.termination is Termination.AGREEMENT:
            return "draw agreed"
        if self.winner is None:
            return f"draw by {self.termination.value}"
        side = "White" if self.winner == WHITE else "Black"
        if self.termination is Termination.SCORED_STALEMATE:
            other = "Black" if self.winner == WHITE else "White"
            return f"{side} stalemates {other} and scores {self.score}"
        return f"{side} wins by {self.termination.value}"


def _points_text(points: float) -> str:
    quarters = round(points * 4)
    return {0: "0", 1: "1/4", 2: "1/2", 3: "3/4", 4: "1"}.get(quarters, f"{points:g}")


class Game:
    """Moves from a start position, with their history and outcome.

    :raises FenError: when ``fen`` is malformed.
    """

    def __init__(self, variant: Variant = DEFAULT_VARIANT, fen: str | None = None) -> None:
        self.variant = variant
        self.position = Position(fen, variant)
        self.start_fen = self.position.fen()
        self.moves: list[Move] = []
        self._hashes = [self.position.hash]
        # An ending off the board: it stands over the position's outcome, and
        # through takebacks, for the rest of this game (a new game is a new Game).
        self.declared: Outcome | None = None
        # outcome() is asked many times a second of one position; counting
        # the legal moves each time cost the daemon's step the most.
        self._outcome: tuple[int, Outcome | None] | None = None  # (position hash, it)

    @property
    def is_standard_start(self) -> bool:
        return self.start_fen == Position(None, self.variant).fen()

    def push(self, move: Move) -> None:
        """Play a move.  :raises IllegalMoveError: when it is not legal."""
        self.position.push(move)
        self.moves.append(move)
        self._hashes.append(self.position.hash)
        self._outcome = None

    def push_text(self, text: str) -> Move:
        """Play a move given in coordinate notation or SAN."""
        move = parse_move(self.position, text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Take back the last move.  :raises IndexError: when there is none."""
        if not self.moves:
            raise IndexError("no move to take back")
        self.position.unmake()
        self._hashes.pop()
        self._outcome = None
        return self.moves.pop()

    def sans(self) -> list[str]:
        """The moves in SAN."""
        replay = Position(self.start_fen, self.variant)
        out = []
        for move in self.moves:
            out.append(san(replay, move))
            replay.push(move)
        return out

    def repetitions(self) -> int:
        """How often the current position has stood on the board so far.

        Only positions since the last capture or pawn move can repeat it.
        """
        window = self._hashes[-1 - self.position.halfmove_clock :]
        return window.count(self.position.hash)

    def declare(self, outcome: Outcome) -> None:
        """Record an ending the position cannot show: a flag that fell, a
        resignation, a draw agreed, a game abandoned.

        :raises ValueError: for an ending the position shows (the rules find
            those themselves), or when the game has been declared over already.
        """
        if not outcome.termination.off_board:
            raise ValueError(f"{outcome.termination.value} is for the rules to find")
        if self.declared is not None:
            raise ValueError(f"the game is over already ({self.declared})")
        self.declared = outcome

    def ending(self) -> Outcome | None:
        """How the game ended, whatever ended it, or None while it goes on: an
        ending declared off the board, else the position's :meth:`outcome`."""
        return self.declared if self.declared is not None else self.outcome()

    def outcome(self) -> Outcome | None:
        """How the position ends the game (checkmate, stalemate, the draws),
        or None while it goes on; an ending declared off the board is not
        counted (see :meth:`ending`).  Worked out once per position: until the
        next push or pop."""
        cached = self._outcome
        if cached is not None and cached[0] == self.position.hash:
            return cached[1]
        outcome = self._outcome_now()
        self._outcome = (self.position.hash, outcome)
        return outcome

    def _outcome_now(self) -> Outcome | None:
        pos = self.position
        if pos.count_legal() == 0:
            if pos.is_check():
                return Outcome(Termination.CHECKMATE, pos.turn ^ 1)
            given = self.variant.stalemate_points  # to the side that stalemates
            if given != 0.5:
                winner = pos.turn ^ 1 if given > 0.5 else pos.turn
                return Outcome(Termination.SCORED_STALEMATE, winner, max(given, 1 - given))
            return Outcome(Termination.STALEMATE, None)
        if is_dead_position(pos):
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        if self.repetitions() >= 3:
            return Outcome(Termination.THREEFOLD_REPETITION, None)
        if pos.halfmove_clock >= FIFTY_MOVES:
            return Outcome(Termination.FIFTY_MOVES, None)
        return None


def is_dead_position(pos: Position) -> bool:
    """No sequence of legal moves can mate.

    Only kings, knights and bishops on the board, and the preset says which of
    those cannot mate (:class:`~boardctl.rules.variants.Variant`): on a
    rectangle K v K, K+B v K, K+N v K, and kings with bishops that all stand
    on squares of one colour.  K+F v K is not dead: mates exist (RULES.md,
    "End of the game").  On a hexagon a lone knight or bishop can mate (black
    Kh1, white Kh3 and Ng4 or Bd3 on the 121-cell board), so only kings with
    bishops that all stand on the centre's colour are dead.
    """
    others = pos.colors[0] | pos.colors[1]
    for ptype in (KING, BISHOP, KNIGHT):
        others &= ~pos.pieces[ptype]
    if others:
        return False
    knights = pos.pieces[KNIGHT]
    bishops = pos.pieces[BISHOP]
    variant, geo = pos.variant, pos.geometry
    if knights:
        return not variant.lone_knight_mates and not bishops and knights & (knights - 1) == 0
    shades = {geo.shade(sq) for sq in geo.squares(bishops)}
    return len(shades) <= 1 and not shades & variant.bishop_mate_shades
