"""Damaged serial lines through the real host code: phantom readings and moves.

A scripted pair of players plays random Falcon Chess games on a serial board.
The microcontroller is the firmware's own link (``firmware/link.py`` over
``firmware/protocol.py``); between it and the host, a wire damages its lines
by family:

* ``flip1`` … ``flip4``: 1 to 4 bytes of a line changed to any byte;
* ``splice``: the start of one genuine line and the end of another (the one
  before, or one of the last few snapshots), cut at every offset in turn (as
  in issue 11), and at two different offsets;
* ``truncate``: a line cut short, ended by LF or by the next line;
* ``duplicate``: a line delivered twice, and an older line delivered again;
* ``reorder``: a line delivered after the one sent after it;
* ``replay``: a run of two to five old lines delivered again, in order, as a
  USB hub or adapter replaying its buffer does (issue 22);
* ``stale``: three old snapshots from 30 to 60 lines back (across a reset
  or an unplug, when there was one), one with each of the next three lines,
  as a buffer that lets go of old lines late does (issue 39);
* ``garbage``: runs of random bytes and of protocol-looking text
  (``$``, hex digits, ``SNAP``, ``*``);
* ``unplug``: a line cut off by the cable being pulled; the Pico boots afresh
  when it is plugged back in;
* ``reset``: a line cut off by the microcontroller resetting.

Everything the wire delivers goes through the host's real path: a
:class:`~boardctl.hw.serial_link.SerialBoard` (on a scripted port) read by
the :class:`~boardctl.daemon.loop.Daemon` in two-player mode, whose reconciler
commits the moves, all in virtual time.  The board lights the squares of each
change (an LED frame and palette, acknowledged by the device), so the host's
lines and the device's ACKs share the wire; the daemon's own LED scene is left
out, because working it out every turn would take most of the soak's time.
The players wait until the host has seen each lift and placement, as a player
waits for the board to light, so every stage reaches the reconciler; between
games they set up the start position and wait for the new game.

Counted: damaged lines by family; **phantom readings**, readings of a board
the microcontroller never sent, or sent only before the board of the reading
before (a stale board: to the reconciler, an old position is as false as an
invented one); and **phantom moves**, any move, amendment, takeback or new
game other than the players' own moves.  Each phantom is charged to the
family of the damage the wire did last before it.  The goal is 0 and 0.

Run: ``.venv/bin/python bench/serial_soak.py [--lines 100000] [--seed 1]``.
``tests/hw/test_serial_soak.py`` runs a few thousand lines of it.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import random
import sys
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from boardctl.board import Event, GameOver, MoveAmended, MoveMade, MoveTakenBack, NewGame
from boardctl.board.explain import occupancy
from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware
from boardctl.hw.base import Reading
from boardctl.hw.serial_link import SerialBoard, SerialPort
from boardctl.rules import Game, Move, PieceType, Position

# The game store in memory, the tests' own: the soak is about the line, not the disk.
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.daemon_fakes import MemoryStore  # noqa: E402

# The firmware's host loader, beside its checks.
CHECKS = ROOT / "tests" / "firmware"
FAMILIES = (
    "flip1",
    "flip2",
    "flip3",
    "flip4",
    "splice",
    "truncate",
    "duplicate",
    "reorder",
    "replay",
    "stale",
    "garbage",
    "unplug",
    "reset",
)
# How often each family strikes, relative to one another: unplugging and
# resetting take the link down for a while, so they come more rarely.
WEIGHTS = (2, 2, 2, 2, 3, 2, 2, 2, 2, 1, 2, 0.15, 0.15)
STALE_BACK = (30, 60)  # how far back the stale family's snapshots come from, in lines
DAMAGE_CHANCE = 0.75  # of a genuine line meeting some damage
BURST = 3  # damaged lines per strike, for the families that make copies
STEP = 0.05  # virtual seconds per turn of the host's loop
HAND_GAP = 0.1  # a player's pause between two actions, once the last is seen
SEEN_WAIT = 20.0  # virtual seconds an action may take to be seen before it is missed
UNPLUGGED = 0.4  # virtual seconds the cable stays out
MAX_PLIES = 60
PROTOCOL_TEXT = b"$$$****0123456789ABCDEF SNAP ACK HELLO P=3 \n\r"


def load_firmware() -> SimpleNamespace:
    """The firmware's protocol and link modules, loaded by path by the
    firmware's own host loader (``tests/firmware/hostload.py``)."""
    spec = importlib.util.spec_from_file_location("soak_fw_hostload", CHECKS / "hostload.py")
    assert spec is not None and spec.loader is not None
    hostload = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hostload)
    modules: SimpleNamespace = hostload.load(
        ("protocol_constants", "wire", "protocol", "link"), prefix="soak_fw_"
    )
    return modules


