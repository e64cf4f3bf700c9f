"""What the board says: words from the state the screen shows.

Everything here is a pure function of :class:`~boardctl.ui.state.DisplayState`
values, like the screen's banner: :func:`utterance` is what to say when the
state changes (the move just played, the engine's move to carry out, a fix,
a choice, the result, a clock running low), and the ``*_words`` functions
answer a blind player's questions (the last move, the clocks, whose turn it
is, where the pieces stand, where a lifted piece may go).

Pieces are named, never lettered ("falcon d1 to f4, takes the pawn"), and
squares are said as their letter and number joined ("f4": a speech engine
reads the letter by its name, where "a 4" is read as the article) or, for
a listener who prefers them, with the NATO letters ("foxtrot 4").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from ..rules import (
    BLACK,
    WHITE,
    BoardctlError,
    Move,
    PieceType,
    Position,
    get_variant,
    parse_san,
)
from ..rules.pieces import LISTING_ORDER
from ..ui.state import DisplayState, banner_line

SquareStyle = Literal["plain", "nato"]
SQUARE_STYLES: tuple[SquareStyle, ...] = ("plain", "nato")

# The NATO spelling alphabet (ICAO), for the files a to l.
NATO = dict(
    zip(
        "abcdefghijkl",
        [
            "alfa",
            "bravo",
            "charlie",
            "delta",
            "echo",
            "foxtrot",
            "golf",
            "hotel",
            "india",
            "juliett",
            "kilo",
            "lima",
        ],
        strict=True,
    )
)
# A clock is announced as it falls below each of these (seconds left).
CLOCK_WARNINGS = (60.0, 30.0, 10.0)

SQUARE = re.compile(r"\b([a-l])(1[0-3]|[1-9])\b")
# SAN in free text (a hint, a takeback notice): a piece letter or a capture
# makes it a move and not a square; castling with an optional landing square.
SAN = re.compile(
    r"\b(?P<castle>O-O(?:-O)?(?::[a-l](?:1[0-3]|[1-9]))?)(?P<cs>[+#]?)"
    r"|\b(?P<piece>[KQRBNF])(?P<from>[a-l]?(?:1[0-3]|[1-9])?)(?P<x>x?)"
    r"(?P<to>[a-l](?:1[0-3]|[1-9]))(?P<s>[+#]?)"
    r"|\b(?P<pfile>[a-l])x(?P<pto>[a-l](?:1[0-3]|[1-9]))(?:=(?P<promo>[QRBNF]))?(?P<ps>[+#]?)"
)
LETTER_PIECES = {p.symbol.upper(): p for p in PieceType}
# "3 s" on the screen is "3 seconds" said (a speech engine reads "3 s" as "three ess").
SECONDS = re.compile(r"\b(\d+(?:\.\d+)?) s\b")
# A move as the screen names it, in SAN and by its squares ("Fxh7 – f5 to h7"):
# said once, by the squares, with the piece and a capture from the SAN.
NAMED_MOVE = re.compile(
    r"\b(?P<san>O-O(?:-O)?\S*|[KQRBNF]?[a-l]?\d*x?[a-l]\d+\S*) \N{EN DASH} "
    r"(?P<frm>[a-l](?:1[0-3]|[1-9])) to (?P<to>[a-l](?:1[0-3]|[1-9]))\b"
)


# ------------------------------------------------------------ pieces, squares, moves
def square_words(name: str, style: SquareStyle = "plain") -> str:
    """A square's name as it is said: ``"f4"``, or ``"foxtrot 4"``."""
    if style == "nato" and name[:1] in NATO:
        return f"{NATO[name[0]]} {name[1:]}"
    return name


def _squares(text: str, style: SquareStyle) -> str:
    if style == "plain":
        return text
    return SQUARE.sub(lambda m: square_words(m.group(0), style), text)


def _side_name(colour: int) -> str:
    return "White" if colour == WHITE else "Black"


