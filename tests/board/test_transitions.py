"""The reconciler's transitions as values: (phase, what happened) -> (phase, events).

The functions of boardctl.board.transitions read no clock and no game, so
each is checked here on phases built by hand, and the reconciler's own phase
is checked to be what they make of the same readings.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardctl.board import ErrorShown, Prompt, Reconciler, State
from boardctl.board import transitions as tr
from boardctl.board.explain import Candidate, Explainer, occupancy
from boardctl.board.guidance import Fix
from boardctl.board.phases import (
    NO_EPISODE,
    Ambiguity,
    Amendable,
    Episode,
    Phase,
    Promotion,
    Underway,
    verdict,
)
from boardctl.rules import Game, PieceType, Position, get_variant, parse_uci

from .helpers import Table, run
from .test_properties import CONFIG, Step, games, handlings

START = Position(None, get_variant("falcon"))
BASE = occupancy(START)
SETTLE, GRACE = 0.3, 1.5


# A whole move carried out by hand is slow to draw and a large example.
HANDS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def sq(name: str) -> int:
    return START.geometry.parse_square(name)


def candidate(uci: str, pos: Position = START) -> Candidate:
    move = parse_uci(pos, uci)
    return next(c for c in Explainer(pos).candidates if c.move == move)


def amendable() -> Amendable:
    return Amendable(parse_uci(START, "e2e4"), START, NO_EPISODE)


# ------------------------------------------------------------ readings
def test_a_reading_notes_its_changes_and_restarts_the_settle_timer():
    p = Phase(BASE)
    lifted = BASE & ~(1 << sq("e2"))
    p = tr.reading_noted(p, lifted, 1.0, theirs=0, settle=SETTLE)
    p = tr.reading_noted(p, lifted | 1 << sq("e4"), 1.5, theirs=0, settle=SETTLE)
    assert (p.reading, p.changed_at, p.move.judge_due) == (lifted | 1 << sq("e4"), 1.5, 1.8)
    assert p.move.episode.recent == (sq("e2"), sq("e4"))
    assert p.move.episode.placed == (sq("e4"),)
    assert p.move.episode.handled_after(sq("e4"), sq("e2"))


def test_a_reading_drops_what_was_for_the_reading_before():
    fix = Fix(1, 2, "Move it")
    promotion = Promotion((candidate("e2e4"),), deadline=9.0)
    p = Phase(
        BASE,
        prompt="To take the pawn ...",
        move=Underway(
            waiting=promotion, new_game_due=5.0, hint_due=4.0, hint=True, unexplained_since=2.0
        ),
    )
    after = tr.reading_noted(p, BASE ^ 1, 3.0, theirs=0, settle=SETTLE).move
    assert after.waiting is None and after.new_game_due is None and after.hint_due is None
    assert not after.hint and after.unexplained_since is None
    assert tr.reading_noted(p, BASE ^ 1, 3.0, 0, SETTLE).prompt == ""
    # A capture square asked for, and the grace of a fix on show, carry on.
    ambiguity = Ambiguity((candidate("e2e4"),))
    kept = replace(
        p, prompt="Which piece?", move=Underway(waiting=ambiguity, fix=fix, unexplained_since=2.0)
    )
    noted = tr.reading_noted(kept, BASE ^ 1, 3.0, theirs=0, settle=SETTLE)
    assert noted.move.waiting == ambiguity and noted.move.unexplained_since == 2.0
    assert noted.prompt == "Which piece?" and noted.move.fix == fix


def test_the_opponents_hand_ends_the_chance_to_amend():
    p = Phase(BASE, move=Underway(amendable=amendable()))
    mine = tr.reading_noted(p, BASE & ~(1 << sq("d2")), 1.0, theirs=1 << sq("e7"), settle=SETTLE)
    assert mine.move.amendable is not None
    assert mine.move.amendable.episode.recent == (sq("d2"),)
    theirs = tr.reading_noted(p, BASE & ~(1 << sq("e7")), 1.0, theirs=1 << sq("e7"), settle=SETTLE)
    assert theirs.move.amendable is None


@given(st.lists(st.integers(0, 79), min_size=1, max_size=40))
def test_the_episode_lists_each_square_once_in_the_order_it_last_changed(toggles):
    p, reading = Phase(BASE), BASE
    for n, square in enumerate(toggles):
        reading ^= 1 << square
        p = tr.reading_noted(p, reading, n * 0.1, theirs=0, settle=SETTLE)
    last = {square: n for n, square in enumerate(toggles)}
    assert list(p.move.episode.recent) == sorted(last, key=last.__getitem__)
    assert p.move.episode.count == len(toggles)
    assert p.reading == reading


# ------------------------------------------------------------ timers
def test_the_deadline_is_the_earliest_timer_and_grace_waits_for_the_settle():
    p = Phase(BASE, move=Underway(judge_due=2.0, unexplained_since=0.1, hint_due=3.0))
    assert tr.grace_end(p, GRACE) is None  # the reading has not settled
    assert tr.next_deadline(p, GRACE) == 2.0
    p = tr.settled(p)
    assert tr.grace_end(p, GRACE) == 1.6 and tr.next_deadline(p, GRACE) == 1.6
    p = replace(p, move=Underway(waiting=Promotion((), deadline=0.5), new_game_due=4.0))
    assert tr.next_deadline(p, GRACE) == 0.5
    assert tr.next_deadline(Phase(BASE), GRACE) is None


def test_a_settled_reading_asks_again_for_a_capture_square_but_not_for_a_promotion():
    ambiguity = Phase(BASE, move=Underway(judge_due=1.0, waiting=Ambiguity(())))
    promotion = Phase(BASE, move=Underway(judge_due=1.0, waiting=Promotion((), 5.0)))
    assert tr.settled(ambiguity).move == Underway()
    assert tr.settled(promotion).move == Underway(waiting=Promotion((), 5.0))


# ------------------------------------------------------------ verdicts
def test_synced_keeps_only_the_amendable_move_and_the_piece_picked_ahead():
    full = Underway(
        episode=Episode((1,), (1,), {1: 1}, 1),
        judge_due=1.0,
        amendable=amendable(),
        choice=PieceType.ROOK,
        highlight=PieceType.FALCON,
        fix=Fix(1, None, "x"),
        unexplained_since=0.5,
        hint=True,
    )
    p = Phase(BASE, prompt="x", move=full)
    done = tr.synced(p, over=False)
    assert verdict(done, BASE, over=False) is State.SYNCED and done.prompt == ""
    assert done.move == Underway(
        judge_due=1.0, amendable=full.amendable, choice=PieceType.ROOK, highlight=PieceType.FALCON
    )
    ended = tr.synced(replace(p, prompt="White wins"), over=True)
    assert verdict(ended, BASE, over=True) is State.GAME_OVER and ended.prompt == "White wins"


def label(p: Phase) -> State:
    """The reconciler's label for ``p``, in a game at the start position."""
    return verdict(p, BASE, over=False)


