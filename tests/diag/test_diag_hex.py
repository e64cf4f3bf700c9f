"""``boardctl diag`` on the hex board (121 cells): the same steps as on the
8×10 board, drawn as a hexagon, with its matrix lines and its listed LED chain.
The simulated board starts from the falcon-hex preset's opening."""

from __future__ import annotations

import io
from typing import Any

import pytest

from boardctl.board.explain import occupancy
from boardctl.config import parse_config
from boardctl.diag import DiagError, Diagnostics, LineKind, ScriptedUser, run_scripted
from boardctl.diag.boards import HexDiagBoard
from boardctl.diag.command import diag_command
from boardctl.diag.ledorder import LedCheck, hex_chain_layouts, led_order_advice, seen_square
from boardctl.hw.base import Reading
from boardctl.hw.hexpins import default_hex_pinout
from boardctl.hw.sim import SimBoard, SimLeds
from boardctl.rules import Game, get_variant
from boardctl.rules.hexgeo import FALCON_HEX

PINOUT = default_hex_pinout()
BOARD = HexDiagBoard(PINOUT)
LAYOUT = PINOUT.leds
HEX_VARIANT = get_variant("falcon-hex")
START = Game(HEX_VARIANT).position
OPENING = START.geometry.squares(occupancy(START))


def cell(name: str) -> int:
    return FALCON_HEX.parse_cell(name)


def sim_board() -> SimBoard:
    return SimBoard(OPENING, files=11, ranks=11)


class Faulty:
    """A sensor source through wiring faults: ``dead`` cells never read
    occupied (a broken line or switch), ``live`` always do (a shorted line)."""

    def __init__(self, inner: SimBoard, dead: int = 0, live: int = 0) -> None:
        self.inner, self.dead, self.live = inner, dead, live

    @property
    def healthy(self) -> bool:
        return self.inner.healthy

    def read(self, now: float) -> Reading | None:
        reading = self.inner.read(now)
        if reading is None:
            return None
        return Reading(reading.occupancy & ~self.dead | self.live, reading.time)

    def close(self) -> None:
        self.inner.close()


def session(sensors: Any = None, *, actual: Any = None) -> Any:
    board = sim_board()
    leds = SimLeds(LAYOUT)
    diag = Diagnostics(sensors or board, leds, layout=LAYOUT, board=BOARD)
    if sensors is not None:
        board = sensors.inner
    return run_scripted(diag, ScriptedUser(board, leds, actual=actual))


def test_a_sound_hex_board_passes_every_step() -> None:
    report = session()
    assert report.ok, report.summary()
    assert report.swept == 121 and report.cells == 121
    assert [FALCON_HEX.name(c.square) for c in report.led_checks] == [
        "a8",
        "a9",
        "b13",
        "g7",
        "h1",
        "m2",
        "m6",
    ]
    assert all(c.matched for c in report.led_checks)
    assert "121 of 121 cells read both empty and occupied" in report.summary()


def line_mask(name: str) -> int:
    return next(line.mask for line in BOARD.lines if line.name == name)


@pytest.mark.parametrize(
    ("dead", "live", "line", "kind"),
    [
        (line_mask("ranks 1 and 13"), 0, "ranks 1 and 13", LineKind.NEVER_OCCUPIED),
        (line_mask("files a and m"), 0, "files a and m", LineKind.NEVER_OCCUPIED),
        (0, line_mask("file g"), "file g", LineKind.ALWAYS_OCCUPIED),
    ],
)
def test_a_broken_or_shorted_matrix_line_is_named_by_its_ranks_or_files(
    dead: int, live: int, line: str, kind: LineKind
) -> None:
    report = session(Faulty(sim_board(), dead, live))
    faults = [(f.name, f.kind) for f in report.line_faults]
    assert (line, kind) in faults
    assert report.stuck == ()  # the line explains its cells
    assert f"{line} {kind.value}" in report.summary()


def test_a_dead_cell_is_named() -> None:
    report = session(Faulty(sim_board(), dead=1 << cell("g7")))
    assert [str(s) for s in report.stuck] == ["g7 (never occupied)"]
    assert "stuck cells: g7 (never occupied)" in report.summary()


@pytest.mark.parametrize("index", [0, 1, 2])
def test_a_chain_wired_another_way_is_named(index: int) -> None:
    text, actual = hex_chain_layouts(LAYOUT, BOARD)[index]
    report = session(actual=actual)
    assert report.mismatches
    assert any(text in advice for advice in report.led_advice), report.led_advice


