"""PGN export and import for Falcon Chess games.

A game carries ``[Variant "Falcon"]`` (the preset's own tag, such as
``Falcon Hexagonal`` or ``Glinski``, or else its name for the other presets)
and, when it does not start from the variant's start position,
``[SetUp "1"]`` and ``[FEN "…"]``.

PGN's ``Result`` has no token for a stalemate scored ¾–¼ (the hexagonal
games): it gets the stalemating side's ``1-0`` or ``0-1``, which says who won,
and a comment before the result says what the win is worth,
``{White stalemates Black and scores 3/4-1/4} 1-0``.  With clocks, each move is followed by the
mover's time left, ``{[%clk 0:04:58]}`` (the comment lichess and ChessBase write).  A
reviewed game's moves carry a :class:`MoveNote` each: a NAG (``$4``), a comment
(``{Better: Ff4 (+1.20)}``) and the position's evaluation, ``{[%eval -2.10]}`` (again the
command lichess and ChessBase write, in pawns from White's side, ``#3`` for a mate).
Import reads SAN or coordinate moves and skips comments, variations, NAGs and
move numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from .errors import BoardctlError, PgnError
from .game import NO_RESULT, RESULTS, Game, Termination
from .variants import VARIANTS, Variant

_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_TAG = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
# ASCII digits only: \d would take other scripts' digits for move numbers.
_TOKEN = re.compile(r"\{[^}]*\}|;[^\n]*|\$[0-9]+|\(|\)|[^\s(){};]+")
_MOVE_NUMBER = re.compile(r"^[0-9]+\.+$|^[0-9]+\.+(?=\S)")
UNKNOWN_DATE = "????.??.??"  # the standard's Date for "not known"
# The standard's NAGs for a move judged poor (section 10): ?! ? and ??.
NAG_DUBIOUS, NAG_MISTAKE, NAG_BLUNDER = 6, 2, 4


def _escape(value: str) -> str:
    """A tag's value as a PGN string token (the standard, 7 and 8.1.1): a
    backslash and a quote escaped, and no newline or other non-printing
    character (each becomes a space), so that no value, however it reached
    the store, can end its tag line or start another."""
    if not value.isprintable():
        value = "".join(c if c.isprintable() else " " for c in value)
    return value.replace("\\", "\\\\").replace('"', '\\"')


def clk(seconds: float) -> str:
    """A clock reading as ``h:mm:ss``, whole seconds rounded down (a clock
    that shows 0:00:00 has run out).

    :raises ValueError: for a negative, infinite or NaN time.
    """
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"not a clock reading: {seconds!r}")
    whole = math.floor(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def eval_text(cp: int | None, mate: int | None) -> str:
    """An evaluation from White's side as ``[%eval]`` writes it: pawns with
    two decimals and a sign (``+0.35``, ``-2.10``, ``0.00``), or ``#n`` for a
    mate in n moves (``#-n``: Black mates).  A mate wins over centipawns.

    :raises ValueError: when neither is given.
    """
    if mate is not None:
        return f"#{mate}"
    if cp is None:
        raise ValueError("an evaluation needs centipawns or a mate")
    return "0.00" if cp == 0 else f"{cp / 100:+.2f}"


@dataclass(frozen=True)
class MoveNote:
    """What an annotator says of one move: a NAG (``$2``), a comment, and the
    evaluation of the position after it, as :func:`eval_text` writes it."""

    nag: int | None = None
    comment: str | None = None
    evaluation: str | None = None

    def words(self, clock: str | None) -> list[str]:
        """The movetext after the move's SAN, each comment one word so that
        it is never split over lines; ``clock`` joins the evaluation's comment.

        :raises ValueError: for a comment that would end early (a ``}``).
        """
        words = [] if self.nag is None else [f"${self.nag}"]
        if self.comment is not None:
            if "}" in self.comment:
                raise ValueError(f"a PGN comment cannot hold '}}': {self.comment!r}")
            words.append(f"{{{self.comment}}}")
        commands = [f"[%eval {self.evaluation}]"] if self.evaluation is not None else []
        if clock is not None:
            commands.append(f"[%clk {clock}]")
        if commands:
            words.append("{" + " ".join(commands) + "}")
        return words


_NO_NOTE = MoveNote()


def date_tags(started_at: float | None) -> dict[str, str]:
    """Date, UTCDate and UTCTime for a game started at ``started_at`` (UTC
    seconds since 1970); the standard's unknown date for None."""
    if started_at is None:
        return {"Date": UNKNOWN_DATE, "UTCDate": UNKNOWN_DATE}
    started = datetime.fromtimestamp(started_at, UTC)
    day = started.strftime("%Y.%m.%d")
    return {"Date": day, "UTCDate": day, "UTCTime": started.strftime("%H:%M:%S")}


