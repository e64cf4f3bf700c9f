"""The remote side as the daemon sees it: an opponent like the engine.

The link (the web server's thread) keeps the remote game's log and publishes
a :class:`~boardctl.remote.desk.RemoteView` of it on the desk.  Here, in the
daemon's loop, nothing waits and nothing touches the network:

* :class:`RemoteOpponent` is the :class:`~boardctl.engine.interface.Opponent`
  the engine session asks for a move: it answers with the remote side's
  move once the view has it, so the board lights it as it lights the engine's
  and the hand carries it out;
* :class:`RemoteSeat` keeps the daemon's game the view's: it binds a new
  remote game to a stored game, hands the board player's move to the link
  once it is final (it can no longer be amended), guides the pieces back
  after a takeback both sides agreed (or a game the board must catch up
  with), ends the game as the log ended it, shows the clocks the link keeps,
  and says on the screen what the other side asks.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ..board import Reconciler
from ..board.reconciler import State
from ..board.setup import begin
from ..engine import Limits
from ..engine.interface import BestMove, Message
from ..remote.desk import Answered, Asked, Bound, Desk, Note, Played, RemoteView
from ..rules import WHITE, Game, Outcome, Termination, get_variant, parse_uci
from .clock import ChessClock

if TYPE_CHECKING:
    from .loop import Daemon

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
}


class RemoteOpponent:
    """See the module docstring: the remote side's moves, as an engine's answers."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self.request = 0
        self.wanted: tuple[str, ...] | None = None  # the line a move is asked after

    def go(self, fen: str, moves: list[str], limits: Limits, variant: str = "falcon") -> int:
        self.request += 1
        self.wanted = tuple(moves)
        return self.request

    def poll(self, timeout: float = 0.0) -> list[Message]:
        view, wanted = self.desk.view, self.wanted
        if wanted is None or view.problem or len(view.line) != len(wanted) + 1:
            return []
        if view.line[:-1] != wanted:
            return []
        self.wanted = None
        return [BestMove(self.request, view.line[-1])]

    def stop(self) -> None:
        self.wanted = None

    def new_game(self) -> None:
        self.wanted = None

    def set_skill(self, skill: int) -> None:
        pass  # a person has no level

    def rating(self, skill: int, variant: str) -> int | None:
        return None  # nor a rating

    def close(self) -> None:
        pass


