"""Two boards' links through a broker that loses, repeats and reorders what
it carries, and boards that restart from their journals: every entry is kept
once, nothing a side wrote is lost, and both hold one game once the network
heals (a Hypothesis property, in virtual time, over a broker in memory)."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardctl.remote.journal import Journal
from boardctl.remote.transport import Bus

from ..e2e.kill9_child import long_game
from .twolinks import Board, joined, run


class FaultyBus(Bus):
    """Loses, repeats and holds back (to deliver after newer ones) what it
    carries, at the chances given, until :attr:`healed`."""

    def __init__(self, rnd: random.Random, lose: float, repeat: float, late: float) -> None:
        super().__init__()
        self.rnd, self.lose, self.repeat, self.late = rnd, lose, repeat, late
        self.held: list[tuple[str, bytes, bool]] = []
        self.healed = False
        self.faults = 0

    def deliver(self, topic: str, payload: bytes, retain: bool) -> None:
        if not self.healed:
            draw = self.rnd.random()
            if draw < self.lose:
                self.faults += 1
                return
            if draw < self.lose + self.late:
                self.faults += 1
                self.held.append((topic, payload, retain))
                return
            if draw < self.lose + self.late + self.repeat:
                self.faults += 1
                super().deliver(topic, payload, retain)
        super().deliver(topic, payload, retain)
        if self.held and self.rnd.random() < 0.3:
            self.rnd.shuffle(self.held)
            super().deliver(*self.held.pop())


def kept(board: Board) -> dict[tuple[int, int], str]:
    journal = Journal(board.folder / "remote.sqlite3")
    try:
        key = board.link.match.game_key  # type: ignore[union-attr]
        return {(e.side, e.n): e.digest() for e in journal.entries(key)}
    finally:
        journal.close()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    lose=st.sampled_from([0.0, 0.2, 0.4]),
    repeat=st.sampled_from([0.0, 0.2]),
    late=st.sampled_from([0.0, 0.2]),
)
def test_a_bad_broker_and_restarts_lose_and_double_nothing(
    tmp_path_factory, seed: int, lose: float, repeat: float, late: float
) -> None:
    folder: Path = tmp_path_factory.mktemp("links")
    rnd = random.Random(seed)
    bus, clock, host, guest = joined(folder)
    faulty = FaultyBus(rnd, lose, repeat, late)
    faulty.retained = dict(bus.retained)
    for board in (host, guest):  # the same links, on the bad broker from now on
        board.bus = faulty
        board.restart()
    moves = long_game(16, seed % 7)
    boards = (host, guest)
    for uci in moves:
        mover = next(b for b in boards if b.desk.view.key and _to_move(b))
        mover.play(uci)
        if rnd.random() < 0.2:
            rnd.choice(boards).ask(rnd.choice(["draw", "takeback"]))
        if rnd.random() < 0.15:
            rnd.choice(boards).restart()
        for _ in range(40):  # until the move is through, or the bad broker loses it for good
            run(clock, host, guest, seconds=0.25)
            if all(b.line()[-1:] == (uci,) for b in boards):
                break
        for board in boards:
            if board.desk.view.asks:
                board.answer(board.desk.view.asks[0], rnd.random() < 0.3)
        if any(b.desk.view.ending for b in boards) or host.line() != guest.line():
            break
    faulty.healed = True
    run(clock, host, guest, seconds=5.0)
    assert host.link.match is not None and guest.link.match is not None
    assert host.link.match.record.state.id == guest.link.match.record.state.id
    assert host.line() == guest.line()
    assert kept(host) == kept(guest)  # each kept every entry of both sides, once
    assert not host.desk.view.problem and not guest.desk.view.problem


def _to_move(board: Board) -> bool:
    match = board.link.match
    return match is not None and match.record.state.turn == match.colour
