"""The firmware on the emulated Pico: what its scan, its link and its LEDs cost.

Runs the firmware, unchanged, on MicroPython's Pico build in rp2040js
(``emulator/``), with the host's real ``SerialBoard`` on its USB port, and
prints, per board, on the emulated chip's own clock (125 MHz):

* scans per second, periods overrun, the longest step (the firmware's
  ``STEPMAX`` counter) with the board still, across the host's 5 s repeat of
  palette and frame, and when the host sends a new frame;
* contact -> reading: from a contact closing to the host's reading of it;
* frame -> last bit: from the host's ``show`` to the last bit on the LED pin;
* contact -> light: from a contact closing to the first bit of the frame
  that lights its square, through the host (``SerialBoard``, lighting each
  square as it is read; the daemon's own time is not in it);
* lift -> light through the daemon: a piece lifted to the first bit of the
  frame lighting its destinations, with the daemon's own loop
  (``Daemon.run``, on the chip's clock, waiting on the port between turns);
  the host's computing is in wall time, some four times shorter in
  simulated time than it takes here, and a Pi is slower again;
* the free heap after start and after some minutes of play, and the
  garbage collections a minute (the firmware's HEAP, HEAPMIN, GCS counters);
* the emulator itself: simulated seconds per wall second, and how much of
  the time the chip slept;

then what the link's parts cost on the chip (``bench/firmware/bench_link.py``)
and one scan (``bench/firmware/bench_scan.py``), as the chip prints them.

Run: ``.venv/bin/python bench/pico.py [--boards matrix,shiftreg,hex] [--samples 12]
[--minutes 1]``.
Needs what ``tests/pico`` needs (``make test`` installs it; ``../shared/emu``).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCHES = ROOT / "bench" / "firmware"  # the firmware's own benches, never flashed
sys.path.insert(0, str(ROOT))

from tests.pico.rig import Rig, app_constant, bits, harness  # noqa: E402

LIT = (0, 0, 255)
SCAN_PERIOD = app_constant("SCAN_PERIOD_US") / 1e6  # seconds


def counters(rig: Rig) -> dict[str, int]:
    """The device's counters, freshly asked for."""
    before = rig.host.device_counters.get("SCANS")
    rig.host.request_device_counters()
    rig.pump(1.0, until=lambda: rig.host.device_counters.get("SCANS") != before)
    rig.pump(0.1)  # the report's other lines
    return rig.host.device_counters


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1e3:.1f} ms, max {max(values) * 1e3:.1f} ms"


def applied_at(rig: Rig, tag: int) -> float:
    """When the emulator applied the sensor change tagged `tag` (simulated s)."""
    for event in rig.pico.log:
        if event["ev"] == "applied" and event["tag"] == tag:
            return float(event["ns"]) / 1e9  # type: ignore[arg-type]
    raise harness.EmulatorError(f"sensor change {tag} never applied")


# A host's LED frame, whole (LED) or sparse (LEDS, to a firmware that takes it).
_LED_LINE = re.compile(r"\$[0-9A-F]{2} LEDS?[ *]")


def firmware_share(rig: Rig, closed: float, occupancy: int, lit: float) -> tuple[float, float]:
    """Of contact -> light, the seconds the firmware took: from the contact to
    the last byte of the SNAP that reported it leaving the chip, and from the
    last byte of the LED line that lights it reaching the chip to the frame's
    first bit (the emulator's line events, PICO_LINES); the two parts."""
    digits = f" SNAP {occupancy:0{(rig.board.squares + 3) // 4}X} "
    lines = [e for e in rig.pico.log if e["ev"] == "line" and int(e["ns"]) >= closed * 1e9]  # type: ignore[call-overload]
    snap = next(e for e in lines if e["dir"] == "tx" and digits in str(e["text"]))
    led = [e for e in lines if e["dir"] == "rx" and _LED_LINE.match(str(e["text"]))]
    led_in = max(int(e["ns"]) for e in led if int(e["ns"]) <= lit * 1e9)  # type: ignore[call-overload]
    return int(snap["ns"]) / 1e9 - closed, lit - led_in / 1e9  # type: ignore[call-overload]


def heap(rig: Rig, minutes: float) -> None:
    """The free heap after start and after `minutes` of play (a piece moved
    every 5 s, the LEDs lighting it), and the collections a minute."""
    first = dict(counters(rig))
    squares = rig.board.squares
    for k in range(round(minutes * 12)):
        sq = (k * 13 + 3) % squares
        rig.place([(0.0, {sq})])
        rig.show({sq: LIT})
        rig.pump(5.0)
    last = counters(rig)
    elapsed = max(last["UPTIME"] - first["UPTIME"], 1) / 60
    print(
        f"  heap: {first['HEAP']:,} bytes free after start (lowest {first['HEAPMIN']:,}), "
        f"{last['HEAP']:,} after {elapsed:.1f} min of play (lowest {last['HEAPMIN']:,}); "
        f"{(last['GCS'] - first['GCS']) / elapsed:.1f} collections a minute"
    )
    rig.place([(0.0, set())])
    rig.show({})
    rig.pump(0.3)


