"""Stepping through a stored game in the simulator (``--replay``): each move
lit and carried out by hand, forward to the end and back to the start; a wrong
hand guided back; playing on from a move in a new stored game."""

from __future__ import annotations

import pygame

from boardctl.board.explain import footprint
from boardctl.board.lights import LIGHTS
from boardctl.board.scene import Role
from boardctl.board.stepping import begin
from boardctl.daemon import wiring
from boardctl.daemon.activity import SettingUp, SteppingThrough, then_of
from boardctl.rules import Game, Move, Position, get_variant, parse_uci
from boardctl.rules.moves import CASTLE, code_flag, code_from, code_to
from boardctl.storage.store import GameStore
from tests.daemon_fakes import ScriptedOpponent

from .test_sim_window import Rig

# An en passant capture (ply 5), a falcon move (9), castling king side,
# O-O:g1 (15), and a capture by a bishop (16).
GAME = [
    "e2e4",
    "a7a6",
    "e4e5",
    "d7d5",
    "e5d6",
    "c7d6",
    "g2g3",
    "i7i6",
    "g1i4",
    "i6i5",
    "h1d5",
    "a6a5",
    "i1h3",
    "b7b6",
    "f1j1",
    "c8h3",
]
FROM, TO = Role.ENGINE_FROM, Role.ENGINE_TO


def stored_game(moves: list[str] = GAME, fen: str | None = None) -> Game:
    game = Game(get_variant("falcon"), fen)
    for uci in moves:
        game.push_text(uci)
    return game


def squares(pos: Position, move: Move) -> tuple[int, int, int, tuple[int, int] | None]:
    """A move's from and to (a castling king's), the square it takes on (or
    -1), and a castling rook's from and to."""
    code = pos.code_of(move)
    frm, to = code_from(code), code_to(code)
    rook = pos.castle_rook_squares(frm, to) if code_flag(code) == CASTLE else None
    return frm, to, footprint(pos, code)[1], rook


def press(rig: Rig, key: int) -> None:
    rig.key("", key)
    rig.run(0.05)


def lit(rig: Rig, want: dict[int, Role]) -> None:
    """The daemon's scene gives these squares these roles, and the LEDs (the
    window's, the frame it got last; a blinking one at a time it is on) show them."""
    scene = rig.daemon.scene().squares
    assert {sq: scene.get(sq) for sq in want} == want
    for sq, role in want.items():
        shown = rig.window.colours.get(sq) if role is FROM else rig.daemon.led_colours(0.0)[sq]
        assert shown == LIGHTS[role].rgb, rig.geo.name(sq)
    assert set(want) <= set(rig.window.state.marks)  # outlined on the screen too


def forward(rig: Rig, pos: Position, move: Move) -> None:
    """Press next, check the lights and the banner, carry the move out by hand."""
    frm, to, taken, rook = squares(pos, move)
    press(rig, pygame.K_RIGHT)
    lit(rig, {to: TO, rook[0]: FROM, rook[1]: TO} if rook else {frm: FROM, to: TO})
    assert rig.window.state.prompt.startswith(f"Move {pos.fullmove_number}: ")
    name = rig.geo.name
    if taken >= 0:
        rig.click(name(taken), button=3)  # into the tray
    rig.click(name(frm))
    rig.click(name(to))
    if rook:
        rig.click(name(rook[0]))
        rig.click(name(rook[1]))
    rig.run(0.5)


def back(rig: Rig, before: Position, move: Move) -> None:
    """Press back, check the lights and the banner, undo the move by hand."""
    frm, to, taken, rook = squares(before, move)
    press(rig, pygame.K_LEFT)
    assert rig.window.state.prompt.startswith(f"Take back move {before.fullmove_number}: ")
    name = rig.geo.name
    if rook:
        lit(rig, {to: FROM, frm: FROM, rook[0]: TO})  # the rook stands where the king goes
        hands = [(rook[1], rook[0]), (to, frm)]
    else:
        lit(rig, {to: FROM, frm: TO})
        hands = [(to, frm)]
    for lift, put in hands:
        rig.click(name(lift))
        if lift == taken:
            lit(rig, {taken: TO})  # the taker is off: the piece it took goes back here
        rig.click(name(put))
    if taken >= 0:
        rig.window.from_tray(rig.window.tray.pieces.index(before.squares[taken]))
        rig.click(name(taken))
    rig.run(0.5)


