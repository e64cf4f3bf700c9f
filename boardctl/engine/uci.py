"""The UCI front end for the built-in engine: ``boardctl uci``.

A chess GUI (or a match runner) talks to the engine over stdin/stdout in the
Universal Chess Interface, one command per line::

    uci                                   -> id ..., option ..., uciok
    setoption name UCI_Variant value falcon-8x8
    setoption name Skill Level value 5
    isready                               -> readyok
    ucinewgame
    position startpos moves e2e4 e7e5
    go wtime 60000 btime 60000 winc 1000  -> info depth ... pv ..., bestmove g1h3
    stop | quit

Moves are in the rules core's coordinate notation (files a-j, promotion
letters q f r b n, the one-square castle written king-takes-rook).  The
search runs in a background thread, so ``isready``, ``stop`` and ``quit`` are
answered while it thinks; all other state lives in the one thread that reads
the commands (:func:`run`).  A command that cannot be carried out changes
nothing and answers ``info string error: <why>``; the loop never dies of bad
input.  Drive it from a test with :func:`run` and any pair of text streams::

    out = io.StringIO()
    run(io.StringIO("uci\\nisready\\n"), out)

The module is three layers: pure parsers and formatters (``parse_go``,
``parse_position``, ``parse_setoption``, ``format_info``), the background
search (:class:`SearchThread`) and the command dispatch (:class:`UciSession`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import TextIO

from .. import __version__
from ..rules import (
    DEFAULT_VARIANT,
    VARIANTS,
    BoardctlError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Position,
    Variant,
    get_variant,
    parse_uci,
)
from ..rules.digits import NumberError, parse_whole, shown
from . import MAX_SKILL, Engine, Info, Limits, core, levels
from .frontend import (
    MAX_SEED,
    MAX_TT_BITS,
    MIN_TT_BITS,
    TT_ENTRY,
    VARIETY,
    LineSession,
    Output,
    SearchEngine,
    serve,
    standard_streams,
)
from .params import MAX_PLY
from .ratings import ANCHOR_RATING
from .uciwire import MS

NULL_MOVE = "0000"  # the bestmove when there is no legal move
ERROR_PREFIX = "info string error: "


MEGABYTE = 1024 * 1024
DEFAULT_HASH_MB = (TT_ENTRY << core.TT_BITS) // MEGABYTE
MIN_HASH_MB = max(1, (TT_ENTRY << MIN_TT_BITS) // MEGABYTE)
MAX_HASH_MB = (TT_ENTRY << MAX_TT_BITS) // MEGABYTE


class UciError(BoardctlError, ValueError):
    """A UCI command that is malformed or asks for something the engine lacks."""


# ---------------------------------------------------------------- parsing
# Each number on the wire has a range (ASCII digits only, see rules.digits):
# what the engine can use, so that nothing downstream overflows or loops.
MAX_TIME_MS = 365 * 24 * 3600 * 1000  # a year: no clock is longer; exact as a float
MAX_NODES = 2**63 - 1  # the compiled core counts nodes in 64 bits
MAX_MOVESTOGO = 10_000  # moves to the next time control
_GO_INTS = {  # name -> (minimum, maximum)
    "depth": (1, MAX_PLY),
    "nodes": (1, MAX_NODES),
    "mate": (1, MAX_PLY // 2),
    "movestogo": (1, MAX_MOVESTOGO),
}
_GO_TIMES = ("movetime", "wtime", "btime", "winc", "binc")
_GO_CLOCKS = ("wtime", "btime")  # GUIs send a negative clock when it has run out


def _integer(name: str, text: str | None, low: int, high: int) -> int:
    if text is None:
        raise UciError(f"{name} needs a value")
    try:
        return parse_whole(text, low, high)
    except NumberError as exc:
        raise UciError(f"{name}: {exc}") from None


def parse_go(args: list[str]) -> Limits:
    """The limits of ``go <args>``; times on the wire are milliseconds.

    With no limit at all (a bare ``go``) the engine searches until ``stop``;
    unlike ``go infinite``, its ``bestmove`` is sent as soon as it has one.

    :raises UciError: on an unknown word, a missing or bad number, or a repeat.
    """
    counts: dict[str, int] = {}
    times: dict[str, float] = {}
    infinite = False
    words = iter(args)
    for word in words:
        if word in counts or word in times or (word == "infinite" and infinite):
            raise UciError(f"{word} given twice")
        if word == "infinite":
            infinite = True
        elif word in _GO_INTS:
            counts[word] = _integer(word, next(words, None), *_GO_INTS[word])
        elif word in _GO_TIMES:
            low = -MAX_TIME_MS if word in _GO_CLOCKS else 0
            times[word] = max(_integer(word, next(words, None), low, MAX_TIME_MS), 0) / MS
        elif word in ("searchmoves", "ponder"):
            raise UciError(f"{word} is not supported")
        else:
            raise UciError(f"unknown argument {shown(word)}")
    return Limits(
        depth=counts.get("depth"),
        movetime=times.get("movetime"),
        nodes=counts.get("nodes"),
        mate=counts.get("mate"),
        wtime=times.get("wtime"),
        btime=times.get("btime"),
        winc=times.get("winc", 0.0),
        binc=times.get("binc", 0.0),
        movestogo=counts.get("movestogo"),
        infinite=infinite,
    )


def split_position(args: list[str]) -> tuple[list[str], list[str]]:
    """``position``'s words before ``moves`` and the moves after it."""
    if "moves" in args:
        split = args.index("moves")
        return args[:split], args[split + 1 :]
    return args, []


