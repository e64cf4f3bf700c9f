"""The remote side as the daemon plays it: an opponent like the engine.

The link (the web server's thread) keeps the remote game's log and publishes
a :class:`~boardctl.remote.desk.RemoteView` of it on the desk.  Here, in the
daemon's loop, nothing waits and nothing touches the network.
:class:`RemoteSeat` is the feature (:class:`~boardctl.daemon.view.Feature`)
that keeps the daemon's game the log's.  Each turn it

* has a new remote game stored and the pieces set up as the log has them,
  and tells the link which stored game it is;
* answers with the other side's move once the log has it, lit as the
  engine's is for the hand to carry out;
* hands the board player's move to the link once it is final (it can no
  longer be amended);
* guides the pieces back after a takeback both sides agreed (or to a game
  the board must catch up with);
* keeps the stored game the log's: each move's clock as the log has it, the
  other player's name once the log knows it, and the log's whole line when
  the log ends the game (a resignation, a draw agreed, a flag);
* shows the clocks the link keeps, and says on the screen what the other
  side asks.

What the daemon asks of it beyond that (a button, the page's offer, the
screen's words) it answers without touching the daemon.
"""

from __future__ import annotations

import logging
from functools import cache

from ..board.reconciler import State
from ..remote.desk import Answered, Asked, Bound, Desk, Note, Played, RemoteView
from ..rules import WHITE, Game, IllegalMoveError, Outcome, Termination, get_variant, parse_uci
from .actions import (
    Action,
    Declare,
    Guide,
    KeepClocks,
    Rename,
    Reseat,
    Seal,
    SetOpponentMove,
    ShowClocks,
    StartRemote,
    StoreLine,
)
from .players import PLAYER
from .view import NO_GAME, Phase, View, shared

log = logging.getLogger("boardctl")

RETELL = 1.0  # seconds between repeats of a note the link has not acted on yet
ASK_WORDS = {
    "takeback": "asks to take back a move",
    "draw": "offers a draw",
    "abort": "offers to call the game off",
}
YES_NO = "OK = yes, \N{MINUS SIGN} = no"  # the board's buttons (the simulator's Enter and -)
OFFER_WORDS = {
    "takeback": "takeback",
    "draw": "draw offer",
    "abort": "offer to call the game off",
    "resign": "resignation",
    "claim": "claim",
}
REMOTE_PLAYER = "Remote player"  # the other side in the store, until the log names it
# The other side, by where it plays, while the log has no name for it.
UNNAMED = {"board": "the other board", "browser": "the player in the browser"}
# The panel's status line while the pieces are guided to the log's game.
SETTING_UP, TAKING_BACK, CATCHING_UP = "setting up", "taking back", "catching up"


