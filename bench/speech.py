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
measured in the same run, the time the words took (the announcer, per
step on average), and how many texts were given.

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
from collections.abc import Callable
from pathlib import Path

from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware, Services
from boardctl.hw.sim import SimBoard
from boardctl.rules import Game
from boardctl.storage.store import GameStore
from boardctl.ui.state import DisplayState
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


def run(
    engine: SpeechEngine | None, rounds: int, screen: bool = True
) -> tuple[list[float], int, float]:
    """Step times (seconds) over ``rounds`` rounds, the texts given to the
    speaker, and the seconds spent in the announcer (the words) in all."""
    pos = Game().position
    board = SimBoard(pos.geometry.squares(pos.colors[0] | pos.colors[1]))
    speaker = Speaker(engine) if engine is not None else None
    config = parse_config({"game": {"mode": "two-players"}})
    folder = tempfile.TemporaryDirectory()
    store = GameStore(Path(folder.name) / "games.db")
    daemon = Daemon(
        config,
        Hardware(board, display=Screen() if screen else None),
        store,
        Services(speaker=speaker),
    )
    heard, spent = daemon.voice.heard, [0.0]

    def timed(state: DisplayState) -> str:
        started = time.perf_counter()
        try:
            return heard(state)
        finally:
            spent[0] += time.perf_counter() - started

    daemon.voice.heard = timed  # type: ignore[method-assign]
    geo, times, clock = pos.geometry, [], [0.0]

    def steps(count: int) -> None:
        for _ in range(count):
            started = time.perf_counter()
            daemon.step(clock[0])
            times.append(time.perf_counter() - started)
            clock[0] += STEP

    e2, e4, c1, c4 = (geo.parse_square(n) for n in ("e2", "e4", "c1", "c4"))
    script = [(e2, e4), (e4, e2), (c1, c4), (c4, c1)]  # a move, its takeback, a fix, put right
    for _ in range(rounds):
        for frm, to in script:
            board.lift(frm)
            steps(20)
            board.place(to)
            steps(250)
    given = daemon.voice.said[0]
    if speaker is not None:
        speaker.close()
    store.close()
    folder.cleanup()
    return times, given, spent[0]


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
    parser.add_argument("--repeat", type=int, default=5, help="runs of each, interleaved")
    parser.add_argument("--slow", type=float, default=1.0, help="seconds the slow engine takes")
    args = parser.parse_args()
    runs: list[tuple[str, Callable[[], SpeechEngine | None], bool]] = [
        ("speech off (the reference)", lambda: None, True),
        ("silent engine", Silent, True),
        (f"engine taking {args.slow:g} s a text", lambda: Slow(args.slow), True),
    ]
    if shutil.which("espeak-ng"):
        runs.append(("espeak-ng", Espeak, True))
    runs.append(("(no screen, no speech)", lambda: None, False))
    # Interleaved, so that a machine that slows down or speeds up during
    # the bench blurs every run alike.
    times: dict[str, list[float]] = {name: [] for name, _, _ in runs}
    given: dict[str, int] = dict.fromkeys(times, 0)
    words: dict[str, float] = dict.fromkeys(times, 0.0)
    for r in range(args.repeat):
        # Each repeat starts from another run: no run is always the first.
        for name, make, screen in runs[r % len(runs) :] + runs[: r % len(runs)]:
            steps, texts, spent = run(make(), args.moves, screen)
            times[name] += steps
            given[name] += texts
            words[name] += spent
    base = figures(times[runs[0][0]])[0]
    print(
        f"{'run':<30} {'median µs':>10} {'p99 µs':>10} {'max µs':>10} {'ratio':>6} "
        f"{'words µs/step':>14} texts"
    )
    for name, _, _ in runs:
        median, p99, top = figures(times[name])
        per_step = words[name] / len(times[name]) * 1e6
        print(
            f"{name:<30} {median:10.0f} {p99:10.0f} {top:10.0f} {median / base:6.2f} "
            f"{per_step:14.1f} {given[name]}"
        )


if __name__ == "__main__":
    main()