def test_a_prompt_or_a_fix_is_told_once():
    p, events = tr.prompted(Phase(BASE), "Choose the new piece: Queen")
    assert events == [Prompt("Choose the new piece: Queen")]
    assert tr.prompted(p, p.prompt) == (p, [])
    fix = Fix(sq("e4"), sq("e2"), "Move the pawn from e4 back to e2")
    shown, events = tr.fix_shown(Phase(BASE), fix)
    assert events == [ErrorShown(fix.text)]
    assert (label(shown), shown.prompt, shown.move.fix) == (State.ERROR, fix.text, fix)
    assert tr.fix_shown(shown, fix) == (shown, [])
    cleared = tr.fix_cleared(shown)
    assert cleared.move.fix is None and cleared.prompt == ""


def test_grace_starts_with_the_first_unexplained_reading_and_runs_out():
    p = tr.unexplained(Phase(BASE, changed_at=2.0))
    assert label(p) is State.UNEXPLAINED and p.move.unexplained_since == 2.0
    assert tr.unexplained(replace(p, changed_at=3.0)).move.unexplained_since == 2.0
    assert not tr.fix_due(p, 3.4, GRACE)
    assert tr.fix_due(p, 3.5, GRACE)
    assert tr.fix_due(replace(p, move=replace(p.move, fix=Fix(1, 2, "x"))), 2.0, GRACE)