def parse_position(args: list[str], variant: Variant) -> Position:
    """The position of ``position startpos|fen <FEN> [moves <m1> <m2> ...]``.

    :raises UciError: when the command is malformed.
    :raises FenError: on a bad FEN.
    :raises IllegalMoveError: naming the first move of the list that is not legal.
    """
    setup, moves = split_position(args)
    pos = setup_position(setup, variant)
    play_moves(pos, moves, 1)
    return pos


def setup_position(setup: list[str], variant: Variant) -> Position:
    """The position ``startpos`` or ``fen <FEN>`` names, before its moves."""
    match setup:
        case ["startpos"]:
            pos = Position(None, variant)
        case ["fen"]:
            raise UciError("fen needs a FEN")
        case ["fen", *fen]:
            pos = Position(" ".join(fen), variant)
        case ["startpos", *extra]:
            raise UciError(f"unexpected {shown(' '.join(extra))} after startpos")
        case []:
            raise UciError("expected startpos or fen <FEN>")
        case [word, *_]:
            raise UciError(f"expected startpos or fen <FEN>, got {shown(word)}")
    return pos


def play_moves(pos: Position, moves: list[str], first: int) -> None:
    """Play ``moves`` on ``pos``, the first being the list's move number ``first``.

    :raises IllegalMoveError: (or InvalidMoveError) naming the move; the moves
        before it stay played.
    """
    for number, text in enumerate(moves, first):
        try:
            pos.make(pos.code_of(parse_uci(pos, text)))
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {number} ({text}): {exc}") from None
        except InvalidMoveError as exc:
            raise InvalidMoveError(f"move {number} ({text}): {exc}") from None