def test_a_stored_game_is_stepped_to_its_end_and_back_to_its_start_on_the_board():
    game = stored_game()
    rig = Rig(replay=begin(7, game, "1-0", "resignation"))
    rig.run(0.5)  # the board stands at the game's start: nothing to set up
    assert rig.window.state.prompt == "The start of game 7: press next for its first move"
    start = dict(rig.window.pieces)
    replayed = Game(game.variant)
    for ply, move in enumerate(game.moves, start=1):
        forward(rig, replayed.position, move)
        assert rig.lines()[-1] == f"move {GAME[ply - 1]}"
        assert rig.window.state.status == f"step {ply} of 16"
        replayed.push(move)
    assert rig.window.state.prompt.startswith("The game ended: White wins by resignation")
    assert rig.window.state.fen == game.position.fen()
    press(rig, pygame.K_RIGHT)  # nothing after the end
    assert not any(role in (FROM, TO) for role in rig.daemon.scene().squares.values())
    for ply in range(16, 0, -1):
        move = replayed.pop()
        back(rig, replayed.position, move)
        assert rig.lines()[-1] == f"takeback {GAME[ply - 1]}"
        assert rig.window.state.status == f"step {ply - 1} of 16"
    assert rig.window.state.prompt.startswith("The start of game 7")
    assert rig.window.pieces == start
    assert rig.store.calls == []  # nothing stored while stepping
    assert rig.daemon.game_id == 7


def test_a_wrong_move_while_stepping_is_guided_back():
    rig = Rig(replay=begin(7, stored_game(GAME[:4]), None, None))
    rig.run(0.5)
    press(rig, pygame.K_RIGHT)  # Move 1: e2 to e4
    rig.click("d2")
    rig.click("d4")
    rig.run(3.0)
    state = rig.window.state
    assert (state.prompt_kind, state.prompt) == (
        "error",
        "Play the game's move: move the pawn from d4 to d2",
    )
    assert rig.daemon.scene().squares == {
        rig.geo.parse_square("d4"): Role.FIX_FROM,
        rig.geo.parse_square("d2"): Role.FIX_TO,
    }
    rig.click("d4")
    rig.click("d2")
    rig.click("e2")
    rig.click("e4")
    rig.run(0.5)
    assert rig.lines()[-1] == "move e2e4" and "move d2d4" not in rig.lines()
    forward(rig, rig.daemon.game.position, rig.daemon.activity.stepping.moves[1])
    press(rig, pygame.K_LEFT)  # take a7a6 back, but the pawn goes to a5
    rig.click("a6")
    rig.click("a5")
    rig.run(3.0)
    assert rig.window.state.prompt == "Take the last move back: move the pawn from a5 back to a7"
    rig.click("a5")
    rig.click("a7")
    rig.run(0.5)
    assert rig.lines()[-1] == "takeback a7a6"
    assert rig.window.state.prompt == "Press next or back, or OK to play on from here"


def test_the_start_of_a_game_from_a_position_is_set_up_first():
    fen = "rnbfqkfbnr/pppppppppp/10/10/10/10/1PPPPPPPPP/RNBFQKFBNR w KQkq - 0 1"
    rig = Rig(replay=begin(3, stored_game(["b2b4"], fen), None, None))
    rig.run(0.5)
    assert rig.window.state.setting_up
    assert rig.window.state.prompt == "Take the piece off a2"
    rig.click("a2", button=3)
    rig.run(0.5)
    assert rig.window.state.prompt == "The start of game 3: press next for its first move"
    forward(rig, Position(fen), stored_game(["b2b4"], fen).moves[0])
    assert rig.lines() == ["move b2b4"]


