"""The judgement as a table: (phase, event) -> (phase, actions).

``boardctl.board.judgement.feed`` reads no game but its view, changes none
and reads no clock, so each situation here is a phase built by feeding
readings by hand, one event and the phase and actions it must give.  The
game changes only where a test applies the actions itself, as the shell does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from boardctl.board import ErrorShown, MoveMade, Prompt, State
from boardctl.board import transitions as tr
from boardctl.board.diagnosis import diagnose
from boardctl.board.explain import Candidate, Explainer, occupancy
from boardctl.board.judgement import feed
from boardctl.board.machine import (
    TIMERS,
    Action,
    Chosen,
    Continue,
    Emit,
    Input,
    Play,
    Reading,
    ReplySplit,
    Resumed,
    TakeBack,
    Then,
    Tick,
    View,
)
from boardctl.board.phases import Phase, ReconcilerConfig, verdict
from boardctl.rules import PieceType, Position, get_variant, parse_uci, san

VARIANT = get_variant("falcon")
START = Position(None, VARIANT)
BASE = occupancy(START)
CONFIG = ReconcilerConfig()
SETTLE = CONFIG.settle
LATER = TIMERS[1:]  # the timers a tick looks at after the reading settled


def at(pos: Position, name: str) -> int:
    return 1 << pos.geometry.parse_square(name)


def view(pos: Position, played: bool = False) -> View:
    return View(
        pos,
        Explainer(pos),
        Explainer,
        None,
        None,
        played,
        BASE,
        tuple(VARIANT.promotions),
        PieceType.QUEEN,
        CONFIG,
    )


def candidate(pos: Position, uci: str) -> Candidate:
    move = parse_uci(pos, uci)
    return next(c for c in Explainer(pos).candidates if c.move == move)


def made(pos: Position, uci: str) -> MoveMade:
    move = parse_uci(pos, uci)
    return MoveMade(move, uci, san(pos, move), False)


def handled(pos: Position, toggles: list[str], start: float = 0.0) -> tuple[Phase, float]:
    """The phase after toggling ``toggles`` 0.1 s apart: each decides nothing."""
    p, now = Phase(occupancy(pos)), start
    for name in toggles:
        now += 0.1
        p, actions = feed(p, Reading(p.reading ^ at(pos, name), now), view(pos))
        assert actions == [], name
    return p, now


@dataclass
class Row:
    """One situation: ``event`` fed to ``phase`` must give ``expected``."""

    phase: Phase
    event: Input
    view: View
    expected: tuple[Phase, list[Action]]


def lift() -> Row:
    p = Phase(BASE)
    reading = BASE & ~at(START, "e2")
    noted = tr.reading_noted(p, reading, 1.0, START.colors[0], SETTLE)
    return Row(p, Reading(reading, 1.0), view(START), (noted, []))


def place() -> Row:
    p, now = handled(START, ["e2"])
    reading = p.reading | at(START, "e4")
    noted = tr.reading_noted(p, reading, now + 0.1, START.colors[0], SETTLE)
    shown = tr.tentative_shown(noted, candidate(START, "e2e4"))
    return Row(p, Reading(reading, now + 0.1), view(START), (shown, []))


def settle() -> Row:
    p, now = handled(START, ["e2", "e4"])
    c = candidate(START, "e2e4")
    done = tr.committed(tr.settled(p), c, START, by_engine=False)
    then = Continue(Resumed((Then.AFTER_CHANGE, *LATER), now + 1))
    return Row(p, Tick(now + 1), view(START), (done, [Play(made(START, "e2e4")), then]))


CAPTURE = Position("k9/10/10/4p5/3P6/10/10/9K w - - 0 1", VARIANT)


def capture(order: list[str]) -> Row:
    p, now = handled(CAPTURE, order)
    c = candidate(CAPTURE, "d4e5")
    done = tr.committed(tr.settled(p), c, CAPTURE, by_engine=False)
    then = Continue(Resumed((Then.AFTER_CHANGE, *LATER), now + 1))
    return Row(p, Tick(now + 1), view(CAPTURE), (done, [Play(made(CAPTURE, "d4e5")), then]))


def quick_reply() -> Row:
    """Black lifts and places a pawn before White's move settled: White's
    move is committed, then the rest is judged at once as Black's."""
    p, now = handled(START, ["e2", "e4", "e7", "e5"])
    c = candidate(START, "e2e4")
    shown = tr.settled(p)
    done = tr.committed(shown, c, START, by_engine=False)
    then = Continue(
        Resumed((Then.AFTER_CHANGE, ReplySplit(shown, False), Then.JUDGE, *LATER), now + 1)
    )
    return Row(p, Tick(now + 1), view(START), (done, [Play(made(START, "e2e4")), then]))