def move_words(pos: Position, move: Move, style: SquareStyle = "plain") -> str:
    """A legal move of ``pos`` in words: "falcon d1 to f4, takes the pawn",
    "castles king side", "pawn e7 to e8, becomes a queen"."""
    geo = pos.geometry
    found = pos.piece_at(move.from_square)
    piece = found[0].title if found else "piece"
    frm, to = (
        square_words(geo.name(move.from_square), style),
        square_words(geo.name(move.to_square), style),
    )
    if pos.is_castling(move):
        side = "king side" if move.to_square > move.from_square else "queen side"
        return f"castles {side}, king to {to}"
    text = f"{piece} {frm} to {to}"
    if pos.is_capture(move):
        victim = pos.piece_at(move.to_square)
        text += f", takes the {victim[0].title}" if victim else ", takes the pawn en passant"
    if move.promotion is not None:
        text += f", becomes a {move.promotion.title}"
    return text


def _check_words(pos: Position, move: Move) -> str:
    """ ", check" after a move that gives check, else "" (a mate is said with
    the result)."""
    after = pos.copy()
    after.push(move)
    if after.is_check() and after.count_legal() > 0:
        return ", check"
    return ""


def said(text: str, style: SquareStyle = "plain") -> str:
    """Free text (a prompt, a notice) as it is said: any SAN in it in words,
    squares in the chosen style."""

    def one(m: re.Match[str]) -> str:
        if m.group("castle"):
            side = "queen side" if m.group("castle").startswith("O-O-O") else "king side"
            return f"castles {side}{_san_suffix(m.group('cs'))}"
        if m.group("piece"):
            piece = LETTER_PIECES[m.group("piece")].title
            where = f" from {m.group('from')}" if m.group("from") else ""
            verb = " takes" if m.group("x") else " to"
            return f"{piece}{where}{verb} {m.group('to')}{_san_suffix(m.group('s'))}"
        promo = m.group("promo")
        becomes = f", becomes a {LETTER_PIECES[promo].title}" if promo else ""
        suffix = _san_suffix(m.group("ps"))
        return f"pawn on the {m.group('pfile')} file takes {m.group('pto')}{becomes}{suffix}"

    def named(m: re.Match[str]) -> str:
        text = m.group("san")
        if text.startswith("O-O"):
            return SAN.sub(one, text)
        piece = LETTER_PIECES[text[0]].title if text[0] in LETTER_PIECES else "pawn"
        took = ", takes" if "x" in text else ""
        return f"{piece} {m.group('frm')} to {m.group('to')}{took}{_san_suffix(text[-1])}"

    return _squares(SAN.sub(one, NAMED_MOVE.sub(named, SECONDS.sub(_seconds, text))), style)


def _seconds(m: re.Match[str]) -> str:
    return f"{m.group(1)} second{'' if m.group(1) == '1' else 's'}"


def _san_suffix(mark: str) -> str:
    return {"+": ", check", "#": ", checkmate"}.get(mark, "")


# ------------------------------------------------------------ what a change says
def banner_words(state: DisplayState, style: SquareStyle = "plain") -> str:
    """The screen's banner line (:func:`~boardctl.ui.state.banner_line`) in
    words: what "say it again" says."""
    kind, text = banner_line(state)
    if kind == "engine":
        return _sentence(_engine_move_said(state, style))
    if kind == "choice":
        return _choice_said(text, state, style)
    return _sentence(said(text.replace("Check! ", "Check. "), style))


def _choice_name(choice: PieceType | str) -> str:
    return choice.title if isinstance(choice, PieceType) else choice


def _choice_said(prompt: str, state: DisplayState, style: SquareStyle) -> str:
    """The choice's prompt, its options and the one highlighted: what a
    player who cannot see the screen needs to pick with prev, next and ok,
    each said once ("Choose the new piece: queen, falcon, rook, bishop or
    knight. Queen is highlighted.": the prompt's own list of the options is
    said as the options are, not before them)."""
    names = [_choice_name(c) for c in state.choices]
    lead, _, listed = prompt.partition(": ")
    if names and listed and {n.strip().lower() for n in listed.split(",")} == set(names):
        text = f"{lead}: {_or(names)}."
    else:
        options = f" {_or(names).capitalize()}." if names else ""
        text = f"{_sentence(said(prompt, style))}{options}"
    if state.chosen is None or not names:
        return text
    return f"{text} {names[state.chosen].capitalize()} is highlighted."