class PositionLine:
    """The position of the last ``position`` command, with the words that made it.

    A GUI sends the whole game before every move (``position startpos moves
    e2e4 e7e5 ...``): replayed from the start, that costs more with every
    move, some 14 ms at ply 240 here and four times as much on a Pi.  A
    command whose moves extend the last one's (or take some back) plays or
    takes back only the difference, on the same :class:`Position`, so its
    cost does not grow with the game.
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.position = Position(None, variant)
        self._setup: list[str] | None = None  # None: not made by a command
        self._moves: list[str] = []

    def update(self, args: list[str], in_place: bool) -> Position:
        """The position of ``position <args>``; on :attr:`position` itself when
        ``in_place`` (no search is using it) and the set-up is the last one's.

        :raises UciError: (and the errors of :func:`parse_position`) leaving
            the line as it was.
        """
        setup, moves = split_position(args)
        if not in_place or setup != self._setup:
            self.position = parse_position(args, self.variant)
            self._setup, self._moves = setup, moves
            return self.position
        pos, old = self.position, self._moves
        same = 0
        for mine, theirs in zip(old, moves, strict=False):
            if mine != theirs:
                break
            same += 1
        taken = [pos.unmake() for _ in range(len(old) - same)]
        played = len(pos.ply_stack)
        try:
            play_moves(pos, moves[same:], same + 1)
        except BoardctlError:
            while len(pos.ply_stack) > played:
                pos.unmake()
            for code in reversed(taken):
                pos.make(code)
            raise
        self._moves = moves
        return pos


def parse_setoption(args: list[str]) -> tuple[str, str | None]:
    """``(name, value)`` of ``setoption name <name> [value <value>]``.

    Names may hold spaces (``Skill Level``); ``value`` is ``None`` when absent.

    :raises UciError: when ``name`` is missing.
    """
    if not args or args[0] != "name" or len(args) == 1 or args[1] == "value":
        raise UciError("expected 'setoption name <name> [value <value>]'")
    if "value" in args:
        split = args.index("value")
        return " ".join(args[1:split]), " ".join(args[split + 1 :])
    return " ".join(args[1:]), None


def _no_args(args: list[str]) -> None:
    if args:
        raise UciError(f"unexpected {shown(' '.join(args))}")


def format_info(info: Info, pos: Position) -> str:
    """The ``info`` line for one finished iteration; ``pos`` names the moves."""
    parts = [f"info depth {info.depth}", f"seldepth {info.seldepth}"]
    if info.mate is not None:
        parts.append(f"score mate {info.mate}")
    elif info.score_cp is not None:
        parts.append(f"score cp {info.score_cp}")
    parts.append(f"nodes {info.nodes} nps {info.nps} time {round(info.time * MS)}")
    if info.pv:
        parts.append("pv " + " ".join(pos.uci(move) for move in info.pv))
    return " ".join(parts)


def options_help() -> str:
    """The options a GUI may set, for ``boardctl uci --help``."""
    variant = textwrap.wrap(
        f"the rule preset: {', '.join(VARIANTS)} (default {DEFAULT_VARIANT.name})",
        64,
        break_on_hyphens=False,
    )
    lines = [f"  UCI_Variant  {variant[0]}", *(f"{'':15}{line}" for line in variant[1:])]
    lines.append(
        f"  Skill Level  0 (weakest, about {levels.rating(0)}) to {MAX_SKILL} (full strength,"
        f" about {levels.rating(MAX_SKILL)}; the default)"
    )
    lines.append(f"{'':15}ratings on our own scale, Fairy-Max = {ANCHOR_RATING}: docs/levels.md")
    lines.append(
        f"  Variety      false (the default): the same move every time; true: full"
        f" strength\n{'':15}varies its opening moves among near-equal ones"
    )
    lines.append(
        f"  Seed         0 (the default): a new game each run; 1 to {MAX_SEED}: the same"
        f"\n{'':15}random choices each run, from each ucinewgame"
    )
    lines.append(
        f"  Hash         the search's table in MB, {MIN_HASH_MB} to {MAX_HASH_MB}"
        f" (default {DEFAULT_HASH_MB})"
    )
    return "\n".join(lines)


def id_lines() -> list[str]:
    """The answer to ``uci``, ``uciok`` last."""
    combo = " ".join(f"var {name}" for name in VARIANTS)
    return [
        f"id name boardctl {__version__}",
        "id author boardctl developers",
        f"option name UCI_Variant type combo default {DEFAULT_VARIANT.name} {combo}",
        f"option name Skill Level type spin default {MAX_SKILL} min 0 max {MAX_SKILL}",
        f"option name Variety type check default {str(VARIETY).lower()}",
        f"option name Seed type spin default 0 min 0 max {MAX_SEED}",
        f"option name Hash type spin default {DEFAULT_HASH_MB} min {MIN_HASH_MB} max {MAX_HASH_MB}",
        "uciok",
    ]


# ---------------------------------------------------------------- session
class UciSession(LineSession):
    """The engine's state between commands, and one handler per command.

    :meth:`handle` takes one line and returns ``False`` on ``quit``;
    :meth:`close` ends a running search (its ``bestmove`` is still sent).
    """

    def __init__(self, out: Output, engine: SearchEngine) -> None:
        super().__init__(out, engine)
        self.variant = DEFAULT_VARIANT
        self.line = PositionLine(self.variant)
        self._commands: dict[str, Callable[[list[str]], None]] = {
            "uci": self._uci,
            "debug": self._debug,
            "isready": self._isready,
            "setoption": self._setoption,
            "ucinewgame": self._ucinewgame,
            "position": self._position,
            "go": self._go,
            "stop": self._stop,
        }
        self._options: dict[str, Callable[[str, str], None]] = {
            "uci_variant": self._set_variant,
            "skill level": self._set_skill,
            "variety": self._set_variety,
            "seed": self._set_seed,
            "hash": self._set_hash,
        }

    @property
    def position(self) -> Position:
        """The position the next ``go`` searches."""
        return self.line.position

    def command(self, command: str, args: list[str], line: str) -> None:
        handler = self._commands.get(command)
        if handler is None:
            self.error(f"unknown command {shown(command)}")
            return
        try:
            handler(args)
        except BoardctlError as exc:
            self.error(f"{command}: {exc}")
        except Exception as exc:  # a bug must not take the GUI's engine away
            self.error(f"{command}: internal error: {exc!r}")

    def error(self, message: str) -> None:
        self.out.line(ERROR_PREFIX + message)

    def close(self) -> None:
        if self._search is not None:
            self._search.stop()
            self._search = None

    # One handler per command: ``args`` are the words after the command.
    def _uci(self, args: list[str]) -> None:
        _no_args(args)
        for text in id_lines():
            self.out.line(text)

    def _debug(self, args: list[str]) -> None:
        if args not in (["on"], ["off"]):
            raise UciError("expected 'debug on' or 'debug off'")

    def _isready(self, args: list[str]) -> None:
        _no_args(args)
        self.out.line("readyok")

    def _setoption(self, args: list[str]) -> None:
        name, value = parse_setoption(args)
        setter = self._options.get(name.lower())
        if setter is None:
            raise UciError(f"unknown option {shown(name)}")
        if not value:
            raise UciError(f"{name} needs a value")
        setter(name, value)

    def _set_variant(self, name: str, value: str) -> None:
        self.variant = get_variant(value.lower())
        self.line = PositionLine(self.variant)

    def _set_skill(self, name: str, value: str) -> None:
        self.engine.skill = _integer(name, value, 0, MAX_SKILL)

    def _set_variety(self, name: str, value: str) -> None:
        if value.lower() not in ("true", "false"):
            raise UciError(f"{name} is true or false, not {shown(value)}")
        self.engine.vary = value.lower() == "true"

    def _set_seed(self, name: str, value: str) -> None:
        self.use_seed(_integer(name, value, 0, MAX_SEED))

    def _set_hash(self, name: str, value: str) -> None:
        megabytes = _integer(name, value, MIN_HASH_MB, MAX_HASH_MB)
        self.use_table(megabytes)

    def _ucinewgame(self, args: list[str]) -> None:
        _no_args(args)
        self.close()
        self.engine_new_game()
        self.line = PositionLine(self.variant)

    def _position(self, args: list[str]) -> None:
        # A search that is done has handed its position back; one still
        # running has it to itself, so the new position is built apart.
        search = self._search
        self.line.update(args, in_place=search is None or search.finished)

    def _go(self, args: list[str]) -> None:
        limits = parse_go(args)
        self.close()
        pos = self.position

        def info(found: Info) -> None:
            self.out.line(format_info(found, pos))

        def done(move: Move | None, error: str | None) -> None:
            if error is not None:
                self.error(error)
            self.out.line(f"bestmove {pos.uci(move) if move is not None else NULL_MOVE}")

        self.start_search(pos, limits, info, done, hold=limits.infinite)

    def _stop(self, args: list[str]) -> None:
        _no_args(args)
        self.close()


# ---------------------------------------------------------------- the loop
def run(stdin: TextIO, stdout: TextIO, engine_factory: Callable[[], SearchEngine] = Engine) -> int:
    """Answer UCI commands from ``stdin`` on ``stdout`` until ``quit`` or end of input.

    End of input is ``quit``: a running search is stopped and its ``bestmove``
    sent before this returns 0.
    """
    return serve(UciSession(Output(stdout), engine_factory()), stdin)


def main() -> int:
    """``boardctl uci``: :func:`run` on this process's stdin and stdout."""
    return run(*standard_streams())