# --------------------------------------------------------------------------- the figures


@dataclass
class Figures:
    """What a soak found, by family."""

    damaged: Counter[str] = field(default_factory=Counter)
    phantom_readings: Counter[str] = field(default_factory=Counter)
    stale_readings: Counter[str] = field(default_factory=Counter)
    phantom_moves: Counter[str] = field(default_factory=Counter)
    genuine_lines: int = 0
    readings: int = 0
    moves: int = 0
    games: int = 0
    spoilt_games: int = 0  # games in which a phantom move was recorded
    missed: int = 0  # actions or moves the host never saw in time
    host: dict[str, int] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)

    @property
    def total_damaged(self) -> int:
        return sum(self.damaged.values())

    def table(self) -> str:
        lines = [
            f"{'family':<10} {'damaged lines':>14} {'phantom readings':>17} "
            f"{'of them stale':>14} {'phantom moves':>14}"
        ]
        for family in FAMILIES:
            lines.append(
                f"{family:<10} {self.damaged[family]:>14,} "
                f"{self.phantom_readings[family]:>17} {self.stale_readings[family]:>14} "
                f"{self.phantom_moves[family]:>14}"
            )
        lines.append(
            f"{'total':<10} {self.total_damaged:>14,} "
            f"{sum(self.phantom_readings.values()):>17} "
            f"{sum(self.stale_readings.values()):>14} "
            f"{sum(self.phantom_moves.values()):>14}"
        )
        return "\n".join(lines)


# --------------------------------------------------------------------------- the host


TWO_PLAYERS = parse_config({"game": {"mode": "two-players"}, "board": {"sensors": "serial"}})


class WatchedBoard(SerialBoard):
    """The serial board, telling the rig about every reading it gives."""

    def __init__(self, rig: Rig, **options: object) -> None:
        super().__init__("soak", **options)  # type: ignore[arg-type]
        self.rig = rig

    def read(self, now: float) -> Reading | None:
        reading = super().read(now)
        if reading is not None:
            changed = reading.occupancy ^ (self.rig.reading or 0)
            self.rig.check(reading.occupancy)
            self.show({sq: (0, 160, 0) for sq in range(80) if changed >> sq & 1})
        return reading


# --------------------------------------------------------------------------- the device


