"""How one phase of reading a move becomes the next, as pure functions.

Each takes a :class:`~.phases.Phase` and what happened (a reading, a verdict
of the judgement, a change of the game) and returns the next phase, with the
events it causes where it causes any.  None reads a clock, the game or a
sensor: time and every fact about the position come in as arguments, so the
judgement in :class:`~.reconciler.Reconciler` decides *which* transition and
these say *what* it does to the phase.
"""

from __future__ import annotations

from dataclasses import replace

from ..rules import Move, PieceType, Position
from .events import ErrorShown, Event, Prompt
from .explain import Candidate, occupancy
from .guidance import Fix
from .phases import Ambiguity, Amendable, Phase, Promotion, Underway

Step = tuple[Phase, list[Event]]


def squares_of(bits: int) -> list[int]:
    """The squares of a bitboard, lowest first (as the geometries list them)."""
    return [sq for sq in range(bits.bit_length()) if bits >> sq & 1]


# ------------------------------------------------------------ the board changed
def reading_noted(p: Phase, reading: int, now: float, theirs: int, settle: float) -> Phase:
    """A new reading at ``now``; ``theirs`` are the squares of the side to move,
    whose hand on one of them ends the chance to amend the move before."""
    changed = reading ^ p.reading
    lifted, placed = squares_of(changed & p.reading), squares_of(changed & reading)
    t = p.move
    amendable = None if changed & theirs else t.amendable
    if amendable:
        amendable = replace(amendable, episode=amendable.episode.noted(lifted, placed))
    move = replace(
        t,
        episode=t.episode.noted(lifted, placed),
        amendable=amendable,
        judge_due=now + settle,
        # A promotion is judged again from this reading.
        waiting=t.waiting if isinstance(t.waiting, Ambiguity) else None,
        new_game_due=None,
        hint_due=None,
        hint=False,
        # Grace runs for one unexplained reading.
        unexplained_since=t.unexplained_since if t.fix else None,
    )
    # The hint was for the reading before.
    return replace(p, reading=reading, changed_at=now, prompt="" if t.hint else p.prompt, move=move)


def grace_end(p: Phase, grace: float) -> float | None:
    """When the grace period of an unexplained, settled reading runs out."""
    t = p.move
    if t.unexplained_since is None or t.fix is not None or t.judge_due is not None:
        return None
    return t.unexplained_since + grace


def next_deadline(p: Phase, grace: float) -> float | None:
    """The earliest time at which a timer of ``p`` runs out."""
    t = p.move
    times = [
        t.judge_due,
        t.waiting.deadline if isinstance(t.waiting, Promotion) else None,
        t.new_game_due,
        t.hint_due,
        grace_end(p, grace),
    ]
    return min((x for x in times if x is not None), default=None)


def settled(p: Phase) -> Phase:
    """The reading has settled and is being judged: a capture square asked
    for is judged again from it."""
    t = p.move
    waiting = None if isinstance(t.waiting, Ambiguity) else t.waiting
    return replace(p, move=replace(t, judge_due=None, waiting=waiting))


def resettle(p: Phase, settle: float) -> Phase:
    """Judge the reading again once it has settled (a quick reply, an
    engine move offered): no grace and no fix carry over."""
    p = replace(p, move=replace(p.move, judge_due=p.changed_at + settle, unexplained_since=None))
    return fix_cleared(p)


# ------------------------------------------------------------ the game changed
def committed(p: Phase, c: Candidate, before: Position, by_engine: bool) -> Phase:
    """``c`` was played from ``before``.  A new position: nothing of the move
    before carries over but the timers still running on the reading and, for
    a human move, the chance to amend it."""
    t = p.move
    # A promotion piece picked ahead is for a promotion still to come: a
    # quick reply may pick it before the move it answers is committed.
    ahead = not c.move.promotion
    move = replace(
        t.kept_over_change(),
        amendable=None if by_engine else Amendable(c.move, before, t.episode),
        choice=t.choice if ahead else None,
        highlight=t.highlight if ahead else None,
    )
    return replace(
        p,
        engine_move=None,
        taking_back=False,
        history=(*p.history, (occupancy(before), c.footprint)),
        move=move,
    )


def taken_back(p: Phase) -> Phase:
    """The game's last move was taken back."""
    return replace(
        p,
        engine_move=None,
        taking_back=False,
        history=p.history[:-1],
        move=p.move.kept_over_change(),
    )


def new_game(p: Phase) -> Phase:
    return replace(
        p,
        prompt="",
        engine_move=None,
        taking_back=False,
        history=(),
        move=p.move.kept_over_change(),
    )


def reply_split(p: Phase, reply: Phase, keep_choice: bool) -> Phase:
    """After committing the move a quick reply followed: the changes since it
    showed are the reply's, judged at once; ``reply`` is the phase before the
    commit, whose promotion piece, if picked after, is the replier's."""
    t = reply.move
    move = replace(p.move, episode=t.episode.since(t.tentative_at), judge_due=None)
    if keep_choice:
        move = replace(move, choice=t.choice, choice_at=t.choice_at)
    return replace(p, move=move)


# ------------------------------------------------------------ verdicts
def synced(p: Phase, over: bool) -> Phase:
    """The board shows the game's position: only the amendable move (and a
    promotion piece picked ahead) outlive this."""
    t = p.move
    move = Underway(
        judge_due=t.judge_due, amendable=t.amendable, choice=t.choice, highlight=t.highlight
    )
    if over:
        return replace(p, move=move)  # the result stays on show
    return replace(p, prompt="", move=move)