class RemoteSeat:
    """See the module docstring.  ``colour``: the board player's as
    configured, until a log says otherwise; ``confirm``: seconds a move must
    stand, the board still, before it is final and sent."""

    def __init__(self, desk: Desk, colour: int, confirm: float) -> None:
        self.desk = desk
        self.colour = colour
        self.confirm = confirm
        self.key = ""  # the remote game the daemon's stored game is ("": none yet)
        self.name = REMOTE_PLAYER  # the other side's, as the store has it
        self.made_at: float | None = None  # when the board player's last move was made
        # The log's length that move was made on (None: not known, after a restart).
        self.made_on: int | None = None
        self._seen: tuple[str, ...] | None = None  # the board's moves at the last step
        self._kept: tuple[float | None, ...] | None = None  # the clocks last asked to keep
        self._told: tuple[Note, float] | None = None  # the last note and when
        self._ucis: tuple[tuple[str, tuple[object, ...]], tuple[str, ...]] = (("", ()), ())

    @property
    def view(self) -> RemoteView:
        return self.desk.view

    @property
    def over(self) -> bool:
        """Has the log ended the remote game?"""
        return self.view.ending is not None

    # ------------------------------------------------------------ each step
    def step(self, now: float, view: View) -> list[Action]:
        remote = self.view
        mine = self._line(view.game)
        self._watch(mine, view, remote, now)
        if not remote.key:
            return []
        if remote.local_game != view.game_id:
            if self.key == remote.key and view.game_id != NO_GAME:
                self._tell(Bound(remote.key, view.game_id), now)  # stored: the link is told
            elif remote.local_game is not None and remote.ending is not None:
                return []  # stored before, and ended (a restart after the game)
            else:
                return self._start(remote)
        actions = self._adopt(remote)
        actions.append(ShowClocks(remote.clocks))  # the link measures both sides' time
        if view.phase is not Phase.SETTING_UP and not remote.problem and remote.ending is None:
            follow = self._follow(mine, remote)
            actions += follow or [*self._send(mine, remote, view, now), *_offer(mine, remote, view)]
        actions += self._keep(mine, remote)
        actions += self._end(remote, view)
        return actions

    def close(self) -> None:
        pass  # the desk is the link's

    def _tell(self, note: Note, now: float) -> None:
        """Leave ``note`` for the link, again each RETELL while it is due."""
        told = self._told
        if told is None or told[0] != note or now - told[1] >= RETELL:
            self.desk.tell(note)
            self._told = (note, now)

    def _line(self, game: Game) -> tuple[str, ...]:
        """The game's moves in coordinates, worked out again only when they change."""
        key = (game.start_fen, tuple(game.moves))
        if key != self._ucis[0]:
            self._ucis = (key, tuple(game.position.uci(move) for move in game.moves))
        return self._ucis[1]

    def _watch(self, mine: tuple[str, ...], view: View, remote: RemoteView, now: float) -> None:
        """The board player made or amended a move: it is final ``confirm``
        from now, and belongs to the log as it stands now."""
        seen, self._seen = self._seen, mine
        if seen is None or not mine or mine == seen or view.game.position.turn == self.colour:
            return  # the first look, no change, or the last move is not the board player's
        if mine[:-1] == seen or (len(mine) == len(seen) and mine[:-1] == seen[:-1]):
            self.made_at, self.made_on = now, remote.seq

    def _start(self, remote: RemoteView) -> list[Action]:
        """A remote game this daemon does not play yet: a stored game for it
        (the link is told next turn), and the pieces set up as the log has them."""
        self.key, self.colour = remote.key, remote.colour  # a game joined: the host chose
        self.name = remote.name or REMOTE_PLAYER
        self.made_on = None
        want = target(remote, self.colour)
        self._kept = remote.move_clocks[: len(want)]
        return [StartRemote(_replayed(remote, want), self._kept)]

    def _adopt(self, remote: RemoteView) -> list[Action]:
        """The game the daemon resumed is the log's: the board player plays
        the log's colour, whatever the configuration says now; the other
        side's name is the log's once it knows it."""
        actions: list[Action] = []
        if (self.key, self.colour) != (remote.key, remote.colour):
            self.key, self.colour = remote.key, remote.colour
            actions.append(Reseat())
        if remote.name and remote.name != self.name:
            self.name = remote.name
            actions.append(Rename())
        return actions

    def _follow(self, mine: tuple[str, ...], remote: RemoteView) -> list[Action]:
        """Keep the daemon's game the log's: a takeback both agreed (or a
        log the board must catch up with) takes the game back to it, and
        the pieces are guided there."""
        want = target(remote, self.colour)
        if mine in (want, remote.line) or self._pending(mine, remote):
            return []
        if mine[: len(remote.line)] == remote.line:
            want = remote.line  # the other side's last move is on the board already
        self.made_on = None
        status = TAKING_BACK if len(want) < len(mine) else CATCHING_UP
        clocks = remote.move_clocks[: len(want)]
        return [StoreLine(want, clocks), Guide(_replayed(remote, want), status)]

    def _send(
        self, mine: tuple[str, ...], remote: RemoteView, view: View, now: float
    ) -> list[Action]:
        """The board player's move goes to the link once it is final."""
        if not self._pending(mine, remote):
            return []
        actions: list[Action] = []
        if view.board.amendable:
            still = view.board.state is State.SYNCED
            if self.made_at is None or now - self.made_at < self.confirm or not still:
                return []
            actions.append(Seal())
        self._tell(Played(remote.key, remote.seq, mine[-1]), now)
        return actions

    def _pending(self, mine: tuple[str, ...], view: RemoteView) -> bool:
        """Is the last move of ``mine`` the board player's, made on the log as
        it is, and not yet in it?  A move made on an earlier log (one a
        takeback has since removed) is not: the pieces go back instead."""
        if not _one_more(mine, view, self.colour):
            return False
        if self.made_on is not None:
            return self.made_on == view.seq
        return view.taken_back[:1] != mine[-1:]  # after a restart: unless just taken back

    def _keep(self, mine: tuple[str, ...], remote: RemoteView) -> list[Action]:
        """The stored moves the log also has carry the log's clocks: both
        boards store the same times (the board player's move is stored before
        the log has it, and so before its clock is known)."""
        clocks, kept = remote.move_clocks[: shared(mine, remote.line)], self._kept
        if clocks == kept:
            return []
        self._kept = clocks
        same = 0 if kept is None else shared(clocks, kept)  # those kept already stay
        return [KeepClocks(same + 1, clocks[same:])] if clocks[same:] else []

    def _end(self, remote: RemoteView, view: View) -> list[Action]:
        """The log ended the game (a resignation, a draw agreed, a flag): the
        stored game holds the log's whole line, the other side's last move
        too while it is still lit for the hand, and ends as the log says."""
        if remote.ending is None or view.game.declared is not None:
            return []
        if remote.local_game != view.game_id:
            return []
        winner, reason = remote.ending
        return [
            StoreLine(remote.line, remote.move_clocks),
            Declare(Outcome(Termination(reason), winner)),
        ]

    # ------------------------------------------------------------ the player
    def ask(self, kind: str) -> str:
        """The board player asks for a takeback or a draw, or resigns (from
        the page's buttons); the notice to show."""
        view = self.view
        if not view.key:
            return "No remote game"
        if kind not in OFFER_WORDS:
            return "To end a remote game, resign or offer a draw"
        self.desk.tell(Asked(view.key, view.seq, kind))  # type: ignore[arg-type]
        return f"Your {OFFER_WORDS[kind]} is sent"

    def button(self, name: str) -> bool:
        """OK accepts what the other side asks, + or - refuses it; True when
        the press was for that."""
        view = self.view
        if not view.asks or name not in ("ok", "next", "prev"):
            return False
        self.desk.tell(Answered(view.key, view.seq, view.asks[0], name == "ok"))
        return True

    def names(self) -> tuple[str, str]:
        """(White, Black), for the store and the page."""
        return (PLAYER, self.name) if self.colour == WHITE else (self.name, PLAYER)

    @property
    def who(self) -> str:
        """The other side, as the board's words name it: by name, else by
        where it plays."""
        view = self.view
        return view.name or UNNAMED.get(view.opponent, "your opponent")

    @property
    def code_shown(self) -> bool:
        view = self.view
        return bool(view.key and not view.joined and view.code)

    def prompt(self, page: bool = False) -> tuple[str, bool] | None:
        """What the screen says of the remote game, and whether it is a fault
        (``page``: for the web page, which must not show the player code)."""
        view = self.view
        if view.problem:
            # The page and the log say why in full; the screen has two lines.
            return "The two sides disagree about this game: it is stopped", True
        if not view.key:
            return None
        if not view.joined and view.code:
            if page:
                return "Remote game: waiting for the other player to join", False
            return f"Remote game: player code {view.code}", False
        who = self.who
        named = who[:1].upper() + who[1:]
        if view.asks:
            return f"{named} {ASK_WORDS[view.asks[0]]}: {YES_NO}", False
        if view.away and view.ending is None:
            return f"{named} is away: their clock runs on its own", True
        if view.declined:
            return f"{named} said no to your {OFFER_WORDS[view.declined]}", False
        if view.asked:
            return f"Waiting for {who} to answer your {OFFER_WORDS[view.asked[0]]}", False
        return None

    def status(self) -> str:
        """The panel's word for the other side: there, away, or stopped."""
        view = self.view
        if view.problem:
            return "stopped"
        return "away" if view.away else "online"


