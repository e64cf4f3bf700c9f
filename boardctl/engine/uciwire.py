"""UCI's lines as a client reads and writes them: the engine's options, the
``go`` it is sent, and the ``info`` it answers with.

Every number in an engine's output is read as ASCII digits of 64 bits at
most; a line that does not parse is no line (None), never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import BoardctlError, Move, Position, parse_uci
from ..rules.digits import parse_whole
from .limits import Info, Limits

MS = 1000.0  # UCI times are milliseconds, Limits' seconds
WIRE_INT = 2**63 - 1  # the largest number an engine's output may hold (64 bits)


_OPTION_KEYS = ("name", "type", "default", "min", "max", "var")
_INFO_NUMBERS = (
    "depth",
    "seldepth",
    "time",
    "nodes",
    "multipv",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
)
_INFO_KEYS = frozenset(
    (*_INFO_NUMBERS, "pv", "score", "currmove", "refutation", "currline", "string")
)


@dataclass(frozen=True)
class EngineOption:
    """One ``option name … type …`` line of the engine's answer to ``uci``."""

    name: str
    type: str
    default: str | None = None
    min: str | None = None
    max: str | None = None
    choices: tuple[str, ...] = ()  # the ``var`` values of a combo


def parse_option(words: list[str]) -> EngineOption | None:
    """The option of ``option <words>``, or None when it has no name.

    Each value runs to the next keyword, so names and defaults may hold spaces.
    """
    segments: list[tuple[str, list[str]]] = []
    for word in words:
        if word in _OPTION_KEYS:
            segments.append((word, []))
        elif segments:
            segments[-1][1].append(word)
    fields = {key: " ".join(value) for key, value in segments if key != "var"}
    choices = tuple(" ".join(value) for key, value in segments if key == "var")
    if not fields.get("name"):
        return None
    return EngineOption(
        fields["name"],
        fields.get("type", ""),
        fields.get("default"),
        fields.get("min"),
        fields.get("max"),
        choices,
    )


def go_command(limits: Limits) -> str:
    """The ``go`` line for ``limits`` (times in milliseconds, never negative).

    No limit at all gives a bare ``go``, as ``boardctl uci`` reads it.
    """
    parts = ["go"]
    if limits.infinite:
        parts.append("infinite")
    counts = (
        ("depth", limits.depth),
        ("nodes", limits.nodes),
        ("mate", limits.mate),
        ("movestogo", limits.movestogo),
    )
    times = (
        ("movetime", limits.movetime),
        ("wtime", limits.wtime),
        ("btime", limits.btime),
        ("winc", limits.winc or None),
        ("binc", limits.binc or None),
    )
    parts += [f"{name} {value}" for name, value in counts if value is not None]
    parts += [f"{name} {max(0, round(value * MS))}" for name, value in times if value is not None]
    return " ".join(parts)


def parse_info(words: list[str], pos: Position) -> Info | None:
    """The :class:`Info` of ``info <words>``, the search being from ``pos``.

    None for a line that is not a finished iteration of the main line: no
    ``depth``, neither ``score`` nor ``pv`` (``currmove`` progress), a bound
    (``lowerbound``/``upperbound``), a second ``multipv`` line, or a bad
    number.  The principal variation stops at its first move that is not
    legal coordinate notation; ``pos`` is left as it was.
    """
    numbers: dict[str, int] = {}
    score: tuple[str, int] | None = None
    bound = False
    pv: list[str] | None = None
    i = 0
    try:
        while i < len(words):
            word = words[i]
            if word == "string":
                break
            if word in _INFO_NUMBERS:
                numbers[word] = wire_int(words[i + 1])
                i += 2
            elif word == "score":
                score = (words[i + 1], wire_int(words[i + 2]))
                i += 3
                while i < len(words) and words[i] in ("lowerbound", "upperbound"):
                    bound = True
                    i += 1
            elif word == "pv":
                end = i + 1
                while end < len(words) and words[end] not in _INFO_KEYS:
                    end += 1
                pv = words[i + 1 : end]
                i = end
            else:
                i += 1  # a word we do not use, or its value
    except (IndexError, ValueError):
        return None
    if "depth" not in numbers or bound or numbers.get("multipv", 1) != 1:
        return None
    if score is None and pv is None:
        return None
    kind, value = score if score is not None else ("", 0)
    return Info(
        depth=numbers["depth"],
        score_cp=value if kind == "cp" else None,
        mate=value if kind == "mate" else None,
        nodes=numbers.get("nodes", 0),
        time=numbers.get("time", 0) / MS,
        pv=_moves(pos, pv or []),
        seldepth=numbers.get("seldepth", 0),
    )


def _moves(pos: Position, texts: list[str]) -> list[Move]:
    line = pos.copy()
    moves: list[Move] = []
    for text in texts:
        try:
            move = parse_uci(line, text)
        except BoardctlError:
            break
        line.push(move)
        moves.append(move)
    return moves


def wire_int(text: str) -> int:
    """A number in the engine's output: ASCII digits, 64 bits at most.

    :raises NumberError: (a ValueError) for anything else.
    """
    return parse_whole(text, -WIRE_INT, WIRE_INT)
