"""The XBoard front end for the built-in engine: ``boardctl xboard``.

XBoard and WinBoard (and the GUIs that speak their protocol, the Chess
Engine Communication Protocol, version 2) talk to the engine over stdin and
stdout, one command per line, as they talk to Fairy-Max::

    xboard
    protover 2                 -> feature ... done=1
    new
    variant falcon             -> piece F& ... (the falcon's moves, for the GUI)
    level 40 5 0               (or st 2: two seconds a move; sd 6: six plies at most)
    time 30000 / otim 30000    (the clocks, in centiseconds)
    usermove e2e4              -> move e7e5
    ping 7                     -> pong 7 (after the move, when it is the engine's)

XBoard's ``variant falcon`` is Falcon Chess on 10×8 with files a–j and ranks
1–8, the falcon's letter F, and castling as Fairy-Max plays it (the king
always three squares, ``f1i1``, ``f1c1``): the rules core's ``falcon-xboard``
preset.  The engine plays the colour XBoard gives it (``go``, ``playother``),
thinks in a background thread (so ``?``, ``ping``, ``force`` and ``quit`` are
answered while it does) and, with ``analyze``, searches the position until
told otherwise, showing each iteration.  A command that cannot be carried out
changes nothing and is answered ``Error (<why>): <command>``, a move that is
not legal ``Illegal move: <move>``; the loop never dies of bad input.  Drive
it from a test with :func:`run` and any pair of text streams.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from dataclasses import replace
from typing import TextIO

from ..rules import (
    BoardctlError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Termination,
    get_variant,
    parse_uci,
)
from . import MAX_SKILL, Engine, Info, Limits
from .cecpwire import (
    PIECES,
    VARIANTS,
    CecpError,
    TimeControl,
    features,
    parse_centiseconds,
    parse_depth,
    parse_level,
    parse_nps,
    parse_seconds,
    parse_whole_option,
    thinking,
)
from .frontend import (
    MAX_SEED,
    LineSession,
    Output,
    SearchEngine,
    serve,
    standard_streams,
)

DEFAULT_XBOARD_VARIANT = "falcon"
MAX_MEMORY_MB = 1 << 20
ECHOED = 80  # characters of a command said back in an error
# Commands a GUI may send that ask nothing of this engine.
IGNORED = frozenset(
    {
        *("accepted", "rejected", "random", "hard", "easy", "computer", "name", "rating"),
        *("ics", "hint", "bk", "cores", "egtpath", "draw", "."),
    }
)
_COMMENTS = {  # how a result is said, by what ended the game
    Termination.CHECKMATE: "{} mates",
    Termination.STALEMATE: "Stalemate",
    Termination.SCORED_STALEMATE: "{} stalemates",
    Termination.INSUFFICIENT_MATERIAL: "Insufficient material",
    Termination.THREEFOLD_REPETITION: "Draw by repetition",
    Termination.FIFTY_MOVES: "Draw by fifty-move rule",
}


class CecpSession(LineSession):
    """The engine's state between commands, and one handler per command.

    :meth:`handle` takes one line and returns ``False`` on ``quit``;
    :meth:`close` ends a running search without a move.
    """

    def __init__(self, out: Output, engine: SearchEngine) -> None:
        super().__init__(out, engine)
        self.xboard_variant = DEFAULT_XBOARD_VARIANT
        self.game = Game(get_variant(VARIANTS[self.xboard_variant]))
        self.playable = True  # False after a setboard the rules refused
        self.force = False
        self.engine_side = 1  # "new": the engine plays Black
        self.clock = TimeControl()
        self.post = False
        self.analyzing = False
        self._discard = False  # the running search's move is not to be played
        self._commands: dict[str, Callable[[list[str]], None]] = {
            "xboard": _nothing,
            "protover": self._protover,
            "new": self._new,
            "variant": self._variant,
            "force": self._force,
            "go": self._go,
            "playother": self._playother,
            "white": lambda args: self._side(0),
            "black": lambda args: self._side(1),
            "usermove": self._usermove,
            "?": self._move_now,
            "ping": self._ping,
            "result": self._result,
            "setboard": self._setboard,
            "undo": lambda args: self._take_back(1),
            "remove": lambda args: self._take_back(2),
            "level": self._level,
            "st": self._st,
            "sd": self._sd,
            "nps": self._nps,
            "time": self._time,
            "otim": self._otim,
            "post": lambda args: self._post(True),
            "nopost": lambda args: self._post(False),
            "analyze": self._analyze,
            "exit": self._exit,
            "memory": self._memory,
            "option": self._option,
        }

    # ------------------------------------------------------------ dispatch
    def command(self, command: str, args: list[str], line: str) -> None:
        handler = self._commands.get(command)
        if handler is None and command not in IGNORED:
            if not args and _looks_like_move(command):
                handler, args = self._usermove, [command]  # a GUI that did not take usermove=1
            else:
                self.out.line(f"Error (unknown command): {_echo(command)}")
                return
        try:
            if handler is not None:
                handler(args)
        except CecpError as exc:
            self.out.line(f"Error ({exc.kind}): {_echo(line.strip())}")
        except BoardctlError as exc:
            self.out.line(f"Error ({exc}): {_echo(line.strip())}")
        except Exception as exc:  # a bug must not take the GUI's engine away
            self.out.line(f"Error (internal error {exc!r}): {_echo(line.strip())}")

    def close(self) -> None:
        self._halt(play=False)

    # ------------------------------------------------------------ the game
    def _protover(self, args: list[str]) -> None:
        for text in features():
            self.out.line(text)

    def _new(self, args: list[str]) -> None:
        self._halt(play=False)
        self.analyzing = False
        self.engine_new_game()
        self.engine.nodes_per_second = None
        self.xboard_variant = DEFAULT_XBOARD_VARIANT
        self._reset(None)
        self.force = False
        self.engine_side = 1
        self.clock = replace(self.clock, depth=None)

    def _variant(self, args: list[str]) -> None:
        if len(args) != 1:
            raise CecpError("expected variant NAME")
        name = args[0]
        if name not in VARIANTS:
            raise CecpError("unsupported variant", f"this engine plays {', '.join(VARIANTS)}")
        self._halt(play=False)
        self.xboard_variant = name
        self._reset(None)
        for line in PIECES.get(name, ()):
            self.out.line(line)

    def _reset(self, fen: str | None) -> None:
        self.game = Game(get_variant(VARIANTS[self.xboard_variant]), fen)
        self.playable = True
        self._restart_analysis()

    def _setboard(self, args: list[str]) -> None:
        self._halt(play=False)
        try:
            self._reset(" ".join(args))
        except BoardctlError as exc:
            # The protocol's advice: say so, and refuse every move until the next position.
            self.playable = False
            self.out.line(f"tellusererror Illegal position: {exc}")

    def _force(self, args: list[str]) -> None:
        self._halt(play=False)
        self.force = True

    def _go(self, args: list[str]) -> None:
        self._halt(play=False)
        self.force = False
        self.engine_side = self.game.position.turn
        self._think()

    def _playother(self, args: list[str]) -> None:
        self._halt(play=False)
        self.force = False
        self.engine_side = self.game.position.turn ^ 1

    def _side(self, colour: int) -> None:
        # The obsolete "white"/"black" (not sent to an engine with colors=0):
        # the engine plays the other colour.
        self._halt(play=False)
        self.engine_side = colour ^ 1

    def _usermove(self, args: list[str]) -> None:
        if len(args) != 1:
            raise CecpError("expected usermove MOVE")
        self._halt(play=False)
        text = args[0]
        if not self.playable:
            self.out.line(f"Illegal move (no legal position): {_echo(text)}")
            return
        try:
            move = parse_uci(self.game.position, text)
        except (IllegalMoveError, InvalidMoveError):
            self.out.line(f"Illegal move: {_echo(text)}")
            return
        self.game.push(move)
        if self.analyzing:
            self._restart_analysis()
        elif not self.force and self.game.position.turn == self.engine_side:
            self._think()

    def _take_back(self, count: int) -> None:
        self._halt(play=False)
        if len(self.game.moves) < count:
            raise CecpError("command not legal now", "no move to take back")
        for _ in range(count):
            self.game.pop()
        self._restart_analysis()

    def _result(self, args: list[str]) -> None:
        self._halt(play=False)
        self.force = True

    def _move_now(self, args: list[str]) -> None:
        if not self.analyzing:
            self._halt(play=True)

    def _ping(self, args: list[str]) -> None:
        if len(args) != 1:
            raise CecpError("expected ping N")
        search = self._search
        if search is not None and not self.analyzing:
            search.wait()  # on the engine's move, the pong follows the move
        self.out.line(f"pong {args[0]}")

    # ------------------------------------------------------------ time
    def _level(self, args: list[str]) -> None:
        self.clock = replace(self.clock, level=parse_level(args), per_move=None)

    def _st(self, args: list[str]) -> None:
        self.clock = replace(self.clock, per_move=parse_seconds("st", _one(args, "st")), level=None)

    def _sd(self, args: list[str]) -> None:
        self.clock = replace(self.clock, depth=parse_depth(_one(args, "sd")))

    def _nps(self, args: list[str]) -> None:
        # Time counted in positions: this many to a second (0: the protocol's
        # CPU time, which this engine counts as the wall clock's).
        self.engine.nodes_per_second = parse_nps(_one(args, "nps")) or None

    def _time(self, args: list[str]) -> None:
        self.clock = replace(self.clock, mine=parse_centiseconds("time", _one(args, "time")))

    def _otim(self, args: list[str]) -> None:
        self.clock = replace(self.clock, theirs=parse_centiseconds("otim", _one(args, "otim")))

    # ------------------------------------------------------------ settings
    def _post(self, on: bool) -> None:
        self.post = on

    def _memory(self, args: list[str]) -> None:
        megabytes = parse_whole_option("memory", _one(args, "memory"), 1, MAX_MEMORY_MB)
        self.use_table(megabytes)

    def _option(self, args: list[str]) -> None:
        name, equals, value = " ".join(args).partition("=")
        key = name.strip().lower()
        if not equals:
            raise CecpError("expected option NAME=VALUE")
        if key == "skill level":
            self.engine.skill = parse_whole_option(name, value, 0, MAX_SKILL)
        elif key == "variety":
            self.engine.vary = parse_whole_option(name, value, 0, 1) == 1
        elif key == "seed":
            self.use_seed(parse_whole_option(name, value, 0, MAX_SEED))
        else:
            raise CecpError("unknown option", name.strip())

    # ------------------------------------------------------------ analysis
    def _analyze(self, args: list[str]) -> None:
        self._halt(play=False)
        self.analyzing = True
        self._restart_analysis()

    def _exit(self, args: list[str]) -> None:
        self._halt(play=False)
        self.analyzing = False

    def _restart_analysis(self) -> None:
        if not self.analyzing:
            return
        self._halt(play=False)
        if self.playable and self.game.outcome() is None:
            self._start(Limits(infinite=True), analysis=True)

    # ------------------------------------------------------------ searching
    def _think(self) -> None:
        """The engine's move: a search under the time control, or the result
        when the game is over already."""
        if not self.playable:
            return
        outcome = self.game.outcome()
        if outcome is not None:
            self.out.line(_result_line(self.game))
            return
        pos = self.game.position
        self._start(self.clock.limits(pos.turn, len(pos.ply_stack)), analysis=False)

    def _start(self, limits: Limits, analysis: bool) -> None:
        pos = self.game.position

        def info(found: Info) -> None:
            if self.post or analysis:
                self.out.line(thinking(found, pos))

        def done(move: Move | None, error: str | None) -> None:
            if error is not None:
                self.out.line(f"telluser {error}")
            if analysis or self._discard or move is None:
                return
            text = pos.uci(move)
            self.game.push(move)
            self.out.line(f"move {text}")
            if self.game.outcome() is not None:
                self.out.line(_result_line(self.game))

        self._discard = False
        self.start_search(pos, limits, info, done, hold=analysis)

    def _halt(self, play: bool) -> None:
        """End the running search: its move is played when ``play``, and
        dropped otherwise (the GUI moved on: force, a new position, a result)."""
        search, self._search = self._search, None
        if search is None:
            return
        self._discard = not play
        search.stop()
        self._discard = False


def options_help() -> str:
    """The options XBoard shows, for ``boardctl xboard --help``."""
    return (
        f"Skill Level 0 to {MAX_SKILL} (as boardctl uci's); Variety (off by default;"
        " on: full strength varies its opening moves); Seed (0: a new game each run;"
        " another number: the same random choices, from each new game).  XBoard's variant falcon is"
        " played with XBoard's castling (boardctl's falcon-xboard preset)."
    )


def _result_line(game: Game) -> str:
    outcome = game.outcome()
    assert outcome is not None
    winner = "White" if outcome.winner == 0 else "Black"
    comment = _COMMENTS.get(outcome.termination, outcome.termination.value).format(winner)
    return f"{outcome.result} {{{comment}}}"


def _echo(text: str) -> str:
    """Text from the GUI said back to it as it was sent (XBoard matches the
    move in ``Illegal move: <move>``), short and printable."""
    text = "".join(c if c.isprintable() else "?" for c in text[:ECHOED])
    return text


def _one(args: list[str], command: str) -> str:
    if len(args) != 1:
        raise CecpError(f"expected {command} N")
    return args[0]


def _nothing(args: list[str]) -> None:
    pass


def _looks_like_move(word: str) -> bool:
    return 4 <= len(word) <= 7 and word[0].isalpha() and word[1].isdigit()


# ---------------------------------------------------------------- the loop
def run(stdin: TextIO, stdout: TextIO, engine_factory: Callable[[], SearchEngine] = Engine) -> int:
    """Answer XBoard commands from ``stdin`` on ``stdout`` until ``quit`` or
    end of input; returns 0."""
    return serve(CecpSession(Output(stdout), engine_factory()), stdin)


def main() -> int:
    """``boardctl xboard``: :func:`run` on this process's stdin and stdout."""
    # XBoard may interrupt an engine that did not say sigint=0 in time, and a
    # terminal's Ctrl-C goes to the whole process group: the engine ends on
    # "quit" or end of input only.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return run(*standard_streams())
