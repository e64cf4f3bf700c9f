"""A small XBoard-protocol client for Fairy-Max, for engine matches.

Fairy-Max (Debian's ``fairymax``, ``/usr/games/fairymax``) plays Falcon Chess
as ``variant falcon``.  This client starts it as a subprocess, reads its output
on a thread into a queue, and bounds every wait by a timeout: a hung engine
raises :class:`EngineTimeoutError`, a dead one :class:`EngineError`, and the
process is killed before either is raised, so nothing is left behind.

What Fairy-Max needs (docs/fairymax-castling.md):

- it has no ``setboard``: every game starts from the initial position and the
  moves are fed in ``force`` mode, in coordinate notation with files a–j;
- ``new`` reloads orthodox chess, so ``variant falcon`` follows every ``new``;
- an accepted move gets no answer and a refused one ``Illegal move:…``, so each
  move is followed by ``ping N`` and the answer is read up to ``pong N``;
- castling is sent as the king's move (``f1i1``, ``f1c1``, ``f8i8``, ``f8c8``),
  never as "rook takes king";
- ``st`` takes whole seconds only: to think for about *t* seconds a move it is
  given ``st 1`` and a clock of ``CLOCK_FACTOR`` × *t* (``time`` in
  centiseconds) before each ``go``; it starts no new iteration after a
  fifteenth of its clock, so its mean thinking time comes out close to *t*.

Use::

    with FairyMax() as engine:          # starts the process, raises EngineError
        engine.new_game()
        engine.play_move("e2e4")        # RejectedMoveError if refused
        reply = engine.go(0.2)          # e.g. "e7e5"

One thread at a time: the client is not thread-safe.  A call interrupted
half-way (KeyboardInterrupt) leaves the engine in an unknown state: close() or
restart() it.  Commands are a few bytes each and every one is followed by a
read, so a write cannot block on a full pipe in practice.
"""

from __future__ import annotations

import math
import queue
import re
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from types import TracebackType

from ..rules import BoardctlError, IllegalMoveError, InvalidMoveError
from .interface import EngineFailure
from .pipes import spawn, stop, write

DEFAULT_PATH = "/usr/games/fairymax"
VARIANT = "falcon"

CLOCK_FACTOR = 7  # clock sent with `time`, as a multiple of the target move time
DEFAULT_TIMEOUT = 10.0  # seconds for the handshake and for each ping/pong
DEFAULT_MOVE_SLACK = 60.0  # seconds beyond the clock before a `go` counts as hung:
# Fairy-Max has been seen to overrun a 1.4 s clock by 15 s
QUIT_GRACE = 1.0  # seconds for the process to exit after `quit`
KILL_GRACE = 2.0  # seconds for it to die after SIGKILL
TRANSCRIPT_LINES = 200  # lines of the conversation kept for error reports

_MOVE_TEXT = re.compile(r"[a-z][0-9]{1,2}[a-z][0-9]{1,2}[a-z]?")
_FEATURE = re.compile(r'(\w+)=("[^"]*"|\S+)')
_ENGINE_MOVE = re.compile(r"(?:move|My move is\s*:)\s+(\S+)")
_RESULT = re.compile(r"(?:1-0|0-1|1/2-1/2|resign)\b")


class EngineError(EngineFailure, OSError):
    """The engine cannot be started, has died, or broke the protocol."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine did not answer in time (it has been killed)."""


class RejectedMoveError(IllegalMoveError):
    """The engine refused a move it was given (``Illegal move`` or ``Error``).

    The engine's game is unchanged: the move was not made.
    """

    def __init__(self, move: str, reply: str) -> None:
        super().__init__(f"engine refused {move}: {reply}")
        self.move = move
        self.reply = reply


class NoMoveError(BoardctlError, RuntimeError):
    """Asked to move, the engine resigned or claimed a result instead.

    Fairy-Max does this when it finds no legal move.  ``reply`` is its line.
    """

    def __init__(self, reply: str) -> None:
        super().__init__(f"engine did not move: {reply}")
        self.reply = reply


