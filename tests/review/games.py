"""Short games whose verdicts are not in doubt, from set-up positions, and a
depth small enough that every search in them takes milliseconds."""

from __future__ import annotations

from boardctl.engine import Limits
from boardctl.rules import Game
from boardctl.storage.store import GameStore

# A depth cap keeps the verdicts the same on any machine; the time only bounds it.
LIMITS = Limits(depth=5, movetime=5.0)
T0 = 1_700_000_000.0

# White's queen steps onto d2, where Black's falcon on e5 takes it (its path
# e5-e4-e3-d2 is open); the queen had better moves.
QUEEN_TO_FALCON = ("5k3r/pp6pp/10/4f5/10/10/PP6PP/3Q1K4 w - - 0 1", ("d1d2", "e5d2"))
# Black's rook leaves the back rank: Re8 is mate at once.
ALLOWS_MATE = ("r8k/7ppp/10/10/10/10/PP8/K3R5 b - - 0 1", ("a8a3", "e1e8"))
# White has Re8 mate, plays a3, and Black's queen takes the rook with check.
MISSES_MATE = ("9k/7ppp/10/q9/10/10/P1P7/K3R5 w - - 0 1", ("a2a3", "a5e1"))
# Ra8+ leaves Black's king one square, i7: a move with no alternative.
FORCED = ("9k/9p/10/10/10/10/10/R5K3 w - - 0 1", ("a1a8", "j8i7"))
# Kings step towards the centre in a level, symmetric pawn ending.
QUIET = ("4k5/p4p4/10/10/10/10/P4P4/4K5 w - - 0 1", ("e1d2", "e8d7"))

# From the start: 2. Qj6?? hangs White's queen to the knight on i8, which takes it.
QUEEN_LOST = ("f2f4", "e7e5", "e1j6", "i8j6")
# A game of 39 plies in which both sides go wrong now and then (the engine at
# depth 4, playing a random move one time in four, seed 1): reviewed at LIMITS
# it has an inaccuracy, mistakes and blunders, for the page to show.
_ERRATIC_TEXT = (
    "i1h3 d7d6 d2d4 b8c6 d4d5 c6d4 b1a3 d8e5 c2c3 d4c2 a3c2 e5c2 h3i5 i8j6 g2g4 a7a6 "
    "i5j3 c8g4 f2f3 g4d7 d1f4 c2f4 c1f4 g7g5 f4g5 h7h6 g5h4 j6h5 h4g3 e8c8 j1i1 h5g3 "
    "e1g3 h8f6 f1e1 g8h5 g1e4 c8d8 e4h5"
)
ERRATIC = tuple(_ERRATIC_TEXT.split())


def game_of(fen: str, moves: tuple[str, ...]) -> Game:
    game = Game(fen=fen)
    for uci in moves:
        game.push_text(uci)
    return game


def stored(store: GameStore, fen: str, moves: tuple[str, ...], result: str | None = "1-0") -> int:
    """The game kept in ``store`` as the daemon keeps it, ended with ``result``
    unless that is None."""
    game_id = store.new_game("falcon", fen, "Ann", "Bob", "two-players", T0)
    for ply, uci in enumerate(moves, start=1):
        store.add_move(game_id, ply, uci, T0 + ply)
    if result is not None:
        store.finish(game_id, result, "resignation", T0 + len(moves) + 1)
    return game_id