def utterance(before: DisplayState | None, now: DisplayState, style: SquareStyle = "plain") -> str:
    """What to say as the state goes from ``before`` to ``now``; "" for
    nothing.  The moves played since, the engine's move to carry out, the
    banner's new text (a fix, a choice, the result) and a clock crossing a
    warning, in that order."""
    if before is None:
        return said(now.prompt, style) if now.prompt else ""
    parts = [*_moves_said(before, now, style)]
    if now.engine_move is not None and now.engine_move != before.engine_move:
        parts.append(_engine_move_said(now, style))
    if now.choices and not before.choices:
        parts.append(banner_words(now, style))
    elif now.prompt and (now.prompt, now.prompt_kind) != (before.prompt, before.prompt_kind):
        parts.append(said(now.prompt, style))
    elif now.choices and now.chosen != before.chosen and now.chosen is not None:
        parts.append(_choice_name(now.choices[now.chosen]).capitalize())
    parts += _clock_warnings(before, now)
    return " ".join(_sentence(p) for p in parts if p)


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


def _moves_said(before: DisplayState, now: DisplayState, style: SquareStyle) -> list[str]:
    """The plies played since ``before``, in words; a takeback or a new game
    said as such.  The engine's own moves were said when they were offered."""
    old, new = before.moves, now.moves
    if new[: len(old)] != old:
        if not new:
            return ["New game"]
        if old[: len(new)] == new:
            taken = len(old) - len(new)
            return ["Move taken back" if taken == 1 else f"{taken} moves taken back"]
        return []  # another game: the banner says what matters
    try:
        pos = Position(before.fen, get_variant(now.variant))
    except BoardctlError:
        return []
    out: list[str] = []
    for text in new[len(old) :]:
        try:
            move = parse_san(pos, text)
        except BoardctlError:
            return out
        mover = pos.turn
        if mover != now.engine_side:
            words = move_words(pos, move, style) + _check_words(pos, move)
            out.append(words if now.engine_side is not None else f"{_side_name(mover)}, {words}")
        elif _check_words(pos, move):
            out.append("Check")
        pos.push(move)
    return out


def _engine_move_said(now: DisplayState, style: SquareStyle) -> str:
    assert now.engine_move is not None
    text, _, _ = now.engine_move
    try:
        pos = Position(now.fen, get_variant(now.variant))
        move = parse_san(pos, text)
    except BoardctlError:
        return f"{now.opponent} plays {said(text, style)}"
    return f"{now.opponent} plays {move_words(pos, move, style)}{_check_words(pos, move)}"


def _clock_warnings(before: DisplayState, now: DisplayState) -> list[str]:
    out = []
    for colour, was, left in (
        (WHITE, before.white_clock, now.white_clock),
        (BLACK, before.black_clock, now.black_clock),
    ):
        if was is None or left is None or left <= 0:
            continue
        crossed = [w for w in CLOCK_WARNINGS if left < w <= was]
        if crossed:
            out.append(f"{_side_name(colour)} has {_duration(min(crossed))} left")
    return out


def _duration(seconds: float) -> str:
    whole = int(seconds)
    minutes, secs = divmod(whole, 60)
    if minutes and not secs:
        return "one minute" if minutes == 1 else f"{minutes} minutes"
    if minutes:
        return f"{minutes} minute{'s' * (minutes != 1)} {secs} second{'s' * (secs != 1)}"
    return f"{secs} second{'s' * (secs != 1)}"


# ------------------------------------------------------------ a blind player's questions
def last_move_words(state: DisplayState, style: SquareStyle = "plain") -> str:
    """ "Last move: White, pawn e2 to e4." from the move list and the squares."""
    if not state.moves or state.last_move is None:
        return "No move yet."
    mover = _side_name(state.turn ^ 1)
    frm, to = state.last_move
    try:
        geo = get_variant(state.variant).geometry
        pos = Position(state.fen, get_variant(state.variant))
    except BoardctlError:
        return f"Last move: {mover}, {said(state.moves[-1], style)}."
    found = pos.piece_at(to)
    piece = found[0].title if found else "piece"
    verb = "takes" if "x" in state.moves[-1] else "to"
    squares = f"{square_words(geo.name(frm), style)} {verb} {square_words(geo.name(to), style)}"
    return _sentence(f"Last move: {mover}, {piece} {squares}")


def clock_words(state: DisplayState) -> str:
    if state.white_clock is None or state.black_clock is None:
        return "No clocks."
    return (
        f"White has {_clock_time(state.white_clock)}, Black has {_clock_time(state.black_clock)}."
    )


