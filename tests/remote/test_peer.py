"""Two boards' sides of one game, joined by a network that loses, repeats,
delays and reorders messages, and sides that restart from their journals.

The properties: each side keeps every entry exactly once; the two logs never
hold different entries under one number; nothing one side added is lost;
once the network delivers again, both hold the same game; and two sides
that do hold different games both stop and say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import event, given, settings
from hypothesis import strategies as st

from boardctl.remote.log import Entry
from boardctl.remote.offers import ANSWERABLE, ASKS
from boardctl.remote.peer import AWAY, EntryMessage, Message, Peer, Status, parse
from boardctl.rules import BLACK, WHITE

from .helpers import MemoryJournal, header

HEAL_ROUNDS = 20  # lossless exchanges that must bring two sides together


@dataclass
class Side:
    colour: int
    journal: MemoryJournal
    peer: Peer
    epoch: int = 1
    added: list[Entry] = field(default_factory=list)  # entries this side made itself

    @classmethod
    def new(cls, colour: int, clock: tuple[float, float] | None = None) -> Side:
        journal = MemoryJournal(header(clock))
        return cls(colour, journal, Peer(journal.log(), colour, journal.keep, 1, 0.0))

    def restart(self, now: float) -> None:
        """A kill -9: all that is left is the journal."""
        self.epoch += 1
        self.peer = Peer(self.journal.log(), self.colour, self.journal.keep, self.epoch, now)

    def play(self, index: int, now: float) -> bool:
        log = self.peer.log
        if log.to_move() != self.colour:
            return False
        moves = log.game.position.legal_moves()
        uci = log.game.position.uci(moves[index % len(moves)])
        before = log.seq
        assert self.peer.play(uci, now) is None
        self.added += [e for e in log.entries[before:] if e.by == self.colour]
        return True


def wire(message: Message) -> Message:
    """Through JSON, as on the wire."""
    return parse(message.to_json())


def exchange(a: Side, b: Side, now: float) -> None:
    """One lossless exchange both ways."""
    b.peer.receive([wire(m) for m in a.peer.outgoing()], now)
    a.peer.receive([wire(m) for m in b.peer.outgoing()], now)


def check_agreement(a: Side, b: Side) -> None:
    for side in (a, b):
        assert side.peer.problem is None, side.peer.problem
        assert set(side.journal.writes.values()) <= {1}  # each entry written once
        assert side.journal.kept == {e.seq: e for e in side.peer.log.entries}
    common = min(a.peer.log.seq, b.peer.log.seq)
    assert a.peer.log.digests[: common + 1] == b.peer.log.digests[: common + 1]


def heal(a: Side, b: Side, now: float) -> None:
    for _ in range(HEAL_ROUNDS):
        exchange(a, b, now)
        if a.peer.log.digest == b.peer.log.digest and a.peer.their_have == a.peer.log.seq:
            break
    exchange(a, b, now)
    assert a.peer.log.digest == b.peer.log.digest
    assert a.peer.log.entries == b.peer.log.entries


OPS = st.sampled_from(
    ["play"] * 5
    + ["send"] * 2
    + ["deliver"] * 3
    + ["flush"] * 2
    + ["answer"] * 2
    + ["drop", "copy", "ask", "restart", "tick", "agree"]
)


ASKING = ("takeback", "takeback", "draw", *ASKS)  # resigning ends it: less often


def step(data, sides: list[Side], flying: list[tuple[int, Message]], now: float) -> None:
    """One thing happens: a move, an offer or an answer, a message sent,
    delivered (any one of those in flight: so out of order), lost or
    repeated, a side restarted, time passing, or one good exchange."""
    op = data.draw(OPS)
    who = data.draw(st.integers(0, 1))
    if op == "play":  # by the side that believes it is to move, if any
        movers = [n for n in (0, 1) if sides[n].peer.log.to_move() == sides[n].colour]
        who = movers[who % len(movers)] if movers else who
    side = sides[who]
    if op == "play":
        side.play(data.draw(st.integers(0, 200)), now)
    elif op == "send":
        flying += [(1 - who, wire(m)) for m in side.peer.outgoing()]
    elif op in ("deliver", "drop", "copy") and flying:
        at = data.draw(st.integers(0, len(flying) - 1))
        to, message = flying[at] if op == "copy" else flying.pop(at)
        if op != "drop":
            sides[to].peer.receive([message], now)
    elif op == "ask":
        side.peer.ask(data.draw(st.sampled_from(ASKING)), now)
    elif op == "answer":
        for kind in side.peer.asking():
            side.peer.answer(kind, data.draw(st.booleans()), now)
    elif op == "restart":
        side.restart(now)
    elif op == "flush":
        exchange(sides[0], sides[1], now)
    elif op == "agree":  # an offer that gets through, and its answer
        side.peer.ask(data.draw(st.sampled_from(ANSWERABLE)), now)
        exchange(side, sides[1 - who], now)
        for kind in sides[1 - who].peer.asking():
            sides[1 - who].peer.answer(kind, data.draw(st.booleans()), now)
        exchange(side, sides[1 - who], now)
    else:
        side.peer.tick(now)


@settings(max_examples=150)
@given(st.data())
def test_any_drops_copies_delays_and_restarts_lose_and_double_nothing(data):
    sides = [Side.new(WHITE, (600.0, 1.0)), Side.new(BLACK, (600.0, 1.0))]
    flying: list[tuple[int, Message]] = []  # (to whom, what)
    now = 0.0
    for _ in range(data.draw(st.integers(40, 200), label="steps")):
        now += 0.1
        step(data, sides, flying, now)
        check_agreement(*sides)
    heal(*sides, now)
    check_agreement(*sides)
    final = sides[0].peer.log.entries
    event(f"entries: {len(final) // 10 * 10}+")
    event(f"kinds: {sorted({e.kind for e in final})}")
    event(f"ended: {sides[0].peer.log.ending}")
    for side in sides:  # nothing a side added is lost: entries are never removed
        for entry in side.added:
            assert final[entry.seq - 1] == entry


def test_an_entry_is_acknowledged_only_once_kept():
    white, black = Side.new(WHITE), Side.new(BLACK)
    white.play(0, 1.0)
    black.journal.fail = True
    try:
        black.peer.receive(white.peer.outgoing(), 1.1)
        raise AssertionError("the failing write was swallowed")
    except OSError:
        pass
    assert black.peer.log.seq == 0
    assert black.peer.status().have == 0  # not acknowledged: it was not kept
    exchange(white, black, 1.2)
    assert black.peer.log.line == white.peer.log.line


def test_a_side_that_comes_back_gets_what_it_missed():
    white, black = Side.new(WHITE), Side.new(BLACK)
    for n in range(6):
        (white if n % 2 == 0 else black).play(n, float(n))
        exchange(white, black, float(n))
    black.journal.kept = {n: e for n, e in black.journal.kept.items() if n <= 2}  # an old copy
    black.restart(10.0)
    assert black.peer.log.seq == 2
    exchange(black, white, 10.0)
    assert black.peer.log.entries == white.peer.log.entries


def test_two_sides_with_different_games_stop_and_say_so():
    white, black = Side.new(WHITE), Side.new(BLACK)
    white.play(0, 0.0)
    exchange(white, black, 0.0)
    black.play(0, 1.0)
    # White's journal is replaced by one where Black replied otherwise.
    forged = Side.new(WHITE)
    forged.journal.kept = dict(white.journal.kept)
    forged.restart(2.0)
    log = forged.peer.log
    moves = log.game.position.legal_moves()
    entry = log.move(BLACK, log.game.position.uci(moves[-1]))
    forged.journal.keep(entry)
    forged.restart(2.0)
    exchange(forged, black, 3.0)
    assert black.peer.problem is not None and "different" in black.peer.problem
    assert forged.peer.problem is not None
    before = black.peer.log.seq
    assert black.peer.play("e7e5", 4.0) == "the game is stopped"
    assert black.peer.log.seq == before


def test_another_games_messages_stop_the_side():
    white = Side.new(WHITE)
    status = white.peer.status()
    other = Status("fedcba9876543210", 0, status.digest, (1, 1), status.offers)
    white.peer.receive([other], 1.0)
    assert white.peer.problem == "the other side plays another game"


def test_a_late_status_does_not_bring_back_an_offer():
    white, black = Side.new(WHITE), Side.new(BLACK)
    white.play(0, 0.0)
    exchange(white, black, 0.0)
    assert white.peer.ask("takeback", 0.5) is None
    old = white.peer.status()
    black.peer.receive([old], 1.0)
    assert black.peer.asking() == ("takeback",)
    assert black.peer.answer("takeback", False, 1.1) is None  # no
    exchange(black, white, 1.2)
    assert white.peer.mine.takeback is None and white.peer.declined is not None
    exchange(white, black, 1.3)
    black.peer.receive([old], 1.4)  # the old offer, late
    assert black.peer.asking() == ()


def test_takeback_and_draw_by_agreement_and_resignation():
    white, black = Side.new(WHITE), Side.new(BLACK)
    white.play(0, 0.0)
    black.play(0, 0.0) or exchange(white, black, 0.0)
    black.play(0, 0.1)
    exchange(black, white, 0.2)
    assert white.peer.log.plies == 2
    assert white.peer.ask("takeback", 0.3) is None  # White, to move, asks
    exchange(white, black, 0.4)
    assert black.peer.answer("takeback", True, 0.5) is None  # Black says yes ...
    exchange(black, white, 0.6)  # ... and White, to move, adds the takeback
    assert white.peer.log.line == () and white.peer.log.entries[-1].kind == "takeback"
    exchange(white, black, 0.7)
    assert black.peer.log.line == ()
    assert black.peer.ask("draw", 0.8) is None
    exchange(black, white, 0.9)
    assert white.peer.answer("draw", True, 1.0) is None  # the mover agrees: at once
    assert white.peer.log.ending is not None and white.peer.log.ending.winner is None
    fresh_w, fresh_b = Side.new(WHITE), Side.new(BLACK)
    assert fresh_b.peer.ask("resign", 0.0) is None  # Black resigns while White is to move
    exchange(fresh_b, fresh_w, 0.1)
    exchange(fresh_w, fresh_b, 0.2)
    for side in (fresh_w, fresh_b):
        assert side.peer.log.ending is not None and side.peer.log.ending.winner == WHITE


def test_the_clocks_stop_while_the_other_side_is_away_and_a_flag_falls_only_when_there():
    white, black = Side.new(WHITE, (10.0, 0.0)), Side.new(BLACK, (10.0, 0.0))
    white.play(0, 0.0)
    exchange(white, black, 0.0)
    black.play(0, 2.0)  # Black took two seconds
    exchange(black, white, 2.0)
    assert white.peer.log.entries[-1].clock == 8.0
    assert black.peer.clocks is not None and black.peer.clocks.remaining[BLACK] == 8.0
    for t in range(3, 40):  # Black hears nothing from White: White is away after AWAY
        black.peer.tick(float(t))
    white_left = black.peer.clocks.left(40.0)[WHITE]
    assert white_left >= 10.0 - AWAY - 1.5  # stopped, not run down to nothing
    for t in range(3, 40):  # White, hearing from Black all along, runs out and says so
        black_msgs = black.peer.outgoing()
        white.peer.receive(black_msgs, float(t))
        white.peer.tick(float(t))
    ending = white.peer.log.ending
    assert ending is not None and ending.winner == BLACK
    assert ending.termination.value == "time forfeit"


def test_a_gap_is_filled_in_order_not_skipped():
    white, black = Side.new(WHITE), Side.new(BLACK)
    for n in range(3):
        (white if n % 2 == 0 else black).play(n, 0.0)
        exchange(white, black, 0.0)
    sent = [m for m in white.peer.outgoing() if isinstance(m, EntryMessage)]
    assert sent == []  # all acknowledged
    white.peer.their_have = 0  # as if Black had restarted with an empty journal
    sent = [m for m in white.peer.outgoing() if isinstance(m, EntryMessage)]
    fresh = Side.new(BLACK)
    fresh.peer.receive([sent[-1]], 1.0)  # entry 3 overtakes the others: it waits
    assert fresh.peer.log.seq == 0 and fresh.peer.problem is None
    fresh.peer.receive(list(reversed(sent)), 1.1)
    assert fresh.peer.log.entries == white.peer.log.entries
