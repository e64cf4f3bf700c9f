"""A sample game, as the board says it: docs/speech/sample-game.wav and its words.

The real daemon plays a short game on the simulated board, with the words
its speaker is given recorded instead of played: a falcon put down where it
cannot go (the fix is said), the falcon's capture, the engine's reply to
carry out, the clock's warning, and a rook's mate with the result.  Each text is then rendered
by espeak-ng and joined, with a pause between, into one WAV file; the words
go into docs/speech/README.md beside it.

Run: ``.venv/bin/python scripts/speak_sample.py [OUT_DIR]`` (default docs/speech).
``tests/voice/test_sample.py`` plays the same game and checks that the words
in docs/ are still the ones the board says.
"""

from __future__ import annotations

import sys
import tempfile
import wave
from pathlib import Path

from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware, Services, Start
from boardctl.engine.interface import BestMove, Limits, Message
from boardctl.hw.sim import SimBoard
from boardctl.rules import Game, get_variant
from boardctl.storage.store import GameStore
from boardctl.voice.engines import Espeak
from boardctl.voice.speaker import Recorder

FEN = "6k3/1p3ppp2/10/10/4p5/10/5PPP2/R2F1K4 w - - 0 1"
# (seconds to wait, lift or place, square): the player's hands.
HANDS = (
    (0.5, "lift", "d1"),
    (0.4, "place", "e3"),  # the falcon cannot go there: a fix
    (3.0, "lift", "e3"),
    (0.4, "place", "d1"),  # put back
    (1.0, "lift", "e4"),  # the falcon takes the pawn
    (0.4, "lift", "d1"),
    (0.4, "place", "e4"),
    (2.0, "lift", "b7"),  # the engine's reply, carried out
    (0.4, "place", "b6"),
    (4.0, "lift", "a1"),  # the rook's mate, after a think
    (0.4, "place", "a8"),
    (2.0, None, None),
)
ENGINE = ["b7b6"]
CLOCK = "1.05+0"  # 63 s a side: White's falls below a minute during the game
PAUSE = 0.5  # seconds of silence between two texts in the recording


class Scripted:
    """The engine's side: each request answered with the next move of ``ENGINE``."""

    def __init__(self) -> None:
        self.moves = list(ENGINE)
        self.out: list[Message] = []
        self.n = 0

    def go(self, fen: str, moves: list[str], limits: Limits, variant: str = "falcon") -> int:
        self.n += 1
        self.out.append(BestMove(self.n, self.moves.pop(0) if self.moves else None))
        return self.n

    def poll(self, timeout: float = 0.0) -> list[Message]:
        out, self.out = self.out, []
        return out

    def stop(self) -> None: ...
    def new_game(self) -> None: ...
    def set_skill(self, skill: int) -> None: ...
    def rating(self, skill: int, variant: str) -> int | None: ...
    def close(self) -> None: ...


def sample_words() -> list[str]:
    """The texts the board says over the sample game, in order."""
    game = Game(get_variant("falcon"), FEN)
    pos = game.position
    board = SimBoard(pos.geometry.squares(pos.colors[0] | pos.colors[1]))
    words = Recorder()  # at once, in order: the speaker's thread would drop stale texts
    config = parse_config({"game": {"mode": "engine", "human": "white", "clock": CLOCK}})
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore(Path(folder) / "games.db")
        game_id = store.new_game("falcon", FEN, "Player", "boardctl", "engine", 0.0)
        daemon = Daemon(
            config,
            Hardware(board),
            store,
            Services(opponent=Scripted(), speaker=words),
            Start(resume=(game_id, game)),
        )
        now = 0.0
        for wait, verb, square in HANDS:
            end = now + wait
            while now < end:
                daemon.step(now)
                now += 0.01
            if verb is not None:
                getattr(board, verb)(pos.geometry.parse_square(square))
        store.close()
    return words.said


def record(texts: list[str], wav: Path) -> float:
    """Render ``texts`` with espeak-ng into one WAV file; its length in seconds."""
    engine = Espeak()
    frames, params = [], None
    with tempfile.TemporaryDirectory() as folder:
        for i, text in enumerate(texts):
            part = Path(folder) / f"{i}.wav"
            engine.render(text, part)
            with wave.open(str(part)) as w:
                params = w.getparams()
                frames.append(w.readframes(w.getnframes()))
    assert params is not None
    silence = b"\0" * (params.sampwidth * params.nchannels * int(params.framerate * PAUSE))
    with wave.open(str(wav), "wb") as out:
        out.setparams(params)
        out.writeframes(silence.join(frames))
    total = sum(len(f) for f in frames) + len(silence) * (len(frames) - 1)
    return total / (params.sampwidth * params.nchannels * params.framerate)


def transcript(texts: list[str], seconds: float) -> str:
    lines = [
        "# The board's voice: a sample game",
        "",
        "[sample-game.wav](sample-game.wav) is what the board says over a short game "
        f"({seconds:.0f} s, espeak-ng's default English voice at 160 words a minute), "
        "made by `scripts/speak_sample.py` from the real daemon on the simulated board: "
        "the player puts a falcon where it cannot go, puts it back, takes a pawn with it, "
        "carries out the engine's reply, thinks until the clock warns, and mates with the "
        "rook.",
        "",
        f"Start position: `{FEN}`; the player has White, the engine Black; {CLOCK} on the clock.",
        "",
    ]
    lines += [f"{i}. {text}" for i, text in enumerate(texts, 1)]
    return "\n".join(lines) + "\n"


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/speech")
    out.mkdir(parents=True, exist_ok=True)
    texts = sample_words()
    seconds = record(texts, out / "sample-game.wav")
    (out / "README.md").write_text(transcript(texts, seconds))
    print(f"{out / 'sample-game.wav'}: {len(texts)} texts, {seconds:.1f} s")


if __name__ == "__main__":
    main()