def prompted(p: Phase, text: str) -> Step:
    if text == p.prompt:
        return p, []
    return replace(p, prompt=text), [Prompt(text)]


def fix_cleared(p: Phase) -> Phase:
    if p.move.fix is None:
        return p
    return replace(p, prompt="", move=replace(p.move, fix=None))


def fix_shown(p: Phase, fix: Fix) -> Step:
    if fix == p.move.fix:
        return p, []
    return replace(p, prompt=fix.text, move=replace(p.move, fix=fix)), [ErrorShown(fix.text)]


def unexplained(p: Phase) -> Phase:
    """No position the game accepts: the grace period starts, if it has not."""
    since = p.move.unexplained_since
    move = p.move if since is not None else replace(p.move, unexplained_since=p.changed_at)
    return replace(p, move=move)


def fix_due(p: Phase, now: float, grace: float) -> bool:
    """Is a fix to be shown (again) for an unexplained reading?"""
    since = p.move.unexplained_since
    return p.move.fix is not None or (since is not None and now >= since + grace)


def busy(p: Phase, hint_due: float | None = None) -> Phase:
    """A stage of a move: wait, without grace; a capture whose target has
    not been seen yet is explained by a hint at ``hint_due``."""
    return fix_cleared(replace(p, move=replace(p.move, unexplained_since=None, hint_due=hint_due)))


def new_game_held(p: Phase, hold: float) -> Step:
    """The start position set up mid-game: a new game if it is held."""
    p = fix_cleared(
        replace(p, move=replace(p.move, new_game_due=p.changed_at + hold, unexplained_since=None))
    )
    return prompted(p, f"Keep the start position for {hold:g} s for a new game")


def over(p: Phase, text: str) -> Step:
    """The game has ended and the board shows its last position."""
    return prompted(p, f"{text[0].upper()}{text[1:]}. Set up the pieces for a new game")


def promotion_asked(p: Phase, picked: tuple[Candidate, ...], deadline: float) -> Step:
    p = replace(p, move=replace(p.move, waiting=Promotion(picked, deadline)))
    names = ", ".join(c.move.promotion.title for c in picked if c.move.promotion)
    return prompted(p, f"Choose the new piece: {names}")


def capture_square_asked(p: Phase, picked: tuple[Candidate, ...], piece: str) -> Step:
    p = replace(p, move=replace(p.move, waiting=Ambiguity(picked)))
    return prompted(p, f"Which piece did the {piece} take? Lift it and put it down on that square")


def hint_given(p: Phase, text: str) -> Step:
    return prompted(replace(p, move=replace(p.move, hint=True)), text)


# ------------------------------------------------------------ the player's hands
def tentative_shown(p: Phase, c: Candidate) -> Phase:
    """The board shows ``c``, not yet settled."""
    return replace(p, move=replace(p.move, tentative=c, tentative_at=p.move.episode.count))


def chosen(p: Phase, piece: PieceType, pending: Candidate | None) -> Phase:
    """The player picked ``piece``; ``pending`` is the move last shown, with
    the piece it promotes to as it now stands."""
    return replace(
        p, move=replace(p.move, choice=piece, choice_at=p.move.episode.count, tentative=pending)
    )


def highlighted(p: Phase, piece: PieceType) -> Phase:
    return replace(p, move=replace(p.move, highlight=piece))


def sealed(p: Phase) -> Phase:
    """The last move is final: the board no longer reads another move of
    the same player as its amendment (remote play sends it on)."""
    return replace(p, move=replace(p.move, amendable=None))


def held(p: Phase, now: float, promotion_wait: float, new_game_hold: float) -> Phase:
    """The player is still hearing the words a wait began with: the wait
    for a promotion piece and the hold of the start position for a new game
    count from ``now``, so that each starts when the voice has finished."""
    t = p.move
    waiting, due = t.waiting, t.new_game_due
    if isinstance(waiting, Promotion):
        waiting = replace(waiting, deadline=max(waiting.deadline, now + promotion_wait))
    if due is not None:
        due = max(due, now + new_game_hold)
    if waiting is t.waiting and due == t.new_game_due:
        return p
    return replace(p, move=replace(t, waiting=waiting, new_game_due=due))


def engine_move_offered(p: Phase, move: Move, settle: float) -> Phase:
    """The engine's move, for the player to carry out: the reading is judged
    again against it."""
    return replace(p, engine_move=move, move=replace(p.move, judge_due=p.changed_at + settle))


def takeback_asked(p: Phase, settle: float) -> Phase:
    """The player is to take the last move back: the reading is judged again
    (a fix on show now leads to the position before that move)."""
    return replace(p, taking_back=True, move=replace(p.move, judge_due=p.changed_at + settle))


def offer_withdrawn(p: Phase, settle: float) -> Phase:
    """Neither the move offered nor the takeback asked for is wanted now: the
    reading is judged again against the game's own position, and a stage of
    that move the board showed is no move of anyone's."""
    move = replace(p.move, judge_due=p.changed_at + settle, tentative=None)
    return replace(p, engine_move=None, taking_back=False, move=move)


# ------------------------------------------------------------ timers run out
def waiting_ended(p: Phase) -> Phase:
    return replace(p, move=replace(p.move, waiting=None))


def hold_ended(p: Phase) -> Phase:
    return replace(p, move=replace(p.move, new_game_due=None))


def hint_ended(p: Phase) -> Phase:
    return replace(p, move=replace(p.move, hint_due=None))


def amending(p: Phase) -> Phase:
    """The amended move left the game; the move it turned out to be is
    committed next, from the same episode."""
    return replace(p, history=p.history[:-1])
