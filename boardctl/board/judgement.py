"""The judgement: ``feed(phase, event, view) -> (phase, actions)``.

Which transition of :mod:`.transitions` a reading, a timer or a choice calls
for, decided from the phase and a :class:`~.machine.View` of the game, and
what the shell is to do about it (:mod:`.machine`).  Each event becomes a
list of stages run in order; a stage that changes the game ends the run,
and the stages left (after the change's own ``AFTER_CHANGE``) come back to
the shell as a :class:`~.machine.Continue`, since they must see the game
as changed.  The order of the stages is the order in which the reconciler
always judged: timers due before a reading belong to the reading before it.
"""

from __future__ import annotations

from ..rules import PieceType, san
from . import transitions as tr
from .diagnosis import diagnose, engine_turn_fix, play_given
from .events import Event, GameOver, MoveAmended, MoveMade
from .explain import Candidate, Explainer, occupancy
from .guidance import Fix, piece_name
from .machine import (
    GAME_CHANGES,
    TIMERS,
    Action,
    Amend,
    Arrived,
    Choose,
    Chosen,
    Continue,
    Due,
    Emit,
    EngineMoveOffered,
    Highlighted,
    Input,
    MoverDone,
    Noted,
    OfferWithdrawn,
    Play,
    Reading,
    ReplySplit,
    Resumed,
    Stage,
    StartNewGame,
    TakeBack,
    TakebackAsked,
    TheirHand,
    Then,
    Tick,
    View,
)
from .phases import Phase, Promotion, State, verdict
from .picking import one_move, pick, same_squares
from .questions import (
    allowed,
    explained,
    illegal,
    in_progress,
    picked,
    promoting_now,
    promotion_piece,
    proven,
    reply_chose,
)

Step = tuple[Phase, list[Action], tuple[Stage, ...]]
"""A stage's result: the phase, the actions, and the stages it adds in front."""


def feed(p: Phase, event: Input, view: View) -> tuple[Phase, list[Action]]:
    """Handle one event; return the next phase and what to do, in order."""
    match event:
        case Reading(reading, now):
            # Timers that ran out before this reading came belong to the last one.
            return run(p, (*TIMERS, Arrived(reading), *TIMERS), now, view)
        case Tick(now):
            return run(p, TIMERS, now, view)
        case Chosen(piece, now):
            return run(p, (Choose(piece),), now, view)
        case Highlighted(piece):
            return tr.highlighted(p, piece), []
        case EngineMoveOffered(move):
            return tr.engine_move_offered(p, move, view.config.settle), []
        case TakebackAsked():
            return tr.takeback_asked(p, view.config.settle), []
        case OfferWithdrawn():
            return tr.offer_withdrawn(p, view.config.settle), []
        case Resumed(stages, now):
            return run(p, stages, now, view)


def run(p: Phase, stages: tuple[Stage, ...], now: float, view: View) -> tuple[Phase, list[Action]]:
    """Run ``stages`` in order, until one changes the game."""
    actions: list[Action] = []
    while stages:
        p, done, added = stage(p, stages[0], now, view)
        actions += done
        stages = added + stages[1:]
        if done and isinstance(done[-1], GAME_CHANGES):
            if stages:
                actions.append(Continue(Resumed(stages, now)))
            break
    return p, actions


def stage(p: Phase, s: Stage, now: float, view: View) -> Step:
    """One stage of a decision."""
    match s:
        case Due():
            return timer(p, s, now, view)
        case Then.AFTER_CHANGE:
            return after_change(p, view)
        case Then.JUDGE:
            return judge(p, now, view)
        case Then.QUICK_REPLY:
            return quick_reply(p, view)
        case Arrived(reading):
            if reading == p.reading:
                return p, [], ()
            changed = reading ^ p.reading
            return p, [], (MoverDone(changed), TheirHand(changed), Noted(reading), Then.QUICK_REPLY)
        case MoverDone(changed):
            return mover_done(p, changed, view)
        case TheirHand(changed):
            if p.move.amendable and changed & view.theirs and p.reading != view.explainer.base:
                # The opponent's hand ends the chance to amend: an amendment
                # the board shows already (the king put beside the rook moved
                # first, not yet settled) is taken as it stands.
                return try_amend(p, view) or (p, [], ())
            return p, [], ()
        case Noted(reading):
            return tr.reading_noted(p, reading, now, view.theirs, view.config.settle), [], ()
        case ReplySplit(shown, keep_choice):
            return tr.reply_split(p, shown, keep_choice), [], ()
        case Choose(piece):
            return choose(p, piece, view)