def test_each_check_cell_tells_the_chains_apart() -> None:
    alternatives = [layout for _, layout in hex_chain_layouts(LAYOUT, BOARD)]
    for actual in alternatives:
        seen = [seen_square(LAYOUT, actual, c) for c in BOARD.check_cells]
        assert seen != list(BOARD.check_cells)
    assert len({layout.chain for layout in [LAYOUT, *alternatives]}) == 4


def test_unexplained_mismatches_point_at_the_matrix() -> None:
    checks = [LedCheck(cell("a8"), (cell("g7"),), BOARD)]
    (advice,) = led_order_advice(LAYOUT, checks, BOARD)
    assert "[matrix] rows and columns" in advice
    assert str(checks[0]) == "lit a8, sensors saw g7"


def test_the_hexagon_is_drawn_with_every_cell_named_once() -> None:
    occupied = sum(1 << c for c in OPENING)
    text = BOARD.render(occupied, lit=cell("g7"))
    lines = text.splitlines()
    assert len(lines) == 2 + 23 + 1  # letters, 23 half-rows, letters, legend
    for c in range(121):
        name = FALCON_HEX.name(c)
        mark = "#" if occupied >> c & 1 else "."
        shown = f"[{name}{mark}]" if c == cell("g7") else f" {name}{mark}"
        assert sum(line.count(shown) for line in lines) == 1, name
    # White's side at the bottom, the centre in the middle, f13 and h12 on top.
    assert lines[1].split() == ["f13#", "h12#"] and lines[-3].split() == ["f2#", "h1#"]
    assert lines[12].strip().startswith("a10.") and "[g7.]" in lines[12]
    assert BOARD.render(None).splitlines()[12].split() == [
        "a10?",
        "c9?",
        "e8?",
        "g7?",
        "i6?",
        "k5?",
        "m4?",
    ]
    assert all(len(line) <= 78 for line in lines)


def test_cell_names_are_checked() -> None:
    assert BOARD.parse("m6") == cell("m6") and BOARD.name(0) == "h1"
    for bad in ("a7", "g1", "n3", "e03", ""):
        with pytest.raises(DiagError, match=r"no cell .* on the hex board"):
            BOARD.parse(bad)


def test_the_prompts_speak_of_cells() -> None:
    diag = Diagnostics(sim_board(), SimLeds(LAYOUT), layout=LAYOUT, board=BOARD)
    diag.tick(0.0)
    assert "each cell lights in turn, h1 … l1" in diag.prompt()
    assert diag.view().count("\n") > 25


def test_boardctl_diag_sim_checks_the_hex_board_for_a_hex_game() -> None:
    out = io.StringIO()
    config = parse_config({"board": {"sensors": "sim"}})
    assert diag_command(config, sim=True, out=out, variant=HEX_VARIANT) == 0
    text = out.getvalue()
    assert "simulated hex board" in text and "sweep: 121 of 121 cells" in text
    assert " f13#" in text and "result: no faults found" in text


def test_a_walk_lights_every_cell_once_in_cell_order() -> None:
    leds = SimLeds(LAYOUT)
    diag = Diagnostics(sim_board(), leds, layout=LAYOUT, board=BOARD, walk_dwell=0.04)
    order: list[int] = []
    tick = 0
    while diag.phase.value == "walk":
        diag.tick(tick / 100)
        tick += 1
        lit = [i for i, p in enumerate(leds.pixels) if any(p)]
        if lit and (not order or order[-1] != lit[0]):
            order.append(lit[0])
    assert [LAYOUT.chain[i] for i in order] == list(range(121))


def test_diag_variant_names_the_board_and_refuses_an_unknown_one(
    capfd: pytest.CaptureFixture[str],
) -> None:
    from boardctl.cli import main

    assert main(["diag", "--sim", "--variant", "nosuch"]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "unknown variant 'nosuch'" in err
    assert main(["diag", "--sim", "--variant", "falcon-8x8", "--steps", "sweep"]) == 2
    assert "is played on a 8×8 board" in capfd.readouterr().err
    assert main(["diag", "--sim", "--variant", "falcon-hex", "--steps", "live,sweep"]) == 0
    out = capfd.readouterr().out
    assert "sweep: 121 of 121 cells read both empty and occupied" in out and " f13#" in out