class Device:
    """The microcontroller: the firmware's link, fed the board the players made."""

    def __init__(
        self,
        fw: SimpleNamespace,
        board: int,
        now: float,
        sent: list[int],
        next_boot: Callable[[], int],
    ) -> None:
        self.fw = fw
        self.shape = fw.protocol.Shape(10, 8, 80)
        self.board = board
        self.sent = sent  # the board of every SNAP sent, in order
        self.next_boot = next_boot  # the boot count in its flash, one more each time
        self.boot(now)

    def boot(self, now: float) -> None:
        self.link = self.fw.link.DeviceLink(
            self.shape, [("FW", "soak")], int(now * 1000), self.next_boot()
        )

    def feed(self, data: bytes, now: float) -> None:
        self.link.feed(data, int(now * 1000))

    def poll(self, now: float) -> list[bytes]:
        self.link.poll(
            int(now * 1000), self.board.to_bytes((self.shape.squares + 7) // 8, "little")
        )
        # Copied, as a port does: some of the lines are the link's own buffers.
        lines = [bytes(line) for line in self.link.outbox]
        self.link.outbox.clear()
        for line in lines:
            if line[4:8] == b"SNAP":
                _, _, (board, _, _) = self.fw.protocol.decode(line.rstrip(b"\r\n"), self.shape)
                self.sent.append(board)
        return lines


# --------------------------------------------------------------------------- the port


class Port:
    """The host's end of the wire: what the wire delivered waits in ``incoming``;
    what the host writes goes to the device.  ``fail`` makes it break."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self.incoming = bytearray()
        self.fail = False

    def read(self, size: int = 1) -> bytes:
        if self.fail:
            raise OSError("the cable was pulled")
        data = bytes(self.incoming[:size])
        del self.incoming[:size]
        return data

    def write(self, data: bytes, /) -> int | None:
        if self.fail:
            raise OSError("the cable was pulled")
        if self.rig.device is not None:
            self.rig.device.feed(data, self.rig.now)
        return len(data)

    def reset_input_buffer(self) -> None:
        self.incoming.clear()

    def close(self) -> None:
        self.fail = True


# --------------------------------------------------------------------------- the wire


class Wire:
    """Delivers the device's lines to the port, damaging them by family."""

    def __init__(self, rig: Rig, rng: random.Random, damage: float) -> None:
        self.rig = rig
        self.rng = rng
        self.damage = damage
        self.history: deque[bytes] = deque(maxlen=12)
        self.long_history: deque[bytes] = deque(maxlen=STALE_BACK[1])
        self.late: list[bytes] = []  # old lines still to come, one with each line
        self.snaps: deque[bytes] = deque(maxlen=8)  # the last few SNAP lines
        self.held: bytes | None = None  # a line to deliver after the next one
        self.splice_at = 1  # the next aligned splice offset
        self.last_family = "none"

    def _deliver(self, data: bytes) -> None:
        port = self.rig.port
        if port is not None and not port.fail:
            port.incoming += data

    def _count(self, family: str, lines: int = 1) -> None:
        self.rig.figures.damaged[family] += lines
        self.last_family = family

    def _flip(self, line: bytes, count: int) -> bytes:
        data = bytearray(line)
        for position in self.rng.sample(range(len(line) - 2), count):  # not the CR LF
            data[position] = self.rng.choice([b for b in range(256) if b != data[position]])
        return bytes(data)

    def send(self, line: bytes) -> None:
        rng = self.rng
        previous = self.history[-1] if self.history else line
        self.history.append(line)
        self.long_history.append(line)
        if self.late:
            self._deliver(self.late.pop(0))
        if line[4:8] == b"SNAP":
            if self.snaps and rng.random() < 0.5:
                previous = rng.choice(list(self.snaps))
            self.snaps.append(line)
        self.rig.figures.genuine_lines += 1
        family = rng.choices(FAMILIES, self.rig.weights)[0] if rng.random() < self.damage else None
        deliver = True
        if family is not None and family.startswith("flip"):
            for _ in range(BURST):
                self._deliver(self._flip(line, int(family[-1])))
            self._count(family, BURST)
            deliver = rng.random() < 0.5
        elif family == "splice":
            a, b = previous.rstrip(b"\r\n"), line.rstrip(b"\r\n")
            short = min(len(a), len(b))
            for _ in range(BURST - 1):
                cut = self.splice_at
                self.splice_at = cut % (short - 1) + 1
                first, second = (a, b) if rng.random() < 0.5 else (b, a)
                self._deliver(first[:cut] + second[cut:] + b"\r\n")
            self._deliver(a[: rng.randrange(1, len(a))] + b[rng.randrange(1, len(b)) :] + b"\r\n")
            self._count(family, BURST)
            deliver = rng.random() < 0.5
        elif family == "truncate":
            self._deliver(
                line[: rng.randrange(1, len(line) - 2)] + (b"\n" if rng.random() < 0.5 else b"")
            )
            self._count(family)
            deliver = rng.random() < 0.5
        elif family == "duplicate":
            self._deliver(line)
            self._deliver(rng.choice(list(self.history)))
            self._count(family, 2)
        elif family == "replay":
            # A run of 2-5 old lines again, in order, ending up to 2 lines back.
            old = list(self.history)[:-1]
            end = len(old) - rng.randint(0, 2)
            run = old[max(0, end - rng.randint(2, 5)) : max(0, end)]
            for copy in run:
                self._deliver(copy)
            self._count(family, max(1, len(run)))
        elif family == "stale":
            old = [
                copy for copy in list(self.long_history)[: -STALE_BACK[0]] if copy[4:8] == b"SNAP"
            ]
            start = rng.randrange(len(old)) if old else 0
            self.late = old[start : start + 3]
            self._count(family, len(self.late))
        elif family == "reorder":
            if self.held is None:
                self.held = line
                self._count(family)
                return
        elif family == "garbage":
            for _ in range(BURST):
                alphabet = PROTOCOL_TEXT if rng.random() < 0.7 else bytes(range(256))
                self._deliver(bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 60))))
            self._count(family, BURST)
        elif family in ("unplug", "reset"):
            self._deliver(line[: rng.randrange(1, len(line) - 2)])
            self._count(family)
            if family == "unplug":
                self.rig.unplug()
            else:
                self.rig.reset()
            return
        if deliver:
            self._deliver(line)
        if self.held is not None and family != "reorder":
            self._deliver(self.held)
            self.held = None


# --------------------------------------------------------------------------- the rig