def test_playing_on_from_a_move_stores_a_new_game_and_the_engine_replies(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        old = store.new_game("falcon", stored_game([]).start_fen, "Ann", "Bob", "two-players", 1.0)
        for ply, uci in enumerate(GAME, start=1):
            store.add_move(old, ply, uci, 1.0 + ply)
        store.finish(old, "1-0", "resignation", 99.0)
        before = store.load(old)
    opponent = ScriptedOpponent(["e7d6"])  # not the game's c7d6: a game of its own
    with GameStore(path) as store:
        rig = Rig("engine", opponent, replay=wiring.load_replay(path, old), store=store)
        rig.run(0.5)
        replayed = Game(get_variant("falcon"))
        for uci in GAME[:5]:
            move = parse_uci(replayed.position, uci)
            forward(rig, replayed.position, move)
            replayed.push(move)
        assert opponent.requests == 0  # no engine while stepping
        rig.key("\r", pygame.K_RETURN)
        rig.run(0.05)
        assert rig.window.state.prompt == "Press OK again to play on from here, against the engine"
        rig.key("\r", pygame.K_RETURN)
        rig.run(0.5)
        new = rig.daemon.game_id
        assert new != old and not isinstance(then_of(rig.daemon.activity), SteppingThrough)
        assert opponent.asked == [GAME[:5]]  # the engine, to move, plays on from the moves
        assert rig.window.state.engine_move is not None  # its move, to carry out
        rig.click("e7")
        rig.click("d6", button=3)
        rig.click("d6")
        rig.run(0.5)
        rig.click("a2")
        rig.click("a3")
        rig.run(1.0)
        assert store.load(new).moves == (*GAME[:5], "e7d6", "a2a3")
        assert store.load(new).result is None
        assert store.pgn(new).split("\n\n")[1].startswith("1. e4 a6 2. e5 d5 3. exd6 exd6 4. a3")
        assert store.load(old) == before  # the game stepped through: moves and result
        assert before.moves == tuple(GAME) and before.result == "1-0"


def test_the_simulator_steps_through_a_stored_game_and_stores_nothing(tmp_path, monkeypatch):
    from contextlib import ExitStack

    from boardctl.config import parse_config
    from boardctl.storage.store import default_db_path

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    with GameStore(default_db_path()) as store:
        old = store.new_game("falcon", stored_game([]).start_fen, "a", "b", "two-players", 1.0)
        store.add_move(old, 1, "e2e4", 2.0)
    times = iter(x * 0.02 for x in range(10_000))
    with ExitStack() as stack:
        pygame.display.init()  # as wiring.sim does before it
        pygame.font.init()
        config = parse_config({"game": {"mode": "engine"}})
        replay = wiring.load_replay(default_db_path(), old)
        daemon = wiring.run_window(
            config, stack, frames=30, clock=lambda: next(times), replay=replay
        )
        # The game, unfinished, was the one resumed: the board stands after
        # its first move, and is set up at its start before stepping.
        assert isinstance(then_of(daemon.activity), SteppingThrough) and isinstance(
            daemon.activity, SettingUp
        )
        assert daemon.status().prompt == "Take the piece off e4"
    with GameStore(default_db_path()) as store:
        assert [game.id for game in store.games()] == [old]


def test_the_page_cannot_end_the_stored_game_being_stepped_through():
    from boardctl.web.snapshot import WebAction

    rig = Rig(replay=begin(7, stored_game(GAME[:2]), None, None))
    rig.run(0.5)
    for kind in ("resign", "draw", "newgame", "takeback"):
        rig.daemon.web_action(WebAction(kind), rig.now)
    rig.run(0.05)
    assert rig.store.calls == [] and rig.daemon.game.declared is None
    assert rig.window.state.prompt == "Stepping through a stored game: nothing to end"


def test_settings_saved_while_stepping_wait_for_the_game_played_on():
    from boardctl.config import parse_config
    from boardctl.web.snapshot import WebAction

    opponent = ScriptedOpponent(["e2e4"])
    rig = Rig("engine", opponent, replay=begin(7, stored_game(GAME[:2]), None, None))
    rig.run(0.5)
    black = parse_config({"game": {"mode": "engine", "human": "black"}})
    rig.daemon.web_action(WebAction("settings", config=black), rig.now)
    rig.run(0.1)
    assert rig.store.calls == [] and isinstance(
        then_of(rig.daemon.activity), SteppingThrough
    )  # no game begun
    for _ in range(2):
        rig.key("\r", pygame.K_RETURN)
        rig.run(0.05)
    rig.run(0.5)  # played on from the start: the engine has White now
    assert rig.store.calls == [("new_game", 1)] and opponent.asked == [[]]
    assert rig.window.state.engine_move is not None