def timer(p: Phase, due: Due, now: float, view: View) -> Step:
    """``due``'s timer, if it has run out by ``now``."""
    t = p.move
    match due:
        case Due.JUDGE if t.judge_due is not None and now >= t.judge_due:
            return judge(p, now, view)
        case Due.PROMOTION if isinstance(t.waiting, Promotion) and now >= t.waiting.deadline:
            return promote(p, view, promotion_piece(p, view))
        case Due.NEW_GAME if t.new_game_due is not None and now >= t.new_game_due:
            return start_new_game(p, view)
        case Due.HINT if t.hint_due is not None and now >= t.hint_due:
            return capture_hint(p, view)
        case Due.GRACE:
            grace_end = tr.grace_end(p, view.config.grace)
            if grace_end is not None and now >= grace_end:
                return show_fix(p, view)
    return p, [], ()


def emitted(p: Phase, events: list[Event]) -> Step:
    return p, [Emit(tuple(events))] if events else [], ()


# ------------------------------------------------------------ the hands
def mover_done(p: Phase, changed: int, view: View) -> Step:
    """The opponent's hand on one of their own pieces says the mover is
    done: a promotion that waits only for the mover's choice is taken
    with the piece highlighted."""
    waiting = p.move.waiting
    if view.engine_side is not None or not isinstance(waiting, Promotion):
        return p, [], ()
    if not one_move(waiting.candidates):
        return p, [], ()  # which capture is still the mover's to show
    sample = waiting.candidates[0]
    pos = view.position
    theirs = pos.colors[1 - pos.turn] & sample.after & ~sample.footprint
    if not changed & theirs:
        return p, [], ()
    p = tr.waiting_ended(p)
    return commit(p, view, promoting_now(p, view, waiting.candidates))


def quick_reply(p: Phase, view: View) -> Step:
    """Accept the engine's move the moment the board shows it, and note the
    move the board shows now, unsettled (see :func:`reply_started`)."""
    ex = view.explainer
    if not view.human_to_move and p.engine_move is not None:
        engine = [c for c in ex.candidates if c.move == p.engine_move]
        if p.reading == engine[0].after and p.move.episode.proves(engine[0]):
            return commit(p, view, engine[0], by_engine=True)
        return tr.tentative_shown(p, engine[0]), [], ()
    matches = proven(p, view, ex.matches(p.reading))
    if len(matches) > 1:
        # Twins (a rook move and a castling that fill the same squares):
        # the squares handled decide, as they do once settled.
        matches = picked(p, view, matches)
    if len(matches) == 1:
        return tr.tentative_shown(p, matches[0]), [], ()
    if matches and view.engine_side is None and one_move(matches):
        # A pawn on the last rank: an opponent who reaches for a piece
        # before it settles takes the promotion piece as it stands.
        return tr.tentative_shown(p, promoting_now(p, view, matches)), [], ()
    # Else the move last shown stays: whether a hand on its squares is
    # the mover going on or the opponent taking the piece that just
    # moved, only the settled reading can tell (:func:`reply_started`).
    return p, [], ()


def choose(p: Phase, piece: PieceType, view: View) -> Step:
    """The player picked a promotion piece (before or during the promotion);
    one the preset does not promote to (a queen on the hexagon) is no choice."""
    if piece not in view.promotions:
        return p, [], ()
    pending = p.move.tentative
    if pending is not None and pending.move.promotion and not reply_chose(p):
        # The piece picked so far is the pending promotion's: keep it
        # there, since a pick after the reply began is the replier's.
        pending = promoting_now(p, view, same_squares(view.explainer, pending))
    p = tr.chosen(p, piece, pending)
    if isinstance(p.move.waiting, Promotion):
        return promote(p, view, piece)
    return p, [], ()


