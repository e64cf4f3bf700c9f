"""The stored game of a remote game is the log's: its whole line when the log
ends it, each move's clock as the log has it, the other player's name once
the log knows it; a restart neither stores it again nor plays the board
player's colour as the configuration says now; and the board's words name
who the opponent is.  (What an independent fault proxy found in honest games.)"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from boardctl.rules import BLACK
from boardctl.web.snapshot import WebAction

from .rig import Rig


def stored(rig: Rig, game_id: int | None = None):
    return rig.store.load(rig.daemon.game_id if game_id is None else game_id)


def test_a_resignation_while_the_other_sides_move_is_lit_stores_that_move(rig: Rig):
    rig.hand("e2e4")
    rig.run(0.5)
    rig.other("e7e5")
    rig.run(0.2)  # lit on the board, not yet carried out
    rig.daemon.web_action(WebAction("resign"), rig.now)  # the board player resigns
    rig.run(0.5)
    assert rig.line() == ("e2e4", "e7e5")
    game = stored(rig)
    assert game.moves == ("e2e4", "e7e5") and (game.result, game.termination) == (
        "0-1",
        "resignation",
    )


def test_a_draw_agreed_while_the_other_sides_move_is_lit_stores_that_move(rig: Rig):
    rig.hand("e2e4")
    rig.run(0.5)
    rig.other("e7e5")
    rig.run(0.2)
    rig.other_asks("draw")
    rig.run(0.2)
    rig.press("ok")  # the board player agrees
    rig.run(0.5)
    game = stored(rig)
    assert game.moves == ("e2e4", "e7e5") and game.result == "1/2-1/2"


def test_restarts_after_a_remote_game_store_nothing_again_and_no_empty_game(rig: Rig):
    rig.hand("e2e4")
    rig.run(0.5)
    rig.other_asks("resign")
    rig.run(0.5)
    played = rig.daemon.game_id
    for _ in range(2):
        rig.restart_daemon()
        rig.run(0.5)
    games = rig.store.games()
    assert [(g.id, g.plies, g.result) for g in games] == [(played, 1, "1-0")]
    latest = rig.store.latest()  # what `boardctl pgn` prints
    assert latest is not None and latest.id == played and latest.moves == ("e2e4",)


def test_a_board_restarted_with_another_colour_plays_the_logs(rig: Rig):
    rig.hand("e2e4")
    rig.run(0.5)
    rig.other("e7e5")
    rig.run(0.2)
    rig.hand("e7e5")
    game = rig.config.game
    rig.config = replace(rig.config, game=replace(game, human="black"))  # the file says Black now
    rig.restart_daemon()
    rig.run(0.3)
    assert rig.daemon.engine_side == BLACK  # the log's colour: the board player is White
    rig.hand("d2d4")
    rig.run(0.5)
    assert rig.line() == ("e2e4", "e7e5", "d2d4")
    assert stored(rig).moves == ("e2e4", "e7e5", "d2d4")


def test_each_stored_move_carries_the_clock_the_log_has(tmp_path: Path):
    rig = Rig(tmp_path, clock="5+3")
    try:
        rig.seat("Anna")
        rig.run(0.5)
        for mine, theirs in (("e2e4", "e7e5"), ("d2d4", "d7d5")):
            rig.other_is_there()
            rig.hand(mine)
            rig.run(1.0)
            rig.other_is_there()
            rig.run(2.0)
            rig.other(theirs)
            rig.run(0.2)
            rig.hand(theirs)
        rig.run(0.5)
        clocks = rig.match.record.state.move_clocks
        assert len(clocks) == 4 and all(clock is not None for clock in clocks)
        assert stored(rig).clocks == clocks
    finally:
        rig.close()


def test_the_remote_players_name_is_stored_once_the_log_knows_it(tmp_path: Path):
    rig = Rig(tmp_path)
    try:
        rig.run(0.3)  # offered: stored before anyone has joined
        rig.seat("Anna")
        rig.run(0.3)
        game = stored(rig)
        assert (game.white, game.black) == ("Player", "Anna")
        assert (rig.daemon.snapshot().white, rig.daemon.snapshot().black) == ("Player", "Anna")
    finally:
        rig.close()


def test_the_boards_words_name_the_remote_player_not_the_engine(rig: Rig):
    rig.hand("e2e4")
    rig.run(0.5)
    rig.board.lift(rig.sq("d2"))  # a piece lifted while the other side is to move
    rig.run(0.5)
    prompt = rig.daemon.status().prompt
    assert "engine" not in prompt.lower() and prompt.startswith("Wait for Anna's move")
    rig.board.place(rig.sq("d2"))
    rig.run(0.5)
    rig.daemon.web_action(WebAction("takeback"), rig.now)  # the owner's page asks
    rig.run(0.2)
    rig.other_answers("takeback", True)
    rig.run(0.5)
    state = rig.daemon.status()  # the pawn is guided back to e2
    assert state.setting_up and state.opponent == "Opponent" and state.status == "taking back"
