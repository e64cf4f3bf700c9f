"""The owner's starts reach the daemon (boardctl.web.starts): a set-up, a
puzzle, a stepping and a normal game again, each begun from the page as
its command-line flag begins it, and refused while a game is under way."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardctl.daemon import wiring
from boardctl.daemon.activity import SettingUp, Solving, SteppingThrough, then_of
from boardctl.daemon.puzzle import PuzzleSession
from boardctl.puzzles import find
from boardctl.rules import BLACK, Position
from boardctl.storage.store import GameStore
from boardctl.web.snapshot import WebAction
from boardctl.web.starts import BUSY, NOTHING_TO_END, REMOTE, refusal, stepping_of

from ..daemon_fakes import ScriptedOpponent
from .helpers import SimGame

PROBLEM_A = "7rk1/7ppp/10/7FPP/7N2/10/10/2Q4K2 w - - 0 1"  # the essay's problem A
MOVES = ["e2e4", "e7e5", "i1h3", "b8c6"]


def board(tmp_path: Path, name: str, **options) -> SimGame:
    sim = SimGame(tmp_path / f"{name}.sqlite", **options)
    sim.run(0.1)
    return sim


def asked(sim: SimGame, kind: str, text: str = "", value: int = 0, config=None) -> None:
    sim.hub.request(WebAction(kind, value, config, text))  # type: ignore[arg-type]
    sim.run(0.2)


def shown(sim: SimGame) -> tuple:
    """What the player sees: the LEDs' scene and colours, the banner, the page's mode."""
    d = sim.daemon
    return d.scene(), d.led_colours(0.0), d.status().prompt, sim.hub.latest.mode, d.engine_side


def stored_game(db: Path, finished: bool = True) -> int:
    with GameStore(db) as store:
        game_id = store.new_game("falcon", Position().fen(), "A", "B", "two-players", 1.7e9)
        for ply, uci in enumerate(MOVES, start=1):
            store.add_move(game_id, ply, uci, 1.7e9 + ply)
        if finished:
            store.finish(game_id, "1-0", "resignation", 1.7e9 + 9)
    return game_id


@pytest.fixture
def sims():
    made: list[SimGame] = []
    yield made
    for sim in made:
        sim.close()


def test_a_position_set_up_from_the_page_is_guided_as_setup_guides_it(tmp_path, sims):
    flag = board(tmp_path, "flag", setup=Position(PROBLEM_A))
    page = board(tmp_path, "page")
    sims += [flag, page]
    assert page.hub.latest.mode == "game"
    asked(page, "setup", PROBLEM_A)
    flag.run(0.2)
    assert shown(page) == shown(flag)
    assert page.hub.latest.mode == "setup" and page.hub.latest.fen == PROBLEM_A
    assert page.daemon.status().prompt.startswith("Take the piece off ")
    page.follow_the_set_up()
    # Set up: a new stored game from the position, played on as configured.
    assert page.daemon.game.start_fen == PROBLEM_A and page.hub.latest.mode == "game"
    assert page.store.load(page.daemon.game_id).start_fen == PROBLEM_A


def test_a_bad_fen_from_the_page_changes_nothing_and_says_why(tmp_path, sims):
    page = board(tmp_path, "page")
    sims.append(page)
    before = shown(page)
    asked(page, "setup", "not a fen")
    assert not isinstance(page.daemon.activity, SettingUp) and shown(page)[:2] == before[:2]
    assert page.daemon.notice[0].startswith("not a falcon position: ")


def test_a_puzzle_started_from_the_page_is_guided_and_played_as_puzzle_plays_it(tmp_path, sims):
    flag = board(tmp_path, "flag", puzzle=PuzzleSession(find("duke-b")))
    page = board(tmp_path, "page")
    sims += [flag, page]
    asked(page, "puzzle", "duke-b")
    flag.run(0.2)
    assert shown(page) == shown(flag)
    assert page.hub.latest.mode == "puzzle" and isinstance(then_of(page.daemon.activity), Solving)
    page.follow_the_set_up()
    flag.follow_the_set_up()
    assert page.daemon.game.start_fen == find("duke-b").fen
    assert page.daemon.status().prompt == flag.daemon.status().prompt == "White to mate in 1"


def test_a_puzzle_of_another_preset_is_refused(tmp_path, sims):
    page = board(tmp_path, "page")
    sims.append(page)
    asked(page, "puzzle", "hex-1")
    assert not isinstance(then_of(page.daemon.activity), Solving) and not isinstance(
        page.daemon.activity, SettingUp
    )
    assert "hex-1 is played in falcon-hex" in page.daemon.notice[0]


def test_a_stored_game_stepped_from_the_page_is_guided_as_replay_guides_it(tmp_path, sims):
    db = tmp_path / "games.sqlite"
    game_id = stored_game(db)
    flag = SimGame(db, replay=wiring.load_replay(db, game_id))
    sims.append(flag)
    flag.run(0.3)
    page = board(tmp_path, "page")
    sims.append(page)
    with GameStore(db) as store:
        stepping = stepping_of(store.load(game_id))
    asked(page, "replay", value=game_id, config=stepping)
    page.follow_the_set_up()  # the board stands at its start: read once, it is set up
    flag.follow_the_set_up()
    assert shown(page) == shown(flag)
    assert (
        isinstance(then_of(page.daemon.activity), SteppingThrough)
        and page.hub.latest.mode == "stepping"
    )
    assert page.daemon.status().prompt == flag.daemon.status().prompt
    assert "next" in page.daemon.status().prompt.lower()


def test_a_game_under_way_is_finished_or_ended_first(tmp_path, sims):
    page = board(tmp_path, "page")
    sims.append(page)
    page.move("e2e4")
    asked(page, "puzzle", "duke-b")
    assert not isinstance(then_of(page.daemon.activity), Solving) and not isinstance(
        page.daemon.activity, SettingUp
    )
    assert page.daemon.notice[0] == BUSY.text
    asked(page, "resign")  # ended: the owner may set up what they like
    asked(page, "puzzle", "duke-b")
    assert isinstance(then_of(page.daemon.activity), Solving) and page.hub.latest.mode == "puzzle"


def test_back_to_a_normal_game_sets_up_the_start_and_seats_the_players_again(tmp_path, sims):
    engine = ScriptedOpponent(["e7e5"])
    page = board(tmp_path, "page", game={"mode": "engine"}, opponent=engine)
    sims.append(page)
    asked(page, "normal")
    assert page.daemon.notice[0] == NOTHING_TO_END.text
    asked(page, "puzzle", "duke-b")
    # The puzzle's own engine defends: the opponent waits.
    assert page.daemon.engine.opponent is None and page.daemon.engine_side == BLACK
    asked(page, "normal")
    assert (
        not isinstance(then_of(page.daemon.activity), Solving) and page.hub.latest.mode == "setup"
    )
    assert (
        isinstance(page.daemon.activity, SettingUp)
        and page.daemon.activity.setup.target.fen() == Position().fen()
    )
    assert page.daemon.engine.opponent is engine and page.daemon.engine_side == BLACK
    page.follow_the_set_up()
    assert page.hub.latest.mode == "game" and page.daemon.game.start_fen == Position().fen()
    page.move("e2e4")
    page.run(0.5)
    assert page.daemon.reconciler.engine_move is not None  # the engine plays again


def test_leaving_a_stepping_leaves_the_stored_game_as_it_was(tmp_path, sims):
    db = tmp_path / "games.sqlite"
    game_id = stored_game(db, finished=False)  # left unfinished, and so it stays
    page = SimGame(db)
    sims.append(page)
    page.run(0.1)
    with GameStore(db) as store:
        stepping = stepping_of(store.load(game_id))
    asked(page, "replay", value=game_id, config=stepping)
    page.follow_the_set_up()
    asked(page, "normal")
    page.follow_the_set_up()
    stored = page.store.load(game_id)
    assert stored.moves == tuple(MOVES) and stored.result is None
    assert page.daemon.game_id != game_id


def test_a_remote_game_refuses_every_start():
    for kind in ("setup", "puzzle", "replay", "normal"):
        assert refusal(kind, "game", playing=False, remote=True) == REMOTE