def export(
    game: Game,
    headers: dict[str, str] | None = None,
    clocks: Sequence[float | None] = (),
    notes: Sequence[MoveNote] = (),
    sans: Sequence[str] | None = None,
) -> str:
    """The game as PGN text (tags, then movetext wrapped at 80 columns).

    ``clocks[i]``, when given and not None, is the time the mover of the
    ``i``-th move (from 0) had left after it, written as ``{[%clk h:mm:ss]}``;
    ``notes[i]``, when given, is what a review says of that move; ``sans``,
    the game's moves in SAN where the caller has them already (a hall keeps
    a hundred games' and writes them every second).

    :raises ValueError: for a clock reading :func:`clk` refuses.
    """
    outcome = game.ending()
    tags = {name: "?" for name in _ROSTER}
    tags["Date"] = UNKNOWN_DATE
    tags["Result"] = outcome.result if outcome else NO_RESULT
    tags.update(headers or {})
    tags["Variant"] = game.variant.pgn_name
    if not game.is_standard_start:
        tags["SetUp"] = "1"
        tags["FEN"] = game.start_fen
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
    words = []
    number = int(game.start_fen.split()[5])
    black_first = game.start_fen.split()[1] == "b"
    commented = False
    for i, text in enumerate(game.sans() if sans is None else sans):
        black = (i % 2 == 1) != black_first
        if not black:
            words.append(f"{number}.")
        elif i == 0 or commented:  # the standard's export format: "1. e4 {…} 1... e5"
            words.append(f"{number}...")
        words.append(text)
        left = clocks[i] if i < len(clocks) else None
        after = (notes[i] if i < len(notes) else _NO_NOTE).words(
            None if left is None else clk(left)
        )
        commented = any(word.startswith("{") for word in after)
        words.extend(after)
        if black:
            number += 1
    if outcome is not None and outcome.termination is Termination.SCORED_STALEMATE:
        words.append(f"{{{outcome}}}")
    words.append(tags["Result"])
    movetext, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > 80:
            movetext.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    movetext.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(movetext) + "\n"


def variant_for(tag: str | None) -> Variant:
    """The preset a PGN ``Variant`` tag names (none: the default).

    :raises PgnError: for a variant boardctl does not play.
    """
    if tag is None or tag.strip().lower() in ("falcon", "falcon chess"):
        return VARIANTS["falcon"]
    name = tag.strip().lower()
    for variant in VARIANTS.values():
        if name in (variant.name, variant.pgn_name.lower()):
            return variant
    raise PgnError(f"variant {tag!r} is not one boardctl plays (known: {', '.join(VARIANTS)})")


def read_games(text: str) -> list[tuple[dict[str, str], Game]]:
    """Every game in a PGN text, with its tags.

    :raises PgnError: naming the game and the move that could not be read.
    """
    games = []
    for number, (tags, movetext) in enumerate(_split(text), start=1):
        try:
            games.append((tags, _replay(tags, movetext)))
        except PgnError as exc:
            raise PgnError(f"game {number}: {exc}") from None
    return games


def read_game(text: str) -> tuple[dict[str, str], Game]:
    """The first game in a PGN text.  :raises PgnError: when there is none."""
    games = read_games(text)
    if not games:
        raise PgnError("no game found")
    return games[0]


def _split(text: str) -> list[tuple[dict[str, str], str]]:
    games: list[tuple[dict[str, str], str]] = []
    tags: dict[str, str] = {}
    movetext: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("%"):
            continue
        if line.startswith("["):
            if movetext:
                games.append((tags, "\n".join(movetext)))
                tags, movetext = {}, []
            match = _TAG.match(line)
            if not match:
                raise PgnError(f"malformed tag line: {line}")
            tags[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))
        elif line:
            movetext.append(line)
    if tags or movetext:
        games.append((tags, "\n".join(movetext)))
    return games


def _replay(tags: dict[str, str], movetext: str) -> Game:
    variant = variant_for(tags.get("Variant"))
    fen = tags.get("FEN") if tags.get("SetUp", "1" if "FEN" in tags else "0") == "1" else None
    try:
        game = Game(variant, fen)
    except BoardctlError as exc:
        raise PgnError(str(exc)) from None
    depth = 0
    for token in _TOKEN.findall(movetext):
        if token == "(":
            depth += 1
            continue
        if token == ")":
            depth -= 1
            continue
        if depth or token[0] in "{;$" or token in RESULTS:
            continue
        token = _MOVE_NUMBER.sub("", token)
        if not token:
            continue
        try:
            game.push_text(token)
        except BoardctlError as exc:
            ply = len(game.moves) + 1
            raise PgnError(f"ply {ply} ({token}): {exc}") from None
    return game