def _clock_time(seconds: float) -> str:
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [(hours, "hour"), (minutes, "minute"), (secs, "second")]
    words = [f"{n} {unit}{'s' * (n != 1)}" for n, unit in parts if n]
    return " ".join(words) or "no time"


def turn_words(state: DisplayState) -> str:
    """Whose turn it is, with check, and whether the engine or the player moves."""
    side = _side_name(state.turn)
    who = ""
    if state.engine_side is not None:
        who = ", the engine's move" if state.turn == state.engine_side else ", your move"
    check = ", in check" if state.check_square is not None else ""
    return f"{side} to move{who}{check}."


def pieces_words(
    state: DisplayState, style: SquareStyle = "plain", colour: int | None = None
) -> str:
    """Where the pieces stand, side by side and type by type: "White: king
    e1; queen d1; falcons c1, h1; pawns a2, b2 …"."""
    parts = pieces_parts(state, style)
    if len(parts) == 1 or colour is None:
        return " ".join(parts)
    return parts[0 if colour == WHITE else 1]


def pieces_parts(state: DisplayState, style: SquareStyle = "plain") -> tuple[str, ...]:
    """:func:`pieces_words` in parts a player steps through, a side each
    (White's at the start, 39 s at 80 words a minute: each part is said
    within the speech engine's time limit)."""
    try:
        pos = Position(state.fen, get_variant(state.variant))
    except BoardctlError:
        return ("The position is not known.",)
    return tuple(_side_pieces(pos, c, style) for c in (WHITE, BLACK))


def _side_pieces(pos: Position, colour: int, style: SquareStyle) -> str:
    geo = pos.geometry
    by_type: dict[PieceType, list[str]] = {}
    for sq in range(geo.size):
        found = pos.piece_at(sq)
        if found is not None and found[1] == colour:
            by_type.setdefault(found[0], []).append(square_words(geo.name(sq), style))
    groups = [
        f"{_plural(t, len(by_type[t]))} {', '.join(by_type[t])}"
        for t in LISTING_ORDER
        if t in by_type
    ]
    return f"{_side_name(colour)}: {'; '.join(groups)}."


def _plural(piece: PieceType, count: int) -> str:
    return piece.title if count == 1 else f"{piece.title}s"


def squares_words(state: DisplayState, style: SquareStyle = "plain") -> str:
    """Where the pieces stand, square by square, rank by rank from the top
    as the FEN reads: "Rank 8: f8 black king. Rank 7: …"; empty ranks left out."""
    return " ".join(squares_parts(state, style))


def squares_parts(state: DisplayState, style: SquareStyle = "plain") -> tuple[str, ...]:
    """:func:`squares_words` in parts a player steps through, a rank each:
    the whole start position takes 61 s at 160 words a minute, 121 s at 80,
    longer than the speech engine may speak one text; its fullest rank, 16 s
    and 32 s."""
    try:
        pos = Position(state.fen, get_variant(state.variant))
    except BoardctlError:
        return ("The position is not known.",)
    geo, ranks = pos.geometry, []
    for row in geo.fen_rows():
        pieces = []
        for sq in row:
            found = pos.piece_at(sq)
            if found is not None:
                colour = _side_name(found[1]).lower()
                pieces.append(f"{square_words(geo.name(sq), style)} {colour} {found[0].title}")
        if pieces:
            ranks.append(f"Rank {geo.name(row[0])[1:]}: {', '.join(pieces)}.")
    return tuple(ranks) or ("The board is empty.",)


def destinations_words(state: DisplayState, square: int, style: SquareStyle = "plain") -> str:
    """Where the piece on ``square`` may go: "Knight b1: a3 or c3."."""
    try:
        pos = Position(state.fen, get_variant(state.variant))
    except BoardctlError:
        return "The position is not known."
    found = pos.piece_at(square)
    name = square_words(pos.geometry.name(square), style)
    if found is None:
        return f"No piece on {name}."
    targets = sorted({m.to_square for m in pos.legal_moves() if m.from_square == square})
    piece = f"{found[0].title.capitalize()} {name}"
    if not targets:
        return f"{piece} has no legal move."
    return f"{piece}: {_or(square_words(pos.geometry.name(t), style) for t in targets)}."


def _or(names: Iterable[str]) -> str:
    items = list(names)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"
