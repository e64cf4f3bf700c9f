"""The screen gallery (docs/screens.md), as code, so it can be made again.

Every state a player meets is scripted here, from a real game where there is
one (:mod:`.play`, :mod:`.teaching`, :mod:`.hexagon`), and drawn at both
screen sizes, with the LEDs' legend and the simulator window
(:mod:`.drawing`).  ``python -m boardctl.ui.gallery docs`` writes the
pictures and the page; the tests draw them all again and compare, so the
gallery cannot drift from the code.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from ..state import DisplayState
from .drawing import SIZES, draw_legend, draw_simulator
from .hexagon import (
    HEX_MIDGAME,
    hex_black,
    hex_engine_move,
    hex_fix,
    hex_game,
    hex_promotion,
    hex_start,
)
from .play import (
    check,
    check_fix,
    clocks_low,
    engine_move,
    first_start,
    fix,
    game_over,
    not_saved,
    promotion,
    remote_asks,
    remote_move,
    setup,
    start,
    stepping,
    thinking,
    two_players,
)
from .teaching import (
    coach,
    coach_falcon,
    coach_hint,
    coach_lesson,
    puzzle,
    puzzle_failed,
    puzzle_solved,
)

__all__ = ["ALL_SCENES", "HEX_SCENES", "SCENES", "SIZES", "page", "save_all"]

SCENES: dict[str, tuple[str, Callable[[], DisplayState]]] = {
    "first-start": ("The first start: where the settings page is, and its PIN", first_start),
    "start": ("A new game against the engine", start),
    "two-players": ("Two players, no engine", two_players),
    "thinking": ("The engine is thinking", thinking),
    "engine-move": ("The engine's move, to carry out on the board", engine_move),
    "fix": ("A piece out of place, and the fix", fix),
    "check-fix": ("A move that leaves the king in check", check_fix),
    "promotion": ("A promotion: choosing the new piece", promotion),
    "check": ("Check", check),
    "not-saved": ("The disk is full: the game goes on, not saved yet", not_saved),
    "game-over": ("Game over", game_over),
    "clocks-low": ("Clocks in the last seconds (the player has Black)", clocks_low),
    "setup": ("Setting up a position (`--setup`): one piece at a time", setup),
    "coach": ("Teaching mode: the coach offers a losing move back", coach),
    "coach-falcon": ("Teaching mode: a piece lost to a falcon", coach_falcon),
    "coach-lesson": ("Teaching mode: a falcon's path the last move opened", coach_lesson),
    "coach-hint": ("Teaching mode: a hint names the good moves, best first", coach_hint),
    "puzzle": ("A puzzle (`--puzzle`): the goal, and the moves left", puzzle),
    "puzzle-solved": ("A puzzle solved", puzzle_solved),
    "puzzle-failed": ("A puzzle failed: the move that would have mated", puzzle_failed),
    "stepping": ("Stepping through a stored game (`--replay`): the next move", stepping),
    "remote-move": ("A remote game: the opponent's move, to carry out on the board", remote_move),
    "remote-asks": ("A remote game: the opponent asks to take back a move", remote_asks),
}
HEX_SCENES: dict[str, tuple[str, Callable[[], DisplayState]]] = {
    "hex-start": ("A new game against the engine", hex_start),
    "hex-engine-move": ("The engine's move, to carry out on the board", hex_engine_move),
    "hex-fix": ("A piece out of place, and the fix", hex_fix),
    "hex-promotion": ("A promotion: rook, bishop, knight or falcon", hex_promotion),
    "hex-black": ("The player has Black: the board turned", hex_black),
}
ALL_SCENES = {**SCENES, **HEX_SCENES}  # ``boardctl screenshot --state NAME``


def file_name(scene: str, size: tuple[int, int]) -> str:
    return f"{scene}-{size[0]}x{size[1]}.png"


def page() -> str:
    """docs/screens.md: every scene at both sizes."""
    lines = [
        "# The status screen, state by state",
        "",
        "Made by `python -m boardctl.ui.gallery docs` from the scripted states in",
        "`boardctl/ui/gallery/`; `tests/ui/test_gallery.py` draws them again and fails",
        "when a picture or this page is out of date.",
        "",
    ]
    lines += [
        "## The LEDs",
        "",
        "Six colours, one meaning each; a square to act on blinks, a square on the way",
        "glows dim (`boardctl/board/lights.py`).",
        "",
        "![The LED colours and what they mean](screens/leds.png)",
        "",
    ]
    lines += [
        "## The simulator",
        "",
        "`make run`: the wooden board with its LEDs (here a falcon lifted: its destinations",
        "lit brighter the more open paths reach them, its paths dim) and the Pi's screen.",
        "The window can be resized; `?` shows the keys and the lights.",
        "",
        "![The simulator window](screens/simulator.png)",
        "",
        "![The simulator's help](screens/simulator-help.png)",
        "",
    ]
    lines += _scenes(SCENES, "##")
    lines += [
        "## Falcon Hexagonal Chess",
        "",
        "`boardctl sim --variant falcon-hex`: the 121-cell hexagon of flat-topped cells in",
        "three colours, the file letters under their columns and each rank's number at its",
        "outer end. Here White's falcon on e4 is lifted: its destinations and open paths",
        "light as on the square board.",
        "",
        "![The simulator window, Falcon Hexagonal Chess](screens/hex-simulator.png)",
        "",
    ]
    lines += _scenes(HEX_SCENES, "###")
    return "\n".join(lines)


def _scenes(scenes: dict[str, tuple[str, Callable[[], DisplayState]]], level: str) -> list[str]:
    lines = []
    for scene, (title, _) in scenes.items():
        lines += [f"{level} {title}", ""]
        lines += [f"![{title}, {w}×{h}](screens/{file_name(scene, (w, h))})" for w, h in SIZES]
        lines.append("")
    return lines


def save_all(docs: Path) -> list[Path]:
    """Render every scene into ``docs/screens/`` and write ``docs/screens.md``."""
    from ..screenshot import render_state

    folder = docs / "screens"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for scene, (_, build) in ALL_SCENES.items():
        for size in SIZES:
            out = folder / file_name(scene, size)
            render_state(build(), out, size)
            written.append(out)
    draw_legend(folder / "leds.png")
    draw_simulator(folder / "simulator.png")
    draw_simulator(folder / "simulator-help.png", with_help=True)
    draw_simulator(folder / "hex-simulator.png", game=hex_game(HEX_MIDGAME[:4]), lifted="e4")
    written += [
        folder / "leds.png",
        folder / "simulator.png",
        folder / "simulator-help.png",
        folder / "hex-simulator.png",
    ]
    index = docs / "screens.md"
    index.write_text(page(), encoding="utf-8")
    return [*written, index]


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    for path in save_all(Path(args[0] if args else "docs")):
        print(path)
    return 0
