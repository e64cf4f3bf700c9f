"""The reconciler through its API: engine games, new games, policies, prompts."""

from __future__ import annotations

import pytest

from boardctl.board import MoveMade, NewGame, Reconciler, ReconcilerConfig, State
from boardctl.board.explain import occupancy
from boardctl.rules import BLACK, Game, IllegalMoveError, Position, parse_uci

from .helpers import Table


def test_engine_move_is_accepted_when_the_board_shows_it():
    t = Table(engine_side=BLACK)
    t.move("e2", "e4")
    t.wait(1)
    assert t.lines() == ["move e2e4"]
    t.rec.set_engine_move(parse_uci(t.game.position, "e7e5"))
    t.lift("e7")
    t.place("e5")  # accepted at once, no settle needed
    assert t.lines()[-1] == "move e7e5"
    assert isinstance(t.events[-1], MoveMade) and t.events[-1].by_engine


def test_quick_reply_after_the_engine_move_is_not_missed():
    # The engine's piece is put down and the player's own reply lifted in the
    # same scan: the engine's move is accepted from the reply in progress.
    t = Table(engine_side=BLACK)
    t.move("e2", "e4")
    t.wait(1)
    t.rec.set_engine_move(parse_uci(t.game.position, "e7e5"))
    t.lift("e7")
    t.now += 0.1
    t.reading = (t.reading | 1 << t.sq("e5")) & ~(1 << t.sq("d2"))
    t._feed()
    t.place("d4", after=0.05)
    t.wait(1)
    assert t.lines() == ["move e2e4", "move e7e5", "move d2d4"]


def test_human_cannot_move_for_the_engine():
    t = Table(engine_side=BLACK)
    t.move("e2", "e4")
    t.wait(1)
    t.move("e7", "e5")  # before the engine has answered
    t.wait(3)
    assert t.lines()[1:] == ["error Wait for the engine's move. Move the pawn from e5 back to e7"]
    assert t.rec.state is State.ERROR


def test_wrongly_executed_engine_move_is_guided_to_the_engine_move():
    t = Table(engine_side=BLACK)
    t.move("e2", "e4")
    t.wait(1)
    t.rec.set_engine_move(parse_uci(t.game.position, "e7e5"))
    t.move("e7", "e6")
    t.wait(3)
    assert t.lines()[-1] == "error Play the engine's move: move the pawn from e6 to e5"
    t.move("e6", "e5")
    assert t.lines()[-1] == "move e7e5"


@pytest.mark.parametrize(
    ("fen", "uci", "path"),
    [
        ("9k/10/10/10/10/10/10/R8K w - - 0 1", "a1a5", ["a2", "a3", "a4"]),
        # A falcon's move shows one open path of its three.
        ("k9/10/10/10/4F5/10/10/9K w - - 0 1", "e4f7", ["e5", "e6"]),
    ],
    ids=["rook", "falcon"],
)
def test_engine_move_scene_shows_from_path_and_to(fen, uci, path):
    t = Table(fen, engine_side=0)
    t.rec.set_engine_move(parse_uci(t.game.position, uci))
    assert t.roles() == {
        uci[:2]: "engine-from",
        **dict.fromkeys(path, "engine-path"),
        uci[2:]: "engine-to",
    }


def test_engine_castling_shows_king_and_rook():
    t = Table("r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1", engine_side=0)
    t.rec.set_engine_move(parse_uci(t.game.position, "f1i1"))
    roles = t.roles()
    assert roles["f1"] == "engine-from" and roles["j1"] == "engine-from"
    assert roles["i1"] == "engine-to" and roles["h1"] == "engine-to"


def test_engine_move_that_is_not_legal_is_refused():
    t = Table(engine_side=BLACK)
    with pytest.raises(IllegalMoveError):
        t.rec.set_engine_move(parse_uci(t.game.position, "e2e4"))  # White's move


def test_lifted_piece_lights_its_destinations():
    t = Table()
    t.lift("b1")
    assert t.roles() == {"b1": "lifted", "a3": "legal", "c3": "legal"}


