"""The daemon's side of the web page: the snapshot it publishes and the
actions it takes from the hub."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardctl.config import ConfigError, parse_config
from boardctl.rules import Position
from boardctl.web.snapshot import History, Hub, Snapshot, WebAction, score_value

from ..daemon_fakes import EvaluatingOpponent, ScriptedOpponent
from .helpers import SimGame, ThinkingOpponent, running


@pytest.fixture
def game(tmp_path: Path):
    with running(tmp_path / "games.sqlite", game={"clock": "3+2"}) as sim:
        yield sim


def test_the_snapshot_follows_the_game_the_clocks_and_the_leds(game):
    snap = game.hub.latest
    assert snap.moves == () and snap.turn == "white" and snap.result == "*"
    assert snap.white_clock == 180.0 and snap.clock_running is None
    game.move("e2e4")
    snap = game.hub.latest
    assert snap.moves == ("e2e4",) and snap.sans == ("e4",) and snap.turn == "black"
    assert snap.last_move == (game.geo.parse_square("e2"), game.geo.parse_square("e4"))
    assert snap.clocks_after == (182.0,) and snap.clock_running == "black"
    assert snap.fen == game.daemon.game.position.fen()
    game.lift("d8")  # a falcon's move with its paths shown on the LEDs
    rings = {ring.square: ring for ring in game.hub.latest.rings}
    assert rings[game.geo.parse_square("d8")].role == "lifted"
    scene = game.daemon.scene()
    assert {sq: role.value for sq, role in scene.squares.items()} == {
        sq: ring.role for sq, ring in rings.items()
    }


def test_a_falcon_lifted_shows_its_paths(game):
    for uci in ("e2e4", "e7e5", "d2d3"):
        game.move(uci)
    game.lift("d8")
    roles = {ring.role for ring in game.hub.latest.rings}
    assert "lifted" in roles
    assert roles & {"falcon-path", "legal-1", "legal-2", "legal-3"}, roles


def test_publishing_only_counts_changes(game):
    seq = game.hub.latest.seq
    game.run(0.5)  # nothing happens; the clock does not run before the first move
    assert game.hub.latest.seq == seq


def test_resign_and_draw_end_the_game_in_the_store(game):
    game.move("e2e4")
    game.hub.request(WebAction("draw"))
    game.run(0.05)
    snap = game.hub.latest
    assert (snap.result, snap.reason) == ("1/2-1/2", "draw agreed")
    assert snap.clock_running is None and "Game over" in snap.prompt
    stored = game.store.load(snap.game_id)
    assert (stored.result, stored.termination) == ("1/2-1/2", "draw agreed")
    # A second ending changes nothing.
    game.hub.request(WebAction("resign"))
    game.run(0.05)
    assert game.hub.latest.result == "1/2-1/2"


def test_new_game_ends_this_one_and_the_pieces_start_the_next(game):
    for uci in ("e2e4", "e7e5"):
        game.move(uci)
    first = game.hub.latest.game_id
    game.hub.request(WebAction("newgame"))
    game.run(0.05)
    assert game.store.load(first).termination == "abandoned"
    assert game.hub.latest.result == "*" and game.hub.latest.reason == "abandoned"
    # Both pawns back at once: the start position, and the next game begins.
    for square in ("e4", "e5"):
        game.board.lift(game.geo.parse_square(square))
    for square in ("e2", "e7"):
        game.board.place(game.geo.parse_square(square))
    game.run(5.0)
    snap = game.hub.latest
    assert snap.game_id != first and snap.moves == () and snap.reason == ""
    assert game.store.load(first).termination == "abandoned"


@pytest.mark.parametrize("ending", ["resign", "time"])
def test_moves_after_the_game_ended_are_not_stored(tmp_path: Path, ending):
    """Ended from the page or on time, the game is over in the store, which
    refuses more moves: playing on at the board (or taking back) must not
    stop the daemon (on time it did: the store's refusal went up the loop)."""
    game = SimGame(tmp_path / "g.sqlite", game={"clock": "0.05+0"})  # 3 s each
    for uci in ("e2e4", "e7e5"):
        game.move(uci)
    if ending == "resign":
        game.hub.request(WebAction("resign"))
        game.run(0.05)
    else:
        game.run(4.0)
    result = game.hub.latest.result
    assert result == "0-1"  # White was to move
    game.move("d2d4")  # played on at the board
    game.move("d4d2")  # and taken back
    game.move("i1h3")
    stored = game.store.load(game.hub.latest.game_id)
    assert stored.moves == ("e2e4", "e7e5") and stored.result == result
    assert game.hub.latest.result == result
    game.close()


def test_takeback_asks_for_the_piece_to_go_back(game):
    game.hub.request(WebAction("takeback"))
    game.run(0.05)
    assert game.hub.latest.prompt == "No move to take back"
    game.move("e2e4")
    game.hub.request(WebAction("takeback"))
    game.run(0.05)
    assert game.hub.latest.prompt == "Take back e2e4: put the piece back"
    game.move("e4e2")
    game.run(0.5)
    assert game.hub.latest.moves == ()


def test_level_is_set_against_the_engine(tmp_path: Path):
    opponent = ScriptedOpponent([])
    sim = SimGame(
        tmp_path / "g.sqlite",
        opponent=opponent,
        game={"mode": "engine", "human": "white"},
        engine={"skill": 10},
    )
    sim.hub.request(WebAction("level", 4))
    sim.run(0.05)
    assert sim.daemon.engine.level == 4 and opponent.skills == [4]
    # With its approximate rating, as the engine gives it (the fake: 600 + 50 x 4).
    assert (sim.hub.latest.level, sim.hub.latest.rating) == (4, 800)
    assert sim.hub.latest.to_json()["rating"] == 800
    sim.close()


def test_the_engine_move_and_its_scores_are_published(tmp_path: Path):
    opponent = ThinkingOpponent(["e7e5"], [-30])
    sim = SimGame(
        tmp_path / "g.sqlite", opponent=opponent, game={"mode": "engine", "human": "white"}
    )
    sim.move("e2e4")
    snap = sim.hub.latest
    assert snap.engine_move == (sim.geo.parse_square("e7"), sim.geo.parse_square("e5"))
    assert snap.score == "+0.30" and snap.evals == (None, 0.3)
    assert (snap.white, snap.black) == ("Player", "boardctl")
    sim.close()


def test_history_keeps_one_clock_per_ply_and_cuts_back_on_takeback():
    history = History()
    history.update(1, 0, None, 0.2)
    history.update(1, 1, 178.0, None)
    history.update(1, 2, 175.0, -0.1)
    assert history.clocks == [178.0, 175.0] and history.evals == [0.2, None, -0.1]
    history.update(1, 1, 178.0, -0.1)  # takeback; the old score is no news
    assert history.clocks == [178.0] and history.evals == [0.2, None]
    history.update(2, 0, None, None)  # a new game
    assert history.clocks == [] and history.evals == [None]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("", None),
        ("+0.35", 0.35),
        ("-1.20", -1.2),
        ("M3", 99.0),
        ("M-2", -99.0),
        ("Mx", None),
        ("?", None),
    ],
)
def test_score_value(text, value):
    assert score_value(text) == value


