"""A remote game on one machine, in virtual time: the daemon on a simulated
board, and its link cut down to what it does between the desk and the
match (no network: the test plays the other side through the match)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardctl.board import Role
from boardctl.board.explain import occupancy
from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware, Services, Start
from boardctl.hw.sim import SimBoard, SimButtons
from boardctl.remote.desk import Desk
from boardctl.remote.journal import Journal
from boardctl.remote.match import Match, new_game
from boardctl.rules import WHITE, Game
from boardctl.storage.store import GameStore

from ..hand import carry_out

STEP = 0.01
SESSION = "the-browser-session"  # the player's cookie


class Rig:
    """See the module docstring.  ``colour``: the board player's."""

    def __init__(self, folder: Path, colour: int = WHITE, clock: str = "", **game: Any) -> None:
        self.folder = folder
        self.colour = colour
        human = "white" if colour == WHITE else "black"
        self.config = parse_config(
            {
                "game": {"mode": "remote", "human": human, "clock": clock, **game},
                "board": {"settle_ms": 50, "grace_ms": 300},
                "remote": {"confirm_ms": 300},
            }
        )
        seconds = self.config.clock_seconds
        self.journal = Journal(folder / "remote.sqlite3")
        if self.journal.current() is None:
            self.journal.create(new_game("falcon", colour, seconds, "", 0.0))
        self.now = 0.0
        kept = self.journal.current()
        assert kept is not None
        self.key = kept.header.key
        self.match = Match(self.journal, kept, self.now)
        self.desk = Desk()
        self.start_daemon()

    def start_daemon(self) -> None:
        """A daemon that resumes what the store has, as after a restart."""
        self.store = GameStore(self.folder / "games.sqlite3")
        resume = self.store.resume()
        game = resume[1] if resume is not None else Game()
        pos = game.position
        self.geo = pos.geometry
        self.board = SimBoard(self.geo.squares(occupancy(pos)), scan_hz=100)
        self.buttons = SimButtons()
        self.daemon = Daemon(
            self.config,
            Hardware(self.board, buttons=self.buttons),
            self.store,
            Services(remote=self.desk),
            Start(resume=resume),
        )

    def restart_daemon(self) -> None:
        self.daemon.close()
        self.store.close()
        self.start_daemon()

    def pump(self) -> None:
        """What the link does each turn: the daemon's notes, time, the view."""
        for note in self.desk.take():
            self.match.note(note, self.now)
        self.match.tick(self.now)
        self.desk.publish(self.match.view(self.now))

    def run(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.pump()
            self.daemon.step(self.now)
            self.now = round(self.now + STEP, 6)

    def wait(self, seconds: float) -> None:
        """Time passes with nothing done at the board: in larger steps."""
        end = self.now + seconds
        while self.now < end:
            self.pump()
            self.daemon.step(self.now)
            self.now = round(self.now + 0.5, 6)

    def press(self, name: str) -> None:
        self.buttons.press(name, self.now)
        self.run(0.1)

    def sq(self, name: str) -> int:
        return self.geo.parse_square(name)

    def hand(self, uci: str) -> None:
        """Carry out ``uci`` on the board as a person does; let it settle."""
        carry_out(self.board, self.geo, uci, self.run, settle=0.2)

    def lit(self) -> dict[str, Role]:
        scene = self.daemon.scene()
        return {self.geo.name(sq): role for sq, role in scene.squares.items()}

    def seat(self, name: str = "Anna") -> None:
        """The player in the browser takes the other seat."""
        assert self.match.take_browser(name, SESSION) is None

    def line(self) -> tuple[str, ...]:
        """The game's moves as the record of both sides' logs has them."""
        return self.match.record.state.line

    def other(self, uci: str) -> None:
        """The browser's player moves, on the game as it is."""
        why = self.match.browser_plays(uci, self.match.changes, self.now)
        assert why is None, why

    def other_asks(self, kind: str) -> None:
        why = self.match.browser_asks(kind, self.match.changes, self.now)
        assert why is None, why

    def other_answers(self, kind: str, yes: bool) -> None:
        why = self.match.browser_answers(kind, yes, self.match.changes, self.now)
        assert why is None, why

    def other_is_there(self) -> None:
        self.match.heard = self.now

    def moves(self) -> list[str]:
        game = self.daemon.game
        return [game.position.uci(move) for move in game.moves]

    def close(self) -> None:
        self.daemon.close()
        self.store.close()
        self.journal.close()