def test_lifted_falcon_lights_paths_and_counts_them():
    t = Table("k9/10/10/10/4F5/10/4P5/9K w - - 0 1")
    t.lift("e4")
    roles = t.roles()
    assert roles["f7"] == "legal-3"  # all three paths open
    assert roles["e5"] == "falcon-path"
    # e4 to d1 (-1,-3): paths (e3,e2), (e3,d2), (d3,d2); the pawn on e2 shuts one.
    assert roles["d1"] == "legal-2"
    # e4 to f1 (+1,-3): (e3,e2), (e3,f2), (f3,f2): one shut by e2.
    assert roles["f1"] == "legal-2"


def test_opponent_piece_lifted_lights_nothing_but_in_teaching_mode_its_moves():
    assert Table().lift("b8") == [] and not Table().rec.scene().squares
    t = Table(teaching=True)
    t.lift("b8")
    assert set(t.roles()) == {"b8", "a6", "c6"}


def test_check_is_shown_on_the_king():
    t = Table("9k/10/10/10/10/10/10/r8K w - - 0 1")
    assert t.rec.scene().squares == {t.sq("j1"): t.rec.scene().squares[t.sq("j1")]}
    assert t.rec.scene().squares[t.sq("j1")].value == "check"


def test_error_scene_is_one_fix_and_blinks():
    t = Table()
    t.move("e2", "e5")
    t.wait(3)
    scene = t.rec.scene()
    assert scene.squares == {
        t.sq("e5"): scene.squares[t.sq("e5")],
        t.sq("e2"): scene.squares[t.sq("e2")],
    }
    assert scene.squares[t.sq("e5")].value == "fix-from"
    assert scene.squares[t.sq("e2")].value == "fix-to"
    assert scene.blink == frozenset({t.sq("e5"), t.sq("e2")})


def test_messy_board_gets_one_fix_at_a_time_most_recent_first():
    t = Table()
    t.move("b1", "b4")  # illegal knight "move"
    t.move("e2", "e5")  # and a pawn jump
    t.wait(3)
    assert t.lines()[-1] == "error Move the pawn from e5 back to e2"
    t.move("e5", "e2")
    t.wait(1)
    assert t.lines()[-1] == "error Move the knight from b4 back to b1"
    t.move("b4", "b1")
    t.wait(1)
    assert t.rec.state is State.SYNCED and t.rec.prompt == ""


def test_takebacks_can_be_switched_off():
    t = Table(allow_takeback=False)
    for frm, to in (("e2", "e4"), ("e7", "e5"), ("d2", "d4")):
        t.move(frm, to)
        t.wait(1)
    t.move("d4", "d2")  # White's own move, Black has touched nothing: undone anyway
    t.wait(1)
    t.move("d2", "d4")
    t.wait(1)
    t.lift("a7")  # Black touches a pawn: White's move is final now
    t.place("a7")
    t.move("d4", "d2")  # not a takeback any more
    t.wait(3)
    assert t.lines() == [
        "move e2e4",
        "move e7e5",
        "move d2d4",
        "takeback d2d4",
        "move d2d4",
        "error Move the pawn from d2 back to d4",
    ]


def test_new_game_when_the_start_position_is_set_up_after_the_game_ended():
    # White mates with the falcon (RULES.md's K+F v K mate), then the board
    # is set up for a new game.
    t = Table("10/10/10/10/6F3/10/2K7/k9 w - - 0 1")
    t.move("g4", "d3")
    t.wait(1)
    assert t.lines() == [
        "move g4d3",
        "gameover 1-0 checkmate",
        "prompt White wins by checkmate. Set up the pieces for a new game",
    ]
    assert t.rec.state is State.GAME_OVER
    start = occupancy(Position())
    t.set_reading(start)
    t.wait(1)
    assert isinstance(t.events[-1], NewGame)
    assert t.rec.game.moves == []