class Rig:
    """Device, wire, host and reconciler in one virtual clock."""

    def __init__(
        self,
        seed: int,
        damage: float = DAMAGE_CHANCE,
        fw: SimpleNamespace | None = None,
        restarts: float = 1.0,
    ) -> None:
        self.rng = random.Random(seed)
        self.weights = WEIGHTS[:-2] + tuple(w * restarts for w in WEIGHTS[-2:])
        self.spoilt = False  # a phantom move in this game
        self.fw = fw or load_firmware()
        self.figures = Figures()
        self.now = 0.0
        self.port: Port | None = None
        self.unplugged_until: float | None = None
        self.sent: list[int] = []  # every board the device sent, in order
        self.matched = 0  # where the last reading's board is in it
        self._boots = 0  # the device's, kept in its flash through unplugging
        self.device: Device | None = Device(
            self.fw, occupancy(Game().position), self.now, self.sent, self._next_boot
        )
        self.board_state = self.device.board  # what the players made, plugged or not
        self.wire = Wire(self, self.rng, damage)
        self.host = WatchedBoard(
            self, open_serial=self._open, reconnect_interval=0.1, reconnect_max=0.5, heartbeat=1.0
        )
        self.reading: int | None = None
        self.daemon = Daemon(TWO_PLAYERS, Hardware(self.host), MemoryStore(), now=self.now)
        self.expected: list[str] = []  # the players' moves in this game
        self.new_game_due = False  # the players set up a new game

    # -- the cable

    def _open(self, url: str, *, baudrate: int, timeout: float, write_timeout: float) -> SerialPort:
        if self.unplugged_until is not None:
            if self.now < self.unplugged_until:
                raise OSError(f"no such device {url}")
            self.unplugged_until = None
            # USB powered: plugged in again, it boots again.
            self.device = Device(self.fw, self.board_state, self.now, self.sent, self._next_boot)
        self.port = Port(self)
        return self.port

    def _next_boot(self) -> int:
        self._boots += 1
        return self._boots

    def unplug(self) -> None:
        if self.port is not None:
            self.port.fail = True
        self.device = None
        self.unplugged_until = self.now + UNPLUGGED

    def reset(self) -> None:
        if self.device is not None:
            self.device.boot(self.now)

    # -- time

    def step(self) -> None:
        self.now = round(self.now + STEP, 6)
        if self.device is not None:
            self.device.board = self.board_state
            for line in self.device.poll(self.now):
                self.wire.send(line)
        for event in self.daemon.step(self.now):
            self._judge(event)

    def check(self, board: int) -> None:
        """A reading must be a board sent no earlier than the last reading's."""
        self.figures.readings += 1
        self.reading = board
        try:
            self.matched = self.sent.index(board, self.matched)
        except ValueError:
            family = self.wire.last_family
            self.figures.phantom_readings[family] += 1
            if board in self.sent:
                self.figures.stale_readings[family] += 1
            self._example(f"phantom reading {board:020X} at {self.now:.2f} s")

    def _judge(self, event: Event) -> None:
        ply = len(self.daemon.game.moves)
        match event:
            case MoveMade(uci=uci) if (
                ply - 1 < len(self.expected) and uci == self.expected[ply - 1]
            ):
                self.figures.moves += 1
            case NewGame() if self.new_game_due:
                self.new_game_due = False
            case GameOver():
                pass
            case MoveMade() | MoveAmended() | MoveTakenBack() | NewGame():
                self.figures.phantom_moves[self.wire.last_family] += 1
                self.spoilt = True
                self._example(f"phantom move: {event.line()} at {self.now:.2f} s")

    def _example(self, text: str) -> None:
        if len(self.figures.examples) < 10:
            self.figures.examples.append(text)

    def run_until(self, done: Callable[[], bool], limit: float) -> bool:
        end = self.now + limit
        while not done():
            if self.now >= end:
                return False
            self.step()
        return True

    def run_for(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.step()

    # -- the players

    def act(self, square: int) -> bool:
        """Lift or put down the piece on ``square``; wait until the host sees it."""
        self.board_state ^= 1 << square
        seen = self.run_until(lambda: self.reading == self.board_state, SEEN_WAIT)
        self.run_for(HAND_GAP)
        return seen

    def play(self, pos: Position, move: Move) -> bool:
        """Carry out ``move`` by hand: the mover lifted, a piece it takes
        lifted, the mover put down, and any other piece taken (en passant)
        lifted last.  The mover goes first because a captured piece lifted
        first and left off for longer than the settle time (as a late line
        makes it look) is the opponent's last move going on: that would be
        the reconciler's judgement of a slow hand, not the link's error."""
        before = occupancy(pos)
        after_pos = pos.copy()
        after_pos.push(move)
        after = occupancy(after_pos)
        steps = [move.from_square]
        if before >> move.to_square & 1 and after >> move.to_square & 1:
            steps += [move.to_square, move.to_square]  # the taken piece off, the mover on
        steps += [sq for sq in range(80) if (after & ~before) >> sq & 1]
        steps += [sq for sq in range(80) if (before & ~after) >> sq & 1 and sq != move.from_square]
        return all(self.act(sq) for sq in steps)

    def game(self, lines: int) -> None:
        """One random game (or as much of one as the line budget allows)."""
        game = Game()
        if self.daemon.game.moves or self.board_state != occupancy(game.position):
            self.new_game_due = True  # set up the pieces anew
            self.board_state = occupancy(game.position)
            if not self.run_until(lambda: not self.new_game_due, SEEN_WAIT):
                self.figures.missed += 1
                self._example(
                    f"no new game at {self.now:.2f} s: reconciler "
                    f"{self.daemon.reconciler.state.value}"
                )
                self.new_game_due = False
                return
        self.expected = []
        self.figures.games += 1
        self.spoilt = False
        try:
            self._play(game, lines)
        finally:
            self.figures.spoilt_games += self.spoilt

    def _play(self, game: Game, lines: int) -> None:
        while (
            game.outcome() is None
            and len(game.moves) < MAX_PLIES
            and self.figures.total_damaged < lines
        ):
            pos = game.position
            move = self._pick(pos)
            if move is None:
                return
            self.expected.append(pos.uci(move))
            if not self.play(pos, move) or not self.run_until(
                lambda: len(self.daemon.game.moves) >= len(self.expected), SEEN_WAIT
            ):
                self.figures.missed += 1
                self._example(
                    f"missed {self.expected[-1]} at {self.now:.2f} s: reconciler "
                    f"{self.daemon.reconciler.state.value} "
                    f"{self.daemon.reconciler.prompt!r}, host {self.host.status.value}"
                )
                return  # this game is out of step
            game.push(move)

    def _pick(self, pos: Position) -> Move | None:
        """A random legal move that a hand makes square by square without a
        choice to press: no promotion, no castling (their readings are the
        reconciler's business, not the link's)."""
        moves = [m for m in pos.legal_moves() if m.promotion is None and not _is_castling(pos, m)]
        return self.rng.choice(moves) if moves else None


def _is_castling(pos: Position, move: Move) -> bool:
    piece = pos.piece_at(move.from_square)
    if piece is None or piece[0] is not PieceType.KING:
        return False
    target = pos.piece_at(move.to_square)
    return abs(move.from_square % 10 - move.to_square % 10) > 1 or (
        target is not None and target[1] == piece[1]
    )


def soak(
    lines: int,
    seed: int = 1,
    damage: float = DAMAGE_CHANCE,
    games: int | None = None,
    fw: SimpleNamespace | None = None,
    restarts: float = 1.0,
) -> Figures:
    """Play until ``lines`` damaged lines have gone down the wire (or
    ``games`` games are over); ``restarts`` multiplies how often the cable
    is pulled and the device resets."""
    rig = Rig(seed, damage, fw, restarts)
    rig.run_until(lambda: rig.reading is not None, SEEN_WAIT)
    while rig.figures.total_damaged < lines and (games is None or rig.figures.games < games):
        rig.game(lines)
    rig.figures.host = dict(rig.host.counters)
    return rig.figures


def main(argv: list[str] | None = None) -> int:
    # The daemon says "sensor board not connected" at every unplug: not news here.
    logging.getLogger("boardctl").setLevel(logging.ERROR)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=100_000, help="damaged lines to send")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=None, help="stop after this many games")
    parser.add_argument(
        "--restarts", type=float, default=1.0, help="times the usual rate of unplugs and resets"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    figures = soak(args.lines, args.seed, games=args.games, restarts=args.restarts)
    took = time.perf_counter() - started
    print(figures.table())
    print(
        f"\n{figures.genuine_lines:,} genuine lines, {figures.readings:,} readings, "
        f"{figures.moves:,} moves in {figures.games} games, {figures.missed} missed, "
        f"{figures.spoilt_games} games with a phantom move; {took:.0f} s"
    )
    dropped = {k: v for k, v in figures.host.items() if v}
    print("host counters: " + ", ".join(f"{k}={v:,}" for k, v in sorted(dropped.items())))
    for example in figures.examples:
        print(example)
    phantoms = sum(figures.phantom_readings.values()) + sum(figures.phantom_moves.values())
    return 1 if phantoms else 0


if __name__ == "__main__":
    sys.exit(main())