def board(name: str, samples: int, minutes: float) -> None:
    rig = Rig.start(harness.boards()[name])
    try:
        wall0 = time.monotonic()
        rig.connect(limit=6.0)
        emu0 = rig.pico.stats()
        c0 = dict(counters(rig))
        t0 = rig.now()
        rig.pump(2.0)
        quiet = dict(counters(rig))
        seconds = rig.now() - t0  # the chip's clock; UPTIME counts whole seconds
        print(
            f"{name}: {(quiet['SCANS'] - c0['SCANS']) / seconds:.0f} scans/s, "
            f"{(quiet['OVERRUN'] - c0['OVERRUN']) / seconds:.1f} periods overrun/s, "
            f"longest step {quiet['STEPMAX'] / 1e3:.1f} ms (board still)"
        )
        rig.show({3: LIT})
        rig.pump(5.5)  # the first repeat: the device's palette is new
        counters(rig)
        rig.pump(5.5)  # the second: all of it seen before
        refresh = counters(rig)["STEPMAX"]
        rig.show({3: LIT, 7: (255, 0, 0)})
        rig.pump(0.3)
        new = counters(rig)["STEPMAX"]
        print(
            f"  longest step across the host's 5 s refresh {refresh / 1e3:.1f} ms, "
            f"with a new frame {new / 1e3:.1f} ms"
        )
        rig.show({})
        rig.pump(0.3)

        reading, frame, light, share, to_snap, from_led = [], [], [], [], [], []
        squares = rig.board.squares
        for k in range(samples):
            sq = (k * 37 + 5) % squares
            # contact -> reading, and -> the first bit of the frame lighting it
            tag = 1000 + k
            since = len(rig.pico.frames)
            # Each contact at another phase of the scan: a contact read just
            # after its rank was scanned waits a whole period more (the
            # samples all fell at one phase before, near the worst).
            after = 0.01 + k * SCAN_PERIOD / samples
            rig.pico.command(
                "sensors", changes=[{**rig.board.change({sq}, after=after), "tag": tag}]
            )
            assert rig.settle(bits({sq}), 1.0), (name, sq)
            closed = applied_at(rig, tag)
            reading.append(rig.readings[-1][0] - closed)
            rig.show({sq: LIT})
            words = [0] * squares
            cap = rig.board.max_level
            words[rig.board.led_position[sq]] = LIT[2] * cap // 255
            assert rig.pump(
                1.0,
                until=lambda w=words, s=since: any(list(f.words) == w for f in rig.pico.frames[s:]),
            )
            shown = next(f for f in rig.pico.frames[since:] if list(f.words) == words)
            light.append(shown.start / 1e9 - closed)
            snap, led = firmware_share(rig, closed, bits({sq}), shown.start / 1e9)
            share.append(snap + led)
            to_snap.append(snap)
            from_led.append(led)
            # frame -> last bit: a frame sent with the board still
            since = len(rig.pico.frames)
            sent = rig.now()
            rig.show({})
            assert rig.pump(
                1.0, until=lambda s=since: any(not any(f.words) for f in rig.pico.frames[s:])
            )
            dark = next(f for f in rig.pico.frames[since:] if not any(f.words))
            frame.append(dark.end / 1e9 - sent)
            rig.place([(0.0, set())])
            assert rig.settle(0, 1.0)
            rig.pump(0.05)
        print(f"  contact -> reading: {ms(reading)}")
        print(f"  frame -> last bit: {ms(frame)}")
        print(f"  contact -> light (through SerialBoard): {ms(light)}")
        print(
            "    of it in the firmware (contact -> SNAP out, LED line in -> first bit): "
            + ms(share)
        )
        print(f"      contact -> SNAP out: {ms(to_snap)}")
        print(f"      LED line in -> first bit: {ms(from_led)}")
        if minutes > 0:
            heap(rig, minutes)
        emu1 = rig.pico.stats()
        sim = (emu1["ns"] - emu0["ns"]) / 1e9
        print(
            f"  emulator: {sim / (time.monotonic() - wall0):.2f} simulated s per wall s, "
            f"the chip slept {(emu1['idle_ns'] - emu0['idle_ns']) / 1e9 / sim:.0%} "
            f"of the time"
        )
    finally:
        rig.close()