# ------------------------------------------------------------ a settled reading
def judge(p: Phase, now: float, view: View) -> Step:
    """The reading has settled: decide what it is (see :mod:`.reconciler`)."""
    p = tr.settled(p)
    reading, ex = p.reading, view.explainer
    if reading == ex.base:
        return tr.synced(p, view.outcome is not None), [], ()
    reply = reply_started(p, view)
    if reply is not None:
        return reply
    # A capture not yet seen is a piece in the air: a stage, below.
    matches = proven(p, view, ex.matches(reading))
    if matches:
        if illegal(p, view, matches) is None:
            return take(p, view, matches, now)
        return unexplained(p, now, view)  # a castling the rules forbid
    amend = try_amend(p, view)
    if amend is not None:
        return amend
    if view.config.allow_takeback and p.history and reading == p.history[-1][0]:
        return take_back(p)
    return judge_rest(p, now, view)


def reply_started(shown: Phase, view: View) -> Step | None:
    """The settled reading makes sense only after the move last shown (or
    the engine's): the reply began before that move settled.  Commit it,
    then judge the rest.  Decided only now, once settled: a nudge of an
    opponent's piece in the middle of a slide must not end the move."""
    pending, reading = shown.move.tentative, shown.reading
    ex = view.explainer
    if pending is None or reading == ex.base or allowed(shown, view, ex.matches(reading)):
        return None
    keep_choice = reply_chose(shown)
    if pending.move.promotion and not keep_choice:  # chosen since the pawn landed
        pending = promoting_now(shown, view, same_squares(ex, pending))
    # After the piece it promotes to: a queen may pin what a falcon does not.
    after = view.position.copy()
    after.push(pending.move)
    later = Explainer(after)
    # What the hands did once that move was on the board is the reply's.
    reply = shown.move.episode.since(shown.move.tentative_at)
    # A reading that is a whole reply wins over a stage of the mover's:
    # after b7xc8, the rook on a8 and the pawn on c8 lifted is the reply
    # a8xc8 begun, not the pawn still in the air to take on a8.  A
    # reading that is no whole reply is one only if it is nothing now.
    whole = reading == later.base or any(reply.proves(c) for c in later.matches(reading))
    if not whole and (explained(shown, view, reading) or not later.in_progress(reading)):
        return None
    p, actions, added = commit(shown, view, pending)
    return p, actions, (*added, ReplySplit(shown, keep_choice), Then.JUDGE)


def take(p: Phase, view: View, matches: list[Candidate], now: float) -> Step:
    """A legal move fits: commit it, or ask which square or which piece."""
    chosen = picked(p, view, matches)
    if not one_move(chosen):
        piece = piece_name(view.position, chosen[0].from_square)
        p, events = tr.capture_square_asked(p, tuple(chosen), piece)
        return emitted(p, events)
    if len(chosen) > 1:  # one square, several promotion pieces
        choice = p.move.choice
        if choice is not None:
            return promote(p, view, choice, tuple(chosen))
        deadline = now + view.config.promotion_wait
        p, events = tr.promotion_asked(p, tuple(chosen), deadline)
        return emitted(p, events)
    return commit(p, view, chosen[0])


def promote(
    p: Phase, view: View, piece: PieceType, candidates: tuple[Candidate, ...] | None = None
) -> Step:
    """Commit one of ``candidates`` (by default the promotion waiting):
    the one that promotes to ``piece``, else to the default piece."""
    waiting = p.move.waiting
    pool = candidates or (waiting.candidates if isinstance(waiting, Promotion) else ())
    p = tr.waiting_ended(p)
    chosen = [c for c in pool if c.move.promotion == piece] or [
        c for c in pool if c.move.promotion == view.default_promotion
    ]
    if not chosen:
        return p, [], ()
    return commit(p, view, chosen[0])


def try_amend(p: Phase, view: View) -> Step | None:
    """The reading is another move from the position before the amendable
    one (or that position itself: a takeback)."""
    amendable = p.move.amendable
    if amendable is None:
        return None
    before = view.explain_before(amendable.before)
    if p.reading == before.base:
        return take_back(p)
    matches = [
        c
        for c in before.matches(p.reading)
        if c.move != amendable.move and amendable.episode.proves(c)
    ]
    if not matches:
        return None
    chosen = pick(matches, amendable.episode, before.base)
    if len({c.move for c in chosen}) != 1:
        return None
    new = chosen[0]
    pos = amendable.before
    event = MoveAmended(
        amendable.move, new.move, pos.uci(amendable.move), pos.uci(new.move), san(pos, new.move)
    )
    # The amended move leaves the game; the one it turned out to be is
    # committed from the same episode, from the position before.
    p = tr.committed(tr.amending(p), new, pos.copy(), by_engine=False)
    return p, [Amend(event)], (Then.AFTER_CHANGE,)