def target(view: RemoteView, colour: int) -> tuple[str, ...]:
    """The line the board should stand in: the log's, less the other side's
    last move, which the hand is yet to carry out."""
    line = view.line
    if line and _mover(view, len(line)) != colour:
        return line[:-1]
    return line


def _offer(mine: tuple[str, ...], remote: RemoteView, view: View) -> list[Action]:
    """The other side's move, once the log has it and the board is ready
    for it, for the hand to carry out as the engine's."""
    line, board = remote.line, view.board
    if (
        not view.engine_to_move
        or board.engine_move is not None
        or not board.ready_for_engine
        or line[:-1] != mine
        or len(line) != len(mine) + 1
    ):
        return []
    try:
        return [SetOpponentMove(parse_uci(view.game.position, line[-1]))]
    except IllegalMoveError as exc:
        log.error("remote move refused: %s", exc)
        return []


def _mover(view: RemoteView, ply: int) -> int:
    return _first_turn(view.variant, view.start_fen) ^ ((ply - 1) & 1)


@cache
def _first_turn(variant: str, start_fen: str) -> int:
    return Game(get_variant(variant), start_fen or None).position.turn


def _one_more(mine: tuple[str, ...], view: RemoteView, colour: int) -> bool:
    """Is ``mine`` the log's line and one more move, the board player's?"""
    return (
        len(mine) == len(view.line) + 1
        and mine[:-1] == view.line
        and _mover(view, len(mine)) == colour
    )


def _replayed(view: RemoteView, line: tuple[str, ...]) -> Game:
    game = Game(get_variant(view.variant), view.start_fen or None)
    for uci in line:
        game.push(parse_uci(game.position, uci))
    return game