def test_stages_and_holds_and_choices_say_what_they_wait_for():
    p = Phase(
        BASE ^ 1,  # a piece in the air
        changed_at=1.0,
        prompt="fix",
        move=Underway(fix=Fix(1, 2, "fix"), unexplained_since=0.5),
    )
    busy = tr.busy(p, hint_due=2.5)
    assert (label(busy), busy.prompt, busy.move.fix) == (State.BUSY, "", None)
    assert busy.move.hint_due == 2.5 and busy.move.unexplained_since is None
    held, events = tr.new_game_held(p, 3.0)
    assert label(held) is State.BUSY and held.move.new_game_due == 4.0
    assert events == [Prompt("Keep the start position for 3 s for a new game")]
    picks = (candidate("e2e4"),)
    asked, events = tr.promotion_asked(Phase(BASE), picks, deadline=6.0)
    assert label(asked) is State.CHOOSING and asked.move.waiting == Promotion(picks, 6.0)
    which, events = tr.capture_square_asked(Phase(BASE), picks, "Rook")
    assert which.move.waiting == Ambiguity(picks)
    assert events == [
        Prompt("Which piece did the Rook take? Lift it and put it down on that square")
    ]


# ------------------------------------------------------------ the game changed
def test_a_committed_move_may_be_amended_only_if_a_human_made_it():
    episode = Episode((sq("e2"), sq("e4")), (sq("e4"),), {sq("e2"): 1, sq("e4"): 2}, 2)
    c = candidate("e2e4")
    p = Phase(
        BASE,
        engine_move=c.move,
        move=Underway(
            episode=episode,
            judge_due=1.0,
            fix=Fix(1, 2, "x"),
            choice=PieceType.ROOK,
            tentative=c,
            hint=True,
        ),
    )
    human = tr.committed(p, c, START, by_engine=False)
    assert human.move == Underway(
        judge_due=1.0,
        fix=p.move.fix,
        choice=PieceType.ROOK,
        amendable=Amendable(c.move, START, episode),
    )
    assert human.history == ((BASE, c.footprint),) and human.engine_move is None
    assert tr.committed(p, c, START, by_engine=True).move.amendable is None
    assert tr.taken_back(human).history == ()
    assert tr.taken_back(human).move == Underway(judge_due=1.0, fix=p.move.fix)
    assert tr.amending(human).history == () and tr.amending(human).move == human.move


def test_a_promotion_takes_the_piece_picked_ahead_with_it():
    pos = Position("k9/3P6/10/10/10/10/10/9K w - - 0 1", get_variant("falcon"))
    c = candidate("d7d8r", pos)
    p = Phase(occupancy(pos), move=Underway(choice=PieceType.ROOK, highlight=PieceType.ROOK))
    after = tr.committed(p, c, pos, by_engine=False).move
    assert after.choice is None and after.highlight is None


# ------------------------------------------------------------ the shell follows them
def test_the_reconcilers_phase_is_what_the_transitions_make_of_its_readings():
    t = Table()
    before = t.rec.phase
    t.lift("e2")
    theirs = t.game.position.colors[t.game.position.turn]
    noted = tr.reading_noted(before, t.reading, t.now, theirs, SETTLE)
    assert t.rec.phase == noted
    t.wait(1)
    assert t.rec.phase == tr.busy(tr.settled(noted))
    assert t.rec.state is State.BUSY


def test_the_reconcilers_commit_is_the_committed_transition():
    t = Table()
    t.move("e2", "e4")
    shown = t.rec.phase
    assert shown.move.tentative is not None
    assert shown.move.tentative.move == parse_uci(START, "e2e4")
    t.wait(1)
    amended = t.rec.phase.move.amendable
    assert amended is not None and amended.before.fen() == START.fen()
    c = shown.move.tentative
    expected = tr.synced(tr.committed(tr.settled(shown), c, amended.before, False), over=False)
    assert t.rec.phase == expected
    assert t.lines() == ["move e2e4"]


def move_steps(game: Game, data: st.DataObject) -> list[Step] | None:
    """A hand's steps carrying out one of the game's legal moves (the
    generators of test_properties); None when the game has none."""
    pos = game.position
    codes = pos.legal_codes()
    if not codes or game.outcome() is not None:
        return None
    return data.draw(handlings(pos.copy(), data.draw(st.sampled_from(codes)), False))


def paced(rec: Reconciler, steps: list[Step]) -> Iterator[tuple[Step, float, int]]:
    """Each step once its pause has run on ``rec`` (timers fired), with the
    time and the reading a lift or a place makes; the caller feeds it."""
    reading, now, lines = rec.reading, 0.0, []
    for step in steps:
        now = run(rec, now, now + step.pause, lines)
        if step.verb != "choose":
            reading ^= 1 << step.square
        yield step, now, reading