def judge_rest(p: Phase, now: float, view: View) -> Step:
    """A settled reading that is no move, amendment or takeback."""
    reading = p.reading
    if reading == view.start and view.played and not view.config.stepping:
        if view.outcome is not None:
            return start_new_game(p, view)
        p, events = tr.new_game_held(p, view.config.new_game_hold)
        return emitted(p, events)
    if in_progress(p, view, reading):
        unseen = bool(allowed(p, view, view.explainer.matches(reading)))  # none proven
        hint_due = p.changed_at + view.config.grace if unseen else None
        return tr.busy(p, hint_due), [], ()
    if view.outcome is not None:
        return p, [], ()  # no move after the game ended: nothing to fix
    return unexplained(p, now, view)


def capture_hint(p: Phase, view: View) -> Step:
    """The reading is a piece in the air that could capture, and has been
    for the grace period: say how a capture is shown, in case the pieces
    were swapped without the target square ever reading empty."""
    p = tr.hint_ended(p)
    unseen = allowed(p, view, view.explainer.matches(p.reading))
    if (
        not unseen
        or verdict(p, occupancy(view.position), view.outcome is not None) is not State.BUSY
    ):
        return p, [], ()
    pos = view.position
    piece = piece_name(pos, unseen[0].from_square)
    targets = sorted({c.capture for c in unseen})
    if len(targets) == 1:
        victim, at = piece_name(pos, targets[0]), pos.geometry.name(targets[0])
        text = (
            f"To take the {victim} on {at}, lift it off the board, then put the {piece} down there"
        )
    else:
        text = (
            f"To take a piece with the {piece}, lift that piece off the board, "
            f"then put the {piece} down on its square"
        )
    if p.engine_move is not None:
        text = f"{play_given(view.config.stepping, view.config.opponent)}. {text}"
    p, events = tr.hint_given(p, text)
    return emitted(p, events)


def unexplained(p: Phase, now: float, view: View) -> Step:
    """No position the game accepts: a fix, once the grace period is over."""
    p = tr.unexplained(p)
    if tr.fix_due(p, now, view.config.grace):
        return show_fix(p, view)
    return p, [], ()


def show_fix(p: Phase, view: View) -> Step:
    fix = diagnosed(p, view)
    if fix is None:
        return p, [], ()
    p, events = tr.fix_shown(p, fix)
    return emitted(p, events)


def diagnosed(p: Phase, view: View) -> Fix | None:
    pos, reading = view.position, p.reading
    recent = list(p.move.episode.recent)
    if not view.human_to_move:
        config = view.config
        return engine_turn_fix(
            pos, reading, recent, p.engine_move, p.taking_back, config.stepping, config.opponent
        )
    castling = illegal(p, view, allowed(p, view, view.explainer.matches(reading)))
    return diagnose(pos, reading, recent, castling)


# ------------------------------------------------------------ changing the game
def commit(p: Phase, view: View, c: Candidate, by_engine: bool | None = None) -> Step:
    """Play ``c`` (by the side to move: the engine's, unless a human's)."""
    pos = view.position
    by_engine = not view.human_to_move if by_engine is None else by_engine
    event = MoveMade(c.move, pos.uci(c.move), san(pos, c.move), by_engine)
    p = tr.committed(p, c, pos.copy(), by_engine)
    return p, [Play(event)], (Then.AFTER_CHANGE,)


def take_back(p: Phase) -> Step:
    return tr.taken_back(p), [TakeBack()], (Then.AFTER_CHANGE,)


def start_new_game(p: Phase, view: View) -> Step:
    p = tr.hold_ended(p)
    if p.reading != view.start:
        return p, [], ()
    return tr.new_game(p), [StartNewGame()], (Then.AFTER_CHANGE,)


def after_change(p: Phase, view: View) -> Step:
    """After the game changed: judge the reading again from the new position."""
    events: list[Event] = []
    outcome = view.outcome
    if outcome is not None:
        events.append(GameOver(outcome))
    if p.reading == view.explainer.base:
        p = tr.synced(p, outcome is not None)
        if outcome is not None:
            p, shown = tr.over(p, str(outcome))
            events += shown
        return emitted(p, events)
    # Judge the rest (a quick reply) once it has settled.
    return emitted(tr.resettle(p, view.config.settle), events)
