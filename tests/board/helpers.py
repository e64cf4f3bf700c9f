"""A tiny board simulator for reconciler tests: lift and place by name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import strategies as st

from boardctl.board import Event, Reconciler, ReconcilerConfig
from boardctl.board.explain import footprint, occupancy
from boardctl.rules import Game, PieceType, Position, get_variant
from boardctl.rules.moves import CASTLE, EN_PASSANT, code_flag, code_from, code_to


@dataclass(frozen=True)
class Step:
    """One thing a hand does at the board, ``pause`` seconds after the last."""

    verb: str  # "lift", "place", "choose"; the games add "engine" and "wait"
    square: int = -1
    piece: int = 0
    pause: float = 0.1


def run(rec: Reconciler, now: float, until: float, lines: list[str]) -> float:
    """Let virtual time pass, firing every timer on time."""
    while (due := rec.next_deadline()) is not None and due <= until:
        now = max(now, due)
        lines += [e.line() for e in rec.tick(now)]
    return max(now, until)


def hand_does(
    rec: Reconciler, step: Step, reading: int, now: float, lines: list[str]
) -> tuple[int, float]:
    """``step`` after its pause: a lift or a place fed as the reading it makes,
    a choice as a choice; what the reconciler says goes to ``lines``.  Returns
    the reading and the time after it."""
    now = run(rec, now, now + step.pause, lines)
    if step.verb == "choose":
        lines += [e.line() for e in rec.choose(PieceType(step.piece), now)]
        return reading, now
    bit = 1 << step.square
    reading = reading & ~bit if step.verb == "lift" else reading | bit
    lines += [e.line() for e in rec.feed(reading, now)]
    return reading, now


def carried(
    draw: st.DrawFn,
    size: int,
    board: int,
    carries: dict[int, int],
    removals: list[int],
    pause: st.SearchStrategy[float],
    detour: Callable[[int, list[int]], list[Step]],
) -> list[Step]:
    """The lifts and placements of a move's pieces (``carries``: from-square
    to to-square; ``removals``: squares emptied) on occupancy ``board`` of
    ``size`` squares, in
    a random order a hand can use: a piece goes down only on an empty square.
    Before each goes down, ``detour(dest, empty)`` gives what the hand does
    first (``empty``: where it could put the piece meanwhile)."""
    start = board
    pending = [("lift", s) for s in carries] + [("off", s) for s in removals]
    held: dict[int, int] = {}  # piece (by its from-square) -> where it goes
    steps: list[Step] = []
    while pending or held:
        options = list(pending) + [("place", s) for s, d in held.items() if not board >> d & 1]
        kind, square = draw(st.sampled_from(options))
        if kind in ("lift", "off"):
            pending.remove((kind, square))
            steps.append(Step("lift", square, pause=draw(pause)))
            board &= ~(1 << square)
            if kind == "lift":
                held[square] = carries[square]
            continue
        dest = held.pop(square)
        # Never where the board would be the start again (the piece put back
        # where it or another carried piece stood, the rest home): by the
        # sensors that is the move taken back, and what the hand does next is
        # another move (castling's king home, its rook then to the king's side
        # reads as the rook's move).
        empty = [
            s
            for s in range(size)
            if not board >> s & 1
            and s != dest
            and s not in held.values()
            and board | 1 << s != start
        ]
        steps += detour(dest, empty)
        steps.append(Step("place", dest, pause=draw(pause)))
        board |= 1 << dest
    return steps


def handled_squares(pos: Position, code: int) -> tuple[dict[int, int], list[int]]:
    """What a hand does to carry out ``code`` in ``pos``: the pieces it
    carries (from-square to to-square: the mover, and a castling rook) and
    the squares it clears (a captured piece, en passant's too)."""
    frm, to, flag = code_from(code), code_to(code), code_flag(code)
    carries = {frm: to}
    removals: list[int] = []
    if flag == CASTLE:
        rook_from, rook_to = pos.castle_rook_squares(frm, to)
        carries[rook_from] = rook_to
    elif flag == EN_PASSANT:
        removals.append(footprint(pos, code)[1])
    elif occupancy(pos) >> to & 1:
        removals.append(to)
    return carries, removals


def twin_squares(pos: Position, code: int) -> int:
    """Squares of the other moves that leave the same occupancy as ``code``
    (all captures by one piece; castling f1j1 and the rook move j1g1).  They
    differ only in which squares were handled: a piece lifted and put back
    on a twin's square reads exactly like making that twin, so no property
    generates such a nudge (no sensor could tell them apart)."""
    pos.make(code)
    after = occupancy(pos)
    pos.unmake()
    squares = 0
    for other in pos.legal_codes():
        if other == code:
            continue
        pos.make(other)
        same = occupancy(pos) == after
        pos.unmake()
        if same:
            squares |= footprint(pos, other)[0]
    return squares


class Table:
    """A reconciler with a clock and a reading, driven like a person would."""

    def __init__(
        self,
        fen: str | None = None,
        variant: str = "falcon",
        engine_side: int | None = None,
        **config: object,
    ) -> None:
        self.game = Game(get_variant(variant), fen)
        self.rec = Reconciler(self.game, ReconcilerConfig(**config), engine_side)  # type: ignore[arg-type]
        self.reading = self.rec.reading
        self.now = 0.0
        self.events: list[Event] = []

    def sq(self, name: str) -> int:
        return self.game.position.geometry.parse_square(name)

    def _feed(self) -> list[Event]:
        out = self.rec.feed(self.reading, self.now)
        self.events += out
        return out

    def lift(self, *names: str, after: float = 0.1) -> list[Event]:
        self.now += after
        for name in names:
            self.reading &= ~(1 << self.sq(name))
        return self._feed()

    def place(self, *names: str, after: float = 0.1) -> list[Event]:
        self.now += after
        for name in names:
            self.reading |= 1 << self.sq(name)
        return self._feed()

    def choose(self, letter: str) -> list[Event]:
        from boardctl.rules import PieceType
        from boardctl.rules.pieces import SYMBOLS

        out = self.rec.choose(PieceType(SYMBOLS.index(letter)), self.now)
        self.events += out
        return out

    def move(self, frm: str, to: str) -> list[Event]:
        return self.lift(frm) + self.place(to)

    def set_reading(self, reading: int, after: float = 0.1) -> list[Event]:
        self.now += after
        self.reading = reading
        return self._feed()

    def wait(self, seconds: float) -> list[Event]:
        end = self.now + seconds
        out: list[Event] = []
        while True:
            due = self.rec.next_deadline()
            if due is None or due > end:
                break
            self.now = max(self.now, due)
            out += self.rec.tick(self.now)
        self.now = end
        out += self.rec.tick(end)
        self.events += out
        return out

    def lines(self) -> list[str]:
        return [e.line() for e in self.events]

    def roles(self) -> dict[str, str]:
        """What the scene lights, by square name."""
        name = self.game.position.geometry.name
        return {name(sq): role.value for sq, role in self.rec.scene().squares.items()}