@HANDS
@given(games(), st.data())
def test_a_reading_that_decides_nothing_moves_the_shell_as_the_transition_does(game, data):
    """Hands carrying out a move (the generators of test_properties): every
    reading that commits nothing and tells nothing leaves the reconciler in
    the phase :func:`reading_noted` makes of it, with the move it shows."""
    steps = move_steps(game, data)
    if steps is None:
        return
    rec = Reconciler(game, CONFIG)
    for step, now, reading in paced(rec, steps):
        if step.verb == "choose":
            rec.choose(PieceType(step.piece), now)
            continue
        before, played = rec.phase, len(rec.game.moves)
        theirs = rec.game.position.colors[rec.game.position.turn]
        if rec.feed(reading, now) or len(rec.game.moves) != played:
            continue
        noted = tr.reading_noted(before, reading, now, theirs, CONFIG.settle)
        after, shown = rec.phase, rec.phase.move.tentative
        if shown is None:
            assert after == noted, (before, after)
        else:  # the move the board shows now, or the one it showed before
            assert after in (noted, tr.tentative_shown(noted, shown)), (before, after)


# ------------------------------------------------------------ the verdict
def test_the_verdict_is_read_off_the_phase():
    p = Phase(BASE)
    assert verdict(p, BASE, over=False) is State.SYNCED
    assert verdict(p, BASE, over=True) is State.GAME_OVER
    lifted = replace(p, reading=BASE ^ 1)
    assert verdict(lifted, BASE, over=False) is State.BUSY
    grace = replace(lifted, move=Underway(unexplained_since=1.0))
    assert verdict(grace, BASE, over=False) is State.UNEXPLAINED
    fix = replace(lifted, move=Underway(fix=Fix(1, 2, "x"), unexplained_since=1.0))
    assert verdict(fix, BASE, over=True) is State.ERROR
    asked = replace(fix, move=replace(fix.move, waiting=Ambiguity(())))
    assert verdict(asked, BASE, over=False) is State.CHOOSING


def test_a_lifted_piece_is_a_move_under_way_at_once():
    """Hands on the board are a move under way before the reading settles,
    and the engine may still be asked to think meanwhile."""
    t = Table()
    t.lift("e2")
    assert not t.rec.phase.settled and t.rec.state is State.BUSY and t.rec.ready_for_engine
    t.wait(1)
    assert t.rec.phase.settled and t.rec.state is State.BUSY


def agrees(rec: Reconciler) -> bool:
    """The label, the text on show and the choices tell one story: a board
    settled on the game's position says nothing; a fix on show is the text
    shown and keeps the engine waiting; a choice open has something to
    choose."""
    game, state = rec.game, rec.state
    home = rec.phase.settled and rec.reading == occupancy(game.position)
    if home and game.outcome() is None and state is not State.CHOOSING and rec.prompt:
        return False
    if state is State.ERROR:
        fix = rec.phase.move.fix
        return fix is not None and rec.prompt == fix.text and not rec.ready_for_engine
    if state is State.CHOOSING:
        return bool(rec.promotion_choices or rec.capture_choices) and not rec.ready_for_engine
    return True


@HANDS
@given(games(), st.data())
def test_label_text_and_choices_agree_while_a_move_is_made(game, data):
    steps = move_steps(game, data)
    if steps is None:
        return
    rec = Reconciler(game, CONFIG)
    for step, now, reading in paced(rec, steps):
        assert agrees(rec)
        if step.verb == "choose":
            rec.choose(PieceType(step.piece), now)
        else:
            rec.feed(reading, now)
        assert agrees(rec)
    end = sum(step.pause for step in steps)
    run(rec, end, end + 10, [])
    assert agrees(rec)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 79), st.sampled_from([0.1, 0.5, 2.0, 4.0])), max_size=30))
def test_label_text_and_choices_agree_whatever_the_hands_do(toggles):
    """Phantom contacts, pieces lifted and put back anywhere: fixes, grace,
    takebacks and new games."""
    t = Table()
    for square, pause in toggles:
        t.set_reading(t.reading ^ 1 << square, after=pause)
        assert agrees(t.rec)
        t.wait(pause)
        assert agrees(t.rec)