def test_new_game_mid_game_needs_the_start_position_held():
    t = Table()
    t.move("e2", "e4")
    t.wait(1)
    t.move("e7", "e5")
    t.wait(1)
    start = occupancy(Position())
    t.set_reading(start)
    events = t.wait(1.0)
    assert [e.line() for e in events] == ["prompt Keep the start position for 3 s for a new game"]
    # Held on: a new game.
    t.wait(3)
    assert t.lines()[-1] == "newgame"
    # Not held: no new game.
    t = Table()
    t.move("e2", "e4")
    t.wait(1)
    t.move("e7", "e5")
    t.wait(1)
    t.set_reading(start)
    t.wait(1)
    t.move(
        "e2",
        "e4",
    )
    t.wait(1)
    t.move("e7", "e5")
    t.wait(5)
    assert "newgame" not in t.lines()
    assert [m for m in t.rec.game.moves] and len(t.rec.game.moves) == 2


def test_promotion_choice_during_the_wait():
    t = Table("k9/6P3/10/p9/10/10/10/9K w - - 0 1")
    t.move("g7", "g8")
    t.wait(1)
    assert t.rec.state is State.CHOOSING
    t.choose("r")
    assert t.lines()[-1] == "move g7g8r"


@pytest.mark.parametrize(
    ("variant", "fen", "frm", "to"),
    [
        ("falcon-hex", "5/8/6P2/10/2k8/12/11/12/9p1/10/9/8/K4 w - - 0 1", "g11", "g12"),
        ("falcon-8x8", "k7/6P1/8/p7/8/8/8/7K w - - 0 1", "g7", "g8"),
    ],
)
def test_a_piece_the_preset_does_not_promote_to_is_no_choice(variant, fen, frm, to):
    # A queen pressed on a board without one used to become the default
    # piece at once; it changes nothing, and the player picks again.
    t = Table(fen, variant)
    t.choose("q")
    t.move(frm, to)
    t.wait(1)
    assert t.rec.state is State.CHOOSING
    assert t.choose("q") == [] and t.rec.state is State.CHOOSING
    t.choose("b")
    assert t.lines()[-1] == f"move {frm}{to}b"


def test_resumed_game_can_take_back_its_last_move():
    game = Game()
    for text in ("e2e4", "e7e5"):
        game.push_text(text)
    rec = Reconciler(game)
    after_e4 = "rnbfqkfbnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBFQKFBNR b KQkq - 0 1"
    before = occupancy(Position(after_e4))
    events = rec.feed(before, 1.0) + rec.tick(2.0)
    assert [e.line() for e in events] == ["takeback e7e5"]


def test_board_that_starts_out_of_step_is_guided_into_place():
    # After a restart the saved game says 1. e4, but the pawn is still on e2.
    game = Game()
    game.push_text("e2e4")
    rec = Reconciler(game, reading=occupancy(Position()))
    # With takebacks the old position is simply the game taken back...
    events = rec.tick(5.0)
    assert [e.line() for e in events] == ["takeback e2e4"]
    # ...without, the board asks for the missing move to be made.
    game.push_text("e2e4")
    game.push_text("e7e5")
    one_move = Position("rnbfqkfbnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBFQKFBNR b KQkq - 0 1")
    rec = Reconciler(game, ReconcilerConfig(allow_takeback=False), reading=occupancy(one_move))
    events = rec.tick(5.0)
    assert [e.line() for e in events] == ["error Move the pawn from e7 back to e5"]


def test_a_lifted_piece_with_no_legal_move_blinks_where_it_belongs():
    t = Table()
    t.lift("a1")  # the rook is shut in at the start
    t.wait(0.5)
    assert t.rec.stuck() == [t.sq("a1")]
    scene = t.rec.scene()
    assert t.sq("a1") in scene.blink
    t.place("a1")
    t.lift("b1")  # the knight has moves: no cue
    assert t.rec.stuck() == []
    assert t.sq("b1") not in t.rec.scene().blink


def test_a_pinned_piece_is_stuck_too_but_a_piece_of_the_side_not_to_move_is_not():
    t = Table(fen="4k5/10/10/10/4r5/10/4B5/4K5 w - - 0 1")
    t.lift("e2")  # pinned against the king by the rook on e4
    assert t.rec.stuck() == [t.sq("e2")]
    t.place("e2")
    t.lift("e4")  # Black's rook, White to move: not the mover's piece
    assert t.rec.stuck() == []
