"""The screenshots in docs/screenshots/, as code, so they can be made again.

Run ``python -m boardctl.ui.gallery docs/screenshots`` after changing the look.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from ..rules import Game
from .screenshot import render_state
from .state import DisplayState

MIDGAME = ("e4", "e5", "Nh3", "Nc6", "Ff4", "d6", "d3", "Bg4")


def start(status: str = "simulator") -> DisplayState:
    return DisplayState.from_fen(None, status=status)


def error_prompt() -> DisplayState:
    """White has moved the falcon from f4 like a knight, to e6; the board says so."""
    game = Game()
    for text in MIDGAME:
        game.push_text(text)
    geo = game.position.geometry
    return DisplayState.from_game(
        game,
        prompt="Move the falcon from e6 back to f4",
        prompt_kind="error",
        marks=(geo.parse_square("e6"), geo.parse_square("f4")),
        engine_status="ready", engine_depth=12, engine_score="+0.41",
        white_clock=251.0, black_clock=232.0,
        status="sensors ok",
    )


SCENES: dict[str, tuple[tuple[int, int], Callable[[], DisplayState]]] = {
    "480x320.png": ((480, 320), start),
    "800x480.png": ((800, 480), start),
    "error-prompt.png": ((480, 320), error_prompt),
}


def save_all(folder: Path) -> list[Path]:
    """Render every scene into ``folder``; return the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (size, scene) in SCENES.items():
        render_state(scene(), folder / name, size)
        written.append(folder / name)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    folder = Path(args[0] if args else "docs/screenshots")
    for path in save_all(folder):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