def test_the_hub_numbers_changes_and_wakes_its_listeners():
    hub = Hub(clock=lambda: 1000.0)
    woken: list[int] = []
    stop = hub.on_change(lambda: woken.append(hub.latest.seq))
    assert hub.publish(Snapshot(fen="a")) is True
    assert hub.publish(Snapshot(fen="a", seq=99)) is False  # seq is the hub's
    assert hub.publish(Snapshot(fen="b")) is True
    stop()
    hub.publish(Snapshot(fen="c"))
    assert woken == [1, 2] and hub.latest.seq == 3 and hub.changed_at == 1000.0


@pytest.mark.parametrize(
    ("web", "message"),
    [
        ({"port": 0}, "[web] port"),
        ({"port": 70000}, "[web] port"),
        ({"port": "80"}, "[web] port"),
        ({"bind": "my-laptop"}, "[web] bind"),
        ({"bind": ""}, "[web] bind"),
        ({"pin": "12"}, "[web] pin"),
        ({"pin": " 1234"}, "[web] pin"),
        ({"pin": "12\n34"}, "[web] pin"),
        ({"pin": "x" * 65}, "[web] pin"),
        ({"pin": 1234}, "[web] pin"),
        ({"enabled": "yes"}, "[web] enabled"),
        ({"secret": "x"}, "[web] secret: unknown key"),
    ],
)
def test_bad_web_settings_are_refused(web, message):
    with pytest.raises(ConfigError) as caught:
        parse_config({"web": web})
    assert message in str(caught.value)


