"""What the two protocol front ends share: ``boardctl uci`` (:mod:`.uci`) and
``boardctl xboard`` (:mod:`.cecp`).

Both read commands on one thread and search on another, so that ``stop``,
``?``, ``isready``, ``ping`` and ``quit`` are answered while the engine
thinks.  :class:`Output` writes whole lines from either thread;
:class:`SearchThread` runs one search and hands its move to a callback;
:class:`SearchEngine` is what a front end needs of the engine (the real
:class:`~.search.Engine`, or a test's fake).
"""

from __future__ import annotations

import io
import sys
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Protocol, TextIO

from ..rules import Move, Position
from .limits import Info, Limits
from .params import MAX_PLY

MAX_SEED = 2**31 - 1  # a GUI's spin box holds a 32-bit number
# A GUI's engine gives the same reply to the same position (and search limit)
# run after run, as analysis and engine matches expect; full strength's opening
# variety is an option (Variety), on by default only on the board.
VARIETY = False
# The compiled core's table: 2 ** bits entries of TT_ENTRY bytes (core.py's TT_BITS
# is the default); a GUI's hash size in MB picks the largest that fits.
TT_ENTRY = 16
MIN_TT_BITS, MAX_TT_BITS = 10, 26  # 16 KiB to 1 GiB


class SearchEngine(Protocol):
    """What the front ends need from an engine (:class:`Engine`, or a test fake)."""

    skill: int
    vary: bool
    nodes_per_second: int | None
    tt_bits: int

    def new_game(self) -> None: ...

    def reseed(self, seed: int | None) -> None: ...

    def search(
        self,
        pos: Position,
        limits: Limits,
        stop: Callable[[], bool] | None = None,
        on_info: Callable[[Info], None] | None = None,
    ) -> Move | None: ...


def tt_bits_for(megabytes: int) -> int:
    """The table size (in bits of entries) that fits ``megabytes``."""
    entries = megabytes * 1024 * 1024 // TT_ENTRY
    return max(MIN_TT_BITS, min(MAX_TT_BITS, entries.bit_length() - 1))


def depth_limit(depth: int | None) -> int | None:
    """A GUI's depth limit within what the search can do."""
    return None if depth is None else max(1, min(depth, MAX_PLY))


class Session(Protocol):
    """One GUI's conversation: a line in, whether to go on; closed at the end."""

    def handle(self, line: str) -> bool: ...

    def close(self) -> None: ...


class LineSession(ABC):
    """What the UCI and XBoard sessions share: the engine, its seed and the
    search under way; and the conversation: a blank line is nothing, ``quit``
    closes the session and ends the conversation, and any other line goes to
    :meth:`command` as its first word and the words after it."""

    def __init__(self, out: Output, engine: SearchEngine) -> None:
        self.out = out
        self.engine = engine
        self.engine.vary = VARIETY
        self.seed: int | None = None  # the Seed option's; None: a new one each run
        self._search: SearchThread | None = None

    def handle(self, line: str) -> bool:
        words = line.split()
        if not words:
            return True
        if words[0] == "quit":
            self.close()
            return False
        self.command(words[0], words[1:], line)
        return True

    @abstractmethod
    def command(self, command: str, args: list[str], line: str) -> None:
        """Carry out ``line``, whose first word is ``command``."""

    @abstractmethod
    def close(self) -> None:
        """End what is under way (the conversation is over)."""

    def engine_new_game(self) -> None:
        """The engine forgets the game; from the seed again, when one is set."""
        self.engine.new_game()
        if self.seed is not None:
            self.engine.reseed(self.seed)  # every game from the seed plays alike

    def use_seed(self, seed: int) -> None:
        """The Seed option: 0 for a new seed each run."""
        self.seed = seed or None
        self.engine.reseed(self.seed)

    def use_table(self, megabytes: int) -> None:
        """The table that fits ``megabytes``; a search running is ended first,
        as the table it uses is not replaced under it."""
        self.close()
        self.engine.tt_bits = tt_bits_for(megabytes)

    def start_search(
        self,
        pos: Position,
        limits: Limits,
        on_info: Callable[[Info], None],
        on_done: Callable[[Move | None, str | None], None],
        hold: bool,
    ) -> None:
        """Search ``pos`` on the search thread (:class:`SearchThread`)."""
        self._search = SearchThread(self.engine, pos, limits, on_info, on_done, hold=hold)
        self._search.start()


def serve(session: Session, stdin: TextIO) -> int:
    """Hand ``session`` each line of ``stdin`` until it says stop or the input
    ends, then close it; returns 0."""
    try:
        for line in iter(stdin.readline, ""):
            if not session.handle(line):
                break
    finally:
        session.close()
    return 0


def standard_streams() -> tuple[TextIO, TextIO]:
    """This process's stdin and stdout, made fit for a GUI."""
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # stray bytes are a bad command, not a crash
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)
    return sys.stdin, sys.stdout


class Output:
    """Whole lines to the GUI, flushed at once; the search thread writes here too."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def line(self, text: str) -> None:
        with self._lock:
            self._stream.write(text + "\n")
            self._stream.flush()


class SearchThread:
    """One search in a daemon thread; its move goes to ``on_done``.

    ``on_done(move, error)`` is called on the search thread once the engine
    has answered: ``move`` is its move (None only when there is no legal
    move), ``error`` a description when the engine failed, in which case
    ``move`` is the first legal move (a GUI waits for a move whatever
    happens).  With ``hold`` (UCI's ``go infinite``, XBoard's analysis)
    the answer waits for :meth:`stop`, even when the engine is done earlier.
    ``pos`` belongs to this thread until ``on_done`` is called: the front
    end neither changes it nor reads it meanwhile.
    """

    def __init__(
        self,
        engine: SearchEngine,
        pos: Position,
        limits: Limits,
        on_info: Callable[[Info], None],
        on_done: Callable[[Move | None, str | None], None],
        hold: bool = False,
    ) -> None:
        self._engine = engine
        self._pos = pos
        self._limits = limits
        self._on_info = on_info
        self._on_done = on_done
        self._hold = hold
        self._stopped = threading.Event()
        self._finished = threading.Event()
        # Asked for before the search may move pieces about: the answer when
        # the engine fails.
        legal = pos.legal_moves()
        self._fallback = legal[0] if legal else None
        self._thread = threading.Thread(target=self._run, name="engine-search", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Ask the engine to finish now, and wait until ``on_done`` has run."""
        self._stopped.set()
        self._thread.join()

    def wait(self) -> None:
        """Wait until the search ends by its own limits and ``on_done`` has run."""
        self._thread.join()

    @property
    def finished(self) -> bool:
        """Whether ``on_done`` has returned: the position is the front end's again."""
        return self._finished.is_set()

    def _run(self) -> None:
        best, error = self._fallback, None
        try:
            best = self._engine.search(self._pos, self._limits, self._stopped.is_set, self._on_info)
        except Exception as exc:  # the GUI waits for a move whatever happens
            error = f"search failed: {exc!r}"
        if self._hold:
            self._stopped.wait()
        try:
            self._on_done(best, error)
        finally:
            self._finished.set()
