"""Any UCI engine as the daemon's opponent (interface.py's :class:`Opponent`).

:class:`ExternalEngine` starts the engine program as a subprocess and speaks
UCI to it over pipes.  A reader thread puts every line the engine writes into
a queue; everything else happens in the caller's thread, in :meth:`poll`,
which turns the lines into interface.py's messages (:class:`Thinking`,
:class:`BestMove`, :class:`Failed`).  Every wait is bounded: an engine that
does not answer ``uciok`` or ``readyok`` within ``timeout`` seconds is killed
and :class:`WorkerError` raised; so is one that exits.

UCI has no request ids.  Commands and answers are in order, though, so the
client keeps a FIFO of the searches it has asked for: an ``info`` line belongs
to the oldest search whose ``bestmove`` has not arrived, and a ``bestmove``
ends it.  A :meth:`go` while a search runs sends ``stop`` first; the stale
``bestmove`` that follows is reported with the old request number.  A request
that fails here (a bad FEN, a variant the engine does not play) is never sent;
it waits in the FIFO and its :class:`Failed` comes out in turn.

Wiring: the engine must speak UCI on stdin/stdout and use boardctl's
coordinate notation (files a-j on the 10-file board, the one-square castle
written king-takes-rook).  If it offers ``UCI_Variant`` it is set before each
search; if not, it is taken to play ``falcon`` and nothing else.  ``Skill
Level`` is set by :meth:`set_skill` when offered.  The engine's stderr is
left to this process's.  Use::

    with ExternalEngine([sys.executable, "-m", "boardctl", "uci"]) as engine:
        request = engine.go(fen, ["e2e4"], Limits(depth=4))
        while True:
            for message in engine.poll(0.1):
                ...                       # Thinking, then BestMove(request, "e7e5")

One thread at a time: the client is not thread-safe.
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..rules import (
    DEFAULT_VARIANT,
    BoardctlError,
    Position,
    UnknownVariantError,
    get_variant,
    parse_uci,
)
from .interface import BestMove, Failed, Message, Thinking, WorkerError
from .limits import Limits
from .pipes import spawn, stop, write
from .uciwire import EngineOption, go_command, parse_info, parse_option, wire_int

DEFAULT_TIMEOUT = 10.0  # seconds for uciok, and for each readyok
QUIT_GRACE = 2.0  # seconds for the process to exit after `quit`
KILL_GRACE = 2.0  # seconds for it to die after SIGKILL
TRANSCRIPT_LINES = 50  # lines of the conversation kept for error reports
VARIANT_OPTION = "UCI_Variant"
SKILL_OPTION = "Skill Level"
NO_MOVE = ("0000", "(none)")


@dataclass(frozen=True)
class _Request:
    """One ``go``: sent to the engine (``pos`` set) or failed here (``failure``)."""

    number: int
    pos: Position | None
    failure: str | None = None


# ---------------------------------------------------------------- the client
class ExternalEngine:
    """A UCI engine program behind :class:`EngineWorker`'s interface.

    :param command: the program and its arguments; a string is split as a
        shell would (:func:`shlex.split`), but no shell is run.
    :param options: UCI options set after ``uciok`` (names as the engine
        spells them, in any case).
    :param timeout: seconds to wait for ``uciok``, and for each ``readyok``.
    :param clock: monotonic seconds; injected for tests.
    :raises ValueError: when ``command`` is empty.

    The process starts on :meth:`start` (or the first command); :meth:`start`
    after it has died or been closed starts a fresh one.
    """

    def __init__(
        self,
        command: list[str] | str,
        options: Mapping[str, str] | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise ValueError("the engine command is empty")
        self.options = dict(options or {})
        self.timeout = timeout
        self.clock = clock
        self.name = self.command[0]
        self.offered: dict[str, EngineOption] = {}  # by lower-case name
        self.transcript: deque[str] = deque(maxlen=TRANSCRIPT_LINES)
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader: threading.Thread | None = None
        self._dead: str | None = None  # why, once the engine has gone
        self._requests: deque[_Request] = deque()  # oldest first, bestmove not yet read
        self._running: _Request | None = None  # the last go sent, until stopped
        self._ready_deadlines: deque[float] = deque()  # one per isready not yet answered
        self._request = 0
        self._variant: str | None = None  # UCI_Variant as last set
        self._skill: int | None = None
        self._skill_sent: int | None = None

    # ------------------------------------------------------------ lifecycle
    @property
    def alive(self) -> bool:
        return self._proc is not None and self._dead is None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def start(self) -> None:
        """Start the program: ``uci``/``uciok``, the options, ``isready``/``readyok``.

        Does nothing while it is running.

        :raises WorkerError: when it cannot be started, does not answer in
            time, exits, or lacks one of ``options`` (it is killed first).
        """
        if self.alive:
            return
        self.close()
        try:
            self._proc, self._lines, self._reader = spawn(self.command, "uci-reader")
        except OSError as exc:
            raise WorkerError(f"cannot start engine {shlex.join(self.command)}: {exc}") from exc
        self._handshake()

    def _handshake(self) -> None:
        self._send("uci")
        deadline = self.clock() + self.timeout
        while (line := self._next_line(deadline, "uciok")) != "uciok":
            words = line.split()
            if words[:2] == ["id", "name"] and len(words) > 2:
                self.name = " ".join(words[2:])
            elif words[:1] == ["option"]:
                option = parse_option(words[1:])
                if option is not None:
                    self.offered[option.name.lower()] = option
        for name, value in self.options.items():
            option = self.offered.get(name.lower())
            if option is None:
                self._abandon()
                self.close()
                raise WorkerError(f"engine {self.name} has no option {name!r}")
            self._send(f"setoption name {option.name} value {value}")
        self._apply_skill()
        self._send("isready")
        deadline = self.clock() + self.timeout
        while self._next_line(deadline, "readyok") != "readyok":
            pass

    def close(self) -> None:
        """Send ``quit``, wait for the process to exit, kill it if it does not.

        Safe at any time, more than once, and on a dead engine.
        """
        proc, self._proc = self._proc, None
        if proc is not None:
            stop(proc, self._reader, quit_grace=QUIT_GRACE, kill_grace=KILL_GRACE)
        self._reader = None
        self._dead = None
        self._requests.clear()
        self._running = None
        self._ready_deadlines.clear()
        self._variant = None
        self._skill_sent = None
        self.offered = {}

    def __enter__(self) -> ExternalEngine:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ commands
    def go(
        self, fen: str, moves: list[str], limits: Limits, variant: str = DEFAULT_VARIANT.name
    ) -> int:
        """Start searching; a search still running is stopped first.

        :returns: the request number its messages carry.  A position that
            does not parse, or a variant the engine does not play, gives a
            :class:`Failed` for it and sends nothing.
        :raises WorkerError: when the engine cannot be (re)started or is gone.
        """
        self.start()
        self.stop()
        self._request += 1
        try:
            pos = Position(fen, get_variant(variant))
            for text in moves:
                pos.push(parse_uci(pos, text))
            setting = self._variant_setting(variant)
        except BoardctlError as exc:
            self._requests.append(_Request(self._request, None, str(exc)))
            return self._request
        commands = []
        if setting is not None and setting != self._variant:
            commands.append(f"setoption name {VARIANT_OPTION} value {setting}")
            self._variant = setting
        commands.append(" ".join(["position fen", fen, *(["moves", *moves] if moves else [])]))
        commands.append(go_command(limits))
        self._apply_skill()
        self._send(*commands)
        request = _Request(self._request, pos)
        self._requests.append(request)
        self._running = request
        return self._request

    def stop(self) -> None:
        """Stop the running search (its best move still arrives, with its request).

        Sends ``stop`` and ``isready``: :meth:`poll` raises :class:`WorkerError`
        if ``readyok`` does not follow within ``timeout``.
        """
        if self._running is not None and self.alive:
            self._running = None
            self._send("stop")
            self._ping()

    def new_game(self) -> None:
        """``ucinewgame`` (the running search is stopped first)."""
        self.start()
        self.stop()
        self._send("ucinewgame")
        self._ping()

    def set_skill(self, skill: int) -> None:
        """Set ``Skill Level`` when offered, clamped to its range; else nothing.

        Sent at once when no search runs, otherwise with the next :meth:`go`.
        """
        self._skill = skill
        self._apply_skill()

    def rating(self, skill: int, variant: str) -> int | None:
        """None: another engine's levels are its own, and unmeasured here."""
        return None

    def poll(self, timeout: float = 0.0) -> list[Message]:
        """Messages that have arrived (waiting up to ``timeout`` for the first).

        :raises WorkerError: when the engine has exited, or has not answered
            ``isready`` in time (it is killed).
        """
        out: list[Message] = []
        self._flush_failed(out)
        if self._proc is None:
            return out
        deadline = self.clock() + timeout
        while self._dead is None:
            wait = 0.0 if out else max(0.0, deadline - self.clock())
            try:
                line = self._lines.get(timeout=wait)
            except queue.Empty:
                break
            if line is None:
                code = self._abandon()
                self._dead = f"engine {self.name} exited{_code_text(code)}{self._recent()}"
                break
            self.transcript.append(f"< {line}")
            self._handle(line.split(), out)
            self._flush_failed(out)
        if self._dead is not None and not out:
            raise WorkerError(self._dead)
        if self._ready_deadlines and self.clock() > self._ready_deadlines[0]:
            self._abandon()
            self._dead = f"engine {self.name} did not answer isready within {self.timeout} s"
            raise WorkerError(f"{self._dead}; it has been stopped{self._recent()}")
        return out

    # ------------------------------------------------------------ the answers
    def _handle(self, words: list[str], out: list[Message]) -> None:
        match words:
            case ["bestmove", *rest] if self._requests:
                request = self._requests.popleft()
                if request is self._running:
                    self._running = None
                out.append(self._best_move(request, rest[0] if rest else NO_MOVE[0]))
            case ["info", *rest] if self._requests:
                request = self._requests[0]
                assert request.pos is not None  # failed requests were flushed
                info = parse_info(rest, request.pos)
                if info is not None:
                    out.append(Thinking(request.number, info))
            case ["readyok"] if self._ready_deadlines:
                self._ready_deadlines.popleft()
            case _:
                pass  # id, option, info string, a stray bestmove, noise

    def _best_move(self, request: _Request, text: str) -> Message:
        if text in NO_MOVE:
            return BestMove(request.number, None)
        assert request.pos is not None
        try:
            move = parse_uci(request.pos, text)
        except BoardctlError as exc:
            return Failed(request.number, f"engine {self.name} answered {text!r}: {exc}")
        return BestMove(request.number, request.pos.uci(move))

    def _flush_failed(self, out: list[Message]) -> None:
        """The failures at the head of the FIFO, whose turn has come."""
        while self._requests and self._requests[0].failure is not None:
            request = self._requests.popleft()
            out.append(Failed(request.number, request.failure or ""))

    # ------------------------------------------------------------ plumbing
    def _variant_setting(self, variant: str) -> str | None:
        """What to set ``UCI_Variant`` to, or None when the engine has no such option.

        :raises UnknownVariantError: when the engine does not play ``variant``.
        """
        option = self.offered.get(VARIANT_OPTION.lower())
        if option is None:
            if variant != DEFAULT_VARIANT.name:
                raise UnknownVariantError(
                    f"engine {self.name} plays only {DEFAULT_VARIANT.name} "
                    f"(it has no {VARIANT_OPTION} option), not {variant}"
                )
            return None
        if not option.choices:
            return variant
        for choice in option.choices:
            if choice.lower() == variant.lower():
                return choice
        raise UnknownVariantError(
            f"engine {self.name} does not play {variant} (it offers {', '.join(option.choices)})"
        )

    def _apply_skill(self) -> None:
        option = self.offered.get(SKILL_OPTION.lower())
        if option is None or self._skill is None or self._running is not None:
            return
        low, high = _number(option.min, self._skill), _number(option.max, self._skill)
        skill = min(max(self._skill, low), high)
        if skill != self._skill_sent and self.alive:
            self._send(f"setoption name {option.name} value {skill}")
            self._skill_sent = skill

    def _ping(self) -> None:
        self._send("isready")
        self._ready_deadlines.append(self.clock() + self.timeout)

    def _send(self, *lines: str) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None or self._dead is not None:
            raise WorkerError(self._dead or f"engine {self.name} is not running")
        try:
            write(proc.stdin, lines, self.transcript)
        except (OSError, ValueError) as exc:
            code = self._abandon()
            self._dead = f"engine {self.name} exited{_code_text(code)}: {exc}"
            raise WorkerError(self._dead) from exc

    def _next_line(self, deadline: float, waiting_for: str) -> str:
        """The next line, by ``deadline``; during :meth:`start` only."""
        try:
            line = self._lines.get(timeout=max(deadline - self.clock(), 0.0))
        except queue.Empty:
            self._abandon()
            self.close()
            raise WorkerError(
                f"no {waiting_for} from {self.name} within {self.timeout} s "
                f"(is it a UCI engine?); it has been stopped{self._recent()}"
            ) from None
        if line is None:
            code = self._abandon()
            self.close()
            raise WorkerError(
                f"engine {self.name} exited{_code_text(code)} while we waited for "
                f"{waiting_for}{self._recent()}"
            )
        self.transcript.append(f"< {line}")
        return line.strip()

    def _abandon(self) -> int | None:
        """Kill the process after a failure, keeping its state; its exit code if known."""
        proc = self._proc
        if proc is None:
            return None
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=KILL_GRACE)
        if proc.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.close()
        return proc.returncode

    def _recent(self) -> str:
        tail = list(self.transcript)[-6:]
        return "; last lines: " + " | ".join(tail) if tail else ""


def _number(text: str | None, default: int) -> int:
    try:
        return wire_int(text) if text is not None else default
    except ValueError:
        return default


def _code_text(code: int | None) -> str:
    return "" if code is None else f" with code {code}"
