"""The board's loop with speech on: does saying things slow a step?

The daemon steps a two-player game on a simulated board in virtual time: a
pawn moved out and a fix asked for (a piece put on the wrong square) over
and over, each a new thing to say.  Four runs of ``--moves`` rounds each:
speech off; on, with a silent engine (the words worked out, nothing said);
on, with an engine that takes ``--slow`` seconds a text (a slow voice on a
Pi), which the loop must never wait for; and on with espeak-ng itself
(rendering to the audio device, if it is installed).  Each run has a
screen, as the board does: the state the words come from is worked out
for the screen anyway; a last run with neither shows what the screen costs.  Prints each run's
step time (median, p99, max) in microseconds, its ratio to speech off
measured in the same run, and how many texts were given and said.

Prints figures only; nothing here is a test.  Run: ``.venv/bin/python bench/speech.py``
(a few seconds plus ``--slow`` × texts for the slow engine's last text).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.hw.sim import SimBoard
from boardctl.rules import Game
from boardctl.storage.store import GameStore
from boardctl.voice.engines import Espeak, Silent, SpeechEngine
from boardctl.voice.speaker import Speaker

STEP = 0.01  # virtual seconds a loop step


class Slow:
    """An engine that takes ``seconds`` a text, unless cancelled."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.said: list[str] = []

    def say(self, text: str, cancel: threading.Event) -> None:
        if not cancel.wait(self.seconds):
            self.said.append(text)


class Screen:
    """A display that takes the state and draws nothing: the Pi's screen is
    always on, so the state the words come from is worked out either way."""

    def show(self, state: object) -> None:
        pass


def run(engine: SpeechEngine | None, rounds: int, screen: bool = True) -> tuple[list[float], int]:
    """Step times (seconds) over ``rounds`` rounds, and the texts given to the speaker."""
    pos = Game().position
    board = SimBoard(pos.geometry.squares(pos.colors[0] | pos.colors[1]))
    speaker = Speaker(engine) if engine is not None else None
    config = parse_config({"game": {"mode": "two-players"}})
    folder = tempfile.TemporaryDirectory()
    store = GameStore(Path(folder.name) / "games.db")
    daemon = Daemon(config, board, store, speaker=speaker, display=Screen() if screen else None)
    geo, times, now = pos.geometry, [], 0.0
    e2, e4, c1, c4 = (geo.parse_square(n) for n in ("e2", "e4", "c1", "c4"))
    script = [(e2, e4), (e4, e2), (c1, c4), (c4, c1)]  # a move, its takeback, a fix, put right
    for _ in range(rounds):
        for frm, to in script:
            board.lift(frm)
            for _ in range(20):
                started = time.perf_counter()
                daemon.step(now)
                times.append(time.perf_counter() - started)
                now += STEP
            board.place(to)
            for _ in range(250):
                started = time.perf_counter()
                daemon.step(now)
                times.append(time.perf_counter() - started)
                now += STEP
    given = daemon.voice.said[0]
    if speaker is not None:
        speaker.close()
    store.close()
    folder.cleanup()
    return times, given


def figures(times: list[float]) -> tuple[float, float, float]:
    ordered = sorted(times)
    return (
        statistics.median(ordered) * 1e6,
        ordered[int(len(ordered) * 0.99)] * 1e6,
        ordered[-1] * 1e6,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=10, help="rounds of the script per run")
    parser.add_argument("--slow", type=float, default=1.0, help="seconds the slow engine takes")
    args = parser.parse_args()
    runs: list[tuple[str, SpeechEngine | None]] = [
        ("speech off (the reference)", None),
        ("silent engine", Silent()),
        (f"engine taking {args.slow:g} s a text", Slow(args.slow)),
    ]
    if shutil.which("espeak-ng"):
        runs.append(("espeak-ng", Espeak()))
    base = None
    print(f"{'run':<30} {'median µs':>10} {'p99 µs':>10} {'max µs':>10} {'ratio':>6} texts")
    for name, engine in runs:
        times, given = run(engine, args.moves)
        median, p99, top = figures(times)
        base = base or median
        print(f"{name:<30} {median:10.0f} {p99:10.0f} {top:10.0f} {median / base:6.2f} {given}")
    times, _ = run(None, args.moves, screen=False)
    median, p99, top = figures(times)
    name = "(no screen, no speech)"
    print(f"{name:<30} {median:10.0f} {p99:10.0f} {top:10.0f} {median / base:6.2f}")


if __name__ == "__main__":
    main()