def through_daemon(name: str, samples: int) -> None:
    """Lift a piece, time the first bit of the frame that lights where it
    can go, put it back; the daemon runs its own loop in a thread."""
    import tempfile
    import threading

    from boardctl.config import parse_config
    from boardctl.daemon.loop import Daemon
    from boardctl.daemon.parts import Hardware
    from boardctl.rules import Game, get_variant
    from boardctl.storage.store import GameStore

    board = harness.boards()[name]
    variant = "falcon-hex" if board.hex else "falcon"
    config = parse_config(
        {"game": {"mode": "two-players", "variant": variant}, "board": {"sensors": "serial"}}
    )
    position = Game(get_variant(variant)).position
    occupied = {sq for sq in range(board.squares) if position.piece_at(sq) is not None}
    movers = sorted({m.from_square for m in position.legal_moves()})
    rig = Rig.start(board)
    with tempfile.TemporaryDirectory() as home:
        store = GameStore(Path(home) / "games.sqlite3")
        try:
            rig.place([(0.0, occupied)])
            rig.connect(limit=6.0)
            daemon = Daemon(config, Hardware(rig.host, leds=rig.host), store, now=rig.now())
            loop = threading.Thread(target=daemon.run, args=(rig.now, time.sleep), daemon=True)
            loop.start()
            lit = []
            for k in range(samples):
                square = movers[(k * 7) % len(movers)]
                lit.append(lift_to_light(rig, occupied, square, tag=2000 + k))
            daemon.stopping = True
            loop.join(30)
            print(f"  lift -> light through the daemon's loop: {ms(lit)}")
        finally:
            store.close()
            rig.close()


def lift_to_light(rig: Rig, occupied: set[int], square: int, tag: int) -> float:
    """Seconds (simulated) from lifting `square` to the first lit frame's first bit."""
    deadline = time.monotonic() + 120
    since = len(rig.pico.frames)
    rig.pico.command(
        "sensors", changes=[{**rig.board.change(occupied - {square}, after=0.01), "tag": tag}]
    )
    while not any(any(f.words) for f in rig.pico.frames[since:]):
        assert time.monotonic() < deadline, "no frame lit the lifted piece's squares"
        time.sleep(0.005)
    first = next(f for f in rig.pico.frames[since:] if any(f.words))
    lifted = applied_at(rig, tag)
    back = len(rig.pico.frames)
    rig.place([(0.0, occupied)])
    while not any(not any(f.words) for f in rig.pico.frames[back:]):
        assert time.monotonic() < deadline, "the LEDs did not go dark"
        time.sleep(0.005)
    rig.pico.sleep(0.4)  # past the reconciler's settling
    return first.start / 1e9 - lifted


def on_chip(script: str, extra: tuple[str, ...] = ()) -> None:
    """Run one of the firmware's benches (bench/firmware/) on the chip, beside
    the firmware modules it uses and the firmware's ``extra`` files; print
    what it prints."""
    import serial  # the host's own dependency

    modules = ("protocol_constants.py", "wire.py", "protocol.py", "link.py", "ws2812.py")
    needs = (*modules, "scanner.py", *extra)
    files = {name: (harness.FIRMWARE_DIR / name).read_bytes() for name in needs}
    files.update({name: (BENCHES / name).read_bytes() for name in ("benchtime.py", script)})
    files["main.py"] = f"import {script[:-3]}\n".encode()
    with harness.EmulatedPico(files) as pico:
        port = serial.serial_for_url(pico.url, timeout=0.2)
        out = b""
        deadline = time.monotonic() + 600
        # main.py ends and MicroPython shows its REPL prompt.
        while not out.rstrip().endswith(b">>>") and time.monotonic() < deadline:
            out += port.read(4096)
        port.close()
    for line in out.decode(errors="replace").splitlines():
        if line.startswith(("us per", "  ")):
            print(f"{script}: {line.strip()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="matrix,hex")
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--no-parts", action="store_true", help="skip the on-chip benches")
    parser.add_argument(
        "--no-daemon", action="store_true", help="skip lift -> light through the daemon's loop"
    )
    parser.add_argument(
        "--minutes",
        type=float,
        default=1.0,
        help="simulated minutes of play for the heap (about 4 wall minutes each)",
    )
    args = parser.parse_args()
    reason = harness.missing()
    if reason is not None:
        print(reason)
        return 2
    os.environ["PICO_LINES"] = "1"  # the emulator says when each line leaves or arrives
    for name in args.boards.split(","):
        board(name, args.samples, args.minutes)
        if not args.no_daemon:
            through_daemon(name, args.samples)
    if not args.no_parts:
        on_chip("bench_link.py")
        on_chip("bench_scan.py", ("hexboard.py",))
    return 0


if __name__ == "__main__":
    sys.exit(main())
