"""The remote side as the daemon plays it: its move lit like the engine's and
carried out by the hand; the board player's move sent once it is final; a
takeback both agree on guided back on the board; a restart resumed."""

from __future__ import annotations

from pathlib import Path

from boardctl.board import Role
from boardctl.daemon.activity import SettingUp
from boardctl.rules import BLACK, WHITE
from boardctl.web.snapshot import WebAction

from .rig import Rig


def test_the_board_players_move_is_sent_once_it_is_final(rig: Rig):
    assert rig.daemon.engine_side == BLACK
    assert rig.daemon.game_id == rig.match.kept.local_game  # bound to a stored game
    rig.hand("e2e4")
    assert rig.moves() == ["e2e4"]
    assert rig.line() == ()  # not yet: it may still be amended
    rig.run(0.5)
    assert rig.line() == ("e2e4",)


def test_a_move_amended_before_it_is_final_is_sent_as_amended(rig: Rig):
    rig.hand("e2e3")
    assert rig.moves() == ["e2e3"]
    rig.board.lift(rig.sq("e3"))
    rig.run(0.1)
    rig.board.place(rig.sq("e4"))
    rig.run(1.0)
    assert rig.moves() == ["e2e4"]
    assert rig.line() == ("e2e4",)


def test_the_remote_move_is_lit_like_the_engines_and_the_hand_carries_it_out(rig: Rig):
    rig.hand("e2e4")
    rig.run(0.5)
    rig.other("e7e5")
    rig.run(0.2)
    assert rig.lit() == {"e7": Role.ENGINE_FROM, "e6": Role.ENGINE_PATH, "e5": Role.ENGINE_TO}
    assert rig.moves() == ["e2e4"]
    rig.hand("e7e5")
    assert rig.moves() == ["e2e4", "e7e5"]
    assert rig.lit() == {}
    assert rig.store.load(rig.daemon.game_id).moves == ("e2e4", "e7e5")


def test_a_takeback_both_agree_on_is_guided_back_on_the_board(rig: Rig):
    for uci in ("e2e4", "e7e5"):
        if rig.daemon.game.position.turn == WHITE:
            rig.hand(uci)
            rig.run(0.5)
        else:
            rig.other(uci)
            rig.run(0.2)
            rig.hand(uci)
    rig.other_asks("takeback")
    rig.run(0.1)
    assert "asks to take back" in rig.daemon.status().prompt
    rig.press("ok")  # the board player says yes
    rig.run(0.1)
    assert rig.line() == ("e2e4",)
    assert isinstance(rig.daemon.activity, SettingUp)  # the pieces are guided back
    rig.board.lift(rig.sq("e5"))
    rig.run(0.5)
    rig.board.place(rig.sq("e7"))
    rig.run(0.5)
    assert not isinstance(rig.daemon.activity, SettingUp)
    assert rig.moves() == ["e2e4"]
    assert rig.store.load(rig.daemon.game_id).moves == ("e2e4",)
    rig.other("d7d5")
    rig.run(0.2)
    assert rig.lit() == {"d7": Role.ENGINE_FROM, "d6": Role.ENGINE_PATH, "d5": Role.ENGINE_TO}


def test_a_restarted_daemon_goes_on_with_the_same_game(rig: Rig):
    rig.hand("e2e4")
    rig.run(0.5)
    rig.other("e7e5")
    rig.run(0.1)
    game_id = rig.daemon.game_id
    rig.restart_daemon()  # before the hand carried out e7e5
    rig.run(0.3)
    assert rig.daemon.game_id == game_id
    assert rig.lit() == {"e7": Role.ENGINE_FROM, "e6": Role.ENGINE_PATH, "e5": Role.ENGINE_TO}
    rig.hand("e7e5")
    assert rig.moves() == ["e2e4", "e7e5"]


def test_a_resignation_ends_the_game_on_the_board(rig: Rig):
    rig.hand("e2e4")
    rig.run(0.5)
    rig.other_asks("resign")
    rig.run(0.2)
    ending = rig.daemon.game.ending()
    assert ending is not None and ending.winner == WHITE
    assert rig.store.load(rig.daemon.game_id).result == "1-0"


def test_the_player_code_is_on_the_boards_screen_and_nowhere_a_spectator_sees(tmp_path: Path):
    rig = Rig(tmp_path)
    try:
        rig.run(0.3)
        code = rig.match.kept.code
        assert code in rig.daemon.status().prompt
        snap = rig.daemon.snapshot()
        assert code not in snap.prompt and code not in snap.said
        assert "waiting for the other player" in snap.prompt
        assert code not in repr(snap.to_json())
        rig.seat("")
        rig.run(0.2)
        assert code not in rig.daemon.status().prompt  # taken: no longer shown
    finally:
        rig.close()


def test_the_screen_calls_the_remote_side_the_opponent(rig: Rig):
    rig.hand("e2e4")
    rig.run(0.5)
    rig.other("e7e5")
    rig.run(0.2)
    state = rig.daemon.status()
    assert state.opponent == "Opponent"
    assert rig.daemon.snapshot().opponent == "Opponent"
    assert rig.daemon.snapshot().level is None


def test_the_board_players_own_move_taken_back_is_put_back_not_played_again(rig: Rig):
    rig.hand("e2e4")
    rig.run(0.5)
    assert rig.line() == ("e2e4",)
    rig.daemon.web_action(WebAction("takeback"), rig.now)  # the owner's page asks
    rig.run(0.2)
    assert [s.what for s in rig.match.browser.asking()] == ["takeback"]  # type: ignore[union-attr]
    rig.other_answers("takeback", True)
    rig.run(1.0)  # the pawn still stands on e4: it must not count as e2e4 played again
    assert rig.line() == ()
    assert isinstance(rig.daemon.activity, SettingUp) and rig.moves() == []
    rig.board.lift(rig.sq("e4"))
    rig.run(0.5)
    rig.board.place(rig.sq("e2"))
    rig.run(0.5)
    assert not isinstance(rig.daemon.activity, SettingUp) and rig.line() == ()
    assert rig.store.load(rig.daemon.game_id).moves == ()


def test_a_game_with_clocks_shows_them_whatever_the_configuration_says(tmp_path: Path):
    rig = Rig(tmp_path, clock="5+0")  # the game offered has clocks ...
    rig.restart_daemon()
    rig.daemon.top.clocks.clock = None  # ... this daemon's configuration had none
    rig.seat("")
    try:
        rig.run(0.3)
        assert rig.daemon.clocks == [300.0, 300.0]
        rig.hand("e2e4")
        rig.run(0.5)
        rig.other_is_there()
        rig.run(2.0)
        clocks = rig.daemon.clocks
        assert clocks is not None and clocks[1] < 300.0 and clocks[0] <= 300.0
    finally:
        rig.close()
