"""The stored game: the one game of the store the board's game is written to.

Every write goes through a :class:`~boardctl.storage.backlog.Backlog`: when
the store cannot be written (a full disk, a read-only database) the game
goes on and the writes wait.  What the store keeps is dated by the wall
clock (UTC seconds since 1970), read when the write is made.  A game that
ends is reviewed (``[review] at_end``) by the
:class:`~boardctl.review.background.Reviewer`, in a process of its own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from ..review.background import Reviewer
from ..rules import Game, Outcome, Termination
from ..storage.backlog import Backlog, Store
from .view import NO_GAME, shared

log = logging.getLogger("boardctl")


class Record:
    """See the module docstring.  :attr:`game_id` is :data:`NO_GAME` while
    no stored game is on the board."""

    def __init__(
        self, store: Store, wall_clock: Callable[[], float], reviewer: Reviewer | None
    ) -> None:
        self.store = Backlog(store)
        self.wall_clock = wall_clock
        self.reviewer = reviewer
        self.game_id = NO_GAME
        # When the game began (UTC seconds since 1970), for the live PGN's
        # date; a resumed game's comes from the store (None: not known).
        self.started_at: float | None = None

    def resume(self, game_id: int, started_at: float | None) -> None:
        """Write to ``game_id``, stored before (or a stored game stepped through)."""
        self.game_id, self.started_at = game_id, started_at

    def drop(self) -> None:
        """No stored game is on the board (the board's game is not stored)."""
        self.resume(NO_GAME, None)

    def begin(
        self,
        game: Game,
        names: tuple[str, str],
        mode: str,
        moves: Sequence[str] = (),
        clocks: Sequence[float | None] = (),
    ) -> None:
        """Store ``game`` as a new game with its players, and its first
        ``moves`` with their ``clocks`` (None where not given)."""
        self.started_at = self.wall_clock()
        white, black = names
        variant = game.variant.name
        self.game_id = self.store.new_game(
            variant, game.start_fen, white, black, mode, self.started_at
        )
        for ply, uci in enumerate(moves, start=1):
            self.add(ply, uci, clocks[ply - 1] if ply <= len(clocks) else None)

    # ------------------------------------------------------------ moves
    def add(self, ply: int, uci: str, clock: float | None = None) -> None:
        """The move at ``ply``, stored before anything shows it (crash safety)."""
        if self.game_id == NO_GAME:
            return
        self.store.add_move(self.game_id, ply, uci, self.wall_clock(), clock=clock)

    def amend(self, uci: str) -> None:
        """The last move changed (one transaction: a crash cannot leave the
        old move gone and the new one unsaved)."""
        if self.game_id != NO_GAME:
            self.store.amend_last_move(self.game_id, uci, self.wall_clock())
            self._changed()

    def take_back(self) -> None:
        if self.game_id != NO_GAME:
            self.store.remove_last_move(self.game_id)
            self._changed()

    def rewrite(
        self, have: Sequence[str], want: Sequence[str], clocks: Sequence[float | None]
    ) -> None:
        """The stored moves, ``have``, become ``want`` (with ``clocks``):
        those after the two part are taken back, then the rest added."""
        common = shared(have, want)
        for _ in range(len(have) - common):
            self.take_back()
        for ply in range(common + 1, len(want) + 1):
            self.add(ply, want[ply - 1], clocks[ply - 1] if ply <= len(clocks) else None)

    def keep_clocks(self, first: int, clocks: Sequence[float | None]) -> None:
        """The stored moves from ply ``first`` on carry ``clocks``."""
        if self.game_id != NO_GAME and clocks:
            self.store.set_clocks(self.game_id, first, clocks)

    def rename(self, names: tuple[str, str]) -> None:
        if self.game_id != NO_GAME:
            self.store.set_players(self.game_id, *names)

    # ------------------------------------------------------------ the end
    def finish(self, outcome: Outcome, game: Game, review: bool) -> None:
        """The game ended as ``outcome`` (the store keeps the first ending);
        one that really ended (not abandoned) is reviewed if ``review``."""
        if self.game_id == NO_GAME:
            return
        result, how = outcome.result, outcome.termination
        self.store.finish(self.game_id, result, how.value, self.wall_clock())
        if how is not Termination.ABANDONED and review:
            self._review_at_end(game)

    def _review_at_end(self, game: Game) -> None:
        """A game that has ended is reviewed, if the store holds all of it
        (while writes wait, it is left for the page to ask for later)."""
        if self.reviewer is None or not game.moves:
            return
        if self.store.waiting or self.game_id < 1:
            log.info("game %d is not reviewed: its moves are not all saved", self.game_id)
            return
        self.reviewer.request(self.game_id)

    def _changed(self) -> None:
        """A move taken back or changed: a review of the game judged other moves."""
        if self.reviewer is not None:
            self.reviewer.cancel(self.game_id)

    def close(self) -> None:
        """Try the waiting writes once more, and log any that are lost."""
        self.store.close()