def test_web_settings_default_to_off_and_accept_addresses():
    assert parse_config({}).web.enabled is False
    config = parse_config(
        {"web": {"enabled": True, "bind": "::1", "port": 8081, "pin": "a-secret"}}
    )
    assert (config.web.bind, config.web.port, config.web.pin) == ("::1", 8081, "a-secret")
    assert parse_config({"web": {"bind": "auto"}}).web.bind == "auto"


def test_rings_carry_the_leds_colours_and_blink_where_the_leds_blink(game):
    from boardctl.board.lights import LIGHTS
    from boardctl.board.scene import Role

    game.move("e2e4")
    game.lift("b8")  # a knight with two moves
    rings = game.hub.latest.rings
    assert len(rings) == 3
    for ring in rings:
        light = LIGHTS[Role(ring.role)]
        assert ring.colour == "#{:02x}{:02x}{:02x}".format(*light.rgb)
        assert ring.blink == light.blink


@pytest.mark.parametrize("ended", [False, True])
def test_a_board_at_rest_asks_for_no_legal_moves(game, monkeypatch, ended):
    """The engine, the clock, the screen and the page each ask whether the game
    is over at every step; the game answers once per position, so a board at
    rest (game going on, or resigned) runs no move generation at all."""
    import boardctl.rules.movegen as movegen

    calls: list[int] = []
    generate = movegen._generate

    def counted(*args, **kwargs):
        calls.append(1)
        return generate(*args, **kwargs)

    monkeypatch.setattr(movegen, "_generate", counted)
    game.move("e2e4")
    if ended:
        game.hub.request(WebAction("resign"))
    game.run(0.5)
    assert calls and game.hub.latest.clock_running == (None if ended else "black")
    calls.clear()
    game.run(2.0)  # 200 steps, a snapshot published every WEB_PERIOD
    assert calls == []


def test_while_a_position_is_set_up_the_page_shows_it_and_none_of_the_last_game(tmp_path):
    target = "7rk1/7ppp/10/7FPP/7N2/10/10/2Q4K2 w - - 0 1"  # the essay's problem A
    sim = SimGame(tmp_path / "games.sqlite", setup=Position(target))
    try:
        sim.move("e2e4")  # a move of the game set aside, read as a set-up step
        snap = sim.hub.latest
        assert snap.fen == target and snap.start_fen == target
        assert snap.moves == () and snap.sans == () and snap.result == "*"
        assert snap.prompt.startswith("Take the piece off ")
        assert snap.status == "setting up"
    finally:
        sim.close()


def test_the_page_mirrors_the_hints_and_the_coachs_leds(tmp_path: Path):
    """The hint's move and the move the coach offers back are lit on the board
    on a quiet board: the page's rings show them too (its text did before)."""
    # White's knight on c3 may go to d5, where Black's pawn on e6 takes it.
    fen = "9k/10/4p5/10/10/2N7/10/K9 w - - 0 1"
    opinions = {
        (): (250, None, ["c3e4", "j8i8"]),
        ("c3d5",): (90, None, ["e6d5"]),
        ("c3e4",): (-240, None, ["j8i8"]),
    }
    sim = SimGame(
        tmp_path / "games.sqlite",
        setup=Position(fen),
        adviser=lambda: EvaluatingOpponent(opinions, [("c3e4", 60), ("c3b5", 40)]),
        game={"mode": "teaching"},
    )
    try:
        sim.follow_the_set_up()
        sim.daemon.request_hint()
        sim.run(0.3)
        square = sim.geo.parse_square
        hint = {square("c3"): "hint-from", square("e4"): "hint-to"}
        assert sim.hub.latest.prompt.startswith("Best: Ne4")
        assert sim.lit == hint
        assert {r.square: r.role for r in sim.hub.latest.rings} == hint
        sim.move("c3d5")
        sim.run(1.0)
        assert sim.hub.latest.prompt.startswith("That move loses a knight")
        back = {square("d5"): "hint-from", square("c3"): "hint-to"}
        assert {r.square: r.role for r in sim.hub.latest.rings} == back == sim.lit
    finally:
        sim.close()
