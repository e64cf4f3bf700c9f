"""This board's remote game: the journal's game, the record both sides'
entries make, this board's side, and the other side's: a player in the
browser, whose entries this board writes for them (form 1), or another board,
whose entries come through an :class:`~.exchange.Exchange` (form 2).

No I/O beyond the journal and no clock of its own: the link calls it with the
time and does the talking.  Every entry is stored before it joins the record.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from dataclasses import replace
from typing import Any

from ..rules import BLACK, WHITE
from .desk import Answered, Asked, Bound, Note, Played, RemoteView
from .entry import Entry, EntryError, Header
from .exchange import Exchange
from .invite import INVITATION_HOURS, Join, proof, refusal_message, seat_message
from .journal import Journal, JournalError, Kept
from .keys import SigningKey
from .record import ABSENCE_CLAIM, Record
from .side import Side, Timer

log = logging.getLogger("boardctl.remote")

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no O/0 or I/1 to mistake
CODE_LENGTH = 8  # 32^8: about 10^12 codes, and wrong ones are slowed down
BROWSER_AWAY = 10.0  # seconds without a request before the browser's player counts as away
# Seconds a claim against this board may count beyond what this board saw
# itself: two trips of a message over a slow network.
CLAIM_SLACK = 10.0


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def session_digest(token: str) -> str:
    """What the journal keeps of a browser session's token (never the token)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_game(
    variant: str,
    host: int,
    clock: tuple[float, float] | None,
    broker: str,
    wall: float,
    start_fen: str = "",
) -> Kept:
    """A game this board offers: its key, its header, its player code and
    the invitation's secret, valid for :data:`INVITATION_HOURS`."""
    key = SigningKey()
    header = Header(secrets.token_hex(8), variant, start_fen, host, clock, key.public)
    return Kept(
        header,
        "host",
        host,
        key.secret,
        "",
        code=new_code(),
        invite=secrets.token_urlsafe(16),
        expires=wall + INVITATION_HOURS * 3600,
        broker=broker,
    )