class FairyMax:
    """Fairy-Max (or another XBoard engine that plays ``variant``) over pipes.

    :param path: the engine binary.
    :param args: extra command-line arguments.
    :param variant: the XBoard variant name, sent after every ``new``.
    :param timeout: seconds to wait for the handshake and for each ``pong``.
    :param move_slack: seconds a ``go`` may take beyond the engine's clock.
    :param hash_mb: hash size in MB (sent as ``memory``), or None for the
        engine's default (about 100 MB for Fairy-Max).
    :param clock: monotonic seconds; injected for tests.
    :raises EngineError: when the engine cannot be started or fails the
        handshake (among others, when it does not offer ``variant``).
    """

    def __init__(
        self,
        path: str = DEFAULT_PATH,
        *,
        args: Sequence[str] = (),
        variant: str = VARIANT,
        timeout: float = DEFAULT_TIMEOUT,
        move_slack: float = DEFAULT_MOVE_SLACK,
        hash_mb: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = path
        self.args = list(args)
        self.variant = variant
        self.timeout = timeout
        self.move_slack = move_slack
        self.hash_mb = hash_mb
        self.clock = clock
        self.features: dict[str, str] = {}
        self.transcript: deque[str] = deque(maxlen=TRANSCRIPT_LINES)
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader: threading.Thread | None = None
        self._ping = 0
        self._moves: list[str] = []
        self._in_game = False
        self.start()

    # ------------------------------------------------------------ lifecycle
    @property
    def running(self) -> bool:
        return self._proc is not None

    @property
    def name(self) -> str:
        return self.features.get("myname", self.path)

    @property
    def moves(self) -> list[str]:
        """The moves of the current game, as the engine has them."""
        return list(self._moves)

    def start(self) -> None:
        """Start the process and do the ``xboard`` / ``protover 2`` handshake.

        Does nothing when it is running already.

        :raises EngineError: when it cannot be started or fails the handshake.
        """
        if self._proc is not None:
            return
        try:
            self._proc, self._lines, self._reader = spawn(
                [self.path, *self.args], "xboard-reader", stderr=subprocess.DEVNULL
            )
        except OSError as exc:
            raise EngineError(f"cannot start {self.path}: {exc}") from exc
        self._in_game = False
        self._moves = []
        self.features = {}
        self._handshake()

    def _handshake(self) -> None:
        self._send("xboard", "protover 2")
        deadline = self.clock() + self.timeout
        done = False
        while not done:
            line = self._next_line(deadline, "feature done=1")
            if not line.startswith("feature "):
                continue
            replies = []
            for key, value in _FEATURE.findall(line):
                self.features[key] = value.strip('"')
                replies.append(f"accepted {key}")
                done = done or (key == "done" and value == "1")
            self._send(*replies)
        if self.features.get("ping") != "1":
            self._abandon()
            raise EngineError(f"{self.name} does not offer ping (feature ping=1)")
        variants = self.features.get("variants", "").split(",")
        if self.variant not in variants:
            self._abandon()
            raise EngineError(f"{self.name} does not play variant {self.variant}")
        if self.hash_mb is not None and self.features.get("memory") == "1":
            self._send(f"memory {self.hash_mb}")
        self._send("easy", "nopost")
        self._sync("the handshake")

    def close(self) -> None:
        """Ask the engine to quit, kill it if it does not, and reap it.

        Safe to call at any time, more than once, and on a dead engine; after
        it, :meth:`start` gives a fresh process and :meth:`restart` one that
        has the game replayed into it.
        """
        proc, self._proc = self._proc, None
        if proc is None:
            return
        stop(proc, self._reader, quit_grace=QUIT_GRACE, kill_grace=KILL_GRACE)
        self._reader = None

    def restart(self) -> None:
        """A fresh process; the current game, if any, is replayed into it.

        :raises EngineError: when it cannot be started.
        :raises RejectedMoveError: when the new process refuses a replayed move.
        """
        moves, in_game = list(self._moves), self._in_game
        self.close()
        self.start()
        if in_game:
            self.new_game()
            for move in moves:
                self.play_move(move)

    def __enter__(self) -> FairyMax:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------ the game
    def new_game(self) -> None:
        """Start a game from the initial position, in force mode.

        :raises EngineError: when the engine refuses the variant, dies or hangs.
        """
        self._send("new", f"variant {self.variant}", "force")
        for line in self._sync("new game"):
            if line.startswith("Error") or (
                line.startswith("telluser") and "not supported" in line
            ):
                self._abandon()
                raise EngineError(f"{self.name} refused variant {self.variant}: {line}")
        self._moves = []
        self._in_game = True

    def play_move(self, uci: str) -> None:
        """Play a move for the side to move, in coordinate notation.

        Promotions carry the piece letter (``b7b8q``, ``b7b8f``); castling is
        the king's move (``f1i1``).

        :raises InvalidMoveError: when ``uci`` is not coordinate notation.
        :raises RejectedMoveError: when the engine refuses it (nothing changes).
        :raises EngineError: when the engine dies or hangs.
        """
        if not _MOVE_TEXT.fullmatch(uci):
            raise InvalidMoveError(f"not a move in coordinate notation: {uci!r}")
        self._require_game()
        self._send(uci)
        for line in self._sync(f"the answer to {uci}"):
            if line.startswith(("Illegal move", "Error")):
                raise RejectedMoveError(uci, line)
        self._moves.append(uci)

    def go(self, seconds_per_move: float, depth: int | None = None) -> str:
        """Let the engine move for the side to move; back to force mode after.

        It is given ``st 1`` and a clock of ``CLOCK_FACTOR × seconds_per_move``,
        which makes its mean thinking time about ``seconds_per_move``; a single
        move may take several times that.  With ``depth`` it searches that
        many plies (``sd``, which the engine keeps for its later moves) and
        no more, whatever the machine's load, unless the clock runs out
        first: give it a clock to spare.

        :returns: its move in coordinate notation, as the engine wrote it
            (Fairy-Max writes promotions with ``q`` and castling as the king's move).
        :raises ValueError: when ``seconds_per_move`` is not positive.
        :raises NoMoveError: when it resigns or claims a result instead of moving.
        :raises EngineTimeoutError: when no move comes within the clock plus
            ``move_slack`` (the process is killed).
        :raises EngineError: when it dies.
        """
        if not seconds_per_move > 0:
            raise ValueError(f"seconds_per_move must be positive, not {seconds_per_move}")
        self._require_game()
        clock = seconds_per_move * CLOCK_FACTOR
        centis = max(1, math.ceil(clock * 100))
        limit = [f"sd {depth}"] if depth is not None else []
        self._send(*limit, "st 1", f"time {centis}", f"otim {centis}", "go")
        deadline = self.clock() + clock + self.move_slack
        while True:
            line = self._next_line(deadline, "its move")
            match = _ENGINE_MOVE.match(line)
            if match:
                self._send("force")
                self._moves.append(match.group(1))
                return match.group(1)
            if _RESULT.match(line):
                self._send("force")
                self._sync("force after a result")
                raise NoMoveError(line)

    def ping(self) -> list[str]:
        """Round trip ``ping N`` / ``pong N``; returns the lines read before the pong.

        :raises EngineError: when it dies or hangs.
        """
        return self._sync("pong")

    # ------------------------------------------------------------ plumbing
    def _require_game(self) -> None:
        if self._proc is None:
            raise EngineError(f"{self.name} is not running (start() or restart() it)")
        if not self._in_game:
            raise EngineError("no game: call new_game() first")

    def _send(self, *lines: str) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise EngineError(f"{self.name} is not running (start() or restart() it)")
        try:
            write(proc.stdin, lines, self.transcript)
        except (OSError, ValueError) as exc:
            code = self._abandon()
            raise EngineError(f"{self.name} has exited{_code_text(code)}: {exc}") from exc

    def _next_line(self, deadline: float, waiting_for: str) -> str:
        """The next line from the engine, by ``deadline`` (a ``clock`` value)."""
        left = deadline - self.clock()
        try:
            line = self._lines.get(timeout=max(left, 0.0))
        except queue.Empty:
            self._abandon()
            raise EngineTimeoutError(
                f"no {waiting_for} from {self.name} in time; it has been stopped{self._recent()}"
            ) from None
        if line is None:
            code = self._abandon()
            raise EngineError(
                f"{self.name} exited{_code_text(code)} while waiting for {waiting_for}"
                f"{self._recent()}"
            )
        self.transcript.append(f"< {line}")
        return line

    def _sync(self, waiting_for: str) -> list[str]:
        """Send ``ping N``; return the lines that came before ``pong N``."""
        self._ping += 1
        pong = f"pong {self._ping}"
        self._send(f"ping {self._ping}")
        deadline = self.clock() + self.timeout
        lines: list[str] = []
        while True:
            line = self._next_line(deadline, f"{pong} ({waiting_for})")
            if line.strip() == pong:
                return lines
            lines.append(line)

    def _abandon(self) -> int | None:
        """Close after a failure; returns the process's exit code if known."""
        proc = self._proc
        self.close()
        return proc.returncode if proc is not None else None

    def _recent(self) -> str:
        tail = list(self.transcript)[-6:]
        return "; last lines: " + " | ".join(tail) if tail else ""


def _code_text(code: int | None) -> str:
    return "" if code is None else f" with code {code}"
