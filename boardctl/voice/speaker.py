"""Speech beside the loop: the daemon hands over words and goes on.

A :class:`Speaker` says texts in its own thread.  The board's loop never
waits for it: :meth:`Speaker.say` only leaves the text for the thread.  A
new text replaces one not yet begun and cuts short one being said, since
by then it is stale (the engine's move said after the player has already
made it helps nobody).  Muting cuts the current text short and drops
what follows until unmuted.

:class:`Announcer` is the daemon's side: it turns each new screen state into
words (:func:`~.words.utterance`), answers the player's questions, and keeps
the last words said, numbered, for the spectator page.
"""

from __future__ import annotations

import logging
import threading
from typing import Protocol

from ..ui.state import DisplayState
from . import words
from .engines import SpeechEngine, SpeechError, Tunable, VoiceSettings
from .readout import Readout
from .words import SquareStyle

log = logging.getLogger(__name__)


class SaysAloud(Protocol):
    """What the announcer needs of a speaker: :class:`Speaker`, or a recorder."""

    muted: bool

    def say(self, text: str) -> None: ...
    def mute(self, muted: bool) -> None: ...
    def tune(self, voice: VoiceSettings) -> None: ...
    def busy(self) -> bool:
        """Is a text being said, or about to be?"""
        ...


class Recorder:
    """Keeps the texts it is given, in order, at once and in the caller's
    thread: what a script or a test reads of what the board would say."""

    def __init__(self) -> None:
        self.muted = False
        self.said: list[str] = []
        self.voice = VoiceSettings()

    def say(self, text: str) -> None:
        if not self.muted and text:
            self.said.append(text)

    def mute(self, muted: bool) -> None:
        self.muted = muted

    def tune(self, voice: VoiceSettings) -> None:
        self.voice = voice

    def busy(self) -> bool:
        return False  # said at once


class Speaker:
    """Says texts with ``engine`` in a thread of its own (see the module docstring)."""

    def __init__(self, engine: SpeechEngine, muted: bool = False) -> None:
        self.engine = engine
        self.muted = muted
        self._cond = threading.Condition()
        self._pending: str | None = None
        self._speaking = False
        self._cancel = threading.Event()  # the current text's: set, it stops
        self._closed = False
        self._complaint = ""  # the last failure logged, so each is logged once
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()

    def say(self, text: str) -> None:
        """Say ``text`` soon, instead of anything said or waiting now."""
        with self._cond:
            if self.muted or self._closed or not text:
                return
            self._pending = text
            self._cancel.set()
            self._cond.notify()

    def mute(self, muted: bool) -> None:
        with self._cond:
            self.muted = muted
            if muted:
                self._pending = None
                self._cancel.set()

    def tune(self, voice: VoiceSettings) -> None:
        """Speak with ``voice`` from the next text on (an engine that cannot
        change its voice keeps its own)."""
        with self._cond:
            if isinstance(self.engine, Tunable):
                self.engine.voice = voice

    def busy(self) -> bool:
        with self._cond:
            return self._pending is not None or self._speaking

    def idle(self, timeout: float) -> bool:
        """Wait until nothing is said or waiting (tests, a clean exit)."""
        with self._cond:
            return self._cond.wait_for(
                lambda: self._pending is None and not self._speaking, timeout
            )

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._pending = None
            self._cancel.set()
            self._cond.notify_all()
        self._thread.join(5.0)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending is not None or self._closed)
                if self._closed:
                    return
                text, self._pending = self._pending, None
                self._speaking = True
                cancel = self._cancel = threading.Event()
            try:
                assert text is not None
                self.engine.say(text, cancel)
            except SpeechError as exc:
                if str(exc) != self._complaint:
                    self._complaint = str(exc)
                    log.warning("[speech] %s", exc)
            except Exception:  # a broken audio device must not end the game's voice
                log.exception("speech failed")
            finally:
                with self._cond:
                    self._speaking = False
                    self._cond.notify_all()


class Announcer:
    """Words for each new state, said by ``speaker`` (None: only kept, for
    the spectator page); ``said`` is the last text and its number."""

    def __init__(self, speaker: SaysAloud | None = None, style: SquareStyle = "plain") -> None:
        self.speaker = speaker
        self.style = style
        self.said: tuple[int, str] = (0, "")
        self._last: DisplayState | None = None
        self.readout: Readout | None = None  # a long answer being said in parts

    def heard(self, state: DisplayState) -> str:
        """The screen now shows ``state``: say what changed; the words said."""
        if state == self._last:
            return ""
        text = words.utterance(self._last, state, self.style)
        self._last = state
        if text:
            self.readout = None  # the board's news cuts a readout short
        self._say(text)
        return text

    def answer(self, question: str, state: DisplayState, square: int | None = None) -> str:
        """Say the answer to one of :data:`QUESTIONS` about ``state``;
        ``square``: the lifted piece's, whose moves "moves" reads out.  A
        long answer is said in parts (:mod:`.readout`): the first now, each
        next one by :meth:`step` once the last is said; the same question
        again steps on, *repeat* says the part again.  Returns what is said now."""
        parts = self._parts(question, state, square)
        reading = self.readout
        if self.speaker is None:
            text = " ".join(parts)  # the page's own voice has no time limit
        elif reading is not None and question == "repeat":
            text = reading.part
        elif len(parts) > 1 or (reading is not None and reading.question == question):
            self.readout = (
                Readout(question, parts)
                if reading is None
                else reading.asked_again(question, parts)
            )
            text = self.readout.part
        else:
            self.readout = None
            text = parts[0]
        self._say(text)
        return text

    def _parts(self, question: str, state: DisplayState, square: int | None) -> tuple[str, ...]:
        style = self.style
        if question == "last":
            return (words.last_move_words(state, style),)
        if question == "clocks":
            return (words.clock_words(state),)
        if question == "turn":
            return (words.turn_words(state),)
        if question == "pieces":
            return words.pieces_parts(state, style)
        if question == "squares":
            return words.squares_parts(state, style)
        if question == "moves" and square is not None:
            return (words.destinations_words(state, square, style),)
        if question == "moves":
            return ("Lift a piece to hear where it may go.",)
        return (words.banner_words(state, style),)

    def step(self) -> None:
        """Say a readout's next part once its last has been said (the
        daemon's loop calls this at every turn)."""
        reading = self.readout
        if reading is None or self.speaker is None or self.speaker.busy():
            return
        self.readout = reading.on()
        if self.readout is not None:
            self._say(self.readout.part)

    def mute(self, muted: bool) -> str:
        """Mute or unmute; the words that say so (said only when unmuting)."""
        if self.speaker is None:
            return ""
        if muted:
            self.speaker.mute(True)
            self.readout = None
            return "Speech off."
        self.speaker.mute(False)
        self._say("Speech on.")
        return "Speech on."

    @property
    def muted(self) -> bool:
        return self.speaker is None or self.speaker.muted

    @property
    def speaking(self) -> bool:
        """Are words still being said aloud?  The waits that a prompt
        belongs to start when they end (see Daemon.step)."""
        return self.speaker is not None and self.speaker.busy()

    def _say(self, text: str) -> None:
        if not text:
            return
        self.said = (self.said[0] + 1, text)
        if self.speaker is not None:
            self.speaker.say(text)


# The questions a player can ask (a button or a key each; see ui/keys.py).
QUESTIONS = ("last", "clocks", "turn", "pieces", "squares", "moves", "repeat")
