"""The gallery's teaching scenes: the coach's remarks and hints, and a
puzzle from its goal to solved or failed (docs/screens.md)."""

from __future__ import annotations

from ...review.coach import Evaluation, hint_words, remark
from ...rules import BLACK, WHITE, Game, Position, get_variant
from ...rules.notation import parse_move
from ..state import DisplayState
from .play import MIDGAME, played


def _said(
    game: Game, played: str, before: tuple[int, str] | None, after: tuple[int, str] | None
) -> str:
    """What the coach says of ``played`` in ``game``, by the coach's own words
    (review/coach.py), given the engine's two evaluations as (centipawns of
    the side to move, its line in SAN) — hand-set here, a second's search on
    the board — or None for the falcon's lessons alone; ``played`` is pushed."""

    def evaluation(pos: Position, seen: tuple[int, str] | None) -> Evaluation | None:
        if seen is None:
            return None
        board, line = pos.copy(), []
        for text in seen[1].split():
            line.append(parse_move(board, text))
            board.push(line[-1])
        return Evaluation(seen[0], None, tuple(line))

    pos = game.position.copy()
    move = parse_move(pos, played)
    left = pos.copy()
    left.push(move)
    said = remark(pos, move, evaluation(pos, before), evaluation(left, after), offer=True)
    assert said is not None, f"the coach says nothing of {played}"
    game.push(move)
    return said.text


def coach() -> DisplayState:
    """Teaching mode: White's queen has gone to e2, where the bishop takes it.
    The coach says so and offers the move back; the LEDs light the queen and e1."""
    game = played(MIDGAME)
    said = _said(game, "Qe2", (60, "Fxh7"), (850, "Bxe2 Kxe2"))
    return DisplayState.from_game(game, prompt=said, prompt_kind="coach")


def coach_falcon() -> DisplayState:
    """A knight left where only a falcon takes it: the coach says so."""
    game = Game(fen="9k/10/10/2f7/4N5/10/10/K9 w - - 0 30")
    said = _said(game, "Nf6", (250, "Nxc5"), (240, "Fxf6"))
    return DisplayState.from_game(game, prompt=said, prompt_kind="coach")


def coach_lesson() -> DisplayState:
    """A falcon move that the last move opened the way for, played: the coach
    says which piece opened it, and the falcon's path."""
    game = Game(fen="r3k4r/ppp2p1p2/3p1pn3/4F5/4P5/10/PPP2PPPPP/R3K4R b - - 0 20")
    game.push_text("Ne7")
    said = _said(game, "Fxh7", None, None)
    return DisplayState.from_game(game, prompt=said, prompt_kind="coach")


def coach_hint() -> DisplayState:
    """A hint in teaching mode: the best move (lit on the board) and the other
    good ones, ranked by the engine (scores hand-set here)."""
    game = played(MIDGAME)
    pos = game.position
    ranked = [
        (parse_move(pos, text), (cp, None)) for text, cp in (("Fxh7", 80), ("Ng5", 60), ("Ni5", 55))
    ]
    return DisplayState.from_game(game, prompt=hint_words(pos, ranked))


def _puzzle(*moves: str) -> DisplayState:
    """``--puzzle duke-a`` (the essay's first problem) after ``moves``, as the
    daemon shows it: the attempt's banner line, the engine defending."""
    from ...puzzles import Attempt, Solver, find, judge

    puzzle = find("duke-a")
    game = Game(get_variant(puzzle.variant), puzzle.fen)
    for text in moves:
        game.push(parse_move(game.position, text))
    text, kind = judge(Attempt(puzzle), game, Solver()).banner()
    # A wrong move waits for the player to take it back, as the daemon shows it.
    awaited = WHITE if kind == "error" else None
    return DisplayState.from_game(
        game, prompt=text, prompt_kind=kind, engine_side=BLACK, status="puzzle", awaited=awaited
    )


def puzzle() -> DisplayState:
    """A puzzle under way: the key played, the engine's defence carried out;
    the banner says what is left to do."""
    return _puzzle("c1i7", "i8i7")


def puzzle_solved() -> DisplayState:
    """The mate: solved."""
    return _puzzle("c1i7", "i8i7", "j5j6")


def puzzle_failed() -> DisplayState:
    """A move that does not mate in time: what would have, and how to try again."""
    return _puzzle("c1c7")