class RemoteSeat:
    """See the module docstring.  ``confirm``: seconds a move must stand,
    the board still, before it is final and sent."""

    def __init__(self, desk: Desk, colour: int, confirm: float) -> None:
        self.desk = desk
        self.colour = colour
        self.confirm = confirm
        self.made_at: float | None = None  # when the board player's last move was made
        # The log's length that move was made on (None: not known, after a restart).
        self.made_on: int | None = None
        self.bound: tuple[str, int] | None = None  # (key, game) this daemon bound
        self._told: tuple[Note, float] | None = None  # the last note and when

    @property
    def view(self) -> RemoteView:
        return self.desk.view

    def moved(self, now: float) -> None:
        """The board player made or amended a move: it is final ``confirm`` from
        now, and belongs to the log as it stands now."""
        self.made_at = now
        self.made_on = self.view.seq

    # ------------------------------------------------------------ each step
    def step(self, d: Daemon, now: float) -> None:
        view = self.view
        if not view.key:
            return
        if view.local_game != d.game_id and self.bound != (view.key, d.game_id):
            self._start(d, view, now)
            return
        if view.local_game != d.game_id:
            self._tell(Bound(view.key, d.game_id), now)
        if (view.clocks is None) != (d.clock is None):  # the game's clocks, not the file's
            d.clock = None if view.clocks is None else ChessClock([*view.clocks], 0.0, now)
        if d.setup is None and not view.problem:
            self._follow(d, view, now)
            self._send(d, view, now)
        self._end(d, view)
        d.engine.text = self._status(view)

    def _tell(self, note: Note, now: float) -> None:
        """Leave ``note`` for the link, again each RETELL while it is due."""
        told = self._told
        if told is None or told[0] != note or now - told[1] >= RETELL:
            self.desk.tell(note)
            self._told = (note, now)

    def _start(self, d: Daemon, view: RemoteView, now: float) -> None:
        """A remote game this daemon does not play yet: a stored game for it,
        and the pieces set up as the log has them."""
        if view.colour != self.colour:  # a game joined: the host chose the colours
            self.colour = view.colour
            d.play_as(view.colour)
        game = _replayed(view, target(view, self.colour))
        d.end_for_remote(now)
        white, black = self.names(view)
        d.game_id = d.store.new_game(
            game.variant.name, game.start_fen, white, black, "remote", d.wall_clock()
        )
        d.started_at = d.wall_clock()
        for ply, uci in enumerate(view.line[: len(game.moves)], start=1):
            d.store.add_move(d.game_id, ply, uci, d.wall_clock())
        self.bound = (view.key, d.game_id)
        self._tell(Bound(view.key, d.game_id), now)
        self._guide(d, game, now)

    def _guide(self, d: Daemon, game: Game, now: float) -> None:
        """Play ``game`` from now on, once the pieces stand as it has them."""
        old, reading = d.game.position, d.reconciler.reading
        d.engine.cancel()
        d.engine.due = now  # the other side's move, if it is theirs, is asked for anew
        # Until the set-up is complete the readings are its own: this reconciler
        # takes the board to stand as the game has it, and judges nothing.
        d.reconciler = Reconciler(game, d.reconciler.config, d.engine_side)
        d.setup = begin(game.position.copy(), reading, old)
        d.setup_game = game

    def _follow(self, d: Daemon, view: RemoteView, now: float) -> None:
        """Keep the daemon's game the log's: a takeback both agreed (or a
        log the board must catch up with) takes the game back to it, and
        the pieces are guided there."""
        mine = d.web_shaper.move_ucis(d.game)
        want = target(view, self.colour)
        if mine in (want, view.line) or self._pending(mine, view):
            return
        if mine[: len(view.line)] == view.line:
            want = view.line  # the other side's last move is on the board already
        common = 0
        while common < min(len(mine), len(want)) and mine[common] == want[common]:
            common += 1
        for _ in range(len(mine) - common):
            d.store.remove_last_move(d.game_id)
        for ply in range(common + 1, len(want) + 1):
            d.store.add_move(d.game_id, ply, want[ply - 1], d.wall_clock())
        self.made_on = None
        self._guide(d, _replayed(view, want), now)

    def _send(self, d: Daemon, view: RemoteView, now: float) -> None:
        """The board player's move goes to the link once it is final."""
        mine = d.web_shaper.move_ucis(d.game)
        if not self._pending(mine, view):
            return
        rec = d.reconciler
        if rec.amendable:
            still = rec.state is State.SYNCED
            if self.made_at is None or now - self.made_at < self.confirm or not still:
                return
            rec.seal()
        self._tell(Played(view.key, view.seq, mine[-1]), now)

    def _pending(self, mine: tuple[str, ...], view: RemoteView) -> bool:
        """Is the last move of ``mine`` the board player's, made on the log as
        it is, and not yet in it?  A move made on an earlier log (one a
        takeback has since removed) is not: the pieces go back instead."""
        if not _one_more(mine, view, self.colour):
            return False
        if self.made_on is not None:
            return self.made_on == view.seq
        return view.taken_back[:1] != mine[-1:]  # after a restart: unless just taken back

    def _end(self, d: Daemon, view: RemoteView) -> None:
        """The log ended the game (a resignation, a draw agreed, a flag)."""
        if view.ending is None or d.game.declared is not None or view.local_game != d.game_id:
            return
        winner, reason = view.ending
        d.declare(Outcome(Termination(reason), winner))

    # ------------------------------------------------------------ the player
    def ask(self, kind: str, now: float) -> str:
        """The board player asks for a takeback or a draw, or resigns (from
        the page's buttons); the notice to show."""
        view = self.view
        if not view.key:
            return "No remote game"
        if kind not in OFFER_WORDS:
            return "To end a remote game, resign or offer a draw"
        self.desk.tell(Asked(view.key, view.seq, kind))  # type: ignore[arg-type]
        return f"Your {OFFER_WORDS[kind]} is sent"

    def button(self, name: str, now: float) -> bool:
        """OK accepts what the other side asks, + or - refuses it; True when
        the press was for that."""
        view = self.view
        if not view.asks or name not in ("ok", "next", "prev"):
            return False
        self.desk.tell(Answered(view.key, view.seq, view.asks[0], name == "ok"))
        return True

    def clocks(self, clock: ChessClock | None, now: float) -> None:
        """The clocks as the link keeps them (it measures the time; the daemon shows it)."""
        clocks = self.view.clocks
        if clock is None:
            return
        if clocks is not None:
            clock.remaining = [clocks[0], clocks[1]]
        clock.hold(now)

    def names(self, view: RemoteView) -> tuple[str, str]:
        """(White, Black), for the store and the page."""
        other = view.name or "Remote player"
        return ("Player", other) if self.colour == WHITE else (other, "Player")

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
        if view.asks:
            return f"Opponent {ASK_WORDS[view.asks[0]]}: {YES_NO}", False
        if view.away and view.ending is None:
            return "Opponent away: the clocks are stopped", True
        if view.declined:
            return f"Opponent said no to your {OFFER_WORDS[view.declined]}", False
        if view.asked:
            return f"Waiting for the opponent to answer your {OFFER_WORDS[view.asked[0]]}", False
        return None

    def _status(self, view: RemoteView) -> str:
        """The panel's word for the other side: there, away, or stopped."""
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