class Match:
    """See the module docstring.  :raises JournalError: when the journal's
    entries do not make a game (a damaged file)."""

    def __init__(self, journal: Journal, kept: Kept, now: float) -> None:
        self.journal = journal
        self.kept = kept
        header = kept.header
        self.key = SigningKey(kept.secret)
        keys: list[str | None] = [None, None]
        keys[kept.colour] = self.key.public
        keys[kept.colour ^ 1] = kept.other_key or None
        self.record = Record(header, (keys[WHITE], keys[BLACK]))
        try:
            for entry in journal.entries(header.key):
                self.record.add(entry)
        except EntryError as exc:
            raise JournalError(f"remote games journal: game {header.key}: {exc}") from None
        self.timer = Timer()
        self.timer.follow(self.record.state, now)
        self.board = Side(self.record, kept.colour, self.key, self._keep, self.timer, self._inc)
        self.browser: Side | None = None
        self.exchange: Exchange | None = None
        self.heard: float | None = None  # the browser player's last request
        self.changes = 0  # the view's seq: one more each time the game's state changes
        self.disputed: Entry | None = None  # a claim against this board its clock does not bear out
        self._state_id = self.record.state.id
        self._seat_other(kept.seat)

    @property
    def _inc(self) -> float:
        clock = self.kept.header.clock
        return clock[1] if clock is not None else 0.0

    @property
    def game_key(self) -> str:
        return self.kept.header.key

    @property
    def colour(self) -> int:
        """The board player's colour."""
        return self.kept.colour

    def _keep(self, entry: Entry) -> None:
        self.journal.append(entry)

    def _seat_other(self, seat: str) -> None:
        other = self.colour ^ 1
        if seat == "browser":
            key = SigningKey(self.kept.other_secret)
            self.record.seat(other, key.public)
            self.browser = Side(self.record, other, key, self._keep, self.timer, self._inc)
        elif seat == "board" and self.kept.other_key:
            self.record.seat(other, self.kept.other_key)
            self.exchange = Exchange(self.record, self.colour, self.key, self._keep)

    def update_seq(self) -> None:
        if self.record.state.id != self._state_id:
            self._state_id = self.record.state.id
            self.changes += 1

    # ------------------------------------------------------------ seats
    def take_browser(self, name: str, token: str) -> str | None:
        """The player in the browser takes the other seat with the code;
        None, or why not.  The seat is bound to the session that took it
        (``token``'s digest) until the owner releases it."""
        if self.kept.role != "host":
            return "this board joined another board's game"
        if self.kept.seat == "board":
            return "another board plays this game"
        if self.kept.seat == "browser" and self.kept.holder:
            if secrets.compare_digest(self.kept.holder, session_digest(token)):
                return None
            return "the player's seat is taken: the board's owner can release it"
        fields: dict[str, Any] = {"holder": session_digest(token)}
        if self.kept.seat == "":
            key = SigningKey()
            fields |= {"seat": "browser", "other_key": key.public, "other_secret": key.secret}
            fields["other"] = name
        self.journal.update(self.game_key, **fields)
        self.kept = replace(self.kept, **fields)
        if self.browser is None:
            self._seat_other("browser")
        return None

    def holds_seat(self, token: str) -> bool:
        holder = self.kept.holder
        return bool(holder) and secrets.compare_digest(holder, session_digest(token))

    def release_browser(self) -> bool:
        """The owner frees the browser player's seat for another session."""
        if self.kept.seat != "browser" or not self.kept.holder:
            return False
        self.journal.update(self.game_key, holder="")
        self.kept = replace(self.kept, holder="")
        return True

    def take_board(self, join: Join, wall: float) -> tuple[str, dict[str, Any]]:
        """A board asks for the seat with an invitation (the host's side):
        (why not, or "", and the signed answer to publish)."""
        kept = self.kept
        host = self.key
        if not secrets.compare_digest(
            join.proof, proof(kept.invite, self.game_key, join.guest_key)
        ):
            return "a wrong invitation", {}
        if kept.seat == "board" and kept.other_key == join.guest_key:
            return "", json.loads(kept.seat_message)  # the same board again
        if kept.seat != "":
            why = "this invitation has been used by another board"
            if kept.seat == "browser":
                why = "a player in a browser has taken this game's seat"
            return why, refusal_message(self.game_key, join.guest_key, why, host)
        if wall > kept.expires:
            why = "this invitation has expired: ask for a new one"
            return why, refusal_message(self.game_key, join.guest_key, why, host)
        answer = seat_message(self.game_key, join.guest_key, join.name, host)
        fields = {
            "seat": "board",
            "other_key": join.guest_key,
            "other": join.name,
            "seat_message": json.dumps(answer),
        }
        self.journal.update(self.game_key, **fields)
        self.kept = replace(self.kept, **fields)  # type: ignore[arg-type]
        self._seat_other("board")
        log.info("remote: a board joined game %s", self.game_key)
        return "", answer

    @property
    def joined(self) -> bool:
        return self.kept.seat != "" and (self.kept.role == "host" or bool(self.kept.seat_message))

    # ------------------------------------------------------------ the daemon's notes
    def note(self, note: Note, now: float) -> None:
        """Apply the daemon's ``note`` if it is about this game as it stands."""
        if note.key != self.game_key:
            return
        match note:
            case Bound(_, game_id):
                if self.kept.local_game != game_id:
                    self.journal.update(self.game_key, local_game=game_id)
                    self.kept = replace(self.kept, local_game=game_id)
            case Played(_, seq, uci) if seq == self.changes and not self.stopped:
                why = self.board.play(uci, now)
                if why is not None:
                    log.warning("remote: the board's move %s refused: %s", uci, why)
            case Asked(_, seq, kind) if (
                seq == self.changes or kind == "resign"
            ) and not self.stopped:
                self.board.ask(kind, now, self.away_for(now))
            case Answered(_, seq, kind, yes) if seq == self.changes and not self.stopped:
                self.board.answer(kind, yes, now)
        self.update_seq()

    # ------------------------------------------------------------ the browser's player
    def browser_plays(self, uci: str, seq: int, now: float) -> str | None:
        """The browser's player moves, having seen the game at ``seq``: None
        once the move is in, "copy" for the same request again (its answer
        lost on the way), "stale" for a game that has moved on, else why not."""
        if self.browser is None:
            return "no player in the browser"
        last = self.record.state.by
        if (
            seq == self.changes - 1
            and last is not None
            and last.kind == "move"
            and last.side == self.browser.me
            and last.uci == uci
        ):
            return "copy"
        if seq != self.changes:
            return "stale"
        why = self.browser.play(uci, now)
        self.update_seq()
        return why

    def browser_asks(self, kind: str, seq: int, now: float) -> str | None:
        if self.browser is None:
            return "no player in the browser"
        if seq != self.changes and kind != "resign":
            return "stale"
        why = self.browser.ask(kind, now, self.away_for(now, browser=True))
        self.update_seq()
        return why

    def browser_answers(self, kind: str, yes: bool, seq: int, now: float) -> str | None:
        if self.browser is None:
            return "no player in the browser"
        if seq != self.changes:
            return "stale"
        why = self.browser.answer(kind, yes, now)
        self.update_seq()
        return why

    # ------------------------------------------------------------ time
    def check_claim(self, now: float) -> None:
        """The other board's claim that ended the game, weighed against this
        board's own clock: a board that heard this one lately cannot say it
        was away that long, nor count a turn longer than this board has seen
        it run.  Call it with what came in, before time passes.  A claim
        that is not borne out stops the game, with why."""
        by, ex = self.record.state.by, self.exchange
        if ex is None or by is None or by.kind != "claim" or by.side == self.colour:
            return
        if self.disputed is not None or ex.problem:
            return
        why = ""
        if by.what == "absence" and ex.echoed is not None:
            since = now - ex.echoed
            if since + CLAIM_SLACK < by.waited:
                why = (
                    f"the other side claims this board was away {by.waited:.0f} s, "
                    f"but it heard this board {since:.0f} s ago"
                )
        elif by.what == "time" and self.timer.fresh and self.timer.state_id == by.at:
            seen = self.timer.elapsed(now)
            if seen + CLAIM_SLACK < by.waited:
                why = (
                    f"the other side claims this board's time ran out after {by.waited:.0f} s, "
                    f"but this board's turn has run {seen:.0f} s"
                )
        if why:
            self.disputed = by
            ex.stop(why)

    @property
    def stopped(self) -> bool:
        return bool(self.problem)

    @property
    def problem(self) -> str:
        """Why the game is stopped (the sides disagree), in full; "" when it is not."""
        ex = self.exchange
        if ex is None:
            return ""
        if ex.problem:
            return ex.problem
        if ex.their_problem:
            return f"the other side stopped: {ex.their_problem}"
        return ""

    def tick(self, now: float) -> None:
        """Time passes: flags fall, and on this board's clock the other
        board's time runs out (a browser player's flag is this board's to
        drop, as it keeps that player's time)."""
        if not self.stopped:
            self.board.tick(now, claim=self.exchange is not None)
            if self.browser is not None:
                self.browser.tick(now, claim=False)
        self.update_seq()

    def away(self, now: float) -> bool:
        if self.exchange is not None:
            return self.exchange.away(now)
        return self.heard is None or now - self.heard > BROWSER_AWAY

    def away_for(self, now: float, browser: bool = False) -> float:
        """Seconds the other side (of the board's player, or of the browser's
        with ``browser``) has been away: 0 while it is there."""
        if browser:
            return 0.0  # this board is always there for its own player's opponent
        if not self.away(now):
            return 0.0
        since = self.exchange.heard if self.exchange is not None else self.heard
        return now - (since if since is not None else self.timer.began)

    def claimable(self, now: float) -> bool:
        """May the board's player claim the game from an absent opponent?"""
        state = self.record.state
        return (
            state.over() is None
            and state.running is None
            and state.turn != self.colour
            and self.joined
            and self.away_for(now) >= ABSENCE_CLAIM
        )

    # ------------------------------------------------------------ the view
    def view(self, now: float, invite: str = "") -> RemoteView:
        state = self.record.state
        board = self.board
        ending = state.ending  # one the position shows, the daemon's game shows too
        if self.disputed is not None and state.by == self.disputed:
            ending = None  # stopped, not lost
        free = self.kept.role == "host" and self.kept.seat == ""
        return RemoteView(
            key=self.game_key,
            local_game=self.kept.local_game,
            colour=self.colour,
            variant=self.kept.header.variant,
            start_fen=self.kept.header.start_fen,
            line=state.line,
            move_clocks=state.move_clocks,
            seq=self.changes,
            taken_back=state.taken_back,
            ending=(ending.winner, ending.termination.value) if ending is not None else None,
            clocks=self.timer.left(state, now),
            away=self.joined and self.away(now),
            joined=self.joined,
            asks=tuple(s.what for s in board.asking()),
            asked=board.asked(),  # type: ignore[arg-type]
            declined=board.declined(),
            code=self.kept.code if free else "",
            invite=invite if free else "",
            name=self.kept.other,
            opponent=self.kept.seat,  # "board", "browser", or "" while the seat is free
            problem=self.problem,
        )