def takeback() -> Row:
    """The pawn put back where it came from, after its move was committed."""
    after = START.copy()
    c = candidate(START, "e2e4")
    after.push(c.move)
    p = tr.synced(tr.committed(Phase(occupancy(after)), c, START, by_engine=False), over=False)
    p = tr.reading_noted(p, BASE & ~at(START, "e2"), 1.0, after.colors[1], SETTLE)
    p = tr.reading_noted(p, BASE, 1.1, after.colors[1], SETTLE)
    undone = tr.taken_back(tr.settled(p))
    then = Continue(Resumed((Then.AFTER_CHANGE, *LATER), 2.0))
    return Row(p, Tick(2.0), view(after, played=True), (undone, [TakeBack(), then]))


PAWN = Position("k9/3P6/10/10/10/10/10/9K w - - 0 1", VARIANT)


def promotion_asked() -> Row:
    p, now = handled(PAWN, ["d7", "d8"])
    picks = tuple(
        c
        for c in Explainer(PAWN).candidates
        if c.move.to_square == PAWN.geometry.parse_square("d8")
    )
    asked, events = tr.promotion_asked(tr.settled(p), picks, now + 1 + CONFIG.promotion_wait)
    return Row(p, Tick(now + 1), view(PAWN), (asked, [Emit(tuple(events))]))


def promotion_chosen() -> Row:
    asked = promotion_asked().expected[0]
    chosen = tr.chosen(asked, PieceType.ROOK, None)
    done = tr.committed(tr.waiting_ended(chosen), candidate(PAWN, "d7d8r"), PAWN, False)
    then = Continue(Resumed((Then.AFTER_CHANGE,), 3.0))
    return Row(
        asked, Chosen(PieceType.ROOK, 3.0), view(PAWN), (done, [Play(made(PAWN, "d7d8r")), then])
    )


def phantom_settles() -> Row:
    """A contact on an empty square: no move, no stage; grace starts."""
    p, now = handled(START, ["e5"])
    return Row(p, Tick(now + 1), view(START), (tr.unexplained(tr.settled(p)), []))


def phantom_fixed() -> Row:
    """Once the grace period is over, the fix is shown."""
    p = phantom_settles().expected[0]
    fix = diagnose(START, p.reading, list(p.move.episode.recent), None)
    assert fix is not None
    shown, events = tr.fix_shown(p, fix)
    return Row(p, Tick(p.changed_at + CONFIG.grace), view(START), (shown, [Emit(tuple(events))]))


ROWS = {
    "lift": lift,
    "place": place,
    "settle": settle,
    "capture, mover first": lambda: capture(["d4", "e5", "e5"]),
    "capture, captured first": lambda: capture(["e5", "d4", "e5"]),
    "quick reply": quick_reply,
    "takeback": takeback,
    "promotion asked": promotion_asked,
    "promotion chosen": promotion_chosen,
    "phantom contact settles": phantom_settles,
    "phantom contact fixed": phantom_fixed,
}


def comparable(result: tuple[Phase, list[Action]]) -> tuple[Phase, list[Action]]:
    """Positions compare as themselves, not their FEN: the position before
    an amendable move is the judgement's copy of the view's, so compare FENs."""
    p, actions = result
    a = p.move.amendable
    if a is not None:
        p = replace(p, move=replace(p.move, amendable=replace(a, before=a.before.fen())))
    return p, actions


@pytest.mark.parametrize("name", ROWS)
def test_feed(name):
    row = ROWS[name]()
    assert comparable(feed(row.phase, row.event, row.view)) == comparable(row.expected)


def test_the_rest_of_a_quick_reply_is_judged_on_the_changed_game():
    """The shell's follow-up: after White's move, Black's reply is committed."""
    row = quick_reply()
    p, actions = row.expected
    after = START.copy()
    after.push(parse_uci(START, "e2e4"))
    follow = actions[-1]
    assert isinstance(follow, Continue)
    p, actions = feed(p, follow.event, view(after, played=True))
    assert actions[0] == Play(made(after, "e7e5"))
    assert p.move.amendable is not None and p.move.amendable.move == parse_uci(after, "e7e5")


def test_a_promotion_asked_prompts_and_a_phantom_contact_is_an_error():
    assert isinstance(promotion_asked().expected[1][0], Emit)
    emit = promotion_asked().expected[1][0]
    assert isinstance(emit, Emit) and isinstance(emit.events[0], Prompt)
    fixed = phantom_fixed().expected
    assert verdict(fixed[0], BASE, over=False) is State.ERROR
    assert isinstance(fixed[1][0], Emit) and isinstance(fixed[1][0].events[0], ErrorShown)
