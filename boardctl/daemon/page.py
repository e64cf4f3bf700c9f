"""The spectator page, as the daemon serves it: the owner's actions in,
snapshots out (see :mod:`boardctl.web`; the page's server never calls into
the loop).

The board is the truth: a new game or a takeback is made with the pieces,
so the page can only end the game, ask for the takeback, change the level,
ask for a review, save the settings, restart the program, or start a
set-up, a puzzle or a stepping (checked against the board as the server
checked it against the page's snapshot).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..config import Config
from ..rules import Outcome, Termination, get_variant
from ..web.snapshot import START_KINDS, Hub, Snapshot, WebAction
from ..web.starts import StartRefused, refusal, target, under_way
from .actions import (
    Action,
    Begin,
    Declare,
    Notice,
    Offer,
    Restart,
    Review,
    SaveSettings,
    SetLevel,
)
from .view import View

log = logging.getLogger("boardctl")

# A snapshot is built at once after a move or an action, else at most this
# often (a lifted piece's LEDs, the clocks): building one costs more than a whole step.
WEB_PERIOD = 0.1

# How each of the page's endings ends the game ("resign": the side to move resigns).
_DECLARED = {
    "resign": Termination.RESIGNATION,
    "draw": Termination.AGREEMENT,
    "newgame": Termination.ABANDONED,
}


class Page:
    """The page's feature: :meth:`step` takes the owner's actions from the
    hub, :meth:`publish` hands it what the spectators see.  ``reviews``:
    the board reviews games (the page may ask for one)."""

    def __init__(self, hub: Hub, reviews: bool, now: float) -> None:
        self.hub = hub
        self.reviews = reviews
        self.due = now
        self._asked = False

    def step(self, now: float, view: View) -> list[Action]:
        asked = self.hub.take_actions()
        self._asked = bool(asked)
        return [action for one in asked for action in page_actions(one, view, self.reviews)]

    def publish(self, now: float, moved: bool, snapshot: Callable[[], Snapshot]) -> None:
        """What the spectators see, after a change, else every WEB_PERIOD."""
        if moved or self._asked or now >= self.due:
            self.hub.publish(snapshot())
            self.due = now + WEB_PERIOD

    def close(self) -> None:
        pass  # the hub is the server's


def page_actions(action: WebAction, view: View, reviews: bool) -> list[Action]:
    """What the daemon does for ``action`` from the page (the server has
    checked the PIN and the value); see the module docstring."""
    log.info("web: %s %s", action.kind, action.value or action.text or "")
    kind, game = action.kind, view.game
    if kind == "restart":
        return [Restart()]  # ends the loop as SIGTERM does; the game is resumed at the next start
    if kind == "settings":
        return [SaveSettings(action.config)] if isinstance(action.config, Config) else []
    if kind in START_KINDS:
        return _start(action, view)
    if view.remote and kind in ("takeback", "draw", "resign", "newgame"):
        return [Offer(kind)]  # the other side must agree: the page's buttons ask it
    over = game.ending() is not None
    if view.mode == "stepping" and kind not in ("level", "review"):
        # The stored game is shown, not played: nothing of it is to end.
        return [Notice("Stepping through a stored game: nothing to end")]
    if kind == "level":
        return [SetLevel(action.value)]
    if kind == "review":
        return [Review(action.value)] if reviews else [Notice("Reviews are off on this board")]
    if kind == "takeback":
        if not game.moves or over or not view.config.game.takeback:
            return [Notice("No move to take back")]
        last = game.position.uci(game.moves[-1])
        return [Notice(f"Take back {last}: put the piece back")]
    if over:
        return []
    winner = {"resign": game.position.turn ^ 1}.get(kind)
    return [Declare(Outcome(_DECLARED[kind], winner))]


def _start(action: WebAction, view: View) -> list[Action]:
    """The owner's page asks for a set-up, a puzzle, a stepping or a normal
    game again: checked against the board, then begun as the flags begin it."""
    game = view.game
    try:
        playing = under_way(view.mode, len(game.moves), game.ending() is not None)
        why = refusal(action.kind, view.mode, playing, view.remote)
        if why is not None:
            raise StartRefused(why)
        variant = get_variant(view.config.game.variant)
        found = target(action.kind, action.text, action.config, variant)
    except StartRefused as exc:
        log.info("web: %s refused: %s", action.kind, exc.why.text)
        return [Notice(exc.why.text)]
    return [Begin(found)]
